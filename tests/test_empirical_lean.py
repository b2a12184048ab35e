"""The empirical check's interpreter savings (redgen.verify.worker.lean_interpreter) and
its skipped duplicate path change no bit of any output, and the record says what ran."""

from __future__ import annotations

from pathlib import Path

from redgen.pipeline import emit_plan, plan_spec, prove_plan
from redgen.verify.empirical import run_empirical
from tests.bit_runs import assert_same_bits, run_script

ROOT = Path(__file__).resolve().parent.parent

# Runs generated kernels that call device functions in their loops (combiners, lane trees,
# a 2-stage softmax, an argmax) on fixed inputs; with argv[1] == "lean" after the savings.
SCRIPT = """
import sys, torch
from redgen.verify.worker import lean_interpreter
done = lean_interpreter() if sys.argv[1] == "lean" else []
assert len(done) == (2 if sys.argv[1] == "lean" else 0), done
from generated.cuda.softmax import softmax
from generated.cuda.argmax import argmax
from generated.ascend.logsumexp import logsumexp
g = torch.Generator().manual_seed(0)
x = torch.randn(5, 700, 3, generator=g)
x[1, 3] = float("nan")
outs = [softmax(x, 1), argmax(x, 1), logsumexp(x, 1), softmax(x.to(torch.bfloat16), 1)]
torch.save(outs, sys.argv[2])
"""


def test_lean_interpreter_changes_no_bit(tmp_path):
    plain, lean = run_script(SCRIPT, "plain", tmp_path / "a.pt"), run_script(SCRIPT, "lean", tmp_path / "b.pt")
    assert_same_bits(plain, lean, 4)


def test_record_says_what_ran():
    plan = plan_spec(ROOT / "specs" / "amax.red", "ascend")
    cert = prove_plan(plan)
    rec = run_empirical(plan, emit_plan(plan, cert))
    assert rec["status"] == "passed"
    # grid40 is the module's own CORES: the natural call, not run twice.
    assert rec["grids"] == [1, 8, 40, 48] and rec["same_as_natural"] == ["grid40"]
    assert len(rec["interpreter"]) == 2
    lines = cert.with_empirical(rec).lines()
    assert any("(grid40: the natural path's own value, run as it)" in x for x in lines)
    assert any(x.startswith("empirical, interpreter work skipped as it cannot change a result: int32 overflow")
               for x in lines)
