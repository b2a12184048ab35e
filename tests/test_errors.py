"""Negative tests: one small spec per error the parser/checker can raise.

Every file in tests/specs/errors/ starts with `# expect: CODE at LINE:COL`;
the pipeline (parse, check, plan) must raise exactly that error there, and
its rendering must be `file:line:col: error[CODE]: ...` + the source line +
a caret under the column.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from redgen import errors
from redgen.cli import main
from redgen.errors import RedgenError
from redgen.pipeline import plan_spec

ERROR_SPECS = Path(__file__).parent / "specs" / "errors"
SPECS = sorted(ERROR_SPECS.glob("*.red"))
EXPECT = re.compile(r"# expect: ([A-Z]\d{3}) at (\d+):(\d+)$")
ROOT = Path(__file__).resolve().parent.parent


def _expected(path: Path) -> tuple[str, int, int]:
    m = EXPECT.match(path.read_text().splitlines()[0])
    assert m, f"{path.name}: the first line must be '# expect: CODE at LINE:COL'"
    return m[1], int(m[2]), int(m[3])


def _raise(path: Path) -> RedgenError:
    # parse + check + plan: every E-code is raised by then; T-codes are a target's
    # hardware limits, checked by the ascend planner.
    target = "ascend" if path.name.startswith("T") else "cuda"
    with pytest.raises(RedgenError) as info:
        plan_spec(path, target)
    return info.value


@pytest.mark.parametrize("path", SPECS, ids=[p.stem for p in SPECS])
def test_error_spec(path: Path):
    code, line, col = _expected(path)
    e = _raise(path)
    assert (e.code, e.loc.line, e.loc.col) == (code, line, col), e.render()
    assert path.stem.startswith(code), "the file name starts with the code it expects"
    rendered = e.render().splitlines()
    assert rendered[0].startswith(f"{path}:{line}:{col}: error[{code}]: ")
    assert e.message in rendered[0]
    # The source line, then a caret under the column (tabs kept, so it lines up).
    src = path.read_text().splitlines()[line - 1]
    assert rendered[1] == f"{line:5d} | {src}"
    assert rendered[2].endswith("^")
    assert len(rendered[2]) == len(f"{line:5d} | ") + col
    assert "Traceback" not in e.render()


def test_every_error_code_has_a_spec():
    codes = {cls.code for cls in vars(errors).values()
             if isinstance(cls, type) and issubclass(cls, RedgenError) and cls.code.startswith("E")
             and cls is not RedgenError}
    assert len(codes) >= 27  # E001..E004, E101..E119, E130..E132 (attention), E150, E151
    covered = {_expected(p)[0] for p in SPECS if p.name.startswith("E")}  # (T302 specs: tests/test_ascend.py)
    assert codes - covered == set(), f"error codes without a spec in {ERROR_SPECS}"


# --- messages worth pinning down -----------------------------------------------------------
@pytest.mark.parametrize("stem, fragment", [
    ("E101_unknown_name_did_you_mean", "unknown name 'xx'; did you mean 'x'?"),
    ("E121_tune_unknown_target", "unknown target 'gpu' (targets: ascend, cuda)"),
    ("E121_tune_knob_typo", "'ROW_ACROS_PAD' is not a knob of the cuda launchers"),
    ("E121_tune_knob_typo", "did you mean 'ROW_ACROSS_PAD'?"),
    ("E121_tune_twice", "cuda knob ROW_ACROSS_PAD is tuned twice (first at line 8)"),
    ("E121_tune_stated_knob", "SPLIT_BELOW is decided by the plan and stated in the certificate"),
    ("E121_tune_not_pow2", "tune ROW_ACROSS_LANES must be a power of two, got 6"),
    ("E121_tune_ascend_has_no_knobs", "'CORES' is not a knob of the ascend launchers (its launchers have no knobs"),
    ("E121_tune_contraction", "a contraction's launcher is not tuned from its spec"),
    ("E101_unknown_name", "unknown name 'q'"),
    ("E101_read_output", "outputs are written, not read"),
    ("E102_assign_input", "'x' is already an input"),
    ("E102_duplicate_name", "'s' is already a reduction"),
    ("E102_duplicate_tile_axis", "tile N is given twice"),
    ("E103_dtype_typo", "dtype 'fp32' is not one of f32, f16, bf16, i64; did you mean 'f32'?"),
    ("E104_combiner_typo", "unknown combiner 'summ' (one of sum, max, min, argmax, argmin, softmax_stats, welford); did you mean 'sum'?"),
    ("E104_unknown_combiner", "unknown combiner 'prod' (one of sum, max, min, argmax, argmin, softmax_stats, welford)"),
    ("E105_tile_not_pow2", "tile N = 500 is not a power of two"),
    ("E110_split_before_reduce", "'split' must come after the 'reduce' statement"),
    ("E110_split_batch_axis", "'K' is not the reduce axis 'N'"),
    ("E111_unknown_function", "unknown function 'expp'; did you mean 'exp'?"),
    ("E112_bad_arity", "exp() takes 1 argument(s), got 2"),
    ("E112_softmax_stats_one_name", "softmax_stats() gives 2 result(s): bind 2 names in parentheses ('(m, s) = ...'), not 1"),
    ("E112_sum_two_names", "sum() gives 1 result(s): bind one name ('s = ...'), not 2"),
    ("E102_softmax_stats_name_taken", "'x' is already an input"),
    ("E113_cores_zero", "cores must be a positive integer or 'auto', got 0"),
    ("E114_bad_warps", "got 3"),
    ("E115_layout_not_reduce_axis", "only the reduce axis 'N' can be made innermost, not 'K'"),
    ("E116_index_in_arithmetic", "'i' is the index argmax yields, not a value"),
    ("E116_index_not_last_stage", "an index reduction must be in the last stage"),
    ("E117_index_to_float_output", "declared 'like x': declare it ': i64'"),
    ("E117_value_to_i64_output", "only an argmax/argmin result can be assigned to it"),
    ("E118_integer_as_value", "'t' is an integer input (i64): it holds positions along the reduce axis"),
    ("E118_i64_first_input", "the first input fixes the axes and is reduced: it must be a float input"),
    ("E119_gather_before_reduce", "write it after a 'reduce' statement"),
    ("E119_gather_index_not_integer", "must be an integer input (declared 'in t[...] : i64')"),
])
def test_error_message(stem: str, fragment: str):
    assert fragment in _raise(ERROR_SPECS / f"{stem}.red").message


def test_no_did_you_mean_without_a_close_name():
    assert "did you mean" not in _raise(ERROR_SPECS / "E111_unknown_function_no_hint.red").message
    assert "did you mean" not in _raise(ERROR_SPECS / "E104_unknown_combiner.red").message


def test_param_default_is_folded(tmp_path: Path):
    """A constant parameter default is computed (it used to crash with a TypeError)."""
    from redgen.pipeline import check_spec

    spec = tmp_path / "p.red"
    spec.write_text("op p\nparam eps = 1 / 1024 + exp(0) - 1\nin x[M, N] : f32\nout y[M] : like x\n"
                    "reduce N: s = sum(x * eps)\ny = s\n")
    (param,) = check_spec(spec).params
    assert param.default == pytest.approx(1 / 1024)


def test_empty_file_is_unexpected_end(tmp_path: Path):
    spec = tmp_path / "empty.red"
    spec.write_text("")
    e = _raise(spec)
    assert e.code == "E002"
    assert e.render().startswith(f"{spec}:1:1: error[E002]")


# --- the command line -------------------------------------------------------------------------
def test_cli_bad_spec_exits_1_with_rendered_error(capsys):
    path = ERROR_SPECS / "E101_unknown_name_did_you_mean.red"
    assert main(["check", str(path)]) == 1
    out, err = capsys.readouterr()
    assert f"{path}:6:19: error[E101]: unknown name 'xx'; did you mean 'x'?" in err
    assert err.rstrip().endswith("^")
    assert "Traceback" not in out + err


def test_cli_build_bad_spec_exits_1(tmp_path: Path, capsys):
    path = ERROR_SPECS / "E113_cores_zero.red"
    assert main(["build", str(path), "--target", "cuda", "--out", str(tmp_path), "--no-empirical"]) == 1
    _, err = capsys.readouterr()
    assert "error[E113]" in err and "Traceback" not in err
    assert not list(tmp_path.rglob("*.py")), "nothing is written for a spec that fails"


def test_cli_check_good_specs(capsys):
    assert main(["check", str(ROOT / "specs")]) == 0
    out, _ = capsys.readouterr()
    assert "mean.red: ok" in out and "sum.red: ok" in out


@pytest.mark.parametrize("argv", [
    ["build", "specs/"],  # --target is required
    ["build", "specs/", "--target", "cuda", "--frobnicate"],
    ["check"],
    ["explode", "specs/"],
    [],
])
def test_cli_usage_errors_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    _, err = capsys.readouterr()
    assert "usage:" in err and "Traceback" not in err


def test_cli_missing_target_names_the_flag(capsys):
    with pytest.raises(SystemExit):
        main(["build", "specs/"])
    _, err = capsys.readouterr()
    assert "error[U401]" in err and "--target" in err


@pytest.mark.parametrize("target, fragment", [
    ("cudaa", "unknown target 'cudaa' (available: ascend, cuda); did you mean 'cuda'?"),
    ("tpu", "unknown target 'tpu' (available: ascend, cuda)"),
])
def test_cli_unknown_target(target: str, fragment: str, tmp_path: Path, capsys):
    rc = main(["build", str(ROOT / "specs"), "--target", target, "--out", str(tmp_path), "--no-empirical"])
    assert rc == 2  # an unknown --target is command-line misuse (issue 14)
    out, err = capsys.readouterr()
    assert "error[T301]" in err and fragment in err
    assert "Traceback" not in out + err
    assert not list(tmp_path.iterdir())


def test_cli_verify_unknown_target(capsys):
    assert main(["verify", str(ROOT / "specs" / "sum.red"), "--target", "tpu", "--no-empirical"]) == 2
    assert "error[T301]" in capsys.readouterr().err


def test_cli_missing_spec_file(capsys):
    assert main(["check", "no/such/spec.red"]) == 1
    _, err = capsys.readouterr()
    assert "no such spec file or directory" in err and "Traceback" not in err
