set -x
nvidia-smi --query-gpu=name --format=csv,noheader
python -c "import triton, torch; print(triton.__version__, torch.__version__)"
timeout 280 python -u benchmarks/fp8_bits.py 2>&1
timeout 200 python -u benchmarks/fp8_bits.py --module _scratch/r215/fp8_quant_prev.py --module _scratch/r215/fp8_quant_now.py --dtypes bf16 --points 4096x4096,4096x32000,16384x8192,4096x20000 2>&1
