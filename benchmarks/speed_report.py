"""Issue 12's speed comparison in one command on a GPU, written to one folder.

    python benchmarks/speed_report.py --out DIR                        # every op, both peers, host time, the model
    python benchmarks/speed_report.py --out DIR --ops rms_norm,softmax --rows 1,4096 --hidden 4096 --dtypes bf16

It runs the three benchmarks one after another, each in its own process, on the same machine:
- `ops_bench.py` with its peers: every op against torch eager, Liger-Kernel (where its wheel is
  importable: docs/benchmarks.md says how it travels) and torch.compile. It records GPU time (CUDA graphs)
  and eager time, the bandwidth against the copy bandwidth measured in the same run, accuracy, and each
  implementation's bitwise invariance at each point. Then `plot_ops.py` draws it.
- `host_time.py`: the host time per call, imported directly (C++ replay, and Python's), and under the mode.
- `model_bench.py`: a small Hugging Face Llama's generate time with and without `batch_invariant()`.

DIR gets each part's log (`ops.log`, `host.log`, `model.log`), ops_bench's `ops/results.{json,md}`,
`ops.png`, and `report.md`. The report holds the per-op summary, the host-time table and the model's
lines, as the parts printed them. A part that fails is named in the report and in the exit status (1),
and the parts after it still run. The ops part is the long one: about 15 minutes for every op on an
H200, most of it compiling (`--warm-procs` processes).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def parts(opts: argparse.Namespace, out: Path) -> list[tuple[str, list[str]]]:
    """(name, argv) of each part, in the order they run. The ops part passes the size flags through."""
    ops = [sys.executable, str(HERE / "ops_bench.py"), "--peers", "liger,compile", "--out", str(out / "ops"),
           "--warm-procs", str(opts.warm_procs)]
    for flag in ("ops", "rows", "hidden", "dtypes"):
        value = getattr(opts, flag)
        if value:
            ops += [f"--{flag}", value]
    return [
        ("ops", ops),
        ("plot", [sys.executable, str(HERE / "plot_ops.py"), str(out / "ops" / "results.json"), str(out / "ops.png")]),
        ("host", [sys.executable, str(HERE / "host_time.py"), "--json", str(out / "host.json")]),
        ("model", [sys.executable, str(HERE / "model_bench.py")]),
    ]


def _per_op(lines: list[str]) -> list[str]:
    """ops_bench's per-op summary in the lines of its results.md: the heading line and the table under it."""
    for i, line in enumerate(lines):
        if line.startswith("Per op"):
            table = []
            for row in lines[i + 1:]:
                if row.startswith("|"):
                    table.append(row)
                elif table:
                    break
            return [line, "", *table]
    return []


def _lines(path: Path) -> list[str]:
    """A part's output file as lines; none where the part did not write it (it failed first)."""
    return path.read_text(errors="replace").splitlines() if path.exists() else []


def report(out: Path, status: dict[str, tuple[int, float]], device: str) -> str:
    """report.md: the device, each part's status, then what it printed that answers issue 12's goals."""
    text = ["# Speed report", "", device, ""]
    text += ["| part | exit status | seconds | log |", "|---|---|---|---|"]
    for name, (rc, secs) in status.items():
        text.append(f"| {name} | {rc}{'' if rc == 0 else ' (failed)'} | {secs:.0f} | {name}.log |")
    summary = _per_op(_lines(out / "ops" / "results.md"))
    text += ["", "## Every op against torch, Liger-Kernel and torch.compile (ops/results.md)", ""]
    text += summary or ["(no per-op summary: see ops.log)"]
    if (out / "ops.png").exists():
        text += ["", "![every point](ops.png)"]
    text += ["", "## Host time per call (host.log)", ""]
    text += [ln for ln in _lines(out / "host.log") if ln.startswith(("|", "device"))] or ["(no table: see host.log)"]
    text += ["", "## The model under batch_invariant() (model.log)", ""]
    text += [ln for ln in _lines(out / "model.log") if ln.strip()] or ["(no lines: see model.log)"]
    return "\n".join(text) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="the folder for the logs, tables, plot and report.md")
    ap.add_argument("--ops", help="ops_bench's ops (default: every generated op)")
    ap.add_argument("--rows", help="ops_bench's row counts")
    ap.add_argument("--hidden", help="ops_bench's reduce lengths")
    ap.add_argument("--dtypes", help="ops_bench's dtypes")
    ap.add_argument("--warm-procs", type=int, default=14, help="ops_bench's compile processes (default 14)")
    opts = ap.parse_args(argv)
    out = Path(opts.out)
    if out.exists() and not out.is_dir():
        print(f"speed_report: --out {out} is a file, not a folder", file=sys.stderr)
        return 2
    import torch

    if not torch.cuda.is_available():
        print("speed_report: it times kernels on a CUDA GPU and this machine has none "
              "(a CPU run of the ops: python benchmarks/ops_bench.py --smoke)", file=sys.stderr)
        return 2
    import triton

    device = f"Device: {torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}."
    out.mkdir(parents=True, exist_ok=True)
    # The parts import `generated` and `benchmarks` from the checkout (as `PYTHONPATH=.` gives them).
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH")))))
    status: dict[str, tuple[int, float]] = {}
    for name, cmd in parts(opts, out):
        start = time.time()
        with open(out / f"{name}.log", "w") as log:
            rc = subprocess.run(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT).returncode
        status[name] = (rc, time.time() - start)
        print(f"{name}: exit status {rc}, {status[name][1]:.0f} s", flush=True)
    (out / "report.md").write_text(report(out, status, device))
    failed = [name for name, (rc, _) in status.items() if rc != 0]
    print(f"report: {out / 'report.md'}" + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
