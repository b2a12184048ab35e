"""`short N <= bound : op`: rows up to a reduce length computed by another op (redgen/short.py).

The language: every misuse is a coded error at its place. The build: a spec's short op is
built beside it. The launcher: it hands exactly the short rows to the other op's module
(under the interpreter), keeps its own name in its errors, states the other op in its
certificate, finds the module however it was imported, and the batch-invariant mode
replays the calls it hands over.
"""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
import sys
from pathlib import Path

import pytest
import torch

from redgen.errors import BadShort
from redgen.pipeline import build_all, check_spec, plan_spec
from redgen.short import with_short_specs
from tests.stand_ins import FastReplay

ROOT = Path(__file__).resolve().parent.parent

BODY = """op {name}
in   x[M, N, K] : f32 | bf16
out  y[M, N, K] : like x
acc  f32
{reduce}
y = exp(x - m) / s
tile N = 64
split N fixed_size 256
{extra}
"""
ONLINE = "reduce N: (m, s) = softmax_stats(x)"
TWO_PASS = "reduce N: m = max(x)\nreduce N: s = sum(exp(x - m))"


def _spec(d: Path, name: str, reduce: str = ONLINE, extra: str = "", text: str | None = None) -> Path:
    p = d / f"{name}.red"
    p.write_text(text if text is not None else BODY.format(name=name, reduce=reduce, extra=extra))
    return p


def _error(path: Path) -> BadShort:
    with pytest.raises(BadShort) as info:
        check_spec(path)
    e = info.value
    assert e.code == "E120" and "Traceback" not in e.render()
    return e


@pytest.mark.parametrize(("extra", "words"), [
    ("short N < 100 : held", "not '<'"),
    ("short N <= 0 : held", "positive integer, got 0"),
    ("short N <= M : held", "constant integer"),
    ("short N <= 100 : op1", "names this op itself"),
    ("short N <= 100 : __init__", "op name '__init__'"),
    ("short N <= 100 : held\nshort N <= 200 : held", "given twice"),
])
def test_statement_errors(tmp_path, extra, words):
    _spec(tmp_path, "held", TWO_PASS)
    with pytest.raises(Exception) as info:  # BadShort, or DuplicateName for the second statement
        check_spec(_spec(tmp_path, "op1", extra=extra))
    assert words in info.value.message and info.value.loc.line >= 9


def test_before_the_reduce_statement(tmp_path):
    text = BODY.format(name="op1", reduce=ONLINE, extra="").replace("acc  f32\n", "acc  f32\nshort N <= 9 : held\n")
    e = _error(_spec(tmp_path, "op1", text=text))
    assert "after the 'reduce' statement" in e.message and e.loc.line == 5


@pytest.mark.parametrize(("held", "words"), [
    (BODY.format(name="held", reduce=TWO_PASS, extra="").replace("f32 | bf16", "f32"), "inputs"),
    (BODY.format(name="held", reduce=TWO_PASS, extra="param eps = 1e-5"), "parameters"),
    (BODY.format(name="held", reduce=TWO_PASS, extra="").replace("y[M, N, K] : like x", "y[M, N, K] : f32"),
     "outputs"),
    (BODY.format(name="held", reduce=TWO_PASS, extra="short N <= 8 : op2"), "a 'short' of its own"),
    (BODY.format(name="other", reduce=TWO_PASS, extra=""), "declares op 'other'"),
    (BODY.format(name="held", reduce=TWO_PASS, extra="").replace("max(x)", "maxx(x)"),
     "does not check: {d}/held.red:5:15: error[E104]"),
])
def test_the_other_spec_must_fit(tmp_path, held, words):
    _spec(tmp_path, "held", text=held)
    _spec(tmp_path, "op2", TWO_PASS)
    e = _error(_spec(tmp_path, "op1", extra="short N <= 100 : held"))
    assert words.format(d=tmp_path) in e.message and (e.loc.line, e.loc.col) == (9, 1), e.render()


def test_attention_and_contractions_refuse_it(tmp_path):
    att = (ROOT / "specs" / "attention.red").read_text() + "short S <= 64 : x\n"
    mm = (ROOT / "specs" / "matmul.red").read_text() + "short K <= 64 : x\n"
    for name, text in (("att", att), ("mm", mm)):
        e = _error(_spec(tmp_path, name, text=text))
        assert e.loc.line == len(text.splitlines())


def test_build_writes_the_short_op_beside(tmp_path):
    held = _spec(tmp_path, "held", TWO_PASS)
    op1 = _spec(tmp_path, "op1", extra="short N <= 100 : held")
    assert with_short_specs([op1]) == [op1, held]
    assert with_short_specs([held, op1]) == [held, op1]
    out = tmp_path / "gen"
    outcomes = build_all([op1], "cuda", out, empirical="skip")
    assert [o.op for o in outcomes] == ["op1", "held"] and not any(o.error for o in outcomes)
    cert = plan_spec(op1, "cuda").op.schedule.short
    assert cert.digest == hashlib.sha256(held.read_text().encode()).hexdigest()


# --- the shipped softmax, log_softmax and logsumexp (generated/cuda) --------------------------
# op -> the bound of its spec's `short` (logsumexp_held lost at rows of 32000: docs/gpu_2026_11_28, run 149)
BOUNDS = {"softmax": 32768, "log_softmax": 32768, "logsumexp": 16384}


@pytest.fixture(scope="module")
def mods():
    from generated.cuda import (
        log_softmax,
        log_softmax_held,
        logsumexp,
        logsumexp_held,
        softmax,
        softmax_held,
    )

    return {
        "softmax": (softmax, softmax_held),
        "log_softmax": (log_softmax, log_softmax_held),
        "logsumexp": (logsumexp, logsumexp_held),
    }


@pytest.mark.parametrize("op", list(BOUNDS))
def test_short_rows_go_to_the_other_op(mods, op, monkeypatch):
    mod, held = mods[op]
    assert mod._short_module() is held and mod.SHORT_MAX == BOUNDS[op]
    calls = []
    real = getattr(held, f"{op}_held")
    monkeypatch.setattr(held, f"{op}_held", lambda *a, **k: calls.append(a[0].shape) or real(*a, **k))
    g = torch.Generator().manual_seed(0)
    x = torch.randn(3, 40, 2, generator=g) * 4
    y = getattr(mod, op)(x, 1)
    assert calls == [x.shape] and torch.equal(y, real(x, 1))
    # dtype= goes along (keyword-only in both launchers)
    assert torch.equal(getattr(mod, op)(x, 1, dtype=torch.bfloat16), real(x, 1, dtype=torch.bfloat16))
    monkeypatch.setattr(mod, "SHORT_MAX", 39)  # now 40 is long: this module's own order
    own = getattr(mod, op)(x, 1)
    assert len(calls) == 2 and torch.allclose(own, y, atol=1e-5)


def test_errors_keep_the_op_name(mods):
    """A short call the op's own checks would refuse is not handed over: the error names softmax."""
    mod, _ = mods["softmax"]
    with pytest.raises(TypeError, match=r"^softmax: x has dtype torch.int32"):
        mod.softmax(torch.ones(2, 3, dtype=torch.int32), 1)
    with pytest.raises(ValueError, match=r"^softmax: dim 5"):
        mod.softmax(torch.ones(2, 3), 5)
    with pytest.raises(ValueError, match=r"^softmax: x is on device 'meta'"):
        mod.softmax(torch.ones(2, 3, device="meta"), 1)
    with pytest.raises(RuntimeError, match=r"^softmax: an input requires grad"):
        mod.softmax(torch.ones(2, 3, requires_grad=True), 1)
    with pytest.raises(TypeError, match=r"^softmax: dtype=torch.int32 is not supported"):
        mod.softmax(torch.ones(2, 3), 1, dtype=torch.int32)


@pytest.mark.parametrize("op", list(BOUNDS))
def test_certificate_names_the_other_spec(mods, op):
    mod, held = mods[op]
    short = mod.CERTIFICATE["order"]["short"]
    spec = (ROOT / "specs" / f"{op}_held.red").read_text()
    bound = BOUNDS[op]
    assert short == {"max": bound, "op": f"{op}_held", "spec_sha256": hashlib.sha256(spec.encode()).hexdigest()}
    assert mod.CERTIFICATE["statement"].startswith(f"N <= {bound}: op {op}_held's order")
    assert held.CERTIFICATE["spec_sha256"] == short["spec_sha256"]


def test_found_beside_a_module_loaded_from_its_file(tmp_path):
    """A module loaded by path (redgen.load from another folder, a benchmark's copy) finds its
    short op's file beside it, under the same parent name as redgen.load would give it."""
    for op in ("softmax", "softmax_held"):
        shutil.copy(ROOT / "generated" / "cuda" / f"{op}.py", tmp_path / f"{op}.py")
    name = "redgen_test_short_pkg.softmax"
    spec = importlib.util.spec_from_file_location(name, tmp_path / "softmax.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    try:
        held = mod._short_module()
        assert held.__name__ == "redgen_test_short_pkg.softmax_held" and sys.modules[held.__name__] is held
        assert Path(held.__file__).parent == tmp_path
        x = torch.randn(2, 17)
        assert torch.equal(mod.softmax(x, -1), held.softmax_held(x, -1))
    finally:
        sys.modules.pop("redgen_test_short_pkg.softmax_held", None)


@pytest.mark.parametrize("package", [False, True])
def test_a_missing_short_module_is_named(tmp_path, package, monkeypatch):
    """Deployed without its short op's module (copied alone, or a package without it): a short row
    raises ModuleNotFoundError naming the op, the file or module, and the fixes; longer rows and
    SHORT_MAX = 0 still run."""
    folder = tmp_path / "redgen_test_lonely"
    folder.mkdir()
    shutil.copy(ROOT / "generated" / "cuda" / "softmax.py", folder / "softmax.py")
    if package:
        (folder / "__init__.py").write_text("")
        monkeypatch.syspath_prepend(str(tmp_path))
        mod = importlib.import_module("redgen_test_lonely.softmax")
    else:
        spec = importlib.util.spec_from_file_location("redgen_test_lonely.softmax", folder / "softmax.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    try:
        with pytest.raises(ModuleNotFoundError) as e:
            mod.softmax(torch.randn(2, 17), -1)
        msg = str(e.value)
        assert msg.startswith("softmax: rows of at most 32768 elements are computed by op softmax_held")
        assert ("redgen_test_lonely.softmax_held" if package else str(folder / "softmax_held.py")) in msg
        assert "redgen build" in msg and "SHORT_MAX = 0" in msg
        assert e.value.name == "redgen_test_lonely.softmax_held"
        monkeypatch.setattr(mod, "SHORT_MAX", 0)
        x = torch.randn(2, 17)
        assert torch.allclose(mod.softmax(x, -1), torch.softmax(x, -1), atol=1e-6)
    finally:
        for name in [n for n in sys.modules if n.startswith("redgen_test_lonely")]:
            sys.modules.pop(name)


def test_the_mode_replays_the_short_rows(mods):
    import redgen
    from redgen.runtime import mode

    mod, held = mods["softmax"]
    x = torch.randn(4, 33)
    want = held.softmax_held(x, -1)
    with redgen.batch_invariant():
        replays = mode._STATE.replays[("_softmax.default", "CPU")]
        assert held in replays.mods
        got = [torch.softmax(x, -1) for _ in range(3)]
        assert len(replays.plans) == 1 and next(iter(replays.plans.values()))[0] is held
    assert all(torch.equal(g, want) for g in got)


def test_logsumexp_held_rows_at_their_edges(mods, monkeypatch):
    """logsumexp_held counts an element equal to the row maximum as exp(0) = 1: a row of -inf gives
    -inf (not exp(-inf - -inf) = nan), +inf gives inf, nan gives nan, as torch; rows of up to 16384
    go to it and longer ones stay with the online combine."""
    mod, held = mods["logsumexp"]
    inf, big = float("inf"), 3.0e38
    x = torch.tensor([[-inf] * 4, [inf, 1, 2, 3], [1, float("nan"), 2, 3], [-inf, 1, -inf, 2], [big, big, 1, 2]])
    want = torch.logsumexp(x.double(), -1).float()
    got = held.logsumexp_held(x, -1)
    assert torch.equal(got.isnan(), want.isnan())
    assert torch.allclose(got[~want.isnan()], want[~want.isnan()], rtol=1e-6)
    calls = []
    real = held.logsumexp_held
    monkeypatch.setattr(held, "logsumexp_held", lambda *a, **k: calls.append(a[0].shape[-1]) or real(*a, **k))
    g = torch.Generator().manual_seed(3)
    for n in (16384, 16385):
        mod.logsumexp(torch.randn(1, n, generator=g), -1)
    assert calls == [16384]


@pytest.mark.parametrize("op", list(BOUNDS))
def test_a_bound_modules_short_rows_are_handed_to_its_own_replay(mods, op, monkeypatch):
    """A bound module (`_FAST`: redgen.load, or its own first call) hands a short call's plan, the
    one its short op's launcher recorded, to its own C++ replay under its own signature: a repeat is
    then served before any of its Python runs (H100 runs 246-247: +1.7 and +4.1 us against torch's
    softmax at 8 x 32000, each call paying this module's C++ miss first). Not while the mode probes."""
    mod, held = mods[op]
    fast = FastReplay()
    monkeypatch.setattr(mod, "_FAST", fast)
    x = torch.randn(3, 40, 2, generator=torch.Generator().manual_seed(1))
    for _ in range(2):
        y = getattr(mod, op)(x, 1, dtype=torch.bfloat16)
    assert [a[0] for a in fast.asked] == [id(mod._run)] * 2 and len(fast.stored) == 2
    (run, args, plan), _ = fast.stored
    assert run is mod._run and args[0] is x and args[1] == 1 and args[-1] == torch.bfloat16  # as _run takes them
    # the plan is the short op's own for this call, and replays the same bits
    assert any(plan is p for p in held._PLANS.values())
    assert torch.equal(held._replay(plan, args), y)
    # long rows are this module's own plans (its _replayed hands them over), not handed here
    monkeypatch.setattr(mod, "SHORT_MAX", 39)
    getattr(mod, op)(x, 1, dtype=torch.bfloat16)
    assert len(fast.stored) == 3 and not any(fast.stored[2][2] is p for p in held._PLANS.values())
    monkeypatch.setattr(mod, "SHORT_MAX", BOUNDS[op])
    monkeypatch.setattr(mod, "_PROBE", [])  # the mode probing: neither asked nor handed over here
    getattr(mod, op)(x, 1, dtype=torch.bfloat16)
    assert len(fast.asked) == 3 and len(fast.stored) == 3


@pytest.mark.parametrize("op", list(BOUNDS))
def test_a_directly_imported_modules_first_short_call_binds_it(mods, op, monkeypatch):
    """Imported directly, a module asks for the C++ replay at its first recorded call (replay.py.j2
    `_bind_fast`); short rows record no plan of its own, so a short call asks too, once, and its
    plan is handed over in that same call."""
    mod, _ = mods[op]
    fast, asked = FastReplay(), []

    def bind():
        asked.append(op)
        mod._BIND_ASKED = True
        mod._FAST = fast

    monkeypatch.setattr(mod, "_FAST", None)
    monkeypatch.setattr(mod, "_BIND_ASKED", False)
    monkeypatch.setattr(mod, "_bind_fast", bind)
    x = torch.randn(3, 40, 2, generator=torch.Generator().manual_seed(2))
    getattr(mod, op)(x, 1)
    assert asked == [op] and len(fast.stored) == 1 and fast.asked == []
    getattr(mod, op)(x, 1)
    assert asked == [op] and len(fast.stored) == 2 and [a[0] for a in fast.asked] == [id(mod._run)]
