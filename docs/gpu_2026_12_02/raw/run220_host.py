"""Run 220b: host time on an H200 host. The ways to allocate a small CUDA tensor from Python, timed
alone; dense attention decode imported directly after the logsumexp became a workspace beside the
partials (one allocation fewer), its bits against the general path; argmax's split rows again."""
import importlib, sys
from pathlib import Path
import torch
import torch.nn.functional as fn
sys.path.insert(0, str(Path.cwd() / "benchmarks")); sys.path.insert(0, str(Path.cwd()))
from gpu_run import host_us  # noqa: E402
bf, i64 = torch.bfloat16, torch.int64
dev = torch.device("cuda", 0)
tmpl = torch.empty(8, dtype=i64, device=dev)
buf = torch.empty(1024, dtype=torch.float32, device=dev)
ways = {
    "empty_strided((8,), (1,), dtype, device obj)": lambda: torch.empty_strided((8,), (1,), dtype=i64, device=dev),
    "empty_strided(..., device='cuda')": lambda: torch.empty_strided((8,), (1,), dtype=i64, device="cuda"),
    "empty_strided(..., device=0)": lambda: torch.empty_strided((8,), (1,), dtype=i64, device=0),
    "empty((8,), dtype, device obj)": lambda: torch.empty((8,), dtype=i64, device=dev),
    "empty(8, dtype, device obj)": lambda: torch.empty(8, dtype=i64, device=dev),
    "tmpl.new_empty((8,))": lambda: tmpl.new_empty((8,)),
    "tmpl.new_empty_strided((8,), (1,))": lambda: tmpl.new_empty_strided((8,), (1,)),
    "empty_like(tmpl)": lambda: torch.empty_like(tmpl),
    "empty_strided 4-d bf16 (attention's o)": lambda: torch.empty_strided((8, 1, 16, 128), (2048, 2048, 128, 1), dtype=bf, device=dev),
    "buf[64:] (a slice)": lambda: buf[64:],
    "buf.data_ptr()": lambda: buf.data_ptr(),
}
print("device", torch.cuda.get_device_name())
for name, f in ways.items():
    f()
    print(f"  {name}: {host_us(f, n=400, batches=5):.2f} us")
am = importlib.import_module("generated.cuda.argmax")
at = importlib.import_module("generated.cuda.attention")
x = torch.randn(8, 32000, device="cuda", dtype=bf)
q = torch.randn(8, 16, 1, 128, device="cuda", dtype=bf)
k = torch.randn(8, 4, 700, 128, device="cuda", dtype=bf)
v = torch.randn(8, 4, 700, 128, device="cuda", dtype=bf)
cases = {
    "argmax 8x32000 (split: two launches)": (lambda: am.argmax(x, -1), lambda: torch.argmax(x, -1)),
    "attention decode 8x16/4x700": (lambda: at.attention(q, k, v, causal=False, heads_first=True),
                                    lambda: fn.scaled_dot_product_attention(q, k, v, enable_gqa=True)),
    "attention decode, return_lse": (lambda: at.attention(q, k, v, causal=False, heads_first=True, return_lse=True),
                                     lambda: fn.scaled_dot_product_attention(q, k, v, enable_gqa=True)),
}
for name, (d, t) in cases.items():
    for _ in range(3):
        d()
    torch.cuda.synchronize()
    a, b = host_us(d, n=200, batches=5), host_us(t, n=200, batches=5)
    print(f"{name}: direct {a:.1f} us, torch {b:.1f} us, direct - torch {a - b:+.1f}")
# bits: the bound decode against the general path (its own allocations), both with and without lse
o = at.attention(q, k, v, causal=False, heads_first=True)
o2, lse2 = at.attention(q, k, v, causal=False, heads_first=True, return_lse=True)
qf, kf, vf = (t.transpose(1, 2) for t in (q, k, v))
go, glse = at._run(qf, kf, vf, False, None, None, None, None, None, True)
print("attention bits: o == general", torch.equal(o, go.transpose(1, 2)), "| with lse: o", torch.equal(o2, go.transpose(1, 2)),
      "lse", torch.equal(lse2, glse.transpose(1, 2)), "| geometries", len(at._GEOMETRY))
ref = fn.scaled_dot_product_attention(q.double(), k.double(), v.double(), enable_gqa=True)
print("attention max |o - f64| %.3g" % (o.double() - ref).abs().max().item())
