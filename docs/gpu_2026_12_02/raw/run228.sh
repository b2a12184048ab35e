set -u
B=_scratch/run228/bench.py
V="head v1 v1+u16 v1+b2 v1+b2+u16 v1+b4 head+u16 head+b2"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
python -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
t0=$(date +%s)
for v in $V; do python $B warm $v > $OUT/warm_$v.log 2>&1 & done; wait
echo "warm $(( $(date +%s) - t0 )) s"; tail -n 2 $OUT/warm_*.log | grep -v "^$" | head -40
python $B time $(echo $V | tr ' ' ',') 2>&1 | tee $OUT/run228.log
