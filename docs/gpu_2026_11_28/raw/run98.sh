#!/usr/bin/env bash
# Run 98: cols kernels at short rows: argmax's TILE (order-free), the one-read ops' blocks and warps.
set -u
export PYTHONPATH=. PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 300 python _scratch/run98.py tile argmax 2>&1 | grep -v Warn | tee $OUT/run98_tile.log
timeout 270 python _scratch/run98.py block 2>&1 | grep -v Warn | tee $OUT/run98_block.log
