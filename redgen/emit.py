"""Stage 5: Plan (+ certificate) -> generated module source, via Jinja.

Python decides everything here and hands the templates a typed context;
templates only format. Output is byte-identical for identical inputs.
"""

from __future__ import annotations

import importlib.util
import math
import struct
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import jinja2

from redgen import __version__, combiners, ir, targets
from redgen.errors import BadTune, MissingTemplates, did_you_mean
from redgen.exprs import helpers, narrowed, pow_form, pow_params, render
from redgen.ir import inputs_read, locals_read, reductions_read, stage_needed
from redgen.names import usable
from redgen.plan import (
    ALIGN_MAX,
    COLS_FLAT_BELOW,
    COLS_STACK_BLOCK,
    COLS_STACK_DEEP_BLOCK_BYTES,
    COLS_STACK_DEEP_ITEMSIZE,
    COLS_STACK_DEEP_LEAVES,
    COLS_STACK_DEEP_NARROW_MIN,
    COLS_STACK_DEEP_PROGRAMS,
    COLS_STACK_FLAT_LEAVES,
    COLS_STACK_GROUP_LEVELS,
    COLS_STACK_GROUP_TILE,
    COLS_STACK_K,
    COLS_STACK_LEAVES,
    COLS_STACK_LONG_N,
    COLS_STACK_MIN,
    COLS_STACK_N,
    COLS_STACK_ONE_RUN_N,
    COLS_STACK_SMALL,
    COLS_STACK_SMALL_BLOCK,
    COLS_STACK_SPLIT_COLS,
    COLS_STACK_SPLIT_MAX,
    COLS_STACK_WIDE_LEAVES,
    COLS_STEP_CAP_ROW_BYTES,
    COLS_STEP_MAXNREG,
    COLS_STEP_NARROW_UNROLL,
    COLS_STEP_WIDE_BLOCK,
    COLS_TILE_WIDE_BLOCK,
    COLS_TILE_WIDE_ITEMSIZE,
    COLS_TILE_WIDE_PROGRAMS,
    FREE_COLS_BLOCK,
    FREE_COLS_FLAT_MIN,
    FREE_COLS_K,
    FREE_COLS_LONG_BLOCK,
    FREE_COLS_LONG_K,
    FREE_COLS_LONG_MIN,
    FREE_COLS_LONG_TILE,
    FREE_COLS_MIN,
    FREE_COLS_SMALL,
    FREE_COLS_SMALL_BLOCK,
    ROW_PREFETCH_AHEAD,
    ROW_PREFETCH_MAX,
    ROW_TILE_WARP_LANES,
    ROWS_NARROW_ITEMSIZE,
    ROWS_NARROW_MIN,
    ROWS_NARROW_SPLIT_BLOCK,
    ROWS_OUT_ITEMSIZE,
    ROWS_TAIL_UNROLL,
    ROWS_TILE_ELEMS,
    SHORT_TILE_MIN,
    Plan,
    gather_refs,
)
from redgen.plan import direct_kind as plan_direct_kind


def template_root() -> Path:
    """The folder holding templates/<target>/*.j2.

    The templates live in the repository's top-level templates/ folder, their one copy;
    pyproject.toml installs that folder as the package `redgen.templates`, so a wheel carries
    them and `pip install -e .` maps the package onto the folder itself. The folder beside the
    redgen/ that is running comes first: a checkout put on sys.path without installing (the
    GPU scripts do that) has no such package, and a second checkout (a git worktree) run while
    another one is installed editable must not render that one's templates.
    """
    checkout = Path(__file__).resolve().parent.parent / "templates"
    if (checkout / "__init__.py").is_file() and (checkout / "cuda" / "module.py.j2").is_file():
        return checkout
    spec = importlib.util.find_spec("redgen.templates")
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    raise MissingTemplates(f"redgen's templates are missing: no package redgen.templates is installed and "
                           f"{checkout} is not the templates/ folder of a checkout; reinstall redgen "
                           f"(pip install .) or run it from its repository")

TORCH_DTYPES = {"f32": "torch.float32", "f16": "torch.float16", "bf16": "torch.bfloat16", "i64": "torch.int64",
                "f8e4m3": "torch.float8_e4m3fn", "f8e5m2": "torch.float8_e5m2"}


@dataclass(frozen=True)
class Fp8Ctx:
    """The constants of one fp8 format's rounding helper (templates/common/macros.j2)."""

    torch: str
    mant: int
    max: str
    over: str  # what a rounded magnitude above max becomes: nan (e4m3fn) or inf (e5m2)
    shift: int  # float32 mantissa bits dropped
    half: int  # rounding increment below the half ulp (plus the kept lsb: ties to even)
    mask: int  # clears the dropped bits
    normal_min: str  # smallest normal fp8 magnitude
    # 2**23 subnormal ulps: (a + sub_add) - sub_add rounds a magnitude below normal_min to the
    # subnormal grid (to nearest even; float32's ulp at sub_add is the fp8 subnormal ulp)
    sub_add: str
    sub_ulp: str
    tl: str  # the Triton dtype
    # Where over is nan: the magnitude above which the rounding passes max (max and half its ulp; the
    # tie rounds to max, whose last mantissa bit is 0), so that one unordered compare of the input
    # (above it, or a NaN) gives nan; "" where over is not nan (the rounded value and the NaN checked).
    nan_above: str
    # The byte in integers (targets.Target.fp8_int_bytes): a normal magnitude's rounded float32 bits
    # shifted right by `shift`, less code_bias, are its fp8 code (exponent and mantissa: float32's
    # exponent bias 127 against the format's); a subnormal's code is the bits of a + sub_add less
    # sub_bits (float32's ulp there being the fp8 subnormal ulp, the difference counts those ulps).
    code_bias: int
    sub_bits: int
    over_code: int  # the code of inf (e5m2); 127, a NaN's, where over is nan
    int_bytes: bool = False


def _fp8(mant: int, emin: int, fmax: float, over: str, torch_name: str, tl_name: str) -> Fp8Ctx:
    shift = 23 - mant
    m, e = math.frexp(fmax)  # fmax = m * 2**e, 0.5 <= m < 1: its fp8 ulp is 2**(e - 1 - mant)
    even = int(m * 2 ** (mant + 1)) % 2 == 0
    nan_above = repr(fmax + 2.0 ** (e - 2 - mant)) if over == "nan" and even else ""
    sub_add = 2.0 ** (23 + emin - mant)
    # the format's exponent bias is 1 - emin; inf's code: the exponent all ones, the mantissa zero
    over_code = 127 if over == "nan" else 127 >> mant << mant
    return Fp8Ctx(torch_name, mant, repr(fmax), over, shift, (1 << (shift - 1)) - 1, -(1 << shift),
                  repr(2.0 ** emin), repr(sub_add), repr(2.0 ** (emin - mant)), tl_name, nan_above,
                  (126 + emin) << mant, struct.unpack("<i", struct.pack("<f", sub_add))[0], over_code)


FP8 = {"f8e4m3": _fp8(3, -6, ir.FP8_MAX["f8e4m3"], "nan", "torch.float8_e4m3fn", "tl.float8e4nv"),
       "f8e5m2": _fp8(2, -14, ir.FP8_MAX["f8e5m2"], "inf", "torch.float8_e5m2", "tl.float8e5")}



@dataclass(frozen=True)
class ValueCtx:
    """A named value and its source, in one kernel context. `name` is the emitter's
    (p_<i>, v_<i>); `spec` the spec's name, for comments; `pub` the launcher's keyword."""

    name: str
    expr: str
    spec: str = ""
    pub: str = ""
    line: int = 0  # the spec line of the expression: the kernel line's `# spec:LINE` comment
    form: str = ""  # a parameter an expression raises to: the constexpr beside it (exprs.pow_form)


@dataclass(frozen=True)
class StateCtx:
    """One component of a reduction's state (combiners.Component), named and placed."""

    acc: str  # the [tile] accumulator of a chunk
    part: str  # a chunk's partial, after the lane tree
    tot: str  # the row's total, after the chunks
    dtype: str  # tl.float32 | tl.int32
    identity: str
    ws: str  # the split path's workspace of its dtype: ws (float32) | iws (int32)
    slot: int  # its row in that workspace (every stage's partials have rows of their own)
    pad: str = ""  # cuda's TILE walk: a subtree of lanes that hold no element (macros.j2 `chunk`)


@dataclass(frozen=True)
class ReductionCtx:
    name: str
    index: int  # global index of the reduction
    combiner: str
    state: tuple[StateCtx, ...]
    # The state as argument lists: "r_0_acc, r_0_iacc" ...; per kernel shape, the element
    # lifted into a state, masked elements the identity; the accumulators as the tree takes
    # them (transposed for the cols kernel, whose tile has the lanes first).
    accs: str
    parts: str
    tots: str
    lifts: dict[str, str]
    # The same lift without the mask: for tiles whose every position is inside the row and its
    # chunk (cuda's row kernel, and the walks' groups before gf), where `ok` holds for every
    # row that is stored.
    full_lifts: dict[str, str]
    tree_args: dict[str, str]
    line: int = 0  # the spec line of the reduce statement (`# spec:LINE`)
    lean: bool = False  # the row kernel may combine with `_<combiner>_lean` (plan.Plan.row_lean)
    pads: str = ""  # the state's `pad` names as an argument list
    # cuda's rows walks (the cols kernels' too where `group_sum`) fold a lane's UNROLL group
    # (macros.j2 `group_fold`, `group_reload`): `group` the extreme of two values
    # (combiners.Combiner.group, over `{a}`, `{b}`; "" none) folded over the group's values
    # `<name>_gv` into `<name>_gm`; `group_state` the lines computing the state's other component,
    # named here, but for the walk's `{w}` and `{lv}`; `group_args` the group's state;
    # `group_lifts` the element's value masked to the identity, per kernel shape (`full_group_lifts`
    # unmasked, as `full_lifts`).
    group: str = ""
    # the sum (combiners.Combiner.group_sum): its start, one element `{v}` added, its end (named);
    # the cols kernels' walks fold these groups too (group_reload)
    group_sum: tuple[str, ...] = ()
    group_state: tuple[str, ...] = ()
    group_args: str = ""
    # an index combiner's groups fold into the lane's state by `_<combiner>_walk`
    # (combiners.Combiner.walk_body), and this line, but for the walk's `{lv}`, then gives a lane whose
    # value is the identity after the chunk walk its first position; "" none
    walk_fix: str = ""
    group_doc: tuple[str, ...] = ()
    group_lifts: dict[str, str] | None = None
    full_group_lifts: dict[str, str] | None = None
    # the direct partial (plan.Plan.direct): the lines computing the chunk partial from the row's
    # values (`<input>_r`, StageCtx.row_loads) and the chunk's bounds c0, c1 in either kernel shape,
    # with no walk; None: walked
    direct: tuple[str, ...] | None = None
    # the element's value for the combiner's step form (plan.Plan.step_walks), per kernel shape:
    # the chunk walks' whole groups combine `_<combiner>_step(<accs>, <value>, seen)`; None: none
    step_values: dict[str, str] | None = None
    # the accumulators the step form carries (`accs` but the count, combiners.Combiner.step_count),
    # and the count's, set from `seen` after the whole groups ("": the step carries every one)
    step_accs: str = ""
    step_count_acc: str = ""


@dataclass(frozen=True)
class CombinerCtx:
    """A combiner's Triton functions: `_<name>(a0, .., b0, ..)` (combiners.Combiner.body)
    and `_tree_<name>(v0, .., ...)`, the pairwise lane tree over its state."""

    name: str
    params: str  # "a0, a1, b0, b1"
    doc: tuple[str, ...]
    body: tuple[str, ...]
    values: str  # "v0, v1": the tree's state
    splits: tuple[tuple[str, str, str], ...]  # (a_j, b_j, v_j) per component
    rows_out: str  # what the cuda tree returns: each component reshaped to [ROWS]
    tree: tuple[str, ...] = ()  # the combiner's own lane-tree body (combiners.Combiner.tree); () the pairwise one
    tree_doc: tuple[str, ...] = ()  # the comment above a `tree` body
    lean_body: tuple[str, ...] = ()  # `_<name>_lean`, where a row kernel of the plan takes it; () none
    step_body: tuple[str, ...] = ()  # `_<name>_step(a0, .., v, k)`, where the plan's walks take it; () none
    step_params: str = ""  # "a0, a1, v, k"
    walk_body: tuple[str, ...] = ()  # `_<name>_walk`, where the plan's rows walks fold its groups; () none


@dataclass(frozen=True)
class StageCtx:
    index: int
    last: bool
    reductions: tuple[ReductionCtx, ...]
    prior: tuple[ReductionCtx, ...]  # reductions of earlier stages (their totals are read)
    inputs: tuple[str, ...]  # inputs loaded per element
    elem_locals: dict[str, tuple[ValueCtx, ...]]  # kernel shape -> locals per element
    row_locals: tuple[ValueCtx, ...]  # per-row locals this stage's element exprs need
    # The prior reductions this stage's expressions read (the split path's partial kernel
    # loads these alone: a gather's or a mask's total may be read only by the outputs).
    reads: tuple[ReductionCtx, ...] = ()
    # the kernel shapes whose chunk walks combine the UNROLL groups that end inside the chunk
    # unmasked (plan.Plan.unmasked_stages)
    unmasked_walks: tuple[str, ...] = ()
    # the chunk walks: the reductions they combine element by element (those not `direct`) and
    # the inputs those read; the direct partials' row values, one load a row (`<input>_r`)
    walked: tuple[ReductionCtx, ...] = ()
    walk_inputs: tuple[str, ...] = ()
    row_loads: tuple[str, ...] = ()


@dataclass(frozen=True)
class InputCtx:
    name: str  # in_<i>, the emitter's
    axes: tuple[str, ...]  # spec axis names (docstrings only)
    dtypes: str  # torch dtype tuple source
    dtype_names: str
    spec: str = ""  # the spec's name (messages, docstrings)
    pub: str = ""  # the launcher's argument name: the spec's name when usable, else `name`
    groups: tuple[int, ...] = ()  # per axis: 0 batch before, 1 reduce, 2 batch after
    neutral: str = "None"  # the value standing in for a None argument (1.0 factor, 0.0 summand); None: required


@dataclass(frozen=True)
class OutputCtx:
    name: str  # out_<i>, the emitter's
    like: str | None
    dtype: str | None  # torch dtype source when fixed
    expr: str  # per-row expression (reduced outputs; "" for mapped ones)
    index: bool = False  # an argmax/argmin index (int64), whatever `dtype=` says
    mapped: bool = False  # over the reduce axis: computed per element after every reduction
    elem: dict[str, str] | None = None  # mapped: kernel shape -> element expression
    spec: str = ""  # the spec's name (OUTPUTS keys, docstrings)
    line: int = 0  # the spec line of its assignment (`# spec:LINE`)


@dataclass(frozen=True)
class KernelCtx:
    name: str
    when: str
    block: int
    programs: str  # python source over M, N, K
    num_warps: int


@dataclass(frozen=True)
class ModuleCtx:
    op: str
    spec_path: str
    spec_file: str  # the spec's file name (a comment in the body, the same from any directory)
    spec_digest: str
    version: str
    certificate_lines: tuple[str, ...]
    certificate_literal: str
    certificate_digest: str
    reduce_axis: str
    before: str | None
    after: str | None
    inputs: tuple[InputCtx, ...]
    params: tuple[ValueCtx, ...]
    outputs: tuple[OutputCtx, ...]
    final_row_locals: tuple[ValueCtx, ...]
    stages: tuple[StageCtx, ...]
    kernels: tuple[KernelCtx, ...]
    combiners: tuple[CombinerCtx, ...]
    lanes: int
    log2_lanes: int
    chunk: str  # python source over N
    num_chunks: str
    split_below: int
    finish_block: int
    copy_rule: str
    ws_slots: int  # float32 workspace rows, all stages' (split path)
    unspecialized: tuple[str, ...]  # the kernels' do_not_specialize (targets.Target.unspecialized)
    cols_split_tree: int  # plan.Plan.cols_split_tree
    cols_short_block: int = 0  # plan.Plan.cols_short_block, for rows of at most cols_short_n
    cols_short_n: int = 0
    # plan.Plan.short_tile: the walks of a row in one tile take TILE lanes at rows of at most
    # short_tile_max elements (0: no TILE), at least short_tile_min; tile_walks names them: "cols"
    # (the cols kernels' fused walk), "rows" (the rows kernel's, in blocks of rows_tile_elems
    # elements) or "row" (the row kernel, which then holds such rows in place of the rows kernel).
    # The cols kernels take blocks of cols_tile_block columns there (0: the spec's).
    short_tile_max: int = 0
    tile_walks: tuple[str, ...] = ()
    short_tile_min: int = 0
    rows_tile_elems: int = 0
    row_tile_warp_lanes: int = 0  # the row kernel's warps there: one a this many elements (0: no "row")
    cols_tile_block: int = 0
    cols_tile_elems: int = 0  # plan.Plan.cols_tile_elems (0: none)
    # plan.Plan.free_cols: the cols kernels' walk one lane a column from free_cols_min columns
    # (free_cols_flat_min at a short row and K), free_cols_k a batch row, in blocks of free_cols_block
    # (free_cols_small_block below free_cols_small columns); at longer rows free_cols_long_tile lanes
    # from free_cols_long_min columns, free_cols_long_k a batch row, in blocks of free_cols_long_block
    # (0: none)
    free_cols_min: int = 0
    free_cols_k: int = 0
    free_cols_block: int = 0
    free_cols_small: int = 0
    free_cols_small_block: int = 0
    free_cols_long_tile: int = 0
    free_cols_long_block: int = 0
    free_cols_long_min: int = 0
    free_cols_long_k: int = 0
    free_cols_flat_min: int = 0
    # plan.Plan.cols_stack: the cols kernels' lane tree leaf by leaf from cols_stack_min columns,
    # cols_stack_k a batch row, in blocks of cols_stack_block (cols_stack_small_block below
    # cols_stack_small columns; in runs below cols_stack_split_cols), cols_stack_leaves leaves a loop iteration from a TILE of
    # cols_stack_group_tile; stack_levels its loop's stack's depth (0: none), stack_group_levels its group's
    cols_stack_min: int = 0
    cols_stack_n: int = 0
    cols_stack_k: int = 0
    cols_stack_block: int = 0
    cols_stack_long_n: int = 0  # rows longer than this take the wider groups (cols_stack_wide_leaves)
    cols_stack_small: int = 0
    cols_stack_small_block: int = 0
    cols_stack_leaves: int = 0
    cols_stack_wide_leaves: int = 0  # the group at rows past cols_stack_long_n from cols_stack_small columns
    cols_stack_flat_leaves: int = 0  # the same, at a K below cols_flat_below
    cols_stack_group_tile: int = 0
    cols_stack_split_cols: int = 0  # the stack's leaves in runs on views of fewer columns
    cols_stack_split_max: int = 0
    cols_stack_one_run_n: int = 0  # longer rows take one run only from cols_stack_split_cols columns
    cols_stack_deep_itemsize: int = 0  # rows longer than LANES where the input's elements take fewer bytes
    cols_stack_deep_narrow_min: int = 0  # only from this many columns
    cols_stack_deep_leaves: int = 0  # and the group there
    cols_stack_deep_block_bytes: int = 0  # a program's columns there and at those narrow elements: this many bytes of a row
    cols_stack_deep_programs: int = 0  # and their runs: up to this many programs
    cols_tile_wide_itemsize: int = 0  # their tile walk over elements of at most this many bytes, of one chunk,
    cols_tile_wide_block: int = 0  # takes this many columns a program (plan.COLS_TILE_WIDE_BLOCK)
    cols_tile_wide_programs: int = 0  # where they make at least this many programs
    stack_levels: int = 0
    stack_group_levels: int = 0
    widen_loads: bool = False  # the cols walks' float loads widened through _rg_f32 (exprs.narrowed)
    # the cols kernels' own walk (free_cols, cols_stack) in flat columns m * K + k where K is shorter
    # than cols_flat_below and the walk's block (FLAT; 0: no such walk)
    cols_flat_below: int = 0
    # plan.Plan.align_hint: the kernels take ALIGN, at most align_max (0: no ALIGN), and rebind
    # the integers hinted() names; the launcher computes it over align_rows / align_cols.
    align_max: int = 0
    align_rows: str = ""  # python source: the values ALIGN divides for a rows (or row) kernel
    align_cols: str = ""  # the same for a cols kernel
    # outputs over the reduce axis (mapped) and what their element-wise sweep needs
    reduced: tuple[OutputCtx, ...] = ()
    mapped: tuple[OutputCtx, ...] = ()
    map_inputs: tuple[str, ...] = ()  # inputs loaded per element by the sweep
    map_elem_locals: dict[str, tuple[ValueCtx, ...]] | None = None  # kernel shape -> locals per element
    map_row_locals: tuple[ValueCtx, ...] = ()  # per-row locals the mapped outputs read
    map_totals: tuple[ReductionCtx, ...] = ()  # reductions the mapped outputs read (split path folds their partials)
    reduced_reads: tuple[str, ...] = ()  # reductions the reduced outputs read
    # ascend only (the cuda templates never read them)
    cores: int | None = None  # fixed core budget; None: `cores auto`
    ub: object = None  # plan.UBUsage
    # int32 state components (argmax/argmin indices)
    arg_slots: int = 0  # int32 workspace rows, all stages' (split path); 0: none
    index_op: bool = False  # every output is an index: the launcher takes no `dtype=`
    # An output is a reduction torch has no value for over an empty axis (max, min,
    # argmax, argmin): the launcher raises, naming this combiner. None: it computes.
    empty_raises: str | None = None
    index_extreme: str = ""  # an index op: "maximum" / "minimum", the value its index points at
    # The public launcher: its signature and how it calls _run (over emitter names).
    signature: str = ""
    run_params: str = ""
    run_call: str = ""
    renamed: str = ""  # "spec name -> argument" for names the launcher could not keep
    launch_options: str = ""  # keyword arguments of every kernel launch (Target.launch_options)
    # language extensions (issue 14)
    helpers: tuple[str, ...] = ()  # element-wise helpers to define (functions, fp8 rounding, f32 widening)
    int_inputs: tuple[str, ...] = ()  # integer inputs: loaded as they are, never as float32
    fp8: dict[str, Fp8Ctx] | None = None  # fp8 output formats used -> their rounding constants
    # `reduce N1, N2 as N`: the first input's dims the launcher reduces (fixed by the spec,
    # e.g. "(1, 3)"), and nest: the kernels walk the merged axis as (n // N_IN, n % N_IN) with
    # one stride each, in place (cuda); without nest the launcher merges them (ascend: a copy).
    reduce_dims: str | None = None
    ndim: int = 0
    nest: bool = False
    # cuda's row kernel (plan.row_tiles > 0): the inputs it holds on chip, loaded once per
    # row (those the reductions read; the others are loaded by the output sweep).
    row_tiles: int = 0
    row_min: int = 0  # plan.row_min
    row_rows: int = 0  # plan.row_rows (and the row kernel's held loads widened through _rg_f32_held)
    row_prefetch: int = 0  # plan.row_prefetch (the row kernels' L2 prefetch: PF, PF_LINES, _rg_prefetch)
    row_prefetch_ahead: int = 0
    row_prefetch_max: int = 0  # plan.ROW_PREFETCH_MAX where the module prefetches
    row_half_rows: int = 0  # plan.row_half_rows
    row_inputs: tuple[str, ...] = ()
    # The inputs the row kernel's output sweep loads (a weight, a bias: read by the outputs,
    # not by the reductions); () where it has none.
    row_extra: tuple[str, ...] = ()
    # The mapped outputs that read no reduction and only held inputs (add_rms_norm's h = x + r):
    # the row kernel may store them right after its loads (EARLY), with the inputs and
    # per-element locals they read (rendered for the rows shape).
    row_early: tuple[OutputCtx, ...] = ()
    row_early_inputs: tuple[str, ...] = ()
    row_early_locals: tuple[ValueCtx, ...] = ()
    unroll: int = 0  # cuda: tiles a chunk walk loads together (the UNROLL knob's default); 0: no such code
    unroll_orders: bool = False  # its walks fold groups that shape the order (plan.Plan.order_groups)
    walks: bool = True  # some stage walks its chunks (False: every reduction is direct, plan.Plan.direct)
    cols_unroll: int = 0  # cuda: the cols kernels' (COLS_UNROLL); 0: no cols kernels
    # The knobs a replayed call's signature holds, as a tuple expression (Target.replay); "": the
    # public launcher calls _run directly.
    replay_knobs: str = ""
    replay_key: str = ""  # the public call's replay key parts (`replay_key`), where replay_knobs
    # The spec's `tune` lines for this target: (knob, value, spec line), set after the defaults.
    tuned: tuple[tuple[str, int, int], ...] = ()
    # cuda's row kernel may take its combiners' lean forms (plan.Plan.row_lean): a LEAN constexpr.
    row_lean: bool = False
    # cuda's row kernel stacks up to this many chunks' lane trees into one (plan.Plan.row_stack).
    row_stack: int = 1
    # cuda's row kernel has its form across chunks (plan.Plan.row_across): _k_rows_across.
    row_across: bool = False
    # cuda's rows walks of 16-bit rows of several chunks take their own warps (plan.Plan.rows_narrow_warps).
    rows_narrow_warps: int = 0
    rows_narrow_itemsize: int = 0
    rows_narrow_min: int = 0
    rows_narrow_split_block: int = 0
    # the rows walks' groups where a 16-bit row's last chunk would walk tiles alone (plan.Plan.rows_tail):
    # the rule and its knob, ROWS_TAIL_UNROLL (its default value)
    rows_tail: bool = False
    rows_tail_unroll: int = 0
    # cuda's rows fused walks of 16-bit rows of several chunks sweep their outputs in stages
    # (plan.Plan.rows_out_stages): a STAGES constexpr.
    rows_out_stages: int = 0
    rows_out_itemsize: int = 0
    # cuda's cols kernels of a plan with step walks: their narrow blocks' tiles loaded together and
    # the wide blocks' register cap (plan.Plan.cols_step; 0: COLS_UNROLL and the compiler's registers).
    cols_step_narrow_unroll: int = 0
    cols_step_wide_block: int = 0
    cols_step_maxnreg: int = 0
    cols_step_cap_row_bytes: int = 0
    # what the launcher's _schedule reads the input's element bytes for, in words (its docstring)
    isz_picks: str = "nothing in this module"
    # `short N <= bound : op`: reduce lengths up to short_max go to op's module (redgen/short.py),
    # called with the public launcher's own arguments (short_call).
    short_op: str = ""
    short_max: int = 0
    short_call: str = ""

    def hinted(self, shape: str, inputs: list[str], outputs: list[OutputCtx]) -> tuple[str, ...]:
        return hinted_args(shape, inputs, outputs, self.nest)


_BCAST = {"rows": "[:, None]", "cols": "[None, :]"}  # a per-row value across the lanes
_POS_BCAST = {"rows": "[None, :]", "cols": "[:, None]"}  # the lane positions across the rows


def comment_text(text: str) -> str:
    """`text` safe inside a `#` comment of the generated module: a file name with a newline
    (or any other line-breaking or control character) would otherwise start a line of code."""
    return "".join(c if c.isprintable() and c not in "\x85\u2028\u2029" else repr(c)[1:-1] for c in text)


@dataclass(frozen=True)
class Names:
    """The emitter's naming scheme: spec name -> the name generated code uses.

    inputs in_<i>, outputs out_<i>, parameters p_<i>, reductions r_<i>, locals v_<i>,
    in declaration order; the reduce length is the kernel argument N whatever the spec
    calls the axis (E150 refuses reading any other axis size). Spec names reach generated
    code only in comments, docstrings and messages (the grammar makes them identifiers, so
    they cannot break out of a string) and, where usable, as the launcher's public keywords.
    """

    of: dict[tuple[str, str], str]  # (kind, spec name) -> emitter name

    @staticmethod
    def of_op(op: ir.Op) -> Names:
        out: dict[tuple[str, str], str] = {}
        for prefix, kind, items in (("in", "input", op.inputs), ("out", "output", op.outputs),
                                    ("p", "param", op.params), ("r", "reduce", op.reductions),
                                    ("v", "local", op.locals)):
            for i, x in enumerate(items):
                out[(kind, x.name)] = f"{prefix}_{i}"
        return Names(out)

    def __call__(self, kind: str, name: str) -> str:
        return self.of[(kind, name)]


def _namer(op: ir.Op, shape: str | None, names: Names):
    """Variable naming for element (shape = rows/cols) or row (shape None) contexts."""

    def name(r: ir.Ref) -> str:
        if r.kind == "size":
            assert r.name == op.reduce_axis, r  # check.py refuses any other size (E150)
            return "N"
        if r.kind == "pos":  # the element's position along the reduce axis (both targets name it n)
            return f"n{_POS_BCAST[shape]}"
        if r.kind == "reduce":  # one of the names a reduction binds: its state component's total
            red, comp = op.result(r.name)
            suffix = _BCAST[shape] if shape else ""
            return f"{names('reduce', red.name)}_{red.spec.state[comp].suffix}tot{suffix}"
        own = names(r.kind, r.name)
        if r.kind == "param":
            return own
        if r.kind == "input":
            return f"{own}_v"
        suffix = _BCAST[shape] if shape else ""
        return f"{own}_v" if shape and op.local(r.name).per_element else f"{own}_row{suffix}"

    return name


def _public(op: ir.Op, names: Names, index_op: bool) -> tuple[str, str, str, str, str, dict[str, str], str]:
    """(signature, _run parameters, _run call, the call handing the signature's arguments on,
    renamed, public name per spec input/param, the call's replay key parts)."""
    pub: dict[str, str] = {}
    taken: set[str] = set()
    renamed = []
    for kind, items in (("input", op.inputs), ("param", op.params)):
        for x in items:
            own = names(kind, x.name)
            p = x.name if usable(x.name) and x.name not in taken else own
            if p != x.name:
                renamed.append(f"{x.name} -> {p}")
            taken.add(p)
            pub[x.name] = p
    ins = [pub[i.name] for i in op.inputs]
    params = [f"{pub[p.name]}={p.default!r}" for p in op.params]
    own_ins = [names("input", i.name) for i in op.inputs]
    own_params = [names("param", p.name) for p in op.params]
    if op.reduce_axes:
        # The reduced dims are the spec's (its first input has one dim per axis): no `dim`.
        dims = repr(tuple(op.inputs[0].axes.index(a) for a in op.reduce_axes))
        sig = [*ins, "keepdim=False", "*", *params, "dtype=None"]
        run = [*own_ins, "dim", "keepdim", *own_params, "dtype"]
        call = [*ins, dims, "keepdim", *(pub[p.name] for p in op.params), "dtype"]
    elif op.mapped:
        sig = [*ins, "dim=-1", "*", *params, "dtype=None"]
        run = [*own_ins, "dim", *own_params, "dtype"]
        call = [*ins, "dim", *(pub[p.name] for p in op.params), "dtype"]
    elif index_op:
        sig = [*ins, "dim=None", "keepdim=False", *(["*", *params] if params else [])]
        run = [*own_ins, "dim", "keepdim", *own_params]
        call = [*ins, "dim", "keepdim", *(pub[p.name] for p in op.params)]
    else:
        sig = [*ins, "dim=None", "keepdim=False", "*", *params, "dtype=None"]
        run = [*own_ins, "dim", "keepdim", *own_params, "dtype"]
        call = [*ins, "dim", "keepdim", *(pub[p.name] for p in op.params), "dtype"]
    # The public arguments handed on as they came (a `short` op's launcher has this signature):
    # the positional ones by position, those after "*" by name.
    star = sig.index("*") if "*" in sig else len(sig)
    given = [s.split("=")[0] for s in sig]
    forward = [*given[:star], *(f"{n}={n}" for n in given[star + 1:])]
    return (", ".join(sig), ", ".join(run), ", ".join(call), ", ".join(forward), ", ".join(renamed), pub,
            replay_key(ins, call))


def replay_key(ins: list[str], call: list[str]) -> str:
    """The parts of a call's replay key after its run, knobs' state and device, as an inline
    tuple body: what templates/cuda/replay.py.j2 `_sig` holds of each argument, without a call
    per argument. A tensor input's type, shape, strides, dtype, device, requires_grad and
    alignment; `dim`'s type and value, `_sig`'s where a tuple (its elements' types: (0, 1) ==
    (0.0, 1)); every other argument's type and value (`_record` records no call where `_sig`
    refuses one: a tensor `eps`); nothing for a constant (a spec's reduce dims)."""
    parts: list[str] = []
    for a in call:
        if a in ins:
            parts += [f"{a}.__class__", f"{a}.shape", f"{a}.stride()", f"{a}.dtype", f"{a}.device",
                      f"{a}.requires_grad", f"{a}.data_ptr() % 16 == 0"]
        elif a == "dim":
            parts += ["dim.__class__", "dim if dim.__class__ is not tuple else _sig(dim)"]
        elif a.isidentifier():
            parts += [f"{a}.__class__", a]
    return ", ".join(parts)


def _row_locals(op: ir.Op, exprs: list[ir.E], available: int, names: Names) -> tuple[ValueCtx, ...]:
    out = []
    for v in locals_read(exprs, op):
        if v.per_element:
            continue
        assert stage_needed(v.expr, op) <= available, (v.name, available)
        out.append(ValueCtx(names("local", v.name), render(v.expr, _namer(op, None, names)), v.name,
                            line=v.loc.line))
    return tuple(out)


def _neutral(op: ir.Op, name: str) -> str:
    """What a None argument `name` means, as in torch's norms: "1.0" when every use of the
    input is a factor of a product (a weight), "0.0" when every use is a term of a sum (a
    bias), "None" otherwise (the launcher then requires it). The primary input is required."""
    if name == op.inputs[0].name:
        return "None"
    roles: set[str] = set()

    def walk(e: ir.E, parent: str | None) -> None:
        if isinstance(e, ir.Ref):
            if e.kind == "input" and e.name == name:
                roles.add(parent or "bare")
            return
        if isinstance(e, ir.Apply):
            for k, a in enumerate(e.args):
                role = e.fn if e.fn in ("mul", "add") else ("sub0" if e.fn == "sub" and k == 0 else "other")
                walk(a, role)

    exprs = [r.expr for r in op.reductions] + [v.expr for v in op.locals] + [o.expr for o in op.outputs]
    for e in exprs:
        walk(e, None)
    if roles == {"mul"}:
        return "1.0"
    if roles <= {"add", "sub0"} and roles:
        return "0.0"
    return "None"


def _elem_locals(op: ir.Op, vs: list[ir.Local], shapes: list[str], names: Names) -> dict[str, tuple[ValueCtx, ...]]:
    return {sh: tuple(ValueCtx(names("local", v.name), render(v.expr, _namer(op, sh, names)), v.name,
                               line=v.loc.line) for v in vs)
            for sh in shapes}


def _is_index(op: ir.Op, e: ir.E) -> bool:
    return isinstance(e, ir.Ref) and e.kind == "reduce" and op.reduction(e.name).index


def _empty_raises(op: ir.Op) -> str | None:
    """The combiner of the first output that is (through locals) a reduction with no value over
    an empty axis: torch raises for amax/amin/argmax/argmin there. logsumexp (max, then more)
    and sum/mean compute a value (-inf, 0, nan), as torch does."""
    for o in op.outputs:
        e = o.expr
        while isinstance(e, ir.Ref) and e.kind == "local":
            e = op.local(e.name).expr
        if isinstance(e, ir.Ref) and e.kind == "reduce":
            red = op.reduction(e.name)
            if red.spec.empty_raises:
                return red.combiner
    return None


def _output(op: ir.Op, o: ir.Output, shapes: list[str], names: Names) -> OutputCtx:
    dtype = TORCH_DTYPES[o.dtype] if o.dtype else None
    own = names("output", o.name)
    # An fp8 output is rounded as torch rounds before the cast (see Fp8Ctx).
    wrap = (lambda s: f"_rg_{o.dtype}({s})") if o.dtype in ir.FP8_DTYPES else (lambda s: s)
    if o.mapped:
        return OutputCtx(own, o.like, dtype, "", mapped=True,
                         elem={sh: wrap(render(o.expr, _namer(op, sh, names))) for sh in shapes}, spec=o.name,
                         line=o.loc.line)
    return OutputCtx(own, o.like, dtype, wrap(render(o.expr, _namer(op, None, names))),
                     index=_is_index(op, o.expr), spec=o.name, line=o.loc.line)


_WORKSPACE = {"f32": "ws", "index": "iws"}


def _reductions(op: ir.Op, shapes: list[str], names: Names, target: targets.Target,
                lean: tuple[str, ...] = (), grouped: tuple[str, ...] = (),
                direct_names: tuple[str, ...] = (), stepped: tuple[str, ...] = ()) -> list[ReductionCtx]:
    """Every reduction's state, named and placed (its workspace rows), stage by stage; each
    element lifted into a state as its combiner's record says. An index component takes the
    target's index type and identity (targets.Target.index_*).

    On the split path a later kernel (the next stage's partials, the outputs) folds an earlier
    stage's chunk partials itself, while the kernels of its own stage store theirs: every
    stage's partials keep rows of their own in the workspace."""
    types = {"f32": "tl.float32", "index": target.index_type}
    out = []
    slots = dict.fromkeys(_WORKSPACE.values(), 0)
    for stage in range(op.stages):
        for i, r in enumerate(op.reductions):
            if r.stage != stage:
                continue
            own = names("reduce", r.name)
            spec = r.spec
            state = []
            for comp in spec.state:
                if comp.identity == combiners.INDEX_MAX:
                    comp = replace(comp, identity=target.index_max)
                ws = _WORKSPACE[comp.dtype]
                state.append(StateCtx(f"{own}_{comp.suffix}acc", f"{own}_{comp.suffix}part",
                                      f"{own}_{comp.suffix}tot", types[comp.dtype], comp.identity, ws,
                                      slots[ws], pad=f"{own}_{comp.suffix}pad"))
                slots[ws] += 1
            lifts, full_lifts, tree, group_lifts, full_group_lifts = {}, {}, {}, {}, {}
            for sh in shapes:
                v = render(r.expr, _namer(op, sh, names))
                n = f"n{_POS_BCAST[sh]}"
                lifts[sh] = ", ".join(f"tl.where(ok, {c.lift.format(v=v, n=n)}, {st.identity})"
                                      for c, st in zip(spec.state, state, strict=True))
                full_lifts[sh] = ", ".join(c.lift.format(v=v, n=n) for c in spec.state)
                tree[sh] = ", ".join(st.acc if sh == "rows" else f"tl.trans({st.acc})" for st in state)
                full_group_lifts[sh] = spec.state[0].lift.format(v=v, n=n)
                group_lifts[sh] = f"tl.where(ok, {full_group_lifts[sh]}, {state[0].identity})"
            group = spec.group if r.combiner in grouped else ""
            group_state, group_args, group_sum, walk_fix = (), "", (), ""
            if group:  # (a two-component state: the extreme, then the other component)
                gm, g = f"{own}_gm", f"{own}_g{spec.state[1].suffix}"
                lines = spec.group_state
                if spec.group_sum:  # the rows walks' sum over the held values; the cols kernels' below
                    start, add, end = spec.group_sum
                    lines = (f"{{g}} = {start}", "for u in tl.static_range(UNROLL):",
                             "    {g} = " + add.replace("{v}", "{gv}[u]"), "{g} = " + end)
                    group_sum = (f"{g} = {start}", f"{g} = " + add.format(g=g, gm=gm, v="{v}"),
                                 f"{g} = " + end.format(g=g, gm=gm))
                group_state = tuple(line.format(gv=f"{own}_gv", gm=gm, g=g, identity=state[1].identity,
                                                dtype=state[1].dtype, w="{w}", lv="{lv}")
                                    for line in lines)
                group_args = f"{gm}, {g}"
                if spec.walk_body:
                    walk_fix = spec.walk_fix.format(v=state[0].acc, g=state[1].acc, vid=state[0].identity, lv="{lv}")
            direct = None
            if r.name in direct_names:
                direct = _direct_part(op, r, names, own, state[0])
            out.append(ReductionCtx(own, i, r.combiner, tuple(state), ", ".join(st.acc for st in state),
                                    ", ".join(st.part for st in state), ", ".join(st.tot for st in state),
                                    lifts, full_lifts, tree, r.loc.line, r.combiner in lean,
                                    pads=", ".join(st.pad for st in state), group=group,
                                    group_sum=group_sum,
                                    group_state=group_state, group_args=group_args, walk_fix=walk_fix,
                                    group_doc=spec.group_doc if group else (),
                                    group_lifts=group_lifts if group else None,
                                    full_group_lifts=full_group_lifts if group else None,
                                    direct=direct,
                                    step_values=full_group_lifts if r.combiner in stepped and not group else None,
                                    step_accs=", ".join(st.acc for j, st in enumerate(state) if j != spec.step_count),
                                    step_count_acc=state[spec.step_count].acc if spec.step_count >= 0 else ""))
    return out


def _row_inputs(op: ir.Op, r: ir.Reduction) -> list[str]:
    """The inputs a direct reduction reads a row's value of: a gather's index, a constant's inputs."""
    return [gather_refs(r)[1]] if plan_direct_kind(op, r) == "gather" else inputs_read(r.expr, op)


def _row_load(op: ir.Op, i: str, names: Names) -> str:
    """`<input>_r`, a row's (or a column's) value of an input without the reduce axis: at position
    0, where the launcher's stride along the axis is 0 for such an input. A float input widened."""
    own = names("input", i)
    load = f"tl.load({own}_ptr + row_{own}, mask=row_ok, other=0)"
    integer = next(x for x in op.inputs if x.name == i).integer
    return f"{own}_r = {load}" + ("" if integer else ".to(tl.float32)")


def _direct_part(op: ir.Op, r: ir.Reduction, names: Names, own: str, state: StateCtx) -> tuple[str, ...]:
    """A direct reduction's chunk partial (plan.direct_kind), the same lines in either kernel shape
    (row_<input> and row_ok are a row's, or a column's, there). A gather loads the element at t
    where the chunk holds it: the one element its walk selects, -inf where none is. A constant is
    its expression over the row's values: what each element of the chunk gives, and max(a, a) = a
    (c0 < c1 holds for every chunk; the fused kernels' whole row [0, N) of an empty row fails it)."""
    if plan_direct_kind(op, r) == "gather":
        x, t = (names("input", n) for n in gather_refs(r))
        return (f"{own}_hit = row_ok & ({t}_r >= c0) & ({t}_r < c1)",
                f"{state.part} = tl.where({own}_hit, tl.load({x}_ptr + (row_{x} + {t}_r * s_{x}_n), "
                f"mask={own}_hit, other=0.0).to(tl.float32), {state.identity})")
    base = _namer(op, None, names)
    v = render(r.expr, lambda ref: f"{names('input', ref.name)}_r" if ref.kind == "input" else base(ref))
    return (f"{state.part} = tl.where(row_ok & (c0 < c1), {v}, {state.identity})",)


_OWN_TREE = ("The lanes of each row meet as the combiner's record says (redgen/combiners.py),",
             "through pairwise trees: fixed by LANES alone, whatever the tile layout or warps.")
_PAIR_TREE = ("Pairwise tree over the lanes of each row: level i combines lanes (2j, 2j+1) of level",
              "i-1, so the order is fixed by LANES alone, whatever the tile layout, warps or kernel",
              "shape. Two forms of the same pairs: the combine is commutative bit for bit, so a",
              "two-element tl.reduce (either operand first) gives the tl.split form's bits.")
_FREE_TREE = ("The pair order is total, so every tree gives the same result: tl.reduce's (warp",
              "shuffles) rather than the pairwise one, which every thread would mostly redo.")


def _combiner(c: combiners.Combiner, plan: Plan) -> CombinerCtx:
    """Its functions; the lane tree as the plan says (plan.Plan.free_trees, pair_trees)."""
    k = range(len(c.state))
    if c.name in plan.free_trees:
        tree, doc = c.free_tree(), _FREE_TREE
    elif plan.pair_trees and c.commutative and not c.tree and len(c.state) == 1:
        tree, doc = c.pair_tree(), _PAIR_TREE
    else:
        # a custom tree calls other trees: with the kernel's PAIRS where the target has it
        pairs = ", PAIRS" if plan.pair_trees else ""
        tree, doc = tuple(line.replace("{pairs}", pairs) for line in c.tree), _OWN_TREE
    return CombinerCtx(
        name=c.name, params=", ".join([f"a{j}" for j in k] + [f"b{j}" for j in k]), doc=c.doc, body=c.body,
        values=", ".join(f"v{j}" for j in k), splits=tuple((f"a{j}", f"b{j}", f"v{j}") for j in k),
        rows_out=", ".join(f"tl.reshape(v{j}, [ROWS])" for j in k), tree=tree, tree_doc=doc,
        lean_body=c.lean_body if c.name in plan.row_lean else (),
        step_body=c.step_body if c.name in plan.step_walks else (),
        step_params=", ".join([f"a{j}" for j in k if j != c.step_count] + ["v", "k"]),
        walk_body=c.walk_body if c.name in plan.group_walk else (),
    )


def context(plan: Plan, certificate) -> ModuleCtx:
    op = plan.op
    names = Names.of_op(op)
    shapes = [k.name for k in plan.kernels]
    reductions = _reductions(op, shapes, names, targets.get(plan.target), plan.row_lean, plan.group_walk,
                             plan.direct, plan.step_walks)
    stages = []
    for s in range(op.stages):
        mine = tuple(rc for rc in reductions if op.reductions[rc.index].stage == s)
        prior = tuple(rc for rc in reductions if op.reductions[rc.index].stage < s)
        exprs = [op.reductions[rc.index].expr for rc in mine]
        elem = [v for v in locals_read(exprs, op) if v.per_element]
        inputs = sorted({i for e in exprs for i in inputs_read(e, op)}, key=[x.name for x in op.inputs].index)
        walked = tuple(rc for rc in mine if rc.direct is None)
        walk_inputs = {i for rc in walked for i in inputs_read(op.reductions[rc.index].expr, op)}
        row_read = {i for rc in mine if rc.direct is not None for i in _row_inputs(op, op.reductions[rc.index])}
        stages.append(StageCtx(
            walked=walked, walk_inputs=tuple(names("input", i) for i in inputs if i in walk_inputs),
            row_loads=tuple(_row_load(op, i, names) for i in inputs if i in row_read),
            reads=tuple(rc for rc in prior if op.reductions[rc.index].name in reductions_read(exprs, op)),
            index=s, last=s == op.stages - 1, reductions=mine, prior=prior,
            inputs=tuple(names("input", i) for i in inputs),
            elem_locals=_elem_locals(op, elem, shapes, names),
            row_locals=_row_locals(op, exprs, s, names),
            # an order-free (index) combiner's elements combine unmasked only where its groups fold,
            # in the rows walks (plan.Plan.unmasked_stages)
            unmasked_walks=() if s not in plan.unmasked_stages else ("rows",) if any(
                combiners.get(rc.combiner).order_free for rc in mine) else ("rows", "cols"),
        ))
    outputs = tuple(_output(op, o, shapes, names) for o in op.outputs)
    mapped_exprs = [o.expr for o in op.mapped]
    map_inputs = sorted({i for e in mapped_exprs for i in inputs_read(e, op)},
                        key=[x.name for x in op.inputs].index)
    map_elem = [v for v in locals_read(mapped_exprs, op) if v.per_element]
    # The launcher's size variables (M, N, K, cores), whatever the spec calls its axes.
    sizes = {op.reduce_axis: "N", "cores": "cores"}
    if op.before:
        sizes[op.before] = "M"
    if op.after:
        sizes[op.after] = "K"
    order = plan.order
    index_op = all(_is_index(op, o.expr) for o in op.outputs)
    signature, run_params, run_call, forward, renamed, pub, replay_key = _public(op, names, index_op)
    group = {op.before: 0, op.reduce_axis: 1, op.after: 2, **{a: 1 for a in op.reduce_axes}}
    lanes = order.lanes.eval({})
    row_inputs = tuple(n for n in (names("input", i.name) for i in op.inputs) if any(n in st.inputs for st in stages))
    row_extra = tuple(n for n in (names("input", i) for i in map_inputs) if n not in row_inputs) if plan.row_tiles else ()
    early = _row_early(op, [i.name for i in op.inputs if names("input", i.name) in row_inputs]) if plan.row_tiles else ()
    nest = bool(op.reduce_axes) and plan.target == "cuda"  # cuda walks merged reduce axes in place
    knobs = _knob_names(plan, bool(row_extra), bool(early))
    if knobs and op.schedule.short is not None:
        knobs.append("SHORT_MAX")  # decides before a plan is asked for (common/runtime.py.j2 `_short_call`)
    element = [r.expr for r in op.reductions] + [v.expr for v in op.locals]
    exprs = element + [o.expr for o in op.outputs]
    raised = pow_params(exprs)
    # cuda's cols walks widen their loads through _rg_f32 where the element's code could be narrowed
    # (the rows kernels lost a few points with it: docs/gpu_2026_11_28/README.md run 114).
    widen_loads = (plan.target == "cuda" and bool(op.after)
                   and narrowed(element, {i.name for i in op.inputs if not i.integer}))
    return ModuleCtx(
        op=op.name, spec_path=comment_text(op.path), spec_file=comment_text(Path(op.path).name),
        spec_digest=op.digest, version=__version__,
        certificate_lines=tuple(certificate.lines()), certificate_literal=certificate.to_literal(),
        certificate_digest=certificate.digest(),
        reduce_axis=op.reduce_axis, before=op.before, after=op.after,
        inputs=tuple(InputCtx(names("input", i.name), i.axes,
                              "(" + "".join(f"{TORCH_DTYPES[d]}, " for d in i.dtypes) + ")",
                              ", ".join(TORCH_DTYPES[d] for d in i.dtypes), spec=i.name, pub=pub[i.name],
                              groups=_groups(group, i.axes), neutral=_neutral(op, i.name))
                     for i in op.inputs),
        params=tuple(ValueCtx(names("param", p.name), repr(p.default), p.name, pub[p.name],
                              form=pow_form(names("param", p.name)) if p.name in raised else "")
                     for p in op.params),
        outputs=outputs,
        final_row_locals=_row_locals(op, [o.expr for o in op.outputs if not o.mapped], op.stages, names),
        stages=tuple(stages),
        kernels=tuple(KernelCtx(kn.name, kn.when, kn.block, kn.programs.py(sizes), kn.num_warps)
                      for kn in plan.kernels),
        combiners=tuple(_combiner(combiners.get(c), plan) for c in combiners.used(order.combiners)),
        lanes=lanes, log2_lanes=lanes.bit_length() - 1,
        chunk=order.chunk.py(sizes), num_chunks=order.num_chunks.py(sizes),
        split_below=plan.split_below, finish_block=plan.finish_block, copy_rule=plan.copy_rule,
        unspecialized=targets.get(plan.target).unspecialized,
        cols_split_tree=plan.cols_split_tree, cols_short_block=plan.cols_short_block,
        cols_short_n=plan.cols_short_tiles * lanes,
        **_short_tile(plan, lanes),
        **({"free_cols_min": FREE_COLS_MIN, "free_cols_k": FREE_COLS_K, "free_cols_block": FREE_COLS_BLOCK,
            "free_cols_small": FREE_COLS_SMALL, "free_cols_small_block": FREE_COLS_SMALL_BLOCK,
            "free_cols_long_tile": FREE_COLS_LONG_TILE, "free_cols_long_block": FREE_COLS_LONG_BLOCK,
            "free_cols_long_min": FREE_COLS_LONG_MIN, "free_cols_long_k": FREE_COLS_LONG_K,
            "free_cols_flat_min": FREE_COLS_FLAT_MIN}
           if plan.free_cols else {}),
        **({"cols_stack_min": COLS_STACK_MIN, "cols_stack_n": COLS_STACK_N, "cols_stack_k": COLS_STACK_K,
            "cols_stack_block": COLS_STACK_BLOCK, "cols_stack_long_n": COLS_STACK_LONG_N,
            "cols_stack_small": COLS_STACK_SMALL,
            "cols_stack_small_block": COLS_STACK_SMALL_BLOCK, "cols_stack_leaves": COLS_STACK_LEAVES,
            "cols_stack_wide_leaves": COLS_STACK_WIDE_LEAVES, "cols_stack_flat_leaves": COLS_STACK_FLAT_LEAVES,
            "cols_stack_group_tile": COLS_STACK_GROUP_TILE, "cols_stack_split_cols": COLS_STACK_SPLIT_COLS,
            "cols_stack_split_max": COLS_STACK_SPLIT_MAX, "cols_stack_one_run_n": COLS_STACK_ONE_RUN_N,
            "cols_stack_deep_itemsize": COLS_STACK_DEEP_ITEMSIZE, "cols_stack_deep_leaves": COLS_STACK_DEEP_LEAVES,
            "cols_stack_deep_narrow_min": COLS_STACK_DEEP_NARROW_MIN, "cols_stack_deep_block_bytes": COLS_STACK_DEEP_BLOCK_BYTES, "cols_stack_deep_programs": COLS_STACK_DEEP_PROGRAMS,
            "cols_tile_wide_itemsize": COLS_TILE_WIDE_ITEMSIZE, "cols_tile_wide_block": COLS_TILE_WIDE_BLOCK,
            "cols_tile_wide_programs": COLS_TILE_WIDE_PROGRAMS,
            "stack_levels": (lanes // 2).bit_length() - 1, "stack_group_levels": COLS_STACK_GROUP_LEVELS}
           if plan.cols_stack else {}),
        cols_flat_below=COLS_FLAT_BELOW if plan.free_cols or plan.cols_stack else 0,
        **_align(plan, op, names, outputs, nest),
        ws_slots=sum(st.ws == "ws" for rc in reductions for st in rc.state),
        reduced=tuple(o for o in outputs if not o.mapped), mapped=tuple(o for o in outputs if o.mapped),
        map_inputs=tuple(names("input", i) for i in map_inputs),
        map_elem_locals=_elem_locals(op, map_elem, shapes, names),
        map_row_locals=_row_locals(op, mapped_exprs, op.stages, names),
        map_totals=tuple(rc for rc in sorted(reductions, key=lambda rc: rc.index)
                         if op.reductions[rc.index].name in reductions_read(mapped_exprs, op)),
        reduced_reads=tuple(sorted(names("reduce", r)
                                   for r in reductions_read([o.expr for o in op.outputs if not o.mapped], op))),
        cores=plan.cores, ub=plan.ub,
        arg_slots=sum(st.ws == "iws" for rc in reductions for st in rc.state),
        index_op=index_op, empty_raises=_empty_raises(op),
        index_extreme=next((r.spec.extreme for r in op.reductions if r.index), ""),
        signature=signature, run_params=run_params, run_call=run_call, renamed=renamed,
        launch_options=targets.get(plan.target).launch_options,
        widen_loads=widen_loads,
        helpers=helpers(exprs)
        + tuple(sorted({o.dtype for o in op.outputs if o.dtype in ir.FP8_DTYPES}))
        + (("f32",) if widen_loads or plan.row_rows else ()) + (("f32_held",) if plan.row_rows else ())
        + (("prefetch",) if plan.row_prefetch else ()),
        int_inputs=tuple(names("input", i.name) for i in op.inputs if i.integer),
        fp8={d: replace(FP8[d], int_bytes=targets.get(plan.target).fp8_int_bytes)
             for d in sorted({o.dtype for o in op.outputs if o.dtype in ir.FP8_DTYPES})},
        reduce_dims=repr(tuple(op.inputs[0].axes.index(a) for a in op.reduce_axes)) if op.reduce_axes else None,
        ndim=len(op.inputs[0].axes), nest=nest,
        row_tiles=plan.row_tiles, row_min=plan.row_min, row_rows=plan.row_rows, row_half_rows=plan.row_half_rows,
        row_prefetch=plan.row_prefetch, row_prefetch_ahead=ROW_PREFETCH_AHEAD if plan.row_prefetch else 0,
        row_prefetch_max=ROW_PREFETCH_MAX if plan.row_prefetch else 0,
        unroll=plan.unroll, unroll_orders=bool(plan.order_groups),
        walks=any(st.walked for st in stages),
        cols_unroll=plan.cols_unroll,
        replay_knobs=_knob_tuple(knobs), replay_key=replay_key,
        tuned=_tuned(op, plan.target, knobs),
        row_inputs=row_inputs, row_extra=row_extra,
        row_early=tuple(o for o in outputs if o.spec in {e.name for e in early}),
        row_early_inputs=tuple(names("input", i) for i in sorted({i for e in early for i in inputs_read(e.expr, op)},
                                                               key=[x.name for x in op.inputs].index)),
        row_early_locals=_elem_locals(op, [v for v in locals_read([e.expr for e in early], op) if v.per_element],
                                      ["rows"], names)["rows"] if early else (),
        row_lean=bool(plan.row_lean), row_stack=plan.row_stack,
        row_across=plan.row_across, rows_narrow_warps=plan.rows_narrow_warps,
        rows_narrow_itemsize=ROWS_NARROW_ITEMSIZE if plan.rows_narrow_warps else 0,
        rows_narrow_min=ROWS_NARROW_MIN if plan.rows_narrow_warps else 0,
        rows_narrow_split_block=ROWS_NARROW_SPLIT_BLOCK if plan.rows_narrow_warps else 0,
        rows_tail=plan.rows_tail, rows_tail_unroll=ROWS_TAIL_UNROLL,
        rows_out_stages=plan.rows_out_stages,
        rows_out_itemsize=ROWS_OUT_ITEMSIZE if plan.rows_out_stages else 0,
        cols_step_narrow_unroll=COLS_STEP_NARROW_UNROLL if plan.cols_step else 0,
        cols_step_wide_block=COLS_STEP_WIDE_BLOCK if plan.cols_step else 0,
        cols_step_maxnreg=COLS_STEP_MAXNREG if plan.cols_step else 0,
        cols_step_cap_row_bytes=COLS_STEP_CAP_ROW_BYTES if plan.cols_step else 0,
        isz_picks=_isz_picks(plan),
        **_short(op, forward),
    )


def hinted_args(shape: str, inputs: list[str], outputs: list[OutputCtx] | tuple[OutputCtx, ...],
                nest: bool) -> tuple[str, ...]:
    """The integer arguments a kernel of `shape` ("rows", "row", "cols") rebinds as
    x // ALIGN * ALIGN (plan.Plan.align_hint): the length its tile masks compare with and the
    strides its tile offsets multiply a row or lane index by, for the `inputs` it loads and the
    `outputs` it stores. A stride along the lanes of a rows kernel is not among them (1 for a
    contiguous row, which Triton already makes a constant)."""
    if shape != "cols":
        return ("N", *(f"s_{i}_m" for i in inputs), *(f"s_{o.name}_m" for o in outputs if o.mapped))
    lanes = ("_n", "_no") if nest else ("_n",)
    return ("K", *(f"s_{i}{s}" for i in inputs for s in ("_m", *lanes)),
            *(f"s_{o.name}{s}" for o in outputs for s in (("_m", "_n") if o.mapped else ("_m",))))


def _align(plan: Plan, op: ir.Op, names: Names, outputs: tuple[OutputCtx, ...], nest: bool) -> dict:
    """The ModuleCtx fields of plan.Plan.align_hint: the launcher's sources of the values ALIGN
    must divide, for each kernel shape every argument hinted_args names in any of its kernels.
    The launcher holds an input's or a mapped output's strides as a tuple (m, n, k[, no]); a
    reduced output is passed with its own .stride(0)."""
    if not plan.align_hint:
        return {}
    ins = [names("input", i.name) for i in op.inputs]
    reduced = {o.name for o in outputs if not o.mapped}
    at = {"m": 0, "n": 1, "no": 3}

    def source(arg: str) -> str:
        if not arg.startswith("s_"):
            return arg  # N, K: the launcher's own
        tensor, axis = arg[2:].rsplit("_", 1)
        return f"{tensor}.stride(0)" if tensor in reduced else f"s_{tensor}[{at[axis]}]"

    def sources(shape: str) -> str:
        return ", ".join(source(a) for a in hinted_args(shape, ins, outputs, nest))

    return {"align_max": ALIGN_MAX, "align_rows": sources("rows"), "align_cols": sources("cols") if op.after else ""}


def _short(op: ir.Op, forward: str) -> dict:
    """The ModuleCtx fields of a `short` statement: the other op, the bound, and the call that
    hands it this launcher's arguments."""
    short = op.schedule.short
    if short is None:
        return {}
    return {"short_op": short.op, "short_max": short.bound, "short_call": forward}


def _row_early(op: ir.Op, held: list[str]) -> tuple[ir.Output, ...]:
    """The mapped outputs a row kernel can store as soon as its row is loaded: each reads no
    reduction, no per-row local (those come from reductions or follow them) and no input but
    the `held` ones (the spec's names of the row kernel's held inputs)."""
    return tuple(o for o in op.mapped
                 if not reductions_read([o.expr], op)
                 and all(v.per_element for v in locals_read([o.expr], op))
                 and set(inputs_read(o.expr, op)) <= set(held))


def _short_tile(plan: Plan, lanes: int) -> dict[str, int]:
    """ModuleCtx's short_tile_* fields: rows of at most half the lanes (plan.Plan.short_tile)."""
    if not plan.short_tile:
        return {}
    row = plan.row_holds_short
    walks = (("cols",) if plan.op.after else ()) + (("row",) if row else ("rows",))
    return {"short_tile_max": lanes // 2, "short_tile_min": min(SHORT_TILE_MIN, lanes // 2), "tile_walks": walks,
            "rows_tile_elems": ROWS_TILE_ELEMS, "cols_tile_block": plan.cols_tile_block,
            "cols_tile_elems": plan.cols_tile_elems,
            "row_tile_warp_lanes": ROW_TILE_WARP_LANES if row else 0}


def _isz_picks(plan: Plan) -> str:
    """What a launcher's _schedule reads the input's element bytes for, in words."""
    picks = ((["the cols stack's rows past LANES", "the tile walk's block"] if plan.cols_stack else [])
             + (["the rows walks' warps"] if plan.rows_narrow_warps else [])
             + (["the grids the row kernel holds"] if plan.row_rows else []))
    if not picks:
        return "nothing in this module"
    return picks[0] if len(picks) == 1 else ", ".join(picks[:-1]) + " and " + picks[-1]


def _knob_names(plan: Plan, row_extra: bool, row_early: bool = False) -> list[str]:
    """Every module global the launcher reads that may be set between calls (the empirical
    check's forced paths, tests, sweeps, a spec's `tune`): a replayed signature holds their values."""
    target = targets.get(plan.target)
    if not target.replay:
        return []
    has = {"always": True, "unroll": bool(plan.unroll), "cols_unroll": bool(plan.cols_unroll),
           "short_tile": plan.short_tile, "cols_tile_block": bool(plan.cols_tile_block),
           "cols_tile_elems": bool(plan.cols_tile_elems),
           "free_cols": plan.free_cols, "cols_stack": plan.cols_stack,
           "cols_flat": plan.free_cols or plan.cols_stack,
           "row_tile": plan.short_tile and plan.row_holds_short,
           "row": bool(plan.row_tiles), "row_min": bool(plan.row_min), "row_rows": bool(plan.row_rows), "row_prefetch": bool(plan.row_prefetch), "row_stack": plan.row_stack > 1, "row_across": bool(plan.row_across),
           "rows_narrow": bool(plan.rows_narrow_warps), "rows_tail": plan.rows_tail, "rows_out": bool(plan.rows_out_stages),
           "cols_step": plan.cols_step,
           "row_extra": row_extra, "row_lean": bool(plan.row_lean), "row_early": row_early}
    return ["_INTERPRET"] + [k for feature, names in target.knobs if has[feature] for k in names]


def _knob_tuple(knobs: list[str]) -> str:
    """The knobs as the tuple expression a replayed signature holds; "": no replay."""
    return "(" + ", ".join(knobs) + ")" if knobs else ""


def _tuned(op: ir.Op, target: str, knobs: list[str]) -> tuple[tuple[str, int, int], ...]:
    """The spec's `tune` lines for `target`, as (knob, value, line), each a knob of this module's
    launcher. Which knobs a launcher has depends on its plan (a row kernel, its form across
    chunks, ...), so the name is checked here; check.py checked the target and the value."""
    tunable = targets.get(target).tunable()
    settable = [k for k in knobs if k in tunable]
    out = []
    for t in op.schedule.tunes:
        if t.target != target:
            continue
        if t.knob not in settable:
            has = f"its knobs: {', '.join(settable)}" if settable else "it has no knobs to tune"
            raise BadTune(f"{op.name}'s {target} launcher has no knob '{t.knob}' ({has})"
                          + did_you_mean(t.knob, settable), t.loc, op.source)
        out.append((t.knob, t.value, t.loc.line))
    return tuple(out)


def _groups(group: dict, axes: tuple[str, ...]) -> tuple[int, ...]:
    """The [M, N, K] groups an input's axes fall in, once each (both merged reduce axes are N)."""
    out: list[int] = []
    for a in axes:
        if group[a] not in out:
            out.append(group[a])
    return tuple(out)


@cache
def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template_root())), undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True, autoescape=False,
    )


def emit(plan: Plan, certificate) -> str:
    """Source of the generated module for `plan`."""
    if getattr(plan, "attention", False):  # --- attention (redgen/attention_emit.py) ---
        from redgen.attention_emit import emit as emit_attention

        return emit_attention(plan, certificate)
    ctx = context(plan, certificate)
    return _env().get_template(f"{targets.get(plan.target).templates}/module.py.j2").render(m=ctx)
