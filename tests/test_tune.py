"""A spec's `tune TARGET KNOB = VALUE` (docs/language.md, "Tuning a launcher"): one launcher knob
of one target set for one op, frozen into its module after the defaults. A knob picks among forms
the certificate covers, so the tuned module is the same order; the build's empirical check runs
it as shipped. check.py refuses an unknown target or knob, a bad value or a knob tuned twice
(tests/specs/errors/E121_*); emit refuses a knob the op's module does not have (below).
"""

from __future__ import annotations

import re
from pathlib import Path

import torch

from generated.cuda import log_softmax_held, softmax_held
from redgen import targets
from redgen.cli import main
from tests.launch_spy import launches

ROOT = Path(__file__).resolve().parent.parent

SOFTMAX = ("op softmax_tuned\nin x[M, N] : f32\nout y[M, N] : like x\nacc f32\n"
           "reduce N: m = max(x)\nreduce N: s = sum(exp(x - m))\ny = exp(x - m) / s\n"
           "tile N = 16\nsplit N fixed_size 64\n")


def test_the_tuned_value_follows_the_default_in_the_module():
    """log_softmax_held tunes ROW_ACROSS_PAD to 4096 (H100 runs 79-81); softmax_held keeps 6144."""
    assert (log_softmax_held.ROW_ACROSS_PAD, softmax_held.ROW_ACROSS_PAD) == (4096, 6144)
    src = Path(log_softmax_held.__file__).read_text()
    assert src.index("\nROW_ACROSS_PAD = 6144\n") < src.index("\nROW_ACROSS_PAD = 4096\n")
    assert "(log_softmax_held.red, `tune` at line" in src
    assert "ROW_ACROSS_PAD = 4096" not in (ROOT / "generated/ascend/log_softmax_held.py").read_text()


def test_the_tuned_bound_keeps_rows_padded_by_a_chunk_in_their_own_form(monkeypatch):
    """Rows of 12288 (three chunks stacked as four, padded by 4096) on a long grid: across for
    softmax_held (4096 < 6144), the row kernel's own form for log_softmax_held (not < 4096), with
    the same bits as across."""
    x = torch.randn(2, 12288, generator=torch.Generator().manual_seed(3)).to(torch.bfloat16)
    got = {}
    for mod, fn in ((softmax_held, softmax_held.softmax_held), (log_softmax_held, log_softmax_held.log_softmax_held)):
        monkeypatch.setattr(mod, "ROW_ACROSS_PROGRAMS", 1)  # a grid of 2 is long (and packed)
        monkeypatch.setattr(mod, "ROW_FEW_PROGRAMS", 1)
        seen = launches(mod, monkeypatch)
        got[mod.__name__] = fn(x, -1)
        assert len(seen) == 1
        got[mod.__name__ + " form"] = seen[0][0]
    assert got["generated.cuda.softmax_held form"] == "_k_rows_across"
    assert got["generated.cuda.log_softmax_held form"] == "_k_rows_row"
    monkeypatch.setattr(log_softmax_held, "ROW_ACROSS_PAD", 6144)
    seen = launches(log_softmax_held, monkeypatch)
    across = log_softmax_held.log_softmax_held(x, -1)
    assert seen[0][0] == "_k_rows_across"
    assert torch.equal(across.view(torch.int16), got["generated.cuda.log_softmax_held"].view(torch.int16))


def test_a_tuned_module_is_built_and_checked_as_shipped(tmp_path):
    """Two knobs tuned: both follow the defaults, and the build's empirical check passes on them."""
    spec = tmp_path / "softmax_tuned.red"
    spec.write_text(SOFTMAX + "tune cuda ROW_ELEMS = 256\ntune cuda ROW_FEW_WARPS = 8\n")
    assert main(["build", str(spec), "--target", "cuda", "--out", str(tmp_path / "out"), "-q"]) == 0
    src = (tmp_path / "out/cuda/softmax_tuned.py").read_text()
    assert "`tune` at lines 10, 11)" in src
    assert src.index("\nROW_ELEMS = 2048\n") < src.index("\nROW_ELEMS = 256\nROW_FEW_WARPS = 8\n")
    assert '"status": "passed"' in src


def test_a_knob_the_module_lacks_is_refused_at_its_line(tmp_path, capsys):
    """ROW_EARLY_WORDS is a cuda knob, but only of a module storing outputs with its loads."""
    spec = tmp_path / "softmax_tuned.red"
    spec.write_text(SOFTMAX + "tune cuda ROW_EARLY_WORDS = 128\n")
    out = tmp_path / "out"
    assert main(["build", str(spec), "--target", "cuda", "--out", str(out), "--no-empirical"]) == 1
    err = capsys.readouterr().err
    assert f"{spec}:10:11: error[E121]: softmax_tuned's cuda launcher has no knob 'ROW_EARLY_WORDS'" in err
    assert "ROW_ACROSS_PAD" in err and "Traceback" not in err  # its knobs are listed
    assert not (out / "cuda/softmax_tuned.py").exists()
    # The same spec builds for ascend: a cuda tune is cuda's alone.
    assert main(["build", str(spec), "--target", "ascend", "--out", str(out), "--no-empirical", "-q"]) == 0


def test_every_tunable_knob_is_a_global_of_a_generated_module():
    """The checker's vocabulary (targets.Target.knobs) names real launcher globals."""
    names = set(targets.get("cuda").knob_names())
    found = set()
    for path in (ROOT / "generated/cuda").glob("*.py"):
        src = path.read_text()
        found |= {n for n in names if re.search(rf"^{n} = ", src, re.M)}
    assert found == names
    assert targets.get("ascend").knob_names() == ()


def test_a_warps_knob_past_32_is_refused(tmp_path, capsys):
    spec = tmp_path / "softmax_tuned.red"
    spec.write_text(SOFTMAX + "tune cuda ROW_FEW_WARPS = 64\n")
    assert main(["check", str(spec)]) == 1
    err = capsys.readouterr().err
    assert f"{spec}:10:27: error[E121]: tune ROW_FEW_WARPS must be at most 32 warps, got 64" in err
    assert "Traceback" not in err
