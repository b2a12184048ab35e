"""The verifier: unverifiable specs are refused with readable counterexamples,
invariant ones get a certificate that says what the order depends on, and
`redgen recheck` catches a generated module whose certificate went stale."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from redgen.cli import main
from redgen.pipeline import plan_spec
from redgen.verify.proof import prove

REPO = Path(__file__).resolve().parent.parent
UNVERIFIABLE = sorted((REPO / "tests" / "specs" / "unverifiable").glob("*.red"))
EXPECT = re.compile(r"# expect: (?P<code>[A-Z]\d+) at (?P<line>\d+):(?P<col>\d+) contains (?P<phrases>.*)")
MEAN = (REPO / "specs" / "mean.red").read_text()


def expectation(path: Path) -> tuple[str, int, int, list[str]]:
    m = EXPECT.fullmatch(path.read_text().splitlines()[0])
    assert m, f"{path}: first line must be '# expect: CODE at LINE:COL contains \"...\" ...'"
    phrases = re.findall(r'"([^"]*)"', m["phrases"])
    assert phrases, f"{path}: no phrases to look for"
    return m["code"], int(m["line"]), int(m["col"]), phrases


def variant(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """specs/mean.red with one schedule line changed, written to tmp_path/name.red."""
    assert old in MEAN
    p = tmp_path / f"{name}.red"
    p.write_text(MEAN.replace(old, new))
    return p


def files_under(d: Path) -> list[Path]:
    return sorted(p for p in d.rglob("*")) if d.exists() else []


def test_there_are_unverifiable_specs():
    names = {p.stem for p in UNVERIFIABLE}
    for want in ("split_count_from_batch", "split_size_from_batch", "tile_from_batch", "split_count_from_cores",
                 "split_size_from_cores", "split_from_k"):
        assert want in names


@pytest.mark.parametrize("spec", UNVERIFIABLE, ids=lambda p: p.stem)
def test_unverifiable_spec_is_refused_and_nothing_is_written(spec, tmp_path, capsys):
    code, line, col, phrases = expectation(spec)
    out = tmp_path / "out"
    assert main(["build", str(spec), "--target", "cuda", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{spec}:{line}:{col}: error[{code}]" in err, err
    for phrase in phrases:
        assert phrase in err, f"{phrase!r} not in:\n{err}"
    assert "Traceback" not in err
    assert files_under(out) == []


def test_build_writes_nothing_when_one_spec_of_a_directory_fails(tmp_path, capsys):
    specs = tmp_path / "specs"
    specs.mkdir()
    shutil.copy(REPO / "specs" / "mean.red", specs / "mean.red")
    shutil.copy(REPO / "tests" / "specs" / "unverifiable" / "split_count_from_batch.red", specs / "zz_bad.red")
    out = tmp_path / "out"
    assert main(["build", str(specs), "--target", "cuda", "--out", str(out), "--no-empirical"]) == 1
    assert "error[V201]" in capsys.readouterr().err
    assert files_under(out) == []


def test_command_line_exit_code_and_message(tmp_path):
    spec = REPO / "tests" / "specs" / "unverifiable" / "split_count_from_batch.red"
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-m", "redgen", "build", str(spec), "--target", "cuda", "--out", str(out)],
                          capture_output=True, text=True, env=env, cwd=REPO)
    assert proc.returncode == 1
    assert "M=1: 40 chunks of 103; M=2: 20 chunks of 205; use fixed_size" in proc.stderr
    assert files_under(out) == []


# --- what is proven ------------------------------------------------------------
def test_fixed_size_statement_names_outputs_and_absolute_offsets():
    cert = prove(plan_spec(REPO / "specs" / "mean.red", "cuda"))
    assert cert.statement.startswith("order of y[m, k]: N in tiles of 256, chunks of 4096 at absolute offsets 0, "
                                     "4096, 8192, ... combined left to right")
    assert cert.statement.endswith("independent of M, K, cores")
    assert cert.method.startswith("free-symbol analysis")
    assert cert.depends_on == ("N",)
    assert cert.independent_of == ("M", "K", "cores")
    assert cert.order["split"] == "fixed_size" and cert.order["atomic"] is False


def test_expression_mentioning_the_batch_but_constant_is_proven_by_z3(tmp_path):
    spec = variant(tmp_path, "mean", "fixed_size 4096", "fixed_size 4096 + M - M")
    cert = prove(plan_spec(spec, "cuda"))
    assert cert.method.startswith("z3 refutation")
    assert "(4096 + M) - M" in cert.method
    # Proven independent of M, so the statement reads the value itself.
    assert "chunks of 4096 at absolute offsets" in cert.statement


def test_z3_refutes_a_batch_dependence_that_only_shows_at_large_batch(tmp_path, capsys):
    spec = variant(tmp_path, "mean", "fixed_size 4096", "fixed_size 2048 + K / 300000")
    assert main(["verify", str(spec), "--no-empirical"]) == 1
    assert "K=1: 2 chunks of 2048; K=300000: 2 chunks of 2049" in capsys.readouterr().err


def test_constant_fixed_count_is_accepted_but_says_its_boundaries_move(tmp_path):
    spec = variant(tmp_path, "mean", "fixed_size 4096", "fixed_count 8")
    cert = prove(plan_spec(spec, "cuda"))
    assert cert.method.startswith("free-symbol analysis")
    assert "up to 8 chunks" in cert.statement
    assert "batch invariant, but the chunk boundaries move with N, unlike fixed_size" in cert.statement
    assert "absolute offsets" not in cert.statement


def test_counterexample_uses_the_specs_own_core_budget(tmp_path, capsys):
    spec = variant(tmp_path, "mean", "fixed_size 4096", "fixed_count cores / M").read_text()
    p = tmp_path / "mean20.red"
    p.write_text(spec.replace("cores  40", "cores  20"))
    assert main(["verify", str(p), "--no-empirical"]) == 1
    assert "N=4096, cores=20: M=1: 20 chunks of 205; M=2: 10 chunks of 410" in capsys.readouterr().err


# --- redgen verify ---------------------------------------------------------------
def test_verify_prints_what_the_order_depends_on(capsys):
    assert main(["verify", str(REPO / "specs"), "--no-empirical"]) == 0
    out = capsys.readouterr().out
    assert out.count("verified (cuda") == len(list((REPO / "specs").glob("*.red")))
    assert "order of y[m, k]: N in tiles of 256, chunks of 4096" in out
    assert "independent of M, K, cores" in out
    assert "proof: free-symbol analysis" in out


def test_verify_reports_every_failing_spec_of_a_directory(capsys):
    assert main(["verify", str(REPO / "tests" / "specs" / "unverifiable"), "--no-empirical"]) == 1
    captured = capsys.readouterr()
    assert captured.err.count("error[") == len(UNVERIFIABLE)  # V201, and E110 for a zero divisor
    assert f"{len(UNVERIFIABLE)} spec(s) not verified" in captured.err


# --- redgen recheck ----------------------------------------------------------------
@pytest.fixture
def built(tmp_path, monkeypatch):
    """A repo-like tmp dir: specs/mean.red built into gen/ (no empirical run), cwd there."""
    (tmp_path / "specs").mkdir()
    shutil.copy(REPO / "specs" / "mean.red", tmp_path / "specs" / "mean.red")
    monkeypatch.chdir(tmp_path)
    assert main(["build", "specs/mean.red", "--target", "cuda", "--out", "gen", "--no-empirical"]) == 0
    return tmp_path / "gen" / "cuda" / "mean.py"


def _rewrite_certificate(module: Path, change) -> None:
    """Apply `change` to the module's CERTIFICATE and keep the header digest consistent."""
    import ast

    text = module.read_text()
    start = text.index("CERTIFICATE = ")
    end = text.index("\n\n", start)
    cert = ast.literal_eval(text[start + len("CERTIFICATE = "):end])
    old = hashlib.sha256(json.dumps(cert, sort_keys=True).encode()).hexdigest()
    change(cert)
    new = hashlib.sha256(json.dumps(cert, sort_keys=True).encode()).hexdigest()
    text = text[:start] + "CERTIFICATE = " + repr(cert) + text[end:]
    module.write_text(text.replace(old, new))


def test_recheck_accepts_a_fresh_build(built, capsys):
    assert main(["recheck", "gen"]) == 0
    assert "1 certificate(s) re-proved" in capsys.readouterr().out


def test_recheck_rejects_a_tampered_order(built, capsys):
    _rewrite_certificate(built, lambda c: c["order"].update(chunk="2048"))
    assert main(["recheck", "gen"]) == 1
    err = capsys.readouterr().err
    assert "error[V203]" in err and str(Path("gen") / "cuda" / "mean.py") in err
    assert "order: embedded" in err


def test_recheck_rejects_a_tampered_statement(built, capsys):
    _rewrite_certificate(built, lambda c: c.update(independent_of=["M", "cores"]))
    assert main(["recheck", str(built)]) == 1
    assert "independent_of" in capsys.readouterr().err


def test_recheck_rejects_a_certificate_edited_without_its_digest(built, capsys):
    text = built.read_text()
    assert '"chunk": "4096"' in text  # the module as emitted (formatted: double quotes)
    built.write_text(text.replace('"chunk": "4096"', '"chunk": "1024"'))
    assert main(["recheck", "gen"]) == 1
    assert "header's certificate sha256" in capsys.readouterr().err


def test_recheck_rejects_a_changed_spec(built, capsys):
    spec = built.parent.parent.parent / "specs" / "mean.red"
    spec.write_text(spec.read_text().replace("fixed_size 4096", "fixed_size 2048"))
    assert main(["recheck", "gen"]) == 1
    err = capsys.readouterr().err
    assert "error[V203]" in err and "specs/mean.red changed since the module was generated" in err


def test_recheck_ignores_the_empirical_record(built, capsys):
    # The empirical record is build --check's business: rerunning it is not a symbolic re-proof.
    _rewrite_certificate(built, lambda c: c.update(empirical={"status": "passed elsewhere"}))
    assert main(["recheck", "gen"]) == 0


def test_recheck_on_a_spec_that_no_longer_verifies(built, capsys):
    spec = built.parent.parent.parent / "specs" / "mean.red"
    text = spec.read_text().replace("fixed_size 4096", "fixed_count cores / M")
    spec.write_text(text)
    _rewrite_certificate(built, lambda c: c.update(spec_sha256=hashlib.sha256(text.encode()).hexdigest()))
    assert main(["recheck", "gen"]) == 1
    err = capsys.readouterr().err
    assert "error[V201]" in err and "error[V203]" in err and "no longer verifies" in err


@pytest.mark.parametrize("split, shown", [
    ("fixed_size 0", "the split size must be a positive integer, got 0"),  # a constant: the checker
    ("fixed_size N / 4", "divisor N / 4 in num_chunks = cdiv(N, (N / 4)) can be 0 for sizes in 1..2^40 (it is 0 at N=1)"),  # symbolic: z3
])
def test_a_chunk_must_hold_an_element_at_every_reduce_length(tmp_path, capsys, split, shown):
    spec = variant(tmp_path, "mean", "fixed_size 4096", split)
    assert main(["build", str(spec), "--target", "cuda", "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert "error[E110]" in err and shown in err
    assert files_under(tmp_path / "out") == []
