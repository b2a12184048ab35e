"""The backends redgen builds for, one frozen record each: every fact about a target in one place.

A record says how a target is planned (its planner in plan.py), where its templates are,
which torch device and dispatch key run its kernels, its hardware limits, what its compiler
lacks, and how the empirical check forces its kernel paths. The rest of redgen reads these
fields (`targets.get(plan.target).ub_bytes`), never `if target == "ascend"`; adding a backend
is a record here, a planner, and a template folder (docs/architecture.md lists the files).

This module imports nothing of the pipeline, so the runtime (loader, torch_ops, mode) and
the empirical worker read it without importing the planner or z3.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from redgen.errors import UnknownTarget, did_you_mean


@dataclass(frozen=True)
class Target:
    """One backend. Limits that do not apply to it are None."""

    name: str  # --target, generated/<name>/, Plan.target
    planner: str  # its reduction planner: a function of redgen/plan.py, (Op, Target) -> Plan
    templates: str  # its folder under templates/ (module.py.j2, attention.py.j2, contraction.py.j2)
    device_type: str  # torch device type of the tensors its kernels take ("cuda", "npu")
    dispatch_key: str  # the torch dispatch key redgen.batch_invariant() overrides for that device
    compiler: str  # who lowers its kernels, in words (messages about what it lacks)
    # Functions ("erf", "pow" for a non-integer `**`) and fp8 output dtypes its compiler cannot
    # lower, found by compiling (scripts/ascend_check.sh for ascend): refused at plan time (T305).
    missing: tuple[str, ...]
    # Keyword arguments of every kernel launch. enable_fp_fusion=False forbids the compiler to
    # contract a * b + c into an FMA, which it may do differently in different kernel variants
    # (fused vs split path, BLOCK sizes) and so give a row other bits at another batch size.
    launch_options: str
    fusion_trust: str  # how the backend treats launch_options, as the certificate states it (verify.trusted)
    # What exp is in every kernel (`_rg_exp`, templates/<target>/exp.py.j2), as the certificate
    # states it (verify.trusted).
    exp_impl: str
    # The core budget a persistent grid is capped at. default_cores: when the spec has no
    # `cores` line, and what a counterexample shows when the spec gives none (cuda's grid is
    # never capped by cores: its value there only makes `fixed_count cores / M` readable).
    default_cores: int
    max_cores: int | None  # the most cores of any part: a larger fixed budget only queues programs
    cube_cores: int | None  # matrix (AI/cube) cores, where tl.dot runs: attention's and matmul's budget
    max_cube_cores: int | None
    ub_bytes: int | None  # on-chip buffer per core every live tile of a program must fit in
    ub_align: int | None  # bytes: the tail of every tile a multiple of this
    # The empirical check calls each module with one module-level knob forced to each value:
    # cuda's SPLIT_BELOW (0: always the fused path, huge: the split path whenever there is
    # more than one chunk), ascend's CORES (the grid: persistent programs loop, or sit idle).
    empirical_knob: str
    empirical_paths: tuple[tuple[str, int], ...]
    # Module knobs set on every forced path where a module has them, (knob, value): cuda's
    # ROW_MAX_TILES = 0 (the forced fused and split paths walk rows in chunks, and the natural
    # path, which holds rows on chip where they fit, is compared against them) and UNROLL = 1
    # (the forced walks load one tile at a time, the natural one UNROLL tiles together), and
    # SHORT_TILE_MAX = 0 (the forced fused walks take LANES lanes at every length, the natural ones
    # a tile of the power of two holding a short row).
    empirical_off: tuple[tuple[str, int], ...] = ()
    # Kernel forms the empirical check also runs, each compared bit for bit with the natural call
    # at every reduce length (first dtype, K == 1): (name, ((knob, value), ...)), set where a
    # module has every knob. cuda's "lean": the row kernel's lean combines (plan.Plan.row_lean)
    # forced on for every dtype and grid; "across": the row kernel across its chunks
    # (plan.Plan.row_across) wherever a row has 2 to ROW_STACK_MAX chunks; "row": never across.
    empirical_forms: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    # A form of the walks of short rows, compared bit for bit with the natural call at every reduce
    # length up to the module's own value of its knob, at every K (first dtype): (name, knob, value),
    # where a module has the knob; () none. cuda's "long_tile": SHORT_TILE_MAX 0, a row this short
    # walked in LANES lanes as a longer one is, not in TILE (plan.Plan.short_tile).
    empirical_short_form: tuple[str, str, int] | tuple[()] = ()
    # An fp8 output's byte is computed in integers from the rounded float32 bits, its sign bit the
    # input's, and stored as the fp8 dtype's bits: no float-to-fp8 conversion is compiled. On an H200
    # the conversion stored +0 for about half of the negative values that round to zero, where torch
    # stores -0 (run 214), and the conversion of the magnitude with the sign ORed into its byte
    # stored 0xfc at every odd element of the 4-warp row kernel (run 216: Triton's unpacking of the
    # paired e4m3x2 conversion); the integer form gave torch's bytes at every point (run 216,
    # docs/ops.md). False: the rounded value is cast with its sign.
    fp8_int_bytes: bool = False
    # Forms of the cols kernels' walks, each compared bit for bit with the natural call at every reduce
    # length and every K > 1 (first dtype): (name, ((knob, value), ...)), run where the plan's flag of that
    # name (plan.Plan) is set and the module has every knob. cuda's "free_cols": FREE_COLS_MIN,
    # FREE_COLS_K, FREE_COLS_LONG_MIN, FREE_COLS_LONG_K and FREE_COLS_FLAT_MIN 0, any view's columns
    # walked one lane a column at rows of at most LANES, FREE_COLS_LONG_TILE lanes at longer rows of one
    # chunk (plan.Plan.free_cols), where the natural call at the check's few columns walks TILE lanes;
    # "cols_stack": COLS_STACK_MIN and COLS_STACK_K 0, the lane
    # tree built leaf by leaf at rows of at most COLS_STACK_N (plan.Plan.cols_stack). Both with
    # COLS_FLAT_BELOW 4: at K 3 the walk's columns flat across batch rows, at K 5 a block cut to K
    # (AFTER_SIZES 3 and 5).
    empirical_cols_forms: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    # The grids recorded by the empirical check (ascend: the forced CORES values); () none.
    empirical_grids: tuple[int, ...] = ()
    # The environment variable a launcher of `cores auto` reads where no device can be asked
    # (the empirical check sets it to default_cores under the interpreter); "" none.
    cores_env: str = ""
    # Launches pass the plan's num_warps / num_stages (cuda: a contraction regime's; the
    # ascend templates pass neither).
    launch_warps: bool = False
    dot_units: str = ""  # what caps a tl.dot kernel's persistent grid, in words (certificate notes)
    # The empirical check runs again on an attached device of this type, the kernels compiled
    # for real (FMA contraction, instruction selection: what the interpreter cannot show).
    # Only where that was exercised: cuda (no NPU has been available).
    device_check: bool = False
    # How a kernel holds an index along the reduce axis (an argmax's state), as Triton source:
    # its type and the identity above every index. cuda: int64 where the launcher chose WIDE
    # (sizes past int32), else int32; ascend: int32 (the launcher refuses larger sizes).
    index_type: str = "tl.int32"
    index_max: str = "2147483647"
    # The public launchers replay a call signature's recorded launches (cuda's launch.py.j2,
    # `_replayed`): the module globals a call reads that a test, a sweep or the empirical
    # check may set are part of the signature.
    replay: bool = False
    # Integer kernel arguments Triton is told not to specialize on (do_not_specialize): a value
    # that changes from call to call (M, R: the batch) would otherwise compile a kernel per
    # class of value. cuda lets K specialize: a cols kernel's column mask (k < K) is then known
    # to be constant over 16 columns where K is a multiple of 16, and its loads become 16-byte
    # vectors (mean bf16 [M, N, K]: 24 LDG.128 where 192 LDG.U16 loaded the same tile; H100,
    # docs/gpu_2026_11_26/README.md runs 16-17). Specialization shapes no order: only what the compiler
    # knows of an integer changes, never a floating-point operation.
    unspecialized: tuple[str, ...] = ("M", "K", "R")
    # The launcher's module knobs, by the feature of a module that has them (redgen/emit.py,
    # _knob_names: "always", or a plan's row kernel, its form across chunks, ...), in the order a
    # replayed signature holds them. A spec's `tune` may set any but stated_knobs where its module
    # has that feature (check.py checks the name against the target's, emit.py against the module's).
    knobs: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # Knobs whose value is a count of lanes or warps the kernels take as a power of two (a `tune`
    # of them is checked to be one; of warps, at most 32, num_warps' bound).
    pow2_knobs: tuple[str, ...] = ()
    # Knobs whose values the plan decides and the certificate states (the split path's bound, the
    # rows the row kernel holds, the tiles a walk loads together, the chunks stacked, which inputs
    # are held as loaded): a `tune` may not set them, or the certificate would describe another
    # launcher.
    stated_knobs: tuple[str, ...] = ()

    def knob_names(self) -> tuple[str, ...]:
        return tuple(k for _, names in self.knobs for k in names)

    def tunable(self) -> tuple[str, ...]:
        """The knobs a spec's `tune` may set (where its module has them)."""
        return tuple(k for k in self.knob_names() if k not in self.stated_knobs)

    @property
    def persistent(self) -> bool:
        """The grid is capped at a core budget and programs loop over their work (ascend):
        the empirical check then forces the budget (the module's CORES)."""
        return self.max_cores is not None
    # Where the kernels run under TRITON_INTERPRET=1 when no device is attached: the device
    # type of the tensors the interpreter takes ("cpu" for the target CI tests; "" none).
    interpret_device: str = ""

    def plan(self, op):
        """The reduction plan of `op` for this target. The planner reads its limits from this
        record; it is looked up in plan.py when asked, so the runtime never imports it."""
        return getattr(importlib.import_module("redgen.plan"), self.planner)(op, self)


_CUDA_KNOBS = (
    ("always", ("SPLIT_BELOW", "FINISH_BLOCK")),
    ("unroll", ("UNROLL",)),
    ("cols_unroll", ("COLS_UNROLL",)),
    ("rows_narrow", ("ROWS_NARROW_ITEMSIZE", "ROWS_NARROW_WARPS", "ROWS_NARROW_MIN", "ROWS_NARROW_SPLIT_BLOCK")),  # the rows walks' warps for 16-bit rows
    ("rows_tail", ("ROWS_TAIL_UNROLL",)),  # their groups where a last chunk would walk tiles alone
    ("rows_out", ("ROWS_OUT_STAGES", "ROWS_OUT_ITEMSIZE")),  # the stages of their fused output sweeps
    ("cols_step", ("COLS_STEP_NARROW_UNROLL", "COLS_STEP_WIDE_BLOCK", "COLS_STEP_MAXNREG", "COLS_STEP_CAP_ROW_BYTES")),  # step walks' cols tiles
    ("short_tile", ("SHORT_TILE_MAX", "SHORT_TILE_MIN", "ROWS_TILE_ELEMS")),  # short rows' fused walks
    ("cols_tile_block", ("COLS_TILE_BLOCK",)),  # and its column block
    ("cols_tile_elems", ("COLS_TILE_ELEMS",)),  # and a one-read op's cols tile
    ("free_cols", ("FREE_COLS_MIN", "FREE_COLS_K", "FREE_COLS_BLOCK", "FREE_COLS_SMALL", "FREE_COLS_SMALL_BLOCK",
                   "FREE_COLS_LONG_TILE", "FREE_COLS_LONG_BLOCK", "FREE_COLS_LONG_MIN", "FREE_COLS_LONG_K", "FREE_COLS_FLAT_MIN")),  # an order-free op's cols walk, one lane a column
    ("cols_stack", ("COLS_STACK_MIN", "COLS_STACK_N", "COLS_STACK_K", "COLS_STACK_BLOCK", "COLS_STACK_LONG_N",
                    "COLS_STACK_SMALL", "COLS_STACK_SMALL_BLOCK", "COLS_STACK_LEAVES",
                    "COLS_STACK_WIDE_LEAVES", "COLS_STACK_FLAT_LEAVES",
                    "COLS_STACK_GROUP_TILE", "COLS_STACK_SPLIT_COLS", "COLS_STACK_SPLIT_MAX",
                    "COLS_STACK_ONE_RUN_N", "COLS_STACK_DEEP_ITEMSIZE", "COLS_STACK_DEEP_NARROW_MIN", "COLS_STACK_DEEP_LEAVES",
                    "COLS_STACK_DEEP_BLOCK_BYTES", "COLS_STACK_DEEP_PROGRAMS", "COLS_TILE_WIDE_ITEMSIZE",
                    "COLS_TILE_WIDE_BLOCK", "COLS_TILE_WIDE_PROGRAMS")),  # a one-read op's: its lane tree leaf by leaf
    ("cols_flat", ("COLS_FLAT_BELOW",)),  # their columns across batch rows
    ("row_tile", ("ROW_TILE_WARP_LANES",)),  # and the row kernel's warps there
    ("row", ("ROW_MAX_TILES", "ROW_ELEMS", "ROW_WARP_LANES", "ROW_FEW_PROGRAMS", "ROW_FEW_MIN_ELEMS", "ROW_FEW_WARPS",
             "ROW_LONG", "ROW_LONG_WARPS", "ROW_RAW_ITEMSIZE")),
    ("row_min", ("ROW_MIN",)),  # the shortest row it holds (a one-read spec's)
    ("row_rows", ("ROW_ROWS", "ROW_HALF_ROWS")),  # and the grids it holds them on (index pairs)
    ("row_prefetch", ("ROW_PREFETCH_MIN", "ROW_PREFETCH_MAX", "ROW_PREFETCH_AHEAD")),  # and the rows it prefetches into L2
    ("row_stack", ("ROW_STACK", "ROW_STACK_LONG")),  # the chunks' trees stacked
    ("row_across", ("ROW_ACROSS_MIN", "ROW_ACROSS_EVEN_MIN", "ROW_ACROSS_PAD", "ROW_ACROSS_LANES",
                    "ROW_ACROSS_PROGRAMS", "ROW_ACROSS_WORDS", "ROW_ACROSS_PACK_WORDS", "ROW_ACROSS_FEW_WARPS",
                    "ROW_ACROSS_PACK_LANES", "ROW_ACROSS_PACK_CHUNKS")),  # its form across chunks
    ("row_extra", ("ROW_MAP_ELEMS", "ROW_PRE_PROGRAMS", "ROW_PRE_WORDS")),  # the row kernel's other inputs
    ("row_lean", ("ROW_LEAN_ITEMSIZE",)),  # its combiners' lean forms
    ("row_early", ("ROW_EARLY_WORDS",)),  # its outputs stored with the loads
)

CUDA = Target(
    name="cuda", planner="plan_cuda", templates="cuda", device_type="cuda", dispatch_key="CUDA",
    compiler="upstream Triton", missing=(),
    launch_options="enable_fp_fusion=False", fusion_trust="the NVIDIA backend honours it",
    exp_impl="on the GPU ex2.approx.ftz.f32 of x * log2(e) (an input or a result below 2**-126 flushes to "
             "zero), under the interpreter tl.exp",
    default_cores=40, max_cores=None, cube_cores=None, max_cube_cores=None, ub_bytes=None, ub_align=None,
    empirical_knob="SPLIT_BELOW", empirical_paths=(("fused", 0), ("split", 1 << 62)),
    empirical_off=(("ROW_MAX_TILES", 0), ("UNROLL", 1), ("COLS_UNROLL", 1), ("COLS_STEP_NARROW_UNROLL", 1),
                   ("SHORT_TILE_MAX", 0)),
    empirical_forms=(("lean", (("ROW_LEAN_ITEMSIZE", 8), ("ROW_FEW_PROGRAMS", -1))),
                     ("across", (("ROW_ACROSS_PROGRAMS", 1 << 62), ("ROW_ACROSS_MIN", 0))),
                     ("row", (("ROW_ACROSS_MIN", 1 << 62), ("ROW_ACROSS_EVEN_MIN", 1 << 62))),
                     ("late", (("ROW_PRE_PROGRAMS", -1),)),
                     ("stored_late", (("ROW_EARLY_WORDS", -1),))),
    empirical_short_form=("long_tile", "SHORT_TILE_MAX", 0), fp8_int_bytes=True,
    empirical_cols_forms=(("free_cols", (("FREE_COLS_MIN", 0), ("FREE_COLS_K", 0), ("FREE_COLS_LONG_MIN", 0),
                                         ("FREE_COLS_LONG_K", 0), ("FREE_COLS_FLAT_MIN", 0),
                                         ("COLS_FLAT_BELOW", 4))),
                          ("cols_stack", (("COLS_STACK_MIN", 0), ("COLS_STACK_K", 0), ("COLS_FLAT_BELOW", 4)))),
    interpret_device="cpu", launch_warps=True, dot_units="SMs", device_check=True, replay=True,
    knobs=_CUDA_KNOBS, pow2_knobs=("SHORT_TILE_MIN", "COLS_TILE_BLOCK", "COLS_TILE_ELEMS", "FREE_COLS_BLOCK", "FREE_COLS_SMALL_BLOCK", "FREE_COLS_LONG_TILE", "FREE_COLS_LONG_BLOCK", "COLS_STACK_BLOCK", "COLS_STACK_SMALL_BLOCK", "COLS_STACK_LEAVES", "COLS_STACK_WIDE_LEAVES", "COLS_STACK_FLAT_LEAVES", "COLS_STACK_GROUP_TILE", "COLS_STACK_SPLIT_MAX", "COLS_STACK_DEEP_LEAVES", "COLS_STACK_DEEP_BLOCK_BYTES", "COLS_STACK_DEEP_PROGRAMS", "ROWS_TILE_ELEMS", "ROW_TILE_WARP_LANES", "ROW_WARP_LANES", "ROW_FEW_WARPS", "ROW_LONG_WARPS", "ROW_ACROSS_LANES",
                                    "ROW_ACROSS_FEW_WARPS", "ROW_ACROSS_PACK_LANES", "ROWS_NARROW_WARPS", "ROWS_NARROW_SPLIT_BLOCK", "COLS_TILE_WIDE_BLOCK", "COLS_STEP_WIDE_BLOCK"),
    stated_knobs=("SPLIT_BELOW", "FINISH_BLOCK", "UNROLL", "COLS_UNROLL", "SHORT_TILE_MAX", "ROW_MAX_TILES", "ROW_MIN",
                  "ROW_STACK", "ROW_RAW_ITEMSIZE"),
    unspecialized=("M", "R"),
    index_type="(tl.int64 if WIDE else tl.int32)", index_max="(9223372036854775807 if WIDE else 2147483647)",
)

# triton-ascend on Atlas A2 (910B): 40 vector (AIV) cores on the 910B3/B4, 48 at most;
# 20 cube (AIC) cores, 24 at most; 192 KB Unified Buffer per vector core.
ASCEND = Target(
    name="ascend", planner="plan_ascend", templates="ascend", device_type="npu", dispatch_key="PrivateUse1",
    compiler="triton-ascend 3.2.0, checked by scripts/ascend_check.sh", missing=(),
    launch_options="enable_fp_fusion=False",
    exp_impl="tl.exp",
    fusion_trust="triton-ascend 3.2 accepts it but does not pass it to the BiSheng compiler, which is trusted "
                 "to contract, if at all, alike in every BLOCK_R variant",
    default_cores=40, max_cores=48, cube_cores=20, max_cube_cores=24, ub_bytes=192 * 1024, ub_align=32,
    # 1 and 8 make programs loop (persistent) over the rows, 40 and 48 leave programs idle.
    empirical_knob="CORES", empirical_paths=(("grid1", 1), ("grid8", 8), ("grid40", 40), ("grid48", 48)),
    empirical_grids=(1, 8, 40, 48), cores_env="REDGEN_ASCEND_CORES", dot_units="AI cores",
)

TARGETS: dict[str, Target] = {t.name: t for t in (CUDA, ASCEND)}


def get(name: str) -> Target:
    """The record of target `name`, or UnknownTarget naming the ones that exist."""
    if name in TARGETS:
        return TARGETS[name]
    raise UnknownTarget(f"unknown target '{name}' (available: {', '.join(sorted(TARGETS))})"
                        + did_you_mean(name, TARGETS))


def planner(name: str) -> Callable:
    """The reduction planner of target `name` (Op -> Plan), or UnknownTarget."""
    return get(name).plan


def names() -> tuple[str, ...]:
    return tuple(sorted(TARGETS))


def for_device(device_type: str) -> Target:
    """The target whose kernels run tensors of `device_type`: its own device, or the CPU under
    the interpreter. Other device types get cuda's launchers, which refuse them by name."""
    for t in TARGETS.values():
        if device_type in (t.device_type, t.interpret_device):
            return t
    return CUDA
