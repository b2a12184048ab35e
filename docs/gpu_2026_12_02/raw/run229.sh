set -u
B=_scratch/run229/bench.py
V="head head+b2 head+b4 head+b2+w4 head+b4+w4 head+b2+w1"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
python -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
t0=$(date +%s)
for v in $V; do python $B warm $v > $OUT/warm_$v.log 2>&1 & done; wait
echo "warm $(( $(date +%s) - t0 )) s"; tail -n 2 $OUT/warm_*.log | grep -v "^$" | head -40
python $B time $(echo $V | tr ' ' ',') 2>&1 | tee $OUT/run229.log
