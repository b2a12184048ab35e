"""Device-side check of redgen.verify.empirical's GPU run (the worker with REDGEN_EMPIRICAL_DEVICE=cuda)."""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redgen.pipeline import emit_plan, plan_spec, prove_plan  # noqa: E402
from redgen.verify import empirical  # noqa: E402

# The empirical worker checks reductions; contractions and attention have GPU checks of their own.
OWN_CHECKS = {"ContractionPlan": "benchmarks/matmul_bench.py", "AttentionPlan": "benchmarks/attention_bench.py"}

for name in sys.argv[1:]:
    plan = plan_spec(f"specs/{name}.red", "cuda")
    if type(plan).__name__ in OWN_CHECKS:
        print(f"{name}: not a reduction; its GPU check is {OWN_CHECKS[type(plan).__name__]}")
        continue
    cert = prove_plan(plan)
    t = time.time()
    try:
        rec = empirical._run_worker(plan, emit_plan(plan, cert), {"TRITON_INTERPRET": "0", "REDGEN_EMPIRICAL_DEVICE": "cuda"})
        print(f"{name}: {rec['status']} on {rec['where']}; {rec['calls']} calls; paths {', '.join(rec.get('paths', []))}; "
              f"{rec.get('reference', '')} ({time.time() - t:.1f} s)")
    except Exception as e:  # noqa: BLE001 - report and go on
        text = str(e)  # the worker's traceback: its head says where, its tail what failed
        print(f"{name}: FAILED {type(e).__name__}: {text[:600]}" + (f"\n  ...\n{text[-2500:]}" if len(text) > 600 else ""))
