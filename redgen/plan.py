"""Stage 3: Op + target -> Plan, every schedule decision in one place.

The plan separates what shapes the floating-point order of an output element
(`Order`: lanes, chunk, tree, chunk combine, accumulator) from what only
decides *which program* computes a row (`Kernel` shapes, grids, the choice
between the fused and the split path). The verifier reads `Order`; the
emitter reads both. Shape-dependent values are `sym` expressions over the
shape symbols, so the launcher is printed from the same expressions the
verifier reasoned about.
"""

from __future__ import annotations

from dataclasses import dataclass

from redgen import combiners, functions, ir, sym, targets
from redgen.errors import Loc, NotOnTarget, TargetLimit
from redgen.ir import inputs_read, locals_read
from redgen.sym import SExpr

DEFAULT_LANES = 512  # reduce tile when the spec gives none
DEFAULT_WARPS = 4
DEFAULT_BLOCK_K = 16
FINISH_BLOCK = 128  # rows per program of the split path's finish (the reduced outputs' pass)
# cuda: the rows kernel's rows a program where every reduction is direct (Plan.direct: no chunk is
# walked, a row is a load or two): one a thread, as the finish pass. With one row a program nll_loss
# bf16 4096 x 32000 took 3.6 us on an H200 (run 168; torch 2.9): two waves of programs, each waiting
# on two dependent loads.
DIRECT_BLOCK = 128
# cuda: the launcher takes the split path (a program per chunk of a row, one launch a stage)
# below SPLIT_BELOW batch programs per chunk after a row's first: `programs < SPLIT_BELOW *
# (num_chunks - 1)`. Constants, not a device query: the choice never changes the order (see
# Order), only how many programs keep the memory busy. Measured on an H100 against the fused
# path (17 rows x N points from 64 x 4133 to 2048 x 151936, 5 ops, f32 and bf16;
# docs/gpu_2026_11_23/split.md):
# - a spec that reads its input once (sum, argmax, logsumexp): the split path was as fast or
#   faster at every point with several chunks (argmax bf16 512 x 151936: 87 us against 239)
#   but sum's rows of two chunks at 64-200 rows (0.3-0.6 us slower): it splits wherever the
#   split grid holds the batch programs (SPLIT_BELOW_ONCE is more than its axis 1 takes);
# - a spec that reads it again (outputs over the reduce axis, or a second stage: softmax,
#   log_softmax) pays a third launch: rows of two chunks ran faster fused at 64 and 200 rows
#   (64 x 8192: 5.5 against 6.3 us), 128 x 32000 and 512 x 65536 split (12.8 against 18.6,
#   91 against 108), 1024 x 32000 fused (143 against 152). Later runs (docs/gpu_2026_11_23/
#   cols_rows.md): 128 x 16384 and 256 x 32000 split (softmax f32 256 x 32000: 41 against 50
#   us), 2048 x 151936 fused (bf16 743 against 806). Of the points where both paths were timed,
#   50 takes the faster one at all but 384 x 32000 and bf16 512 x 32000 (split would win).
#   Those were measured when that split path took a third launch. Since each later kernel folds
#   the partials it reads (one launch a stage), 200 was faster at 384-1024 rows of 16384-32000
#   (docs/gpu_2026_11_26/README.md run 35). The rule grows with the chunks, though: at 200, rows
#   of 151936 would split up to 7400 rows, where the fused path measured faster. So 50 stays
#   until a cap on the programs is timed too.
SPLIT_BELOW_ONCE = 1 << 16
SPLIT_BELOW_REREAD = 50
# cuda: a row of at most this many elements is held on chip by one program ("row" kernel):
# the input is read once for every pass (the reductions and the outputs over the reduce
# axis) instead of once per pass. Its tiles live in registers, so the bound keeps a row's
# share per thread small; longer rows walk their chunks as before.
ROW_MAX = 32768
ROW_TILES = 128  # and at most this many tiles: each is unrolled code (a spec of small lanes)
# cuda: a spec that reads its row once (one stage, no output over the reduce axis) whose combiners
# are ROW_ONCE_COMBINERS' takes the row kernel too, for rows of at most ROW_ONCE_MAX elements: a
# program issues the loads of its whole row at once and one launch computes it, where the chunked
# walk issued one chunk's loads after another's (fused) or took a second launch (split). The same
# combines in the same sequence: only which program holds which elements changes. On an H200 (run
# 142, docs/gpu_2026_11_28/README.md; sum, mean and amax, f32 and bf16, 1-16384 rows of 4096-32000,
# bits equal to the shipped modules at all 180 points): bf16 1 x 8192 2.58 -> 1.36 us (torch 2.34),
# f32 1 x 12000 3.31 -> 2.03, bf16 4096 x 5000 11.55 -> 7.09, bf16 4096 x 4096 7.14 -> 5.91;
# 0.49-1.01x the time at 146 of 150 points of 1-16384 rows of 4096-16384 (geomean 0.76), bf16
# 16384 x 12000 1.05-1.08x, f32 1 x 4096 1.08x (within the run's noise there). Rows of
# 32000 lost where the split path spreads a row's eight chunks over programs (f32 1 x 32000: 3.1
# -> 4.5 us) and bf16 mean at 4096-16384 rows (61 -> 75 us): they keep the chunked walk.
# The combiners with trees of their own were not timed held.
ROW_ONCE_MAX = 16384
ROW_ONCE_COMBINERS = ("sum", "max", "min")
# argmax/argmin's index pairs (which read the position, so never across chunks) are held only on
# grids of at most ROW_ONCE_PAIR_ROWS rows of 32-bit elements, ROW_ONCE_PAIR_HALF_ROWS of 16-bit ones.
# Held, they combine each element into its lane's pair; the chunked walks fold a group of tiles
# (its max, then the first index of it) and issue fewer instructions an element. On an H200 (run
# 203, docs/gpu_2026_11_29/README.md; 1-16384 rows of 4096-16384, bits equal to the shipped modules
# and to torch at every point): f32 1 x 8192 2.94 -> 1.95 us (torch 4.15), 32 x 12000 3.72 -> 2.72,
# 256 x 16384 5.78 -> 5.00, 1024 x 8192 9.15 -> 7.32 (1.01-1.52x at 1-1024 rows), but 0.90-1.00x at
# 4096-16384 rows; bf16 0.32-0.90x at every point, the compiler running the combine on packed
# 16-bit pairs of loads. Widened where the compiler cannot narrow them back (_rg_f32_held, where
# Plan.row_rows is set: a bfloat16 by a shift of its bits, a float16 by cvt.f32.f16 in an asm),
# bf16 rows held took 1.01-1.77x the chunked walks' speed at 1-1024 rows but 1024 x 16384 (0.77x;
# run 205: 1 x 8192 2.87 -> 1.97 us, torch 4.18; 32 x 12000 4.31 -> 2.44), f16 1.00-1.84x at 1-256
# rows (run 208: 1 x 8192 2.89 -> 1.93, 32 x 12000 4.31 -> 2.34).
ROW_ONCE_PAIRS = ("argmax", "argmin")
ROW_ONCE_PAIR_ROWS = 1024
ROW_ONCE_PAIR_HALF_ROWS = 256
# ...from this length: the shorter rows were not timed held (runs 91-92 tuned their rows walk).
ROW_ONCE_MIN = 4096
# On an H100 (docs/gpu_2026_11_26/README.md runs 54-56, bits equal at every point) rows of 16384
# held this way beat the chunked walks of a spec that reads a row twice once the kernel (a) runs
# the lane trees of all its chunks as one tree (a long row's stacked to ROW_STACK_MAX rows, the
# identity past its chunks: one pass of shuffles and barriers instead of one a chunk; softmax_held
# f32 16384 x 16384 941 -> 731 us; stacked to 4 rows only, 4096 x 16384 took 237 us against
# 189, run 57, and rows of 3 chunks preferred 4 rows, run 59) and (b) holds a 16-bit row as loaded
# (bf16 16384 x 16384 653 -> 361 us; torch 496, Liger-Kernel 357), (c) in 4 warps, two lanes a
# thread (f32 4096 x 12000 182 -> 134 us against 8 warps, run 59; Liger-Kernel 133).
# Held online-softmax rows (softmax_stats) lost at every point: its combine chain is an exp a
# tile, so that combiner keeps row_max 4096. Rows of 16385-32768 (up to ROW_STACK_MAX chunks)
# are held since the row kernel has its form across chunks (Plan.row_across: more warps a row,
# no copies): run 64, bits equal at 160 points, 1.4-2.0x the chunked walks and the online order
# at 1024-4096 rows of 20000 and 32000; before it rows of 32000 held lost to the chunked walk at
# 1-32 rows (the decode batches of sampling: bf16 1 x 32000 6.7 against 5.0 us; across 4.5).
ROW_STACK_MAX = 8
# cuda: a row kernel of a spec with outputs over the reduce axis holds one row a multiprocessor at
# rows of 32000 (run 200: 16 warps, 105 registers, occupancy 25%), so its SM loads a row, then computes
# on it, then stores, with no other program's loads to overlap. Where it holds 16-bit rows of more
# than ROW_PREFETCH_MIN elements as loaded (RAW), each program first asks L2 for the rows of the
# program ROW_PREFETCH_AHEAD waves on (the device's SM count times it: prefetch.global.L2, a
# 128-byte line a lane; a hint, nothing read back), on grids of more programs than that: the DRAM
# reads then run while this program computes, and that program's loads hit L2. On an H200 (run 212,
# docs/gpu_2026_12_02/README.md; bits equal to the modules without it at every point):
# softmax_held bf16 4096 x 32000 165.1 -> 150.3 us (75 -> 82% of the copy bandwidth), 16384 x 32000
# 641.6 -> 573.0 (77 -> 86%), 4096 x 24576 135.2 -> 127.9, 4096 x 20000 103.2 -> 99.7;
# log_softmax_held 4096 x 20000 104.9 -> 89.9 (73 -> 86%), 16384 x 32000 646.7 -> 571.9;
# layer_norm bf16 4096 x 32000 163.4 -> 146.3 (75 -> 84%); 1024 x 32000 and 4096 x 16384 within
# 0.3%. Not below: f32 rows lost (softmax_held 4096 x 32000 253.5 -> 354.0 us, 97 -> 70%; 4096 x
# 20000 95 -> 79%), as did rows of 1024 (16384 x 1024 17.2 -> 22.5), and prefetching two waves on
# lost to one at every point (bf16 4096 x 32000 182.2 us). Only rows whose reductions read one
# input: add_rms_norm's (x and the residual, both prefetched) lost at every point timed (run
# 213, docs/gpu_2026_12_02/README.md: bf16 16384 x 32000 995.8 -> 1404.0 us, 99 -> 70%; 4096 x
# 24576 196.7 -> 259.4; 4096 x 20000 175.3 -> 208.8; without it 88-99% of the copy bandwidth),
# where rms_norm's gained (4096 x 20000 105.8 -> 95.0, 16384 x 32000 536.9 -> 523.4).
ROW_PREFETCH_MIN = 16384
ROW_PREFETCH_AHEAD = 1
# ...and of at most ROW_PREFETCH_MAX elements: seven chunks of 4096. On an H100 (runs 252-255, bits
# equal with and without it at every point) rows of eight chunks lost with it: softmax_held bf16
# 16384 x 32000 719.0 us without it against 791.9 (96% of the copy bandwidth measured in run 255
# against 88%; Liger-Kernel 727.9), 4096 x 32000 185.7 against 198.3, 1024 x 32000 51.3 against 54.8,
# 256 x 32000 11.9 against 12.2, log_softmax_held 16384 x 32000 725.7 against 790.9, layer_norm 16384 x
# 32000 738.7 against 774.7, rms_norm 689.6 against 801.4, rms_norm_rstd 4096 x 32000 176.3 against
# 200.9. Rows of at most seven gained: softmax_held 4096 x 28000 163.4 against 173.7 and
# log_softmax_held 165.6 against 177.3 (run 255), 4096 x 24576 155.1 against 160.3, 4096 x 20000
# 119.2 against 123.1 (runs 253-254). fp8_quant, which writes a byte an element, gained at eight
# chunks too (4096 x 32000 172.6 against 184.2): its specs tune the bound up. Run 212 on an H200 (an
# older tree) had rows of 32000 gain (16384 x 32000 641.6 -> 573.0): not timed there again. Not timed
# at seven chunks: rms_norm, layer_norm and rms_norm_rstd (docs/gpu_2026_12_08/README.md).
ROW_PREFETCH_MAX = 28672
# cuda: tiles a chunk walk loads at once (more loads in flight per program). On an H100 over 36
# points (sum, amax, argmax, logsumexp, softmax at rows x N up to 4096 x 32000 and 1 x 151936),
# geomean torch / redgen: 1 tile 1.27, 2: 1.33, 4: 1.37, 8: 1.41 (benchmarks/unroll_sweep.py,
# docs/gpu_2026_11_23/row_kernel.md), bits equal for every value at all 48 points. A group's tiles
# load at constant offsets from one 64-bit base (macros.j2 `chunk`): on an H200 the issue-bound
# walks 0.93-0.95x the time (argmax bf16 1024 x 151936 112.8 -> 105.7 us, logsumexp 0.93), the
# others within noise (run 160, docs/gpu_2026_11_28/README.md).
UNROLL = 8
# cuda: a rows kernel's walk of rows of several chunks whose elements take at most
# ROWS_NARROW_ITEMSIZE bytes runs in ROWS_NARROW_WARPS warps, not the spec's, where the rows hold at
# least ROWS_NARROW_MIN chunks in all: four lanes of a tile a thread (one 8-byte load of bf16) where
# 4 warps gave each two, and half the threads meeting in the lane tree. Those walks are bound by
# issued instructions, not bytes (H200, run 177 in docs/gpu_2026_11_29/README.md, bits equal: bf16
# logsumexp 4096 x 32000 77.0 -> 70.4 us, argmax 1024 x 151936 105.9 -> 90.7, cross_entropy 4096 x
# 32000 84.4 -> 73.2, softmax 1024 x 151936 326.3 -> 269.5, var 2048 x 65536 116.5 -> 88.6); f32
# rows gained nothing (softmax f32 1024 x 151936 lost 6%), and a short grid lost (latency:
# softmax bf16 4 x 151936 6.2 -> 7.5, logsumexp 1 x 151936 4.6 -> 5.3; 32 x 151936 even). Not
# order-shaping: the lane tree is explicit.
ROWS_NARROW_ITEMSIZE = 2
ROWS_NARROW_WARPS = 2
ROWS_NARROW_MIN = 1024
# cuda: such a walk on the split path takes ROWS_NARROW_SPLIT_BLOCK rows a program (a power of two;
# 1: one): its lane tree, its setup and its partial's store then serve twice the bytes. 1 unless a
# spec tunes it: argmax and argmin's 16-bit walks are bound by their ALU pipe (ncu, H200 run 230:
# compute 86%, DRAM 61%), and each program reads one chunk; at 2 (run 231, with their strict walk
# combine, combiners.Combiner.walk_body) bf16 16384 x 8192 75.2 -> 69.6 us (84 -> 91% of the copy
# bandwidth), 16384 x 16384 143.8 -> 133.1 (88 -> 95%), 1024 x 151936 90.8 -> 84.3; f32 lost
# (1024 x 32000 34.3 -> 35.1, 8 x 32000 3.5 -> 4.2: the rule's 16-bit grids alone take it). Not
# order-shaping: which program reduces a row.
ROWS_NARROW_SPLIT_BLOCK = 1
# cuda: a rows walk of rows of several chunks of such 16-bit elements whose last chunk would walk more
# tiles alone, past its groups of UNROLL, than a group of ROWS_TAIL_UNROLL holds takes groups of
# ROWS_TAIL_UNROLL tiles (its UNROLL): each tile walked alone is a memory round trip of its own. 0
# (never) unless a spec tunes it: argmax and argmin at 4 (H200 runs 240-241, bf16 rows of 32000,
# whose last chunk of 13 tiles walked one group and 5 tiles alone: 1 x 32000 3.58 -> 3.32 us, 256 x
# 32000 8.05 -> 7.29, 4096 x 32000 73.2 -> 70.7 (85 -> 88% of the copy bandwidth); 4096 x 20000 52.9
# -> 48.7). Groups of 4 everywhere lost where no tile or 2 walk alone (16384 x 8192 70.7 -> 73.8,
# 1024 x 151936 85.4 -> 88.6) and at 4 (1024 x 50000 31.8 -> 32.2: 13 chunks, every one in groups of
# 4 for one group's gain), f32 at 8 and 1024 rows of 32000. Only where UNROLL shapes no order
# (Plan.rows_tail): every tile once, in increasing order.
ROWS_TAIL_UNROLL = 0
# cuda: a rows kernel's fused walk of rows of several chunks whose elements take at most
# ROWS_OUT_ITEMSIZE bytes sweeps its outputs over the reduce axis in ROWS_OUT_STAGES software-
# pipelined stages (tl.range's num_stages: the next iterations' loads issued ahead, into shared
# memory). Those sweeps waited on their loads (ncu, H200 run 196: bf16 softmax 4096 x 151936 at 45%
# achieved occupancy, long-scoreboard stalls the most), and the stages gave bf16 softmax 4096 x
# 151936 1075.3 -> 1012.6 us, 2048 x 151936 580.5 -> 554.9, 16384 x 65536 1658.2 -> 1619.4,
# log_softmax 4096 x 151936 1051.3 -> 957.4 (run 198, bits equal); f32 gained nothing (softmax
# 4096 x 151936 0.95-1.03x), and pipelining the statistics' walk too, or with 4 tiles in flight,
# was no better. Only specs of one input: a sweep that also loads a weight (and a bias, a residual)
# lost (run 199: bf16 2048 x 65536 rms_norm 205.1 -> 235.8 us, layer_norm 267.2 -> 317.4,
# add_rms_norm 406.1 -> 432.2; fp8_quant 4096 x 65536 even). Not order-shaping: the same tiles,
# loaded and stored by the same expressions.
ROWS_OUT_STAGES = 3
ROWS_OUT_ITEMSIZE = 2
# cuda's cols kernels ([LANES, BLOCK_K] tiles, 16x a rows tile at BLOCK_K 16) load one tile at a
# time: a group of 8 such tiles is 16x the registers of a rows kernel's group. With the shuffle
# lane trees and a block fitted to small K (templates/common/macros.j2) the cols kernels went,
# on an H100 over 120 points (docs/gpu_2026_11_23/cols_rows.md, bits equal at all of them), from
# a geomean of 0.24-0.62x torch to 0.96-2.9x (softmax f32 2048 x 2048 x 4: 4084 -> 82 us).
# 8 where softmax_stats folds its groups (group_walk): the cols walks fold the rows walks' groups.
COLS_UNROLL = 1
# cuda: the cols kernels of a spec whose walks take a step form (Plan.step_walks: var, std) load
# COLS_STEP_UNROLL tiles together (the module's COLS_UNROLL) at blocks of at least COLS_STEP_WIDE_BLOCK
# columns, compiled to at
# most COLS_STEP_MAXNREG registers a thread where a row of K elements takes at most
# COLS_STEP_CAP_ROW_BYTES bytes, and COLS_STEP_NARROW_UNROLL tiles below that block. Their walks'
# masked tiles combine with the body, a division a lane, which took 248-255 registers (ptxas 12.8,
# triton 3.6.0): two programs a multiprocessor, one 16 KB tile in flight each. At 168 the step's loop
# keeps its registers (the masked tiles spill 8-24 bytes), three programs fit, each with two tiles
# in flight. A cap raises a small kernel's registers to it (block 4: 72 -> 91), so narrow blocks take
# no cap and more tiles; and f32 rows of 256 bytes ran faster with two programs than with three. On an
# H200 (runs 182-185, docs/gpu_2026_11_29/README.md, bits equal at every point): var bf16 256 x 40000
# x 64 671 -> 538 us (torch 615), 64 x 40000 x 64 178 -> 152 (torch 176), f32 128 x 40000 x 32 209.6
# -> 195.2 (torch 195.9), 64 x 40000 x 16 62.4 -> 54.9, 256 x 40000 x 64 850.1 -> 800.7 uncapped
# (capped 832.8; torch 768), 1024 x 40000 x 4 177.8 -> 166.4. Not order-shaping: UNROLL is not (see
# the kernels), and registers place values, they compute none.
COLS_STEP_UNROLL = 2
COLS_STEP_NARROW_UNROLL = 4
COLS_STEP_WIDE_BLOCK = 16
COLS_STEP_MAXNREG = 168
COLS_STEP_CAP_ROW_BYTES = 128
# cuda's cols kernels meet their lanes in tl.split's form of the pairwise tree at column blocks of
# at least this many columns, in two-element tl.reduce's below (the same pairs: the same bits).
# On an H100 (docs/gpu_2026_11_26/README.md runs 20-22, bits equal at every point): at 32 columns
# the split form took mean bf16 256 x 256 x 4096 from 416 to 277 us and 64 x 512 x 1024 from 42
# to 34; at 16 it cost std 791 -> 1562 us (f32 256 x 256 x 4096) and at 4 mean 15 -> 21 us.
# Only where one reduction of one state component is all a kernel holds (_split_tree_pays): with
# two stages, a two-component state or outputs over the reduce axis, Triton 3.6 spilled the split
# form's registers (softmax_held bf16 cols, sm_90: 13 KB of spill stores against none) and on an
# H100 it lost at every point (run 24: softmax_held bf16 256 x 256 x 4096 41.7 ms against 1.05,
# var f32 16 x 2048 x 2048 275 against 179 us; sum and nansum gained 1.16x and 1.10x).
COLS_SPLIT_TREE_BLOCK = 32
# cuda, the same ops: rows of at most COLS_SHORT_TILES tiles (N <= 512 at 256 lanes) take column
# blocks of COLS_SHORT_BLOCK where K holds one. A program's walk is then one or two tiles, and a
# wider tile keeps more bytes in flight for its lane tree. On an H100 (docs/gpu_2026_11_26/README.md
# runs 27-28, bits equal) 64 columns and 4 warps against 32, mean: bf16 256 x 256 x 4096 276 -> 213 us,
# 4096 x 64 x 512 412 -> 299, f32 1024 x 128 x 1024 317 -> 290; at N 2048-4096 no gain (bf16
# 8 x 4096 x 512 10.2 -> 14.2); 8 warps and 128 columns lost. Run 28: sum 0.626 -> 0.716 of torch,
# amax and amin 0.758 -> 0.823 (bf16 gains, f32 even to 10% slower at N <= 128). nansum, whose
# element is where(x != x, 0, x), lost in bf16 then (256 x 256 x 4096 334 -> 382 us): its compare
# ran packed on pairs of loads. With its loads widened (_rg_f32, redgen/exprs.py narrowed) it gains
# too, as vector_norm does (H200, docs/gpu_2026_11_28/README.md run 114, bits equal: nansum bf16
# 256 x 256 x 4096 294 -> 192 us, 64 x 512 x 256 7.7 -> 5.6; vector_norm bf16 266 -> 193, f32
# 16 x 512 x 1024 10.9 -> 7.7; 1.03-1.54x at every point of rows 200-512, none slower).
COLS_SHORT_TILES = 2
COLS_SHORT_BLOCK = 64
# cuda: a fused walk's rows of at most half the lanes (N <= 128 at 256) walk a tile of P lanes, the
# power of two holding the row (at least SHORT_TILE_MIN), where LANES lanes left 128 and more of
# them empty: a masked load and a combine each, then their share of the lane tree. Lanes P..LANES-1
# of the LANES-lane walk hold no element, so each holds the same state (the identity combined with
# the masked identity): the kernel meets its P-lane tree with subtrees of that state, level by level,
# as the LANES-lane tree does (_short_tile_pays; templates/common/macros.j2 `chunk`). On an H100
# (docs/gpu_2026_11_26/README.md runs 85-87, bits equal at every point, 7-9 points a dtype): sum bf16
# 4096 x 64 x 512 295 -> 113 us (torch 95), 2048 x 8 x 1024 245 -> 16 (torch 14); softmax_held bf16
# 4096 x 64 x 512 1995 -> 565 (torch 655); var_held f32 2048 x 8 x 1024 1649 -> 96; argmax bf16
# 2048 x 8 x 1024 1025 -> 142. 8 lanes at least: at N = 8, 16 lanes took 22 us where 8 took 16.
SHORT_TILE_MIN = 8
# A fused walk's output sweep over the reduce axis (softmax_held's y) takes the same TILE lanes: no
# order there, only which lanes hold which element. It swept 256 lanes, 248 masked at N = 8: softmax_held
# bf16 2048 x 8 x 1024 365.6 -> 100.3 us (torch 88.2), 1024 x 16 x 4096 774.2 -> 266.2 (torch 329.2);
# geomean torch / redgen over 16 points 1.238 -> 2.005, log_softmax_held 1.086 -> 1.503
# (docs/gpu_2026_11_27/README.md run 96, bits equal at every point).
# The ops of one reduction of one state component (_split_tree_pays) walk those rows in blocks of
# COLS_TILE_BLOCK columns where K holds one (runs 86-88): vector_norm bf16 1024 x 128 x 1024 144 us
# at 64 columns, 290 at 128 (torch 93), its spec's 16 227; amax f32 the same shape 184 at 64, 242
# at 128; nansum bf16 256 x 100 x 1000 30 at 64, 58 at 128. sum and mean take 128 (their specs'
# `tune`): bf16 1024 x 128 x 1024 127 us at 64, 96 at 128 (torch 93), 199 at 256. The ops of
# several stages or state components keep their spec's block: at 64 and 128 columns they lost
# (softmax_held f32 1024 x 128 x 1024 556 us at 16 columns, 794 at 64, 2906 at 128).
COLS_TILE_BLOCK = 64
# A one-read op's cols kernel (one stage, no output over the reduce axis) takes more columns still where
# TILE is small: up to COLS_TILE_ELEMS elements a program's tile (BLOCK = COLS_TILE_ELEMS // TILE where
# that is more). On an H100 (docs/gpu_2026_11_27/README.md run 95, bits equal at every point): argmax
# f32 2048 x 8 x 1024 142.7 -> 43.2 us (torch 39.2), 16 x 32 x 8192 18.7 -> 10.1, bf16 4096 x 64 x 512
# 515 -> 321 (torch 241); vector_norm bf16 2048 x 8 x 1024 39.7 -> 17.1 (torch 14.6), amax bf16 26.9
# -> 12.5; the most it lost, argmax bf16 2048 x 8 x 1024 143 -> 152. At 4096 elements argmax f32
# 1024 x 128 x 1024 lost (313 -> 341); ops of two stages or outputs over the reduce axis lost at
# 1024 already (var_held bf16 2048 x 8 x 1024 96 -> 143 us, softmax_held f32 418 -> 716).
COLS_TILE_ELEMS = 2048
# An op whose every combiner is order-free (argmax, argmin: any tree, any walk gives the same
# bits) walks a row of at most LANES elements in its cols kernels one lane a column (TILE 1: each
# column's elements one after another, as torch walks them) in blocks of FREE_COLS_BLOCK columns,
# where the view holds at least FREE_COLS_MIN columns (M * K), FREE_COLS_K or more a batch row (K: a
# block cut to a short K leaves most threads idle in a serial walk). There the TILE-lane walk spent its
# time in the lane tree, as much work as the walk itself at a row of one tile. On an H100
# (docs/gpu_2026_11_28/README.md runs 98-99, argmax and argmin, bits equal at every point and
# variant), us, torch / before / now: bf16 2048 x 8 x 1024 37.1 / 152.2 / 22.4; 1024 x 128 x 1024
# 184.3 / 348.2 / 118.6; 256 x 256 x 4096 318.1 / 614.4 / 232.2; 4096 x 64 x 512 240.2 / 320.7 / 115.9;
# f32 4096 x 64 x 512 252.6 / 293.1 / 186.3 (2.9 TB/s read); 8 x 96 x 4096 (32768 columns) 9.0 / 10.5 /
# 7.7; 4096 x 64 x 128 (K 128) 73.7 / 76.4 / 49.1; bf16 16384 x 8 x 64 (K 64) 18.7 / 45.7 / 25.7. The
# serial walk lost with fewer columns (16 x 128 x 1024, 16384 columns: 10.3 us against 7.2; 32 x 128 x
# 128: 8.2 against 3.2), a short K (2048 x 32 x 16: 10.3 against 5.9) and longer rows (64 x 512 x
# 1024 at 4 warps: 76.3 against 61.8; 8 warps and 8 lanes: 51.0, torch 47.5). Since run 103 the walk's
# columns are flat across batch rows at a short K (COLS_FLAT_BELOW), so a program holds a whole block
# whatever K: FREE_COLS_K and FREE_COLS_LONG_K 2, any K > 1 (bf16 65536 x 8 x 2: 69.6 -> 2.8 us, torch
# 3.9; 2048 x 32 x 16 5.9 -> 3.9, torch 8.8; 16384 x 8 x 64 25.8 -> 10.7, torch 18.8).
FREE_COLS_MIN = 32768
FREE_COLS_K = 2
FREE_COLS_BLOCK = 256
# Below FREE_COLS_SMALL columns a program of that walk takes FREE_COLS_SMALL_BLOCK columns (twice the
# programs). Run 105 (H200, argmax, bits equal), us, torch / 256 / 128 columns: bf16 1024 x 128 x 32
# 10.8 / 10.2 / 8.7; 8 x 96 x 4096 9.2 / 8.1 / 6.8; at 65536 columns even (64 x 128 x 1024 13.7 / 11.1 /
# 11.1), past them 256 (128 x 128 x 1024 26.8 / 18.3 / 19.1).
FREE_COLS_SMALL = 65536
FREE_COLS_SMALL_BLOCK = 128
# At longer rows of one chunk the order-free walk takes FREE_COLS_LONG_TILE lanes, FREE_COLS_LONG_BLOCK
# columns a program, where the view holds FREE_COLS_LONG_MIN columns or more, FREE_COLS_LONG_K a batch
# row. H100 (docs/gpu_2026_11_28/README.md run 102, argmax, bits equal at every variant; 4 x 4 tiles,
# columns and warps), us, torch / before (256 lanes, 16 columns) / 16 lanes x 128: bf16 64 x 512 x
# 1024 47.6 / 61.8 / 44.5; 128 x 300 x 512 29.2 / 53.8 / 29.9; 256 x 1024 x 256 104.5 / 101.5 / 80.6;
# 32 x 2048 x 2048 174.9 / 183.0 / 161.0. It lost with fewer columns (16 x 4096 x 1024: 93.6 -> 247.5)
# and at a block cut to a short K (1024 x 512 x 64: 58.3 -> 70.3), which run 103's flat columns won
# (45.2, torch 47.9).
# At rows of at most SHORT_TILE_MAX elements whose K is shorter than COLS_FLAT_BELOW (their columns flat
# across batch rows) the walk starts at FREE_COLS_FLAT_MIN columns: there the TILE walk's program holds
# a block cut to that K, few elements. Run 106 (H200, argmax bf16, bits equal), us, torch / TILE walk /
# this walk at 128 columns, 16384 columns at K 8: rows of 16 6.0 / 3.7 / 2.3; 64 6.9 / 6.4 / 5.0; 96 8.5 /
# 10.7 / 6.8; 128 10.0 / 10.7 / 8.5; at 8192 columns it lost (rows of 64 3.9 -> 4.8).
FREE_COLS_FLAT_MIN = 16384
FREE_COLS_LONG_TILE = 16
FREE_COLS_LONG_BLOCK = 128
FREE_COLS_LONG_MIN = 65536
FREE_COLS_LONG_K = 2
# The one-read ops of one input read element by element (sum, mean, nansum, amax, amin, vector_norm: no
# position, no local, one reduce axis) build the TILE-lane pairwise tree of a row of at most
# COLS_STACK_N elements in their cols kernels leaf by leaf, one lane a column, where the view holds
# COLS_STACK_MIN columns or more, COLS_STACK_K a batch row, in blocks of
# COLS_STACK_BLOCK columns: leaf j meets the stacked roots its trailing one bits name, the earlier on
# the left, the same combines in the same order as the tree over a [TILE, BLOCK] tile, whose levels
# Triton runs as exchanges between threads. The leaves are a loop (one copy of the element's code, one
# pointer a column), so a program's walk is serial: on an H100 (docs/gpu_2026_11_28/README.md run 101,
# bits equal at every point), us, torch / before / stack: sum bf16 4096 x 64 x 512 95.1 / 112.9 / 93.1,
# 4096 x 16 x 256 10.4 / 11.5 / 8.1; nansum bf16 4096 x 64 x 512 98.9 / 130.7 / 92.5; amax bf16 4096 x 64
# x 128 35.8 / 33.3 / 28.3; f32 16 x 32 x 8192 4.9 / 4.8 / 3.9. At rows of 96-128 the serial walk lost
# (sum bf16 1024 x 128 x 1024 95.7 -> 179.2, 8 x 96 x 4096 4.1 -> 23.9), and vector_norm's element (a
# power) at most points (bf16 4096 x 16 x 256 15.3 -> 21.4): rows of at most 64, vector_norm without.
# Over run 101's points at that rule, geomean torch / redgen: sum 0.940 -> 1.000 (24 points; slower
# than torch 14 -> 12), amax 1.177 -> 1.277 (10 -> 8), mean 0.941 -> 1.031, nansum 0.855 -> 0.963, amin 1.082 -> 1.215 (10 each);
# no point more than 2% slower than before.
#
# Run 102 took the leaves in groups of COLS_STACK_LEAVES a loop iteration (a power of two, at most TILE
# and 2**COLS_STACK_GROUP_LEVELS), their loads issued together: a group's leaves climb a stack resolved
# at compile time, its root the loop's; the same tree whatever the group. Groups of 4 from a TILE of
# COLS_STACK_GROUP_TILE (us, one lane a leaf / groups of 4 / the TILE walk, bits equal at every point):
# sum bf16 256 x 100 x 1000 51.5 / 31.3 / 32.0, f32 1024 x 128 x 1024 216.5 / 177.3 / 180.3; nansum bf16
# 256 x 100 x 1000 52.7 / 26.1 / 29.7 (groups of 8: 34.7); vector_norm bf16 4096 x 64 x 512 189.5 / 95.6 /
# 122.9, 4096 x 16 x 256 21.2 / 13.1 / 15.3. At a TILE of 8 single leaves (vector_norm bf16 16384 x 8 x
# 64: 16.7 against groups of 4 20.7). So rows of 65-128 (COLS_STACK_LONG_N up) take the stack too,
# where the view holds COLS_STACK_LONG_MIN columns or more: their serial walk needs more programs (64 x
# 128 x 1024, 65536 columns: sum bf16 14.4 against 6.5 for the TILE walk); and vector_norm's element
# (a power) no longer loses: 4 leaves an iteration hide it. Run 103 placed COLS_STACK_LONG_MIN: 128 x 128
# x 1024 (131072 columns) lost (sum bf16 12.0 -> 16.1, f32 27.6 -> 36.2), 192 x 100 x 1000 won (23.5 ->
# 20.7, f32 38.8 -> 37.2); and, with the columns flat across batch rows (COLS_FLAT_BELOW), any K > 1
# (COLS_STACK_K 2): sum bf16 65536 x 8 x 2 48.9 -> 2.3 us (torch 3.0), 8192 x 16 x 8 8.2 -> 2.2 (3.4),
# 2048 x 32 x 16 3.8 -> 2.6 (3.9).
# Run 105 (H200, bits equal) took blocks of 128 columns (twice the programs) on views of fewer columns,
# where the rule kept the TILE walk, us, torch / TILE walk / stack at 256 / at 128 columns: sum f32 128
# x 128 x 1024 18.5 / 23.5 / 33.7 / 19.2; 96 x 96 x 1024 7.0 / 13.7 / 14.9 / 7.2; 64 x 128 x 1024 6.5 /
# 9.2 / 14.4 / 6.4; bf16 4096 x 64 x 4 (16384 columns) 3.7 / 5.7 / 3.9 / 3.3; amax f32 96 x 96 x 1024 7.6
# / 14.6 / 11.0 / 7.6. It lost at 16384 columns of rows of 96-128 (sum bf16 16 x 128 x 1024 4.1 / 3.1 /
# 14.0 / 5.4) and for vector_norm at some points (bf16 64 x 128 x 1024 5.0 / 9.1 / 10.6 / 10.3; 256 x 16
# x 64 3.0 / 1.8 / 2.3 / 2.2). So COLS_STACK_MIN 16384 and COLS_STACK_LONG_MIN 65536, in blocks of
# COLS_STACK_SMALL_BLOCK columns below COLS_STACK_SMALL (run 103's rule's edge, where 256 won: 192 x 100
# x 1000).
# Run 106 (H200, bf16, bits equal): at rows longer than COLS_STACK_LONG_N whose K is shorter than
# COLS_FLAT_BELOW (the stack's columns flat, the TILE walk's block cut to K) the stack won from 32768
# columns, us, torch / TILE walk / stack at 128 columns: sum 4096 x 96 x 8 4.3 / 8.3 / 4.8, 4096 x 128 x 8
# 4.7 / 8.1 / 5.5; at 16384 even (2048 x 96 x 8 4.1 / 5.0 / 4.6, 2048 x 128 x 8 4.5 / 4.8 / 5.4). So
# COLS_STACK_FLAT_MIN there.
# Run 117 (H200, bits equal): rows of 129-256 (COLS_STACK_LONGER_N up, TILE = LANES) on views of
# COLS_STACK_LONGER_MIN columns or more, us, torch / TILE walk / stack (4 or 8 leaves, the better):
# sum bf16 256 x 256 x 4096 127.0 / 191.0 / 126.7, f32 238.3 / 284.8 / 238.1; bf16 16384 x 200 x 16 33.0 /
# 79.9 / 41.2, f32 56.0 / 85.1 / 57.2; 4096 x 256 x 64 35.7 / 51.4 / 41.2; 1024 x 256 x 256 35.8 / 53.3 /
# 43.3; nansum, vector_norm and amax alike. Below it mostly lost (sum bf16 256 x 256 x 512, 131072
# columns, 30.4 / 37.9; 16 x 256 x 1024 4.4 / 16.3; 2048 x 256 x 16 12.2 / 15.3).
# Run 120 (H200, bits equal) took a column's leaves in runs (COLS_STACK_SPLIT_COLS below) and forced
# the stack where these rules kept the TILE walk (rows of 96-256 on 16384-131072 columns): it won at
# every one of 36 points (sum bf16 64 x 160 x 2048 25.7 -> 19.2 us, 4096 x 160 x 8 13.2 -> 5.7, 16 x 128
# x 1024 3.2 -> 2.3; f32 8 x 256 x 8192 24.4 -> 18.0; nansum alike), so one minimum, COLS_STACK_MIN,
# serves every row of at most COLS_STACK_N (the rows' own minimums of runs 103-118 are gone).
COLS_STACK_MIN = 16384
COLS_STACK_N = 512
COLS_STACK_K = 2
COLS_STACK_BLOCK = 256
COLS_STACK_LONG_N = 64
COLS_STACK_SMALL = 163840
COLS_STACK_SMALL_BLOCK = 128
COLS_STACK_LEAVES = 4
# Runs 110-111 (H200, bits equal): groups of COLS_STACK_WIDE_LEAVES 8 leaves at rows longer than
# COLS_STACK_LONG_N on a view of COLS_STACK_SMALL columns or more (blocks of 256), COLS_STACK_BLOCK or more
# a batch row, won, us, torch / 4 / 8: sum bf16 1024 x 128 x 1024 70.3 / 79.8 / 67.1, 256 x 128 x 1024
# 20.6 / 33.2 / 23.0, 64 x 96 x 4096 15.8 / 25.6 / 18.2, f32 192 x 100 x 1000 23.3 / 32.7 / 27.0; mean,
# vector_norm, amax and amin alike or better (nansum lost: its spec keeps 4). At K 128 and a flat K 64
# they lost (sum bf16 2048 x 128 x 128 23.2 / 24.6, 4096 x 80 x 64 22.7 / 32.2); with fewer columns
# (blocks of 128) and at rows of at most 64 too (sum bf16 64 x 128 x 1024 5.7 / 8.6, 4096 x 64 x 512 65.0
# / 66.7).
COLS_STACK_WIDE_LEAVES = 8
# Runs 114-115 (H200, bits equal): the flat columns' loads were 16 bits a column until their mask was
# given its constancy (templates/common/macros.j2, FLAT); with pairs a load, groups of
# COLS_STACK_FLAT_LEAVES 8 leaves at rows longer than COLS_STACK_LONG_N on COLS_STACK_SMALL columns or
# more at a flat K (below COLS_FLAT_BELOW) won, us, torch / 4 / 8: sum bf16 16384 x 100 x 16 19.4 / 31.5
# / 21.1, 4096 x 128 x 64 20.9 / 31.5 / 22.8, f32 4096 x 80 x 64 23.1 / 29.3 / 26.7; mean, vector_norm
# and nansum f32 1.04-1.20x, bf16 0.97-1.05x; amax and amin bf16 lost (4096 x 80 x 64 12.4 / 15.4,
# torch 20.2: their specs keep 4). Below COLS_STACK_SMALL columns 8 lost (sum bf16 8192 x 128 x 16 8.6
# / 10.7, 1024 x 128 x 32 5.3 / 8.1).
COLS_STACK_FLAT_LEAVES = 8
# Each thread's walk is serial, a chain of TILE / STACK loads: on a view of fewer columns than
# COLS_STACK_SPLIT_COLS the walk takes a column's leaves in SPLIT runs (at most COLS_STACK_SPLIT_MAX,
# a power of two), run g's in a thread of its own, COLS_STACK_BLOCK / SPLIT columns a program; each
# run's root is a node of the TILE-lane tree, and the tree's levels above the runs meet them (pairs
# (2g, 2g+1)): the same combines in the same order. Run 120 (H200, bits equal), us, before / runs:
# sum bf16 1024 x 128 x 32 (8 runs) 5.5 / 3.3, 4096 x 96 x 8 4.9 / 3.5, 16 x 64 x 1024 3.4 / 2.0; f32
# 64 x 128 x 1024 (4) 6.1 / 5.7, 128 x 128 x 1024 (2) 19.5 / 18.4; nansum bf16 4096 x 64 x 4 4.0 / 2.2.
# Two runs of flat columns (K below COLS_FLAT_BELOW) lost (sum bf16 2048 x 96 x 64 8.9 / 10.7, f32 11.8
# / 16.9; 8192 x 128 x 16 8.7 / 10.2): there one run, or four and more.
COLS_STACK_SPLIT_COLS = 262144
COLS_STACK_SPLIT_MAX = 8
# Rows longer than COLS_STACK_ONE_RUN_N in one run lost below COLS_STACK_SPLIT_COLS columns (run 117:
# sum bf16 256 x 256 x 512 30.4 / 37.9, 2048 x 256 x 16 12.2 / 16.8), and run 120 did not time them
# there at a flat K, where two runs are not taken: such views keep the TILE walk.
COLS_STACK_ONE_RUN_N = 128
# Rows longer than LANES (257-512 at 256 lanes: COLS_STACK_N) take the stack with DEPTH elements a leaf,
# lane j of the TILE walk's j, j + TILE, ... combined in increasing order into the identity, then the
# same tree. Runs 121-122 (H200, bits equal at all 80 points of each), the TILE walk against the stack
# in groups of 2 / 4 (natural runs), 40 points an itemsize over sum, nansum, amax and vector_norm,
# geomean TILE / stack: f32 1.175 / 1.101 (groups of 2 won at 31 points, lost at 2: amax 64 x 512 x 256
# 7.8 / 8.1, sum 7.5 / 8.8 there, 7.5 / 6.9 in run 121), e.g. sum f32 256 x 300 x 512 64.8 -> 46.7 us
# (torch 38.6), vector_norm f32 1024 x 300 x 256 126.9 -> 91.1 (torch 76.7); bf16 0.942 / 0.948 (lost at
# 24-25 of 40; no group (2, 4, 8) nor more runs won at most points: a load there is two bf16, and the
# TILE walk's 16 bytes); only at DEPTH 2: rows of 513-1024 won less often (run 121, f32 128 x 768 x 1024
# 100.9 / 111.4). In blocks of 256 columns a program, 2 a thread, that is: a bf16 load was 4 bytes. Runs
# 124-126 (H200, bits equal at every point): a program there takes COLS_STACK_DEEP_BLOCK_BYTES of a row
# (1024 bf16 columns, 512 f32: 16 bytes a thread) and the runs bring the view to COLS_STACK_DEEP_PROGRAMS
# such blocks, in groups of COLS_STACK_DEEP_LEAVES 4. Run 126, against the shipped rule (f32 stack in
# blocks of 256, groups of 2, 2**18 columns; bf16 and f16 the TILE walk), 6 ops x 3 dtypes x 16 views:
# geomean 1.222, won at 206 of 288 points, lost at 6 (f32 4096 x 400 x 16, 0.92-0.95: sum 32.0 / 33.7 us);
# e.g. sum bf16 256 x 400 x 512 44.6 / 30.7 (torch 28.0), 8192 x 300 x 32 76.1 / 49.6 (44.3), f32
# 1024 x 300 x 256 90.3 / 74.6 (73.7), 2048 x 300 x 64 64.4 / 39.0 (38.3). 2048 programs lost f32
# 8192 x 300 x 32 (run 126: 100.8 / 82.8 at 4096) and 1024 x 300 x 256 (80.3 / 74.6); groups of 2 lost
# most f32 views. Elements of fewer than COLS_STACK_DEEP_ITEMSIZE bytes lost on 16384 columns (run 125:
# vector_norm bf16 64 x 512 x 256 5.6 / 7.5, every op in f16 5.5 / 7.5) and won from 65536 (run 126:
# amin f16 256 x 300 x 256 16.7 / 10.2): they take the stack from COLS_STACK_DEEP_NARROW_MIN columns.
# And there those elements take the same blocks and runs at rows of at most LANES too (the launcher's
# _byte_blocks; a whole block a batch row for COLS_STACK_WIDE_LEAVES): run 127 (sum, amax, vector_norm,
# 16 views) found bf16 and f16 1.12x with 1024 bf16 columns a program against 256, losing where fewer
# columns gave fewer programs (f16 1024 x 128 x 32 3.2 / 3.7); f32 1.04x, not taken. Run 128 (H200, bits
# equal at all 264 points, 6 ops x bf16, f16 x 22 views of rows of at most 256): geomean 1.232, won at
# 190, lost at 6 (0.91-0.95: amin f16 4096 x 64 x 64 6.1 / 6.7 us, mean f16 192 x 100 x 1000 10.4 / 11.5);
# 116 points slower than torch before, 43 after: sum bf16 4096 x 80 x 64 16.1 / 12.4 (torch 10.5),
# 2048 x 96 x 64 8.9 / 6.5 (6.3); rows of 129-256 at a flat K on fewer than COLS_STACK_SPLIT_COLS
# columns took the TILE walk (two runs not taken there) and now the stack in 8 runs: sum bf16 2048 x 160
# x 64 24.8 / 11.6 (8.2), 8192 x 200 x 16 41.3 / 16.2 (16.2). On a view of one run (2**22 bf16 columns or
# more) a K of 256-1023 keeps the group of COLS_STACK_WIDE_LEAVES it took with blocks of COLS_STACK_BLOCK:
# in groups of 4 run 129 lost there (sum bf16 16384 x 100 x 256 228.4 / 257.6 us), in 8 run 130 won
# (229.0; 4096 x 80 x 1000 201.2 / 188.9, torch 178.0) but at a K of 128 (32768 x 128 x 128 307.3 /
# 332.7).
COLS_STACK_DEEP_ITEMSIZE = 4
COLS_STACK_DEEP_NARROW_MIN = 65536
COLS_STACK_DEEP_LEAVES = 4
COLS_STACK_DEEP_BLOCK_BYTES = 2048
COLS_STACK_DEEP_PROGRAMS = 4096
COLS_STACK_GROUP_TILE = 16
COLS_STACK_GROUP_LEVELS = 3
# Those ops' cols tile walk (rows longer than COLS_STACK_N, of one chunk) over elements of at most
# COLS_TILE_WIDE_ITEMSIZE bytes takes COLS_TILE_WIDE_BLOCK columns a program where K holds them and
# they still make COLS_TILE_WIDE_PROGRAMS programs: the bytes of a row that 32 float32 columns take,
# and half the programs (H200, runs 180-181 in docs/gpu_2026_11_29/README.md, bits equal: sum bf16
# 256 x 4096 x 64 47.8 -> 33.4 us, torch 43.9; amax 16 x 2048 x 2048 46.6 -> 36.0; 0.65-0.80x the time
# at 256-1024 such programs; at 32-128 of them 1.13-1.49x (latency: nansum bf16 64 x 1000 x 128 5.7
# -> 8.5); at two chunks, 256 x 8192 x 64, 1.7x; f32 was mixed).
COLS_TILE_WIDE_ITEMSIZE = 2
COLS_TILE_WIDE_BLOCK = 64
COLS_TILE_WIDE_PROGRAMS = 256
# Those two walks (free_cols, cols_stack), one lane a column, take their columns in their flat order
# m * K + k, across batch rows, where K is shorter than COLS_FLAT_BELOW and their block: a program of a
# block cut to a short K held few columns. Run 103 (bits equal at every point): sum bf16 16384 x 8 x 64
# 12.9 -> 5.1 us (torch 7.0), f32 13.3 -> 8.8 (11.9); at K 128 flat and a block of 128 were even (sum
# bf16 4096 x 64 x 128 25.6 / 28.1, f32 50.3 / 47.9; nansum bf16 512 x 32 x 128 3.6 / 3.2).
COLS_FLAT_BELOW = 128
# The rows kernel's fused walk of those rows (K == 1, an op without a row kernel) takes rows until a
# program holds ROWS_TILE_ELEMS elements of its [BLOCK, TILE] tile. A program a row was bound by the
# grid: sum bf16 16384 x 8-128 took 11.3 us at every length, 65536 x 128 41 against torch's 9.7
# (run 91). Run 92 (sum, amax, argmax, nansum; 1024-65536 rows of 8-128, bits equal at all 56
# points): 1024 elements a program won at short grids, 4096 at some long ones, 8192 nowhere; at 2048
# sum bf16 65536 x 128 took 5.1 us (4096: 4.8), f32 7.6 (9.5), argmax f32 19.5 (25.9).
ROWS_TILE_ELEMS = 2048
# An op with a row kernel (softmax, the norms) holds those rows there the same way: TILE lanes, rows
# until a program holds ROWS_TILE_ELEMS elements, a warp a ROW_TILE_WARP_LANES of them (8 elements a
# thread). It held 8 rows of 256 lanes a program, 192 or more of them empty. On an H100
# (docs/gpu_2026_11_27/README.md run 93, bits equal at all 70 points: softmax, log_softmax, rms_norm,
# layer_norm, var at 1024-65536 rows of 8-128) geomean torch / redgen went from 0.93 (32 points
# slower than torch) to 2.94 (1: 1.5 against 1.4 us); softmax bf16 65536 x 64 23.1 -> 4.3 us (torch
# 9.6), layer_norm bf16 65536 x 8 32.3 -> 2.0 (torch 69.7). A warp a 128 elements: 2.76, a 512: 2.85.
ROW_TILE_WARP_LANES = 256
# cuda: Triton learns of an integer argument only whether it is 1 or a multiple of 16. Where a row
# of the [M, N, K] view starts at a multiple of 8 elements but not of 16 (K or N = 1000), it then
# cannot prove a tile's row aligned and loads it element by element. The launcher passes ALIGN, the
# largest power of two up to ALIGN_MAX dividing the lengths and strides a kernel multiplies an index
# by, and the kernels rebind each as x // ALIGN * ALIGN: the same integer, whose divisibility the
# compiler then knows (compiled for sm_90, mean's cols kernel at K = 1000 loads 16-byte vectors where
# it loaded 2-byte elements: tests/test_specialization.py).
ALIGN_MAX = 16

# Order-shaping fields and where in the spec each came from; the verifier
# reports counterexamples against these spec lines.
ORDER_FIELDS = ("lanes", "chunk", "num_chunks")


@dataclass(frozen=True)
class Order:
    """The combine order of every output element, as the plan fixes it.

    For output row r and each reduction: the reduce axis is cut into
    `num_chunks` chunks of `chunk` elements at absolute offsets 0, chunk,
    2*chunk, ...; inside a chunk lane j (of `lanes`) combines elements
    c0+j, c0+j+lanes, ... sequentially; the lanes are combined by the
    explicit pairwise tree `tree`; chunk partials are combined left to right
    starting from the combiner's identity, in `acc`.
    """

    lanes: SExpr
    chunk: SExpr
    num_chunks: SExpr
    tree: str  # "pairwise": level k combines lanes (2j, 2j+1) of level k-1
    chunk_combine: str  # "left_to_right"
    acc: str
    combiners: tuple[str, ...]
    stages: int
    split_kind: str  # fixed_size | fixed_count | none
    atomic: bool  # partials combined with atomics (never, on the targets we have)
    provenance: tuple[tuple[str, Loc | None], ...]  # field -> spec location

    def where(self, field: str) -> Loc | None:
        return dict(self.provenance).get(field)


@dataclass(frozen=True)
class Kernel:
    """One kernel shape. Its tile and warps never reach the order (Order.tree is explicit)."""

    name: str  # rows: tile [BLOCK_M, lanes] when K == 1; cols: tile [lanes, BLOCK_K]
    when: str  # python condition over M, N, K choosing this shape
    block: int  # BLOCK_M (rows) or BLOCK_K (cols)
    programs: SExpr  # batch programs
    num_warps: int


@dataclass(frozen=True)
class UBUsage:
    """Unified Buffer bytes live per program of an ascend kernel (worst case over input dtypes)."""

    block_rows: int  # BLOCK_R: rows per tile
    lanes: int  # reduce-axis tile (tail of the [BLOCK_R, LANES] tile)
    bytes_per_elem: int  # live bytes per tile element, worst dtype
    worst_dtype: str
    live: int  # block_rows * lanes * bytes_per_elem
    budget: int
    breakdown: str  # how bytes_per_elem was counted, for messages

    @property
    def fits(self) -> bool:
        return self.live <= self.budget


@dataclass(frozen=True)
class Plan:
    op: ir.Op
    target: str
    order: Order
    kernels: tuple[Kernel, ...]
    split_below: int  # cuda: the split path below this many batch programs per chunk after the first
    finish_block: int
    copy_rule: str  # when the launcher copies the input
    # Target-specific, not order-shaping (defaults keep the cuda plan as it was).
    cores: int | None = None  # ascend: core budget (grid cap); None = `cores auto`
    ub: UBUsage | None = None  # ascend: Unified Buffer bytes live per program
    notes: tuple[str, ...] | None = None  # what the certificate lists as not order-shaping
    # cuda: the most LANES tiles a row may have for the "row" kernel (the row held on chip,
    # one read); 0: no such kernel (no output over the reduce axis, or no batch rows).
    row_tiles: int = 0
    # cuda: the shortest row the row kernel holds; shorter ones take the rows kernel's walk (a
    # one-read spec: ROW_ONCE_MIN; 0 where the row kernel holds every row it can).
    row_min: int = 0
    # cuda: a one-read spec of index pairs (ROW_ONCE_PAIRS) holds rows only on grids of at most
    # row_rows rows of 32-bit elements, row_half_rows of 16-bit ones (ROW_ONCE_PAIR_ROWS,
    # ROW_ONCE_PAIR_HALF_ROWS), and widens its held loads through _rg_f32_held (a bfloat16 by a
    # shift of its bits, a float16 by cvt.f32.f16 in an asm); 0: at every grid and element size,
    # widened by a conversion.
    row_rows: int = 0
    row_half_rows: int = 0
    # cuda: the row kernels (row, across) of a spec with outputs over the reduce axis whose rows may
    # be longer than row_prefetch elements prefetch into L2 the rows of the program ROW_PREFETCH_AHEAD
    # waves on, where they hold 16-bit rows of more than row_prefetch elements as loaded
    # (ROW_PREFETCH_MIN), of one input; 0: no such code. A cache hint: the same loads, values and order.
    row_prefetch: int = 0
    # cuda: tiles a chunk walk loads together (UNROLL, the launcher's default; 0: one at a time,
    # no such code). Not order-shaping: the same tiles in the same sequence, see macros.j2 `chunk`.
    unroll: int = 0
    # cuda: the same for the cols kernels (COLS_UNROLL); 0: the module has no cols kernels.
    cols_unroll: int = 0
    # cuda: the cols kernels' lane trees take tl.split's form at blocks of at least this many
    # columns (COLS_SPLIT_TREE_BLOCK); 0: no cols kernels.
    cols_split_tree: int = 0
    # cuda: the kernels take ALIGN (ALIGN_MAX) and rebind the lengths and strides it divides.
    align_hint: bool = False
    # cuda: the cols kernels' block where N is at most cols_short_tiles tiles (COLS_SHORT_BLOCK,
    # COLS_SHORT_TILES; in tiles: the lanes are a number only once the verifier has passed them);
    # 0: none.
    cols_short_block: int = 0
    cols_short_tiles: int = 0
    # cuda: the walks of rows of at most half the lanes (the cols kernels', and the rows kernel's
    # or, where the op has one, the row kernel's) take a tile of the power of two holding them
    # (SHORT_TILE_MIN, ROWS_TILE_ELEMS; _short_tile_pays); False: none. The cols kernels' column
    # block there (COLS_TILE_BLOCK); 0: the spec's.
    short_tile: bool = False
    cols_tile_block: int = 0
    cols_tile_elems: int = 0  # and a one-read op's cols tile there: up to this many elements (COLS_TILE_ELEMS)
    # cuda: an op of order-free combiners only walks a row of at most LANES elements in its cols
    # kernels one lane a column where the view holds FREE_COLS_MIN columns or more, FREE_COLS_K or
    # more a batch row (FREE_COLS_BLOCK columns a program); False: none.
    free_cols: bool = False
    # cuda: a one-read op's cols kernels build the lane tree of a row of at most COLS_STACK_N
    # elements leaf by leaf, one lane a column, where the view holds COLS_STACK_MIN columns or more,
    # COLS_STACK_K a batch row (COLS_STACK_BLOCK columns a program); False: none.
    cols_stack: bool = False
    # cuda: the combiners whose lanes meet in tl.reduce's tree rather than the written-out
    # pairwise one (combiners.Combiner.order_free: any tree gives the same result).
    free_trees: tuple[str, ...] = ()
    # cuda: a commutative combiner's pairwise tree has two forms, the same pairs and bits
    # (combiners.Combiner.pair_tree), picked per launch by the kernels' PAIRS.
    pair_trees: bool = False
    # cuda: the stages whose chunk walks combine an UNROLL group that ends inside its chunk
    # unmasked (the same bits). Where an order-free (index) combiner reduces, only if each such
    # combiner folds its groups (group_walk), and only in the rows walks (macros.j2 `chunk`): on an
    # H100 argmax f32 512 x 151936 combined element by element took 248 us unmasked against 178
    # masked, while the other stages gained up to 1.3x (docs/gpu_2026_11_23/exp_ftz.md); its
    # folded groups unmasked took 0.85-0.98x the time of the masked ones on an H200 (run 153).
    unmasked_stages: tuple[int, ...] = ()
    # cuda: the index combiners whose rows walks fold a lane's UNROLL group to one pair before
    # combining it (combiners.Combiner.group: the extreme, then the first position holding it). On an
    # H200 (runs 152-153, docs/gpu_2026_11_28/README.md; argmax and argmin, f32 and bf16, 1-16384 rows
    # of 4096-151936, every result torch's), with the groups that end inside the chunk unmasked
    # (unmasked_stages): bf16 0.65-0.98x the time (geomean 0.77; 4096 x 16384 73.2 -> 49.0 us, 1024 x
    # 151936 168.5 -> 112.4), f32 0.78-0.96x (geomean 0.86). Not in the cols kernels' walks
    # (COLS_UNROLL 1: a group of one tile) nor their own walks. softmax_stats' fold (one state a
    # group, one exp an element; run 161) changes the bits (Combiner.group_exact False): the groups
    # are then part of the order (`order_groups`), folded in the cols kernels' chunk walks too
    # (COLS_UNROLL is UNROLL there), and taken only by a spec without a row kernel whose walk is the
    # whole op (plan_cuda): logsumexp.
    group_walk: tuple[str, ...] = ()
    # cuda: the combiners whose row-kernel combine may take their lean form (combiners.Combiner.
    # lean_body: the same function bit for bit), which the launcher picks per call (16-bit
    # inputs on grids that are not short: ROW_LEAN_ITEMSIZE, ROW_FEW_PROGRAMS).
    row_lean: tuple[str, ...] = ()
    # cuda: the most chunks whose lane trees the row kernel runs as one (ROW_STACK_MAX; a power
    # of two): 1 where its rows hold one chunk at most.
    row_stack: int = 1
    # cuda: the row kernel has a form across chunks (_k_rows_across: a tile holds the same lanes
    # of every chunk, so more warps hold a row without copies), where its rows stack chunks and
    # nothing reads an element's position (its tiles count positions from their chunk's start).
    row_across: bool = False

    # The reductions whose chunk partial each chunk computes directly, without walking its
    # elements (direct_kind): a gather `x[t]` (a max over where(position == t, x, -inf): the element
    # at t where the chunk holds t, else -inf) and an idempotent combiner's reduction of an
    # expression that does not vary along the reduce axis (cross_entropy's `max(t == ignore_index)`:
    # that expression). The partial the chunk's lanes and tree would give, bit for bit, for a load
    # or two a row. cuda: where no row kernel or one-lane cols walk holds the row (their walks
    # combine every reduction); ascend: always (its one kernel walks the chunks). On an H200 (run
    # 167, docs/gpu_2026_11_28/README.md): cross_entropy bf16 4096 x 32000 took 413 us walking them
    # (torch 250; three combines, two 64-bit compares and a target load an element), 105 us with
    # them direct (91 with its softmax_stats folded, group_walk); nll_loss, which walked only them,
    # 275 us -> 5.2 (torch 3.0).
    direct: tuple[str, ...] = ()
    # cuda: the combiners whose chunk walks combine the elements of their whole groups (every tile
    # inside the chunk: each lane then holds the same count) with their step form
    # (combiners.Combiner.step_body: the count's arithmetic once a tile, the same bits). ascend keeps
    # the body: its scalar and vector units' divisions were never compared on an NPU.
    step_walks: tuple[str, ...] = ()
    # cuda: the warps of a rows kernel's walk over rows of several chunks of 16-bit (at most
    # ROWS_NARROW_ITEMSIZE-byte) elements, ROWS_NARROW_MIN chunks in all (ROWS_NARROW_WARPS); 0: the
    # spec's warps everywhere.
    rows_narrow_warps: int = 0
    # cuda: the software-pipelined stages of a rows kernel's fused output sweep over rows of several
    # chunks of at most ROWS_OUT_ITEMSIZE-byte elements (ROWS_OUT_STAGES), in a spec of one input; 0:
    # no such sweep, or none.
    rows_out_stages: int = 0
    # cuda: the cols kernels of a plan with step walks load COLS_STEP_UNROLL (cols_unroll) or, at blocks
    # narrower than COLS_STEP_WIDE_BLOCK, COLS_STEP_NARROW_UNROLL tiles together, the wide blocks under
    # COLS_STEP_MAXNREG registers (the constants above).
    cols_step: bool = False

    @property
    def rows_tail(self) -> bool:
        """cuda: the launcher takes ROWS_TAIL_UNROLL for the rows walks of 16-bit rows whose last chunk
        would walk more tiles alone than a group of it holds: where those walks exist and UNROLL shapes
        no order."""
        return bool(self.rows_narrow_warps and self.unroll and not self.order_groups)

    @property
    def order_groups(self) -> tuple[str, ...]:
        """The combiners whose walks fold groups of UNROLL tiles with other bits than combining them
        one by one: UNROLL then shapes their order (the certificate states it)."""
        return tuple(c for c in self.group_walk if not combiners.get(c).group_exact)

    @property
    def row_holds_short(self) -> bool:
        """The row kernel holds short rows too (every row it can): it walks them in TILE lanes where
        the fused walks take short rows so. A one-read spec's (row_min) holds long rows only, and
        its short rows keep the rows kernel's walk."""
        return bool(self.row_tiles) and not self.row_min

    @property
    def symbols(self) -> dict[str, str]:
        """What each shape symbol means, for messages and certificates."""
        op = self.op
        out = {op.reduce_axis: "the reduce length"}
        if op.before:
            out[op.before] = "the batch rows before the reduce axis"
        if op.after:
            out[op.after] = "the columns after the reduce axis"
        out["cores"] = "the core budget of the device"
        return out

    @property
    def batch_symbols(self) -> tuple[str, ...]:
        return tuple(a for a in (self.op.before, self.op.after) if a)


def _order(op: ir.Op) -> Order:
    s = op.schedule
    n = sym.Sym(op.reduce_axis)
    lanes = s.tile(op.reduce_axis, DEFAULT_LANES)
    split = s.split
    if split is None:
        # No split: one chunk covering the whole axis (max(1, N) so that N == 0 works).
        chunk, kind = sym.smax(sym.const(1), n), "none"
    elif split.kind == "fixed_size":
        chunk, kind = split.value, "fixed_size"
    else:
        count = sym.smax(sym.const(1), split.value)
        chunk, kind = sym.smax(sym.const(1), sym.cdiv(n, count)), "fixed_count"
    where = split.loc if split else None
    return Order(
        lanes=lanes, chunk=chunk, num_chunks=sym.cdiv(n, chunk), tree="pairwise",
        chunk_combine="left_to_right", acc=op.acc,
        combiners=tuple(r.combiner for r in op.reductions), stages=op.stages,
        split_kind=kind, atomic=False,
        provenance=(("lanes", s.loc(f"tile:{op.reduce_axis}")), ("chunk", where), ("num_chunks", where)),
    )


def plan_cuda(op: ir.Op, t: targets.Target = targets.CUDA) -> Plan:
    refuse_missing(op, t)
    s = op.schedule
    m = sym.Sym(op.before) if op.before else sym.const(1)
    k = sym.Sym(op.after) if op.after else sym.const(1)
    warps = s.warps or DEFAULT_WARPS
    block_m = s.tile(op.before, 1).eval({}) if op.before else 1
    block_k = s.tile(op.after, DEFAULT_BLOCK_K).eval({}) if op.after else 1
    kernels = [Kernel("rows", "K == 1", block_m, sym.cdiv(m, sym.const(block_m)), warps)]
    if op.after:
        kernels.append(Kernel("cols", "K > 1", block_k, sym.mul(m, sym.cdiv(k, sym.const(block_k))), warps))
    order = _order(op)
    split_tree = bool(op.after) and _split_tree_pays(op)  # the cols kernels' tree form
    # Their block at short rows, walked in place (a merged reduce axis divides each position, not
    # measured with it).
    short_block = split_tree and not op.reduce_axes
    # The row kernel pays where a spec reads the row more than once: outputs over the reduce
    # axis (a sweep after the reductions) or a second stage. A merged reduce axis (nest) keeps
    # the chunked walk.
    rereads = bool(op.mapped) or op.stages > 1
    # A combiner may hold shorter rows (its record's row_max: softmax_stats, 4096). A spec that reads
    # its row once holds rows of at most ROW_ONCE_MAX, if its combiners are ROW_ONCE_COMBINERS'.
    # (a position read keeps the chunked walks, but for the index pairs, which the row kernel holds
    # in its own form, never across chunks)
    pairs = bool(order.combiners) and all(c in ROW_ONCE_PAIRS for c in order.combiners)
    once = not rereads and (pairs or (all(c in ROW_ONCE_COMBINERS for c in order.combiners)
                                      and not _reads_position(op)))
    row_max = min((combiners.get(c).row_max or ROW_MAX for c in order.combiners), default=ROW_MAX)
    held = row_max if rereads else ROW_ONCE_MAX if once else 0
    row_tiles = (min(ROW_TILES, held // order.lanes.eval({}))
                 if held and op.before and not op.reduce_axes and order.lanes.is_const() else 0)
    row_stack = _row_stack(order, row_tiles)
    short_tile = _short_tile_pays(order)  # cols kernels, and the rows kernel's walk or the row kernel
    free_cols = bool(op.after) and all(combiners.get(c).order_free for c in order.combiners)
    # a one-read op's cols kernels: one stage, no output over the reduce axis (short rows' walks)
    one_read = short_tile and bool(op.after) and op.stages == 1 and not op.mapped
    cols_stack = (one_read and not free_cols and len(op.inputs) == 1 and not op.locals and not op.reduce_axes
                  and not _reads_position(op))
    direct = () if row_tiles or cols_stack else tuple(r.name for r in op.reductions if direct_kind(op, r))
    # The combiners whose chunk walks fold UNROLL groups (group_walk). One whose fold gives other
    # bits than its combine of each element: only where no row kernel holds the row (which combines
    # each element, and the forced walks must give its bits at rows of 8 tiles), and in a spec whose
    # walk is the whole op (one walked reduction, the others direct; no output over the reduce axis:
    # logsumexp, cross_entropy). Run 165 timed softmax and log_softmax folded with their cols kernels'
    # output sweeps loading 8 tiles too: log_softmax f32 64 x 40000 x 16 165.7 -> 1048 us, softmax f32
    # 4 x 151936 x 8 23.1 -> 41.7, while their rows walks gained (0.91-0.99x). cross_entropy folded
    # (run 167, its targets direct): 0.86-0.95x the time of its rows walks (bf16 4096 x 32000 104.7 ->
    # 90.9 us), 0.72-0.98x of its cols kernels'.
    walked = [r for r in op.reductions if r.name not in direct]
    if not walked:
        kernels[0] = Kernel("rows", "K == 1", DIRECT_BLOCK, sym.cdiv(m, sym.const(DIRECT_BLOCK)), warps)
    whole = not op.mapped and len(walked) == 1
    groups = tuple(sorted({c for c in {r.combiner for r in walked} if combiners.get(c).group
                           and (combiners.get(c).group_exact or (not row_tiles and whole))}))
    # the cols kernels fold such groups too (a row's bits must not depend on K), so their
    # COLS_UNROLL is the rows walks' UNROLL there
    inexact = any(not combiners.get(c).group_exact for c in groups)
    steps = tuple(sorted({r.combiner for r in walked if combiners.get(r.combiner).step_body}))
    return Plan(
        op=op, target=t.name, order=order, kernels=tuple(kernels),
        # where every reduction is direct no chunk is walked: the split path would only add a launch
        split_below=0 if len(direct) == len(op.reductions) else SPLIT_BELOW_REREAD if rereads else SPLIT_BELOW_ONCE,
        finish_block=FINISH_BLOCK, row_tiles=row_tiles, row_min=ROW_ONCE_MIN if once and row_tiles else 0,
        row_rows=ROW_ONCE_PAIR_ROWS if once and pairs and row_tiles else 0,
        row_half_rows=ROW_ONCE_PAIR_HALF_ROWS if once and pairs and row_tiles else 0,
        row_prefetch=(ROW_PREFETCH_MIN if op.mapped and row_tiles and row_tiles * order.lanes.eval({}) > ROW_PREFETCH_MIN
                      and len(_row_read(op)) == 1 else 0),
        unroll=UNROLL,
        cols_unroll=(UNROLL if inexact else COLS_STEP_UNROLL if steps else COLS_UNROLL) if op.after else 0,
        cols_split_tree=COLS_SPLIT_TREE_BLOCK if split_tree else 0, align_hint=True,
        cols_short_block=COLS_SHORT_BLOCK if short_block else 0,
        cols_short_tiles=COLS_SHORT_TILES if short_block else 0,
        short_tile=short_tile,
        cols_tile_block=COLS_TILE_BLOCK if split_tree and short_tile else 0,
        cols_tile_elems=COLS_TILE_ELEMS if one_read else 0,
        free_trees=tuple(sorted({c for c in order.combiners if combiners.get(c).order_free})),
        free_cols=free_cols,
        cols_stack=cols_stack,
        pair_trees=True,
        unmasked_stages=tuple(s for s in range(op.stages) if not any(
            combiners.get(r.combiner).order_free and not combiners.get(r.combiner).group
            for r in op.reductions if r.stage == s)),
        row_lean=tuple(sorted({c for c in order.combiners if combiners.get(c).lean_body})) if row_tiles else (),
        group_walk=groups, direct=direct,
        step_walks=steps, cols_step=bool(steps) and bool(op.after),
        rows_narrow_warps=ROWS_NARROW_WARPS if walked and kernels[0].name == "rows" else 0,
        rows_out_stages=(ROWS_OUT_STAGES if walked and op.mapped and kernels[0].name == "rows" and len(op.inputs) == 1
                         else 0),
        row_stack=row_stack, row_across=row_stack > 1 and not _reads_position(op),
        copy_rule=_NESTED_RULE.format(*op.reduce_axes) if op.reduce_axes else
        "the launcher moves the reduced dims next to each other with a permute (a view) and "
                  "copies only when a group of merged dims has strides that no single stride can express",
    )


def _row_stack(order: Order, row_tiles: int) -> int:
    """ROW_STACK_MAX where a held row may have several chunks (row_tiles tiles of the lanes): the
    row kernel's stack helpers go up to it. 1: none (a row of one chunk at most)."""
    if not row_tiles or not order.chunk.is_const():
        return 1
    return ROW_STACK_MAX if row_tiles * order.lanes.eval({}) > order.chunk.eval({}) else 1


def direct_kind(op: ir.Op, r: ir.Reduction) -> str:
    """How a chunk's partial of reduction `r` may be computed without walking the chunk: "gather"
    (check.py's form of `x[t]`: max over where(position == t, x, -inf), x a float input over the
    reduce axis, t an integer input without it), "constant" (an idempotent combiner over an
    expression of inputs without the reduce axis, parameters, sizes and literals), or "" (walked)."""
    e = r.expr
    if r.combiner == "max" and isinstance(e, ir.Apply) and e.fn == "where":
        hit, x, miss = e.args
        if (isinstance(hit, ir.Apply) and hit.fn == "eq" and hit.args[0] == ir.Ref("pos", r.axis)
                and isinstance(hit.args[1], ir.Ref) and hit.args[1].kind == "input"
                and isinstance(x, ir.Ref) and x.kind == "input" and miss == ir.Lit(float("-inf"))
                and r.axis in _axes(op, x.name) and r.axis not in _axes(op, hit.args[1].name)):
            return "gather"
    if not combiners.get(r.combiner).idempotent:
        return ""
    for ref in ir.refs(e):
        if ref.kind not in ("input", "param", "size") or (ref.kind == "input" and r.axis in _axes(op, ref.name)):
            return ""
    return "constant"


def _axes(op: ir.Op, name: str) -> tuple[str, ...]:
    return next(i.axes for i in op.inputs if i.name == name)


def gather_refs(r: ir.Reduction) -> tuple[str, str]:
    """(x, t): the spec's names of a gather reduction's input and index (direct_kind "gather")."""
    hit, x, _ = r.expr.args
    return x.name, hit.args[1].name


def _row_read(op: ir.Op) -> set[str]:
    """The inputs the reductions read along the row (what a row kernel holds)."""
    return {i for r in op.reductions for i in ir.inputs_read(r.expr, op)}


def _reads_position(op: ir.Op) -> bool:
    """Whether an expression or a combiner's lift reads an element's position on the reduce axis."""
    exprs = [r.expr for r in op.reductions] + [v.expr for v in op.locals] + [o.expr for o in op.outputs]
    if any(r.kind == "pos" for e in exprs for r in ir.refs(e)):
        return True
    return any("{n}" in s.lift for r in op.reductions for s in combiners.get(r.combiner).state)


def _short_tile_pays(order: Order) -> bool:
    """Whether the fused walks may take short rows in a tile of fewer lanes: every combiner's
    lanes meet in the pairwise tree of its combine, or in any tree (an order-free combiner), so
    the LANES-lane tree is the P-lane one met level by level with subtrees of empty lanes. A
    combiner with a lane tree of its own (softmax_stats, welford: lanes rescaled to a row-wide
    value before they are summed) keeps the LANES-lane walk. One lane has no shorter tile (rows of
    at most half the lanes: none; a fuzzed `tile N = 1` emitted a launcher naming SHORT_TILE_MAX,
    which it never defined)."""
    if not order.lanes.is_const() or order.lanes.eval({}) < 2:
        return False
    return all(not combiners.get(c).tree for c in order.combiners)


def _split_tree_pays(op: ir.Op) -> bool:
    """Whether the cols kernels take tl.split's tree form at COLS_SPLIT_TREE_BLOCK columns: one
    stage of one reduction whose combiner keeps one state component, no output over the reduce
    axis (what they hold besides the tree stays small)."""
    return (op.stages == 1 and not op.mapped and len(op.reductions) == 1
            and len(combiners.get(op.reductions[0].combiner).state) == 1)


# `reduce N1, N2 as N`: how each target reaches the merged position n1*N2 + n2. On cuda the
# kernels walk it in place: one int32 division per element buys no copy of the input (a
# copy is a full extra read and write, more than the division costs in a memory-bound
# reduction). Ascend keeps its rule (the reduce axis contiguous, innermost): the copy that
# lays it out merges the two axes too. The combine order is the same either way.
_NESTED_RULE = ("the kernels walk the reduce axes {0}, {1} in place, position n of the merged axis at "
                "({0}, {1}) = (n // {1}, n % {1}), one stride each: the input is never copied")
_MERGED_RULE = ("the reduce axes {0}, {1} become one axis of {0}*{1} elements (position n1*{1} + n2): ")


# --- ascend (triton-ascend on Atlas A2 / 910B; its limits: targets.ASCEND) ---------
MAX_BLOCK_ROWS = 64  # rows per tile at most; enough to fill the UB with any useful LANES
DTYPE_BYTES = {"f32": 4, "f16": 2, "bf16": 2}


def ub_live(t: targets.Target) -> int:
    """Live tile bytes per program: half the UB, since the compiler double-buffers loads."""
    return t.ub_bytes // 2


def ub_usage(op: ir.Op, lanes: int, block_rows: int, t: targets.Target = targets.ASCEND,
             direct: tuple[str, ...] = ()) -> UBUsage:
    """Live bytes per program: per element of the [block_rows, lanes] tile, summed over what
    one chunk loop holds at once (the stage that holds most), for the worst input dtype.

    Counted per tile element: 4 per f32 accumulator of the stage; per input loaded in the
    stage its dtype size, plus 4 for its f32 copy when it is not f32; 4 per element-wise
    local; 4 for one temporary (the masked value in the loop, a tree half after it); per
    reduction what its combiner's record says its other state components and combine
    temporaries take (combiners.Combiner.ub_extra: argmax/argmin 8, their int32 index
    accumulator and the masked index; softmax_stats 16, its scaled sum, the lifted 1.0
    tile, the new max and the rescale factors). A `direct` reduction (Plan.direct) holds no
    tile: its partial is a row's value.
    """
    worst = None
    ints = {i.name for i in op.inputs if i.integer}  # int64 tiles, never copied to float32
    for dt in sorted({d for i in op.inputs if not i.integer for d in i.dtypes}, key=lambda d: (DTYPE_BYTES[d], d)):
        per = 0
        parts = ""
        for s in range(op.stages):
            reds = [r for r in op.reductions if r.stage == s and r.name not in direct]
            names = sorted({i for r in reds for i in inputs_read(r.expr, op)})
            locals_ = [v for v in locals_read([r.expr for r in reds], op) if v.per_element]
            load = sum(8 if name in ints else DTYPE_BYTES[dt] + (4 if dt != "f32" else 0) for name in names)
            extra = sum(r.spec.ub_extra for r in reds)
            b = 4 * len(reds) + extra + load + 4 * len(locals_) + 4
            if b > per:
                per = b
                parts = (f"{len(reds)} f32 accumulator(s), {len(names)} {dt} input tile(s)"
                         + "".join(f", {r.spec.ub_extra} bytes of {r.combiner} state and temporaries"
                                   for r in reds if r.spec.ub_extra)
                         + (" + their f32 copies" if dt != "f32" else "")
                         + (f", {len(locals_)} element-wise local(s)" if locals_ else "") + ", 1 temporary")
        if op.mapped:
            # The sweep over the reduce axis that writes the outputs over it: its inputs (and
            # f32 copies), element-wise locals, one f32 value per output, one temporary.
            exprs = [o.expr for o in op.mapped]
            names = sorted({i for e in exprs for i in inputs_read(e, op)})
            locals_ = [v for v in locals_read(exprs, op) if v.per_element]
            load = sum(8 if name in ints else DTYPE_BYTES[dt] + (4 if dt != "f32" else 0) for name in names)
            b = load + 4 * len(locals_) + 4 * len(op.mapped) + 4
            if b > per:
                per = b
                parts = (f"the output sweep: {len(names)} {dt} input tile(s)"
                         + (" + their f32 copies" if dt != "f32" else "")
                         + (f", {len(locals_)} element-wise local(s)" if locals_ else "")
                         + f", {len(op.mapped)} output value(s), 1 temporary")
        if worst is None or per > worst[0]:
            worst = (per, dt, parts)
    per, dt, parts = worst
    return UBUsage(block_rows, lanes, per, dt, block_rows * lanes * per, ub_live(t), parts)


def refuse_missing(op: ir.Op, t: targets.Target) -> None:
    """A function (or fp8 output) the target's compiler cannot lower: refused at build time,
    naming where the spec uses it (the list: Target.missing)."""
    for fn, loc in op.calls:
        if fn in t.missing:
            raise NotOnTarget(f"{t.name}: {functions.describe(fn)} has no lowering in the {t.name} compiler "
                              f"({t.compiler}); this spec cannot be built for {t.name}", loc, op.source)
    for o in op.outputs:
        if o.dtype and o.dtype in t.missing:
            raise NotOnTarget(f"{t.name}: output '{o.name}' is {o.dtype}, which {t.name} cannot store "
                              f"({t.compiler}); this spec cannot be built for {t.name}", o.loc, op.source)


def plan_ascend(op: ir.Op, t: targets.Target = targets.ASCEND) -> Plan:
    """Persistent programs over rows of the reduce axis, made innermost and contiguous.

    The launcher views the input as rows [M*K, N] (permuting [M, N, K] to [M, K, N]);
    a 1-D grid of min(row blocks, cores) programs each loops over row blocks
    pid, pid + grid, ...; a tile is [BLOCK_R, LANES] with the reduce axis as its tail.
    The order is `_order(op)`, the same object as cuda's: the same spec gives the same
    bits on both targets. BLOCK_R (rows per tile) fills the Unified Buffer; it is not
    order-shaping, since rows are reduced independently and the lane tree is explicit.
    """
    refuse_missing(op, t)
    s = op.schedule
    order = _order(op)
    # the reductions a chunk's partial needs no walk for (Plan.direct; the persistent kernel walks
    # the others, or no chunk where it walks none)
    direct = tuple(r.name for r in op.reductions if direct_kind(op, r))
    tile_loc = s.loc(f"tile:{op.reduce_axis}")
    if not order.lanes.is_const():
        lanes = None  # the verifier rejects it with a counterexample
        block_rows = 1
        ub = None
    else:
        lanes = order.lanes.eval({})
        narrow = min(DTYPE_BYTES[d] for i in op.inputs if not i.integer for d in i.dtypes)
        if lanes * narrow % t.ub_align:
            raise TargetLimit(
                f"{t.name}: the reduce tile {op.reduce_axis} = {lanes} is {lanes * narrow} bytes of the narrowest "
                f"input dtype; the tail of a tile must be a multiple of {t.ub_align} bytes "
                f"(use tile {op.reduce_axis} >= {t.ub_align // narrow})", tile_loc, op.source)
        ub = ub_usage(op, lanes, 1, t, direct)
        if not ub.fits:
            raise TargetLimit(
                f"{t.name}: the reduce tile {op.reduce_axis} = {lanes} needs {ub.live} bytes of Unified Buffer "
                f"per program ({lanes} lanes x {ub.bytes_per_elem} bytes: {ub.breakdown}; {ub.worst_dtype} "
                f"inputs), but only {ub.budget} bytes are available ({t.ub_bytes // 1024} KB UB per core, half "
                f"for double buffering); use tile {op.reduce_axis} <= "
                f"{_pow2_floor(ub.budget // ub.bytes_per_elem)}", tile_loc, op.source)
        block_rows = 1
        while block_rows < MAX_BLOCK_ROWS and ub_usage(op, lanes, block_rows * 2, t, direct).fits:
            block_rows *= 2
        ub = ub_usage(op, lanes, block_rows, t, direct)
    # No `cores` line: the target's default budget; `cores auto` (None): queried at launch.
    cores = s.cores if s.loc("cores") is not None else t.default_cores
    if cores is not None and cores > t.max_cores:
        raise TargetLimit(
            f"{t.name}: cores {cores} exceeds the {t.max_cores} vector cores of the largest Atlas A2; "
            f"a grid larger than the physical cores only queues programs (use cores <= {t.max_cores} "
            f"or cores auto)", s.loc("cores"), op.source)
    m = sym.Sym(op.before) if op.before else sym.const(1)
    k = sym.Sym(op.after) if op.after else sym.const(1)
    rows = sym.mul(m, k)
    programs = sym.smin(sym.cdiv(rows, sym.const(block_rows)), sym.Sym("cores"))
    cores_words = f"{cores}" if cores is not None else "auto (queried from the device)"
    return Plan(
        op=op, target=t.name, order=order,
        kernels=(Kernel("rows", "True", block_rows, programs, 1),),
        split_below=0, finish_block=0,
        copy_rule=(_MERGED_RULE.format(*op.reduce_axes) if op.reduce_axes else "")
        + "the launcher lays the input out as rows of the reduce axis, innermost and contiguous "
                  "(the seed's [m, n, k] -> [m, k, n]): a view when no dim follows the reduced ones and "
                  "they are contiguous, otherwise one .contiguous() copy of the permuted input (always "
                  "when dims follow the reduced ones, unless the reduce axis is already the contiguous one)",
        cores=cores,
        ub=ub, direct=direct,
        notes=(
            f"rows per tile (BLOCK_R <= {block_rows}, chosen by the launcher from the row count) and "
            f"the kernel layout: rows are reduced independently and the lane tree is explicit",
            f"the grid: min(row blocks, cores) persistent programs, each looping over row blocks "
            f"pid, pid + grid, ... (cores: {cores_words})",
            "the permuted copy of the input ([M, N, K] -> [M, K, N]): it moves data, not the order",
        ),
    )


def _pow2_floor(n: int) -> int:
    return 1 << (max(1, n).bit_length() - 1)



def problems(plan: Plan) -> list[str]:
    """What is inconsistent in a reduction plan with its op (empty: nothing); tests run it
    on every shipped spec and target, beside ir.problems."""
    out = list(ir.problems(plan.op))
    if plan.target not in targets.names():
        out.append(f"unknown target {plan.target}")
    missing = [f for f in ORDER_FIELDS if getattr(plan.order, f, None) is None]
    if missing:
        out.append(f"order lacks {', '.join(missing)}")
    if not plan.kernels:
        out.append("no kernel shape")
    shapes = [k.name for k in plan.kernels]
    if len(set(shapes)) != len(shapes):
        out.append(f"kernel shapes twice: {shapes}")
    if any(k.block < 1 or k.num_warps < 1 for k in plan.kernels):
        out.append("a kernel with no rows per program or no warps")
    return out
