timeout 200 python -u _scratch/r216/debug.py generated/cuda/fp8_quant.py _scratch/r216/fp8_quant_prev.py _scratch/r216/fp8_quant_int.py _scratch/r216/fp8_quant_e5m2_int.py 2>&1
timeout 300 python -u benchmarks/fp8_bits.py --module _scratch/r216/fp8_quant_int.py --module _scratch/r216/fp8_quant_e5m2_int.py --points 4096x4096,4096x32000,16384x8192,1x4096 2>&1
