B=_scratch/r223/bench.py
start=$(date +%s)
timeout 70 python3 -u $B warm layer_norm now 4096:22528,4096:26000 > $OUT/w1.log 2>&1 &
timeout 70 python3 -u $B warm layer_norm pack8 4096:22528,4096:26000 > $OUT/w2.log 2>&1 &
for op in rms_norm log_softmax_held; do for v in now pack8; do timeout 70 python3 -u $B warm $op $v 4096:24576 > $OUT/w_${op}_$v.log 2>&1 & done; done
wait
echo "warm: $(( $(date +%s) - start )) s"; grep -L "^warm" $OUT/w*.log
timeout 40 python3 -u $B time layer_norm now,pack8 4096:22528,4096:26000 2>&1 | grep "^|"
timeout 40 python3 -u $B time rms_norm,log_softmax_held now,pack8 4096:24576,16384:24576 2>&1 | grep "^|"
echo "all: $(( $(date +%s) - start )) s"
