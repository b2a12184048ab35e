python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
# host time: HEAD 265bf5c's modules (before), then this tree's (after), same machine, same tool
cp -r generated/cuda /tmp/after_cuda
for op in mean rms_norm layer_norm softmax softmax_held argmax; do cp bench_variants/${op}_f0.py generated/cuda/$op.py; done
echo "== before (HEAD 265bf5c)"; timeout 200 python3 benchmarks/host_time.py 2>&1 | tee $OUT/host_before.log | tail -14
rm -rf generated/cuda && cp -r /tmp/after_cuda generated/cuda
echo "== after"; timeout 200 python3 benchmarks/host_time.py 2>&1 | tee $OUT/host_after.log | tail -14
