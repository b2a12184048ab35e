"""Run 146: ncu of redgen against Liger-Kernel at the latency-bound points where Liger is faster
(1-256 rows, bf16 mostly). One launch each is profiled (cudaProfilerStart/Stop around it)."""
import os
import sys

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.getcwd() + "/benchmarks")
import torch  # noqa: E402

import ops_bench  # noqa: E402

POINTS = [("add_rms_norm", torch.bfloat16, 256, 8192), ("add_rms_norm", torch.bfloat16, 1, 4096),
          ("layer_norm", torch.bfloat16, 32, 4096), ("softmax", torch.bfloat16, 32, 4096),
          ("rms_norm", torch.float32, 1, 4096), ("add_rms_norm", torch.float32, 32, 8192)]


def main():
    refs = ops_bench._ops()
    liger = ops_bench._peers(["liger"])["liger"]
    cudart = torch.cuda.cudart()
    for op, dt, m, n in POINTS:
        ref = refs[op]
        fn = getattr(ops_bench._load_op(op), op)
        x, w, b = ops_bench._inputs(ref, dt, m, n, "cuda")
        impls = {"redgen": lambda: ref.redgen(fn, x, w, b), "liger": lambda: liger[op](x, w, b)}
        for name, f in impls.items():
            for _ in range(3):
                f()
            torch.cuda.synchronize()
            print(f"== {name} {op} {str(dt)[6:]} {m}x{n}", flush=True)
            cudart.cudaProfilerStart()
            f()
            torch.cuda.synchronize()
            cudart.cudaProfilerStop()


if __name__ == "__main__":
    main()
