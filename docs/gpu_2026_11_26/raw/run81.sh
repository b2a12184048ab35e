python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/site/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
cp docs/gpu_2026_11_26/raw/run81_forms.py $OUT/
echo add_rms_norm fp8_quant fp8_quant_e5m2 layer_norm log_softmax log_softmax_held rms_norm rms_norm_rstd softmax softmax_held std_held var_held | tr ' ' '\n' | timeout 200 xargs -P 8 -n 1 python3 benchmarks/gpu_empirical_check.py 2>&1 | grep -v Warn | tee $OUT/run81_empirical.log | cut -c1-120
REDGEN_FAST_ROUTE=0 timeout 330 python3 docs/gpu_2026_11_26/raw/run81_forms.py 2>&1 | grep -v Warn | tee $OUT/run81.log | tail -30
