"""Issue 13: hostile specs and files give coded errors (no traceback, nothing written);
issue 14: builds reuse empirical records of byte-identical kernels, show progress, and
report every failing spec.

Everything here runs without the interpreter check (`--no-empirical`) except the one
reuse test, which fakes the run (monkeypatched) to stay fast.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import sys
from pathlib import Path

import pytest

from redgen import parse, pipeline
from redgen.cli import main
from redgen.errors import RedgenError, source_lines

ROOT = Path(__file__).resolve().parent.parent
SUM = (ROOT / "specs" / "sum.red").read_text()
sys.path.insert(0, str(ROOT / "scripts"))
from fuzz import caret_ok  # noqa: E402

TINY = "op t\nin x[M, N] : f32\nout y[M] : like x\nreduce N: s = sum({e})\ny = s\n"


def _err(text: str) -> RedgenError:
    with pytest.raises(RedgenError) as info:
        pipeline.check_mod.check(parse.parse(text, "t.red"))
    return info.value


def _run(argv, capsys) -> tuple[int, str, str]:
    try:
        rc = main(argv)
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


# --- front end ------------------------------------------------------------------------
@pytest.mark.parametrize("brk", ["\r", "\x0c", "\x0b", "\x85", "\u2028", "\u2029", "\x1c"])
def test_a_line_ends_at_newline_only_and_the_caret_is_under_the_column(brk):
    # The break char inside line 4 is a character of that line: an error after it keeps
    # line 4, and the shown line (escaped) has the caret under the column.
    text = "op t\nin x[M, N] : f32\nout y[M] : like x\nreduce N: s = sum(x)" + brk + " + q\ny = s\n"
    e = _err(text)
    assert e.loc.line == 4, e.render()
    assert caret_ok(e), e.render()
    assert brk not in e.render()  # shown escaped: it would move the terminal's cursor


def test_crlf_spec_parses_and_locates_errors():
    e = _err("op t\r\nin x[M, N] : f32\r\nout y[M] : like x\r\nreduce N: s = sum(q)\r\ny = s\r\n")
    assert (e.code, e.loc.line, e.loc.col) == ("E101", 4, 19)
    assert caret_ok(e) and "\r" not in e.render()


def test_source_lines_is_the_one_definition():
    assert source_lines("a\rb\nc\r\nd\x85e\n") == ["a\rb", "c", "d\x85e"]
    assert source_lines("") == [] and source_lines("x") == ["x"]


@pytest.mark.parametrize("wrap", [("-", ""), ("abs(", ")"), ("exp(", ")"), ("(", ")"), ("x + ", ""), ("2 * ", "")])
def test_nesting_at_the_limit_proves_and_emits_a_module_that_compiles(wrap):
    depth = parse.MAX_DEPTH - 2  # sum( ... ) and the reduce statement take the rest
    op = pipeline.check_mod.check(parse.parse(TINY.format(e=wrap[0] * depth + "x" + wrap[1] * depth), "t.red"))
    plan = pipeline.targets.planner("cuda")(op)
    compile(pipeline.emit_mod.emit(plan, pipeline.prove_plan(plan)), "t.py", "exec")


@pytest.mark.parametrize("wrap", [("-", ""), ("abs(", ")"), ("x + ", ""), ("max(x, ", ")")])
@pytest.mark.parametrize("depth", [101, 500, 5000])
def test_deep_nesting_is_a_coded_error(wrap, depth):
    e = _err(TINY.format(e=wrap[0] * depth + "x" + wrap[1] * depth))
    assert e.code == "E004" and e.loc.line == 4 and caret_ok(e)


def test_a_long_flat_chain_is_a_coded_error():
    e = _err(TINY.format(e=" + ".join(["x"] * 5000)))
    assert e.code == "E004"


@pytest.mark.parametrize("lit, code", [("1e999", "E003"), ("1" + "0" * 400, "E003"), ("1e308 * 10", "E003"),
                                       ("1e-400", None)])
def test_literals_are_finite_or_refused(lit, code):
    text = "op t\nin x[M, N] : f32\nparam p = " + lit + "\nout y[M] : like x\nreduce N: s = sum(x)\ny = s * p\n"
    if code is None:
        op = pipeline.check_mod.check(parse.parse(text, "t.red"))
        assert op.params[0].default == 0.0
        return
    e = _err(text)
    assert e.code == code and (e.loc.line, e.loc.col) == (3, 11) and caret_ok(e)


def test_inf_literal_in_an_expression_is_refused():
    e = _err(TINY.format(e="x * 1e999"))
    assert e.code == "E003" and e.loc.col == 23


@pytest.mark.parametrize("split", ["cdiv(4096, M - M)", "N / (M - M)", "4096 / (M - 1)", "cdiv(N, K - 1)"])
def test_a_split_that_divides_by_zero_at_some_shape_is_coded(split, tmp_path, capsys):
    spec = tmp_path / "t.red"
    spec.write_text("op t\nin x[M, N, K] : f32\nout y[M, K] : like x\nreduce N: s = sum(x)\ny = s\n"
                    f"split N fixed_size {split}\n")
    rc, _, err = _run(["verify", str(spec), "--no-empirical"], capsys)
    # E110 (the verifier finds the zero divisor, naming it) before E107/V201 could
    assert rc == 1 and (("error[E107]" in err or "error[V201]" in err) and "division by zero" in err
                        or "error[E110]" in err and "would divide by zero" in err)


# --- spec files -------------------------------------------------------------------------
def test_non_utf8_spec_is_a_coded_error_naming_the_byte(tmp_path, capsys):
    spec = tmp_path / "latin1.red"
    spec.write_bytes("op s\xe9m\n".encode("latin-1"))
    rc, _, err = _run(["check", str(spec)], capsys)
    assert rc == 1 and f"{spec}:1:5: error[F501]" in err and "0xe9" in err


def test_utf8_bom_is_accepted(tmp_path, capsys):
    spec = tmp_path / "bom.red"
    spec.write_bytes(b"\xef\xbb\xbf" + SUM.encode())
    assert _run(["check", str(spec)], capsys)[0] == 0


def test_a_directory_named_red_is_a_coded_error(tmp_path, capsys):
    (tmp_path / "d.red").mkdir()
    rc, _, err = _run(["check", str(tmp_path / "d.red")], capsys)  # named: a directory of specs, empty
    assert rc == 1 and "error[F501]" in err and "no .red specs in directory" in err
    (tmp_path / "ok.red").write_text(SUM)
    rc, _, err = _run(["check", str(tmp_path)], capsys)  # found by the directory's glob
    assert rc == 1 and "error[F501]" in err and "d.red' is a directory, not a spec file" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_blocking(tmp_path, capsys):
    os.mkfifo(tmp_path / "f.red")
    rc, _, err = _run(["check", str(tmp_path / "f.red")], capsys)
    assert rc == 1 and "error[F501]" in err and "not a regular file" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_an_unreadable_spec_is_a_coded_error(tmp_path, capsys):
    spec = tmp_path / "u.red"
    spec.write_text(SUM)
    spec.chmod(0)
    try:
        rc, _, err = _run(["check", str(spec)], capsys)
    finally:
        spec.chmod(stat.S_IRUSR | stat.S_IWUSR)
    assert rc == 1 and "error[F501]" in err and str(spec) in err


# --- build: output paths, op names, atomicity -----------------------------------------
def _build(capsys, *argv) -> tuple[int, str, str]:
    return _run(["build", *argv, "--target", "cuda", "--no-empirical", "-q"], capsys)


def test_out_that_is_a_file_is_a_coded_error(tmp_path, capsys):
    (tmp_path / "out").write_text("not a directory")
    rc, _, err = _build(capsys, str(ROOT / "specs" / "sum.red"), "--out", str(tmp_path / "out"))
    assert rc == 1 and "error[F502]" in err and str(tmp_path / "out") in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_read_only_out_is_a_coded_error(tmp_path, capsys):
    (tmp_path / "ro").mkdir()
    (tmp_path / "ro").chmod(0o555)
    try:
        rc, _, err = _build(capsys, str(ROOT / "specs" / "sum.red"), "--out", str(tmp_path / "ro"))
    finally:
        (tmp_path / "ro").chmod(0o755)
    assert rc == 1 and "error[F502]" in err and "not writable" in err


@pytest.mark.parametrize("name, fragment", [("__init__", "starts with '_'"), ("_private", "starts with '_'"),
                                            ("class", "Python keyword"), ("a" * 300, "too long")])
def test_op_names_that_cannot_be_modules(name, fragment, tmp_path, capsys):
    spec = tmp_path / "x.red"
    spec.write_text(SUM.replace("op sum", f"op {name}"))
    rc, _, err = _build(capsys, str(spec), "--out", str(tmp_path / "gen"))
    # E151: the checker's op-name rule (names.py); F504: what only the file system refuses (length)
    assert rc == 1 and ("error[F504]" in err or "error[E151]" in err) and fragment in err and f"{spec}:" in err
    assert not (tmp_path / "gen").exists()


def test_two_specs_with_one_op_both_fail_and_nothing_is_written(tmp_path, capsys):
    for n in ("a", "b"):
        (tmp_path / f"{n}.red").write_text(SUM)
    rc, out, err = _build(capsys, str(tmp_path), "--out", str(tmp_path / "gen"))
    assert rc == 1 and err.count("error[F503]") == 2 and "a.red" in err and "b.red" in err
    assert not (tmp_path / "gen").exists()


def test_build_of_a_directory_reports_every_failing_spec(tmp_path, capsys):
    (tmp_path / "good.red").write_text(SUM)
    (tmp_path / "bad1.red").write_text(SUM.replace("sum(x)", "sum(q)"))
    (tmp_path / "bad2.red").write_text(SUM.replace("op sum", "op other").replace("acc  f32", "acc  f99"))
    rc, out, err = _build(capsys, str(tmp_path), "--out", str(tmp_path / "gen"))
    assert rc == 1 and "error[E101]" in err and "error[E103]" in err
    assert "2 of 3 spec(s) failed; nothing written" in err
    assert "good.red" in out and "FAILED (E101" in out and "FAILED (E103" in out  # the summary table
    assert not (tmp_path / "gen").exists()


def test_a_failed_write_leaves_nothing_half_built(tmp_path, capsys):
    specs = tmp_path / "specs"
    specs.mkdir()
    for op in ("mean", "sum", "amax"):
        shutil.copy(ROOT / "specs" / f"{op}.red", specs)
    (tmp_path / "gen" / "cuda" / "sum.py").mkdir(parents=True)  # a target path that is a directory
    rc, _, err = _build(capsys, str(specs), "--out", str(tmp_path / "gen"))
    assert rc == 1 and "error[F502]" in err and "sum.py" in err
    leftovers = sorted(p.name for p in (tmp_path / "gen").rglob("*") if p.is_file())
    assert leftovers == [], leftovers


def test_rollback_when_a_rename_fails(tmp_path, monkeypatch):
    from redgen import export

    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("old a\n")
    real = os.replace

    def flaky(src, dst):
        if str(dst).endswith("b.py"):
            raise OSError(28, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr(export.os, "replace", flaky)
    with pytest.raises(RedgenError) as info:
        export.write_set({a: "new a\n", b: "new b\n"})
    assert info.value.code == "F502" and "No space left" in info.value.message
    assert a.read_text() == "old a\n" and not b.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py"]  # no temp file left


def test_written_files_get_the_usual_permissions(tmp_path, capsys):
    old = os.umask(0o022)
    try:
        assert _build(capsys, str(ROOT / "specs" / "sum.red"), "--out", str(tmp_path / "gen"))[0] == 0
    finally:
        os.umask(old)
    for p in (tmp_path / "gen").rglob("*.py"):
        assert stat.S_IMODE(p.stat().st_mode) == 0o644, p


def test_a_spec_path_with_a_newline_cannot_inject_code(tmp_path, capsys):
    d = tmp_path / "x\nimport os; os.system('echo pwned')\n#"
    d.mkdir()
    shutil.copy(ROOT / "specs" / "sum.red", d / "sum.red")
    assert _build(capsys, str(d / "sum.red"), "--out", str(tmp_path / "gen"))[0] == 0
    text = (tmp_path / "gen" / "cuda" / "sum.py").read_text()
    assert "\nimport os; os.system" not in text
    assert text.splitlines()[0].startswith("# Generated by redgen") and "\\n" in text.splitlines()[0]
    compile(text, "sum.py", "exec")


# --- CLI usage ------------------------------------------------------------------------------
def test_unknown_target_is_usage_exit_2(tmp_path, capsys):
    rc, _, err = _run(["build", str(ROOT / "specs" / "sum.red"), "--target", "cudaa", "--out", str(tmp_path)],
                      capsys)
    assert rc == 2 and "error[T301]" in err and "did you mean 'cuda'" in err


def test_argparse_internal_names_do_not_leak(capsys):
    rc, _, err = _run([], capsys)
    assert rc == 2 and "cmd" not in err.replace("command", "") and "COMMAND" in err


def test_verify_names_only_the_specs_axes(capsys):
    rc, out, _ = _run(["verify", str(ROOT / "specs" / "rms_norm.red"), "--target", "ascend", "--no-empirical"],
                      capsys)
    assert rc == 0 and "(True)" not in out and "one kernel shape, rows" in out
    rc, out, _ = _run(["verify", str(ROOT / "specs" / "rms_norm.red"), "--no-empirical"], capsys)
    assert rc == 0 and "K ==" not in out.splitlines()[0]


def test_recheck_from_another_directory(tmp_path, monkeypatch, capsys):
    (tmp_path / "specs").mkdir()
    shutil.copy(ROOT / "specs" / "sum.red", tmp_path / "specs")
    assert _build(capsys, str(tmp_path / "specs" / "sum.red"), "--out", str(tmp_path / "generated"))[0] == 0
    monkeypatch.chdir(tmp_path.parent)
    rc, out, _ = _run(["recheck", str(tmp_path / "generated")], capsys)
    assert rc == 0 and "1 certificate(s) re-proved" in out


# --- empirical record reuse (issue 14) -----------------------------------------------------
@pytest.fixture
def fake_run(monkeypatch, tmp_path):
    """run_empirical replaced by a counter (the real one takes ~45 s per spec)."""
    from redgen.verify import empirical

    calls = []

    def run(plan, source):
        calls.append(plan.op.name)
        return {"status": "passed", "where": "fake", "batch_sizes": [1], "positions": [0], "dtypes": ["f32"]}

    monkeypatch.setattr(empirical, "run_empirical", run)
    monkeypatch.setenv("REDGEN_CACHE", str(tmp_path / "cache"))
    return calls


def test_build_reuses_the_record_of_byte_identical_kernels(fake_run, tmp_path, capsys):
    specs = tmp_path / "specs"
    specs.mkdir()
    shutil.copy(ROOT / "specs" / "sum.red", specs)
    argv = ["build", str(specs), "--target", "cuda", "--out", str(tmp_path / "gen")]
    rc, out, err = _run(argv, capsys)
    assert rc == 0 and fake_run == ["sum"] and "ran (" in out and "stage" not in err
    assert "[" in err and "cuda" in err and "proved" in err  # progress: elapsed, target, spec, stage
    module = tmp_path / "gen" / "cuda" / "sum.py"
    first = module.read_text()
    assert '"kernel_sha256":' in first and '"reuse":' in first and '"triton":' in first
    # Again: the committed module's record is reused, the module is byte-identical.
    rc, out, _ = _run(argv, capsys)
    assert rc == 0 and fake_run == ["sum"] and "reused (committed module" in out and "up to date" in out
    assert module.read_text() == first
    # Elsewhere (no committed module): the cache has it.
    rc, out, _ = _run([*argv[:-1], str(tmp_path / "gen2")], capsys)
    assert rc == 0 and fake_run == ["sum"] and "reused (cache" in out
    # --fresh runs it again.
    rc, out, _ = _run([*argv, "--fresh"], capsys)
    assert rc == 0 and fake_run == ["sum", "sum"] and "1 run, 0 reused" in out


def test_a_changed_kernel_is_run_again(fake_run, tmp_path, capsys):
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "sum.red").write_text(SUM)
    argv = ["build", str(specs), "--target", "cuda", "--out", str(tmp_path / "gen"), "-q"]
    assert _run(argv, capsys)[0] == 0
    (specs / "sum.red").write_text(SUM.replace("warps  4", "warps  8"))
    rc, out, _ = _run(argv, capsys)
    assert rc == 0 and fake_run == ["sum", "sum"] and "written" in out


def test_fresh_and_no_empirical_contradict(capsys):
    rc, _, err = _run(["build", "specs/", "--target", "cuda", "--fresh", "--no-empirical"], capsys)
    assert rc == 2 and "U401" in err


# --- what the fuzzer's sampled kernel runs found ---------------------------------------------
def test_a_constant_output_is_refused():
    e = _err("op t\nin x[M, N] : f32\nout y[M] : like x\nreduce N: s = sum(x)\nc = 2.5\ny = -(c + 1)\n")
    assert e.code == "E109" and (e.loc.line, e.loc.col) == (6, 1) and "a constant" in e.message


def test_a_local_of_sizes_and_params_is_used_inline_and_runs(tmp_path, capsys):
    import torch

    spec = tmp_path / "r.red"
    spec.write_text("op r\nin x[M, N] : f32\nparam eps = 1e-6\nout y[M, N] : like x\nreduce N: ss = sum(x * x)\n"
                    "q = 3 / N + eps\nr = rsqrt(q)\ny = x * r * ss\n")
    assert _build(capsys, str(spec), "--out", str(tmp_path / "gen"))[0] == 0
    import redgen

    f = redgen.load("r", "cuda", root=tmp_path / "gen")
    x = torch.randn(3, 37)
    want = x * torch.rsqrt(torch.tensor(3 / 37 + 1e-6)) * (x * x).sum(1, keepdim=True)
    torch.testing.assert_close(f(x, dim=1), want, rtol=1e-4, atol=1e-4)


def test_inlined_locals_cannot_blow_up():
    lines = ["op r", "in x[M, N] : f32", "out y[M] : like x", "reduce N: s = sum(x)", "a0 = N"]
    lines += [f"a{i} = a{i - 1} + a{i - 1}" for i in range(1, 60)] + ["y = s * a59"]
    e = _err("\n".join(lines) + "\n")
    assert e.code == "E004" and "expands to an expression" in e.message


@pytest.mark.parametrize("n", [101, 3000])
def test_a_chain_of_locals_is_bounded(n):
    lines = ["op r", "in x[M, N] : f32", "out y[M] : like x", "reduce N: s = sum(x)", "a0 = s"]
    lines += [f"a{i} = -a{i - 1}" for i in range(1, n)] + [f"y = a{n - 1}"]
    e = _err("\n".join(lines) + "\n")
    assert e.code == "E004" and e.loc.line == 105 and "chain of 101 locals" in e.message


def test_a_tile_beyond_tritons_block_limit_is_a_target_limit(tmp_path, capsys):
    spec = tmp_path / "t.red"
    spec.write_text(re.sub(r"^tile .*$", "tile   N = 1048576, K = 16", SUM, flags=re.M))
    rc, _, err = _build(capsys, str(spec), "--out", str(tmp_path / "gen"))
    assert rc == 1 and "error[T302]" in err and "Triton allows at most 1048576" in err


def test_a_divisor_that_z3_proves_but_is_zero_is_refused(tmp_path, capsys):
    spec = tmp_path / "t.red"
    spec.write_text("op t\nin x[M, N] : f32\nout y[M] : like x\nreduce N: s = max(x)\ny = s\n"
                    "split N fixed_count N / (M - M)\n")
    rc, _, err = _run(["verify", str(spec), "--no-empirical"], capsys)
    assert rc == 1 and ("error[E107]" in err and "divides by zero" in err
                        or "error[E110]" in err and "would divide by zero" in err) and ":6:" in err


def test_long_interpreter_checks_print_a_heartbeat_and_a_dead_worker_is_coded(monkeypatch, tmp_path, capsys):
    import subprocess
    import time

    from redgen.verify import empirical

    def slow(plan, source):
        time.sleep(0.3)
        raise subprocess.TimeoutExpired("worker", 1800)

    monkeypatch.setattr(empirical, "run_empirical", slow)
    monkeypatch.setattr(pipeline, "HEARTBEAT_S", 0.05)
    monkeypatch.setenv("REDGEN_CACHE", str(tmp_path / "cache"))
    rc, out, err = _run(["build", str(ROOT / "specs" / "sum.red"), "--target", "cuda", "--fresh",
                         "--out", str(tmp_path / "gen")], capsys)
    assert "interpreter check(s) still running or queued (sum)" in err
    assert rc == 1 and "error[V202]" in err and "did not complete: TimeoutExpired" in err
    assert not (tmp_path / "gen").exists()


def test_recheck_of_unreadable_modules_is_coded(tmp_path, capsys):
    (tmp_path / "generated" / "cuda" / "dir.py").mkdir(parents=True)
    (tmp_path / "generated" / "cuda" / "bad.py").write_bytes(b"\xff\xfe")
    rc, _, err = _run(["recheck", str(tmp_path / "generated")], capsys)
    assert rc == 1 and err.count("error[V203]") == 2 and "cannot read the generated module" in err


def test_crlf_with_a_comment_keeps_the_caret_on_its_line():
    # A comment used to swallow the "\r" of CRLF, and the caret went one past the line end.
    e = _err("op t\r\nin x[M, N] : f32\r\nout  y[M]  #  : i64\r\nreduce N: s = sum(x)\r\ny = s\r\n")
    assert (e.code, e.loc.line) == ("E001", 3) and caret_ok(e), e.render()
