"""Run 234: benchmarks/gpu_empirical_check.py's device run on the committed modules' own bytes (the
device lacks z3 and ruff, which proving and formatting a fresh emit need; the worker needs neither)."""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))
from redgen.pipeline import plan_spec  # noqa: E402
from redgen.verify import empirical  # noqa: E402

for name in sys.argv[1:]:
    plan = plan_spec(f"specs/{name}.red", "cuda")
    t = time.time()
    source = Path(f"generated/cuda/{name}.py").read_text()
    try:
        rec = empirical._run_worker(plan, source, {"TRITON_INTERPRET": "0", "REDGEN_EMPIRICAL_DEVICE": "cuda"})
        print(f"{name}: {rec['status']} on {rec['where']}; {rec['calls']} calls; paths {', '.join(rec.get('paths', []))}; "
              f"{rec.get('reference', '')} ({time.time() - t:.1f} s)", flush=True)
    except Exception as e:  # noqa: BLE001 - report and go on
        text = str(e)
        print(f"{name}: FAILED {type(e).__name__}: {text[:600]}" + (f"\n  ...\n{text[-2500:]}" if len(text) > 600 else ""))
