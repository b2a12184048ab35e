"""benchmarks/speed_report.py: issue 12's comparison in one command (ops_bench with its peers, the plot,
host_time, model_bench) into one folder and its report.md. The GPU run is docs/gpu_2026_12_02 run 227;
here its refusals, its parts' command lines and the report it assembles, with the parts stood in for."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import speed_report  # noqa: E402

PER_OP = """## ops_bench (NVIDIA H200, full)

Per op (GPU time; a ratio is the other's time / redgen's, > 1: redgen faster; slower: below 0.98):

| op | points | vs torch (geomean) |
|---|---|---|
| rms_norm | 2 | 1.736 |

| op | dtype | rows |
|---|---|---|
| rms_norm | bf16 | 1 |
"""


def _script(*argv):
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "speed_report.py"), *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("argv, message", [
    ([], "the following arguments are required: --out"),
    (["--out", "FILE"], "is a file, not a folder"),
    (["--out", "DIR"], "this machine has none"),
])
def test_refusals_name_what_is_wrong_without_a_traceback(tmp_path, argv, message):
    (tmp_path / "file").write_text("")
    argv = [str(tmp_path / "file") if a == "FILE" else str(tmp_path / "out") if a == "DIR" else a for a in argv]
    done = _script(*argv)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()  # nothing written before the run can start


def test_parts_run_in_order_with_the_size_flags_passed_to_ops_bench(tmp_path):
    opts = argparse.Namespace(ops="rms_norm,argmax", rows="1,4096", hidden=None, dtypes="bf16", warm_procs=4)
    got = speed_report.parts(opts, tmp_path)
    assert [name for name, _ in got] == ["ops", "plot", "host", "model"]
    ops = got[0][1]
    assert ops[1].endswith("ops_bench.py") and ops[ops.index("--peers") + 1] == "liger,compile"
    assert ops[ops.index("--ops") + 1] == "rms_norm,argmax" and ops[ops.index("--rows") + 1] == "1,4096"
    assert ops[ops.index("--dtypes") + 1] == "bf16" and ops[ops.index("--warm-procs") + 1] == "4"
    assert "--hidden" not in ops  # a flag not given keeps ops_bench's default
    assert got[1][1][-2:] == [str(tmp_path / "ops" / "results.json"), str(tmp_path / "ops.png")]
    assert got[2][1][-2:] == ["--json", str(tmp_path / "host.json")]


def test_the_per_op_summary_is_the_table_under_its_heading():
    lines = PER_OP.splitlines()
    assert speed_report._per_op(lines) == [lines[2], "", *lines[4:7]]
    assert speed_report._per_op(["no summary here", "| a |"]) == []


def _stand_in_parts(fail):
    """subprocess.run for the parts: each writes what the real one would, `fail` exits 1."""
    def run(cmd, cwd, env, stdout, stderr):
        name = Path(cmd[1]).stem
        stdout.write(f"{name} ran\n")
        if name == "ops_bench":
            out = Path(cmd[cmd.index("--out") + 1])
            out.mkdir(parents=True)
            (out / "results.md").write_text(PER_OP)
        elif name == "host_time":
            stdout.write("device: X\n| call | torch us |\n|---|---|\n| mean | 8.6 |\n")
        elif name == "model_bench":
            stdout.write("ratio (mode / plain): 0.90x\n")
        assert str(ROOT) in env["PYTHONPATH"].split(":")  # the parts import generated/ from the checkout
        return subprocess.CompletedProcess(cmd, 1 if name == fail else 0)
    return run


@pytest.mark.parametrize("fail", [None, "plot_ops"])
def test_a_run_writes_the_report_and_names_a_failed_part(tmp_path, monkeypatch, capsys, fail):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda *a: "Stand-in GPU")
    monkeypatch.setattr(speed_report.subprocess, "run", _stand_in_parts(fail))
    rc = speed_report.main(["--out", str(tmp_path / "out"), "--ops", "rms_norm"])
    report = (tmp_path / "out" / "report.md").read_text()
    assert rc == (1 if fail else 0)
    assert report.startswith("# Speed report\n\nDevice: Stand-in GPU, torch ")
    assert "| rms_norm | 2 | 1.736 |" in report and "| rms_norm | bf16 | 1 |" not in report
    assert "| mean | 8.6 |" in report and "ratio (mode / plain): 0.90x" in report
    assert ("| plot | 1 (failed) |" in report) == bool(fail) and "| ops | 0 |" in report
    assert (tmp_path / "out" / "model.log").read_text().startswith("model_bench ran")
    assert ("failed: plot" in capsys.readouterr().out) == bool(fail)
