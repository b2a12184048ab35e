"""redgen's contractions on a GPU: correctness, bitwise invariance, what shapes the bits, speed.

    python benchmarks/matmul_bench.py [--out DIR] [--quick]

One run, in order (each section prints its own lines; --out writes results.json):
1. correctness against float64 (tests/tolerances.py) for matmul/addmm/bmm/linear, bf16/f16/f32;
   f32 on exact integers must be exact (IEEE f32, no TF32);
2. invariance: c[:M] computed alone equals the first M rows of the batch of 8192, bit for bit,
   for every M in 1..300 and a sample up to 8192, each (K, N), dtype and bf16 weight layout
   (every regime class and, by N, both sides of each class's fill rule);
3. config sweep: BLOCK_M, BLOCK_N, num_warps, num_stages, GROUP_M varied one at a time from the
   largest regime, every result compared bit for bit with it (what MEASURED_FREE in
   redgen/contraction.py may declare not order-shaping);
4. a transformer block (linear layers, rms_norm, attention with matmuls and softmax, no SDPA)
   under redgen.batch_invariant(): one sequence alone vs inside a batch of 64;
5. timings: cuBLAS (torch) vs redgen, bf16 in both weight layouts and f32 (torch with TF32 off),
   M in 1..8192 for four (K, N), with the tile the launcher took, and bf16 bmm of attention's
   shapes (many short matrices); triton.testing.do_bench_cudagraph medians; ratio = cuBLAS time /
   redgen time.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import torch  # noqa: E402
import triton  # noqa: E402

from generated.cuda import addmm as addmm_mod  # noqa: E402
from generated.cuda import bmm as bmm_mod  # noqa: E402
from generated.cuda import linear as linear_mod  # noqa: E402
from generated.cuda import matmul as mm_mod  # noqa: E402

DT = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
SHAPES = ((4096, 4096), (4096, 14336), (14336, 4096), (4096, 128256))
MS = (1, 8, 16, 32, 64, 128, 256, 512, 2048, 8192)
RESULTS: dict = {}


def log(*a) -> None:
    print(*a, flush=True)


def correctness() -> None:
    from tolerances import assert_accurate

    out = []
    g = torch.Generator(device="cuda").manual_seed(0)
    for name in ("bf16", "f16", "f32"):
        dt = DT[name]
        for m, k, n in ((1, 4096, 4096), (77, 1000, 333), (300, 4096, 14336), (1024, 14336, 4096)):
            a = torch.randn(m, k, device="cuda", generator=g).to(dt)
            b = torch.randn(k, n, device="cuda", generator=g).to(dt)
            w = torch.randn(n, k, device="cuda", generator=g).to(dt)
            bias = torch.randn(n, device="cuda", generator=g).to(dt)
            ref = a.double() @ b.double()
            res = {}
            cases = (
                ("matmul", mm_mod.matmul, (a, b), ref),
                ("addmm", addmm_mod.addmm, (a, b, bias), ref + bias.double()),
                ("linear", linear_mod.linear, (a, w, bias), a.double() @ w.double().t() + bias.double()),
                ("bmm", bmm_mod.bmm, (a[None].expand(2, m, k), b[None].expand(2, k, n)), ref[None].expand(2, m, n)),
            )
            torch_fn = {"matmul": (torch.mm, (a, b)), "addmm": (torch.addmm, (bias, a, b)),
                        "linear": (torch.nn.functional.linear, (a, w, bias)),
                        "bmm": (torch.bmm, (a[None].expand(2, m, k), b[None].expand(2, k, n)))}
            for what, fn, args, exp in cases:
                got = fn(*args)
                try:
                    assert_accurate(got, exp, dt)
                    res[what] = "ok"
                except AssertionError:
                    # A long K sum in f32 exceeds the reductions' tolerance for cuBLAS too:
                    # then redgen must be no worse than cuBLAS (max abs error vs float64).
                    ours = (got.double() - exp).abs().max().item()
                    theirs = (torch_fn[what][0](*torch_fn[what][1]).double() - exp).abs().max().item()
                    res[what] = f"{'ok' if ours <= 1.5 * theirs else 'FAIL'} (err {ours:.3g}, cuBLAS {theirs:.3g})"
            out.append({"dtype": name, "shape": [m, k, n], **res})
            log(f"correct {name} M={m} K={k} N={n}: {res}")
    # f32 on integers: every product and partial sum is an exact integer below 2^24.
    # |a| < 2^14 needs 14 significant bits (TF32 keeps 11); |sums| < 64 * 2^14 * 8 < 2^24.
    a = torch.randint(-(1 << 14), 1 << 14, (64, 64), device="cuda").float()
    b = torch.randint(-8, 9, (64, 256), device="cuda").float()
    exact = (a.double() @ b.double())
    got = mm_mod.matmul(a, b)
    ok = torch.equal(got.double(), exact)
    torch.backends.cuda.matmul.allow_tf32 = True
    tf32_err = (torch.mm(a, b).double() - exact).abs().max().item()
    torch.backends.cuda.matmul.allow_tf32 = False
    log(f"f32 integers exact: redgen {ok}; torch.mm with allow_tf32=True is off by up to {tf32_err}")
    RESULTS["correctness"] = out
    RESULTS["f32_integers_exact"] = ok
    RESULTS["tf32_error_for_contrast"] = tf32_err


def invariance(quick: bool) -> None:
    out = []
    sample = (384, 511, 1000, 2048, 4097, 8191, 8192)
    g = torch.Generator(device="cuda").manual_seed(1)
    for k, n in SHAPES:
        for name, layout in (("bf16", "kn"), ("bf16", "nk"), ("f32", "kn")):
            dt = DT[name]
            big = 8192 if not (n == 128256 and name == "f32") else 4096
            a = torch.randn(big, k, device="cuda", generator=g).to(dt)
            if layout == "kn":
                b = torch.randn(k, n, device="cuda", generator=g).to(dt)
            else:  # F.linear's weight [N, K], read as w.t()
                b = torch.randn(n, k, device="cuda", generator=g).to(dt).t()
            full = mm_mod.matmul(a, b)
            ms = list(range(1, 301, 1 if not quick else 37)) + [s for s in sample if s <= big]
            bad = [m for m in ms if not torch.equal(mm_mod.matmul(a[:m], b), full[:m])]
            # and a row moved: row 0 placed at position 77 of a batch of 300
            perm = torch.arange(300, device="cuda")
            perm[0], perm[77] = 77, 0
            moved = torch.equal(mm_mod.matmul(a[perm], b)[77], full[0])
            torch.cuda.synchronize()
            out.append({"K": k, "N": n, "dtype": name, "layout": layout, "batch": big, "Ms": len(ms), "differ": bad,
                        "moved_row": moved})
            log(f"invariance K={k} N={n} {name} {layout}: {len(ms)} M vs batch {big}: {len(bad)} differ {bad[:10]}; "
                f"row moved 0->77 equal: {moved}")
            del a, b, full
            torch.cuda.empty_cache()
    RESULTS["invariance"] = out


def sweep() -> None:
    """Vary one regime parameter at a time from a reference; compare bits with it. Every regime
    of the module's table is tried too, at every shape (a regime's tiles at any M). The launcher's
    body `_run` is called: `matmul` replays a signature's recorded plan, whatever REGIMES says."""
    out = []
    g = torch.Generator(device="cuda").manual_seed(2)
    saved = mm_mod.REGIMES
    for name in ("bf16", "f16", "f32"):
        dt = DT[name]
        ref_r = (None, 128, 128, 8, 8, 3)
        variants = [("BLOCK_M", bm, (None, bm, 128, 8, 8, 3)) for bm in (16, 32, 64, 256)]
        variants += [("BLOCK_N", bn, (None, 128, bn, 8, 8, 3)) for bn in (16, 32, 64, 256)]
        variants += [("warps", 4, (None, 128, 128, 8, 4, 3))]
        variants += [("stages", st, (None, 128, 128, 8, 8, st)) for st in (2, 4, 5)]
        variants += [("GROUP_M", 1, (None, 128, 128, 1, 8, 3))]
        variants += [("regime", str(r), (None, *r[1:])) for r in saved[dt]]
        for m, k, n in ((300, 4000, 512), (64, 4096, 384), (7, 14336, 4096)):
            a = torch.randn(m, k, device="cuda", generator=g).to(dt)
            b = torch.randn(k, n, device="cuda", generator=g).to(dt)
            mm_mod.REGIMES = {dt: (ref_r,)}
            ref = mm_mod._run(a, b)
            for what, val, r in variants:
                mm_mod.REGIMES = {dt: (r,)}
                try:
                    same = torch.equal(mm_mod._run(a, b), ref)
                except Exception as e:  # noqa: BLE001 - e.g. out of shared memory: recorded
                    same = f"error {type(e).__name__}"
                finally:
                    mm_mod.REGIMES = saved
                out.append({"dtype": name, "shape": [m, k, n], "param": what, "value": val, "bitwise_equal": same})
                log(f"sweep {name} M={m} K={k} N={n} {what}={val}: bitwise equal {same}")
    RESULTS["sweep"] = out


def probe() -> None:
    """Time a few alternative large-M regimes (all measured free) at M=8192, K=N=4096, bf16."""
    from triton.testing import do_bench_cudagraph

    saved = mm_mod.REGIMES
    a = torch.randn(8192, 4096, device="cuda").bfloat16()
    b = torch.randn(4096, 4096, device="cuda").bfloat16()
    rows = []
    for r in ((None, 128, 256, 8, 8, 3), (None, 128, 128, 8, 8, 3), (None, 128, 128, 8, 4, 4),
              (None, 256, 128, 8, 8, 3), (None, 128, 256, 8, 8, 4), (None, 64, 256, 8, 4, 4)):
        mm_mod.REGIMES = {torch.bfloat16: (r,)}
        try:
            t = do_bench_cudagraph(lambda: mm_mod._run(a, b), rep=30)
        except Exception as e:  # noqa: BLE001
            t = f"error {type(e).__name__}"
        finally:
            mm_mod.REGIMES = saved
        rows.append({"regime": r, "ms": t})
        log(f"probe bf16 8192x4096x4096 {r}: {t}")
    RESULTS["probe"] = rows


def block(x, p, n_heads):
    """A pre-norm transformer block written with linear layers, rms_norm, matmul and softmax."""
    import torch.nn.functional as F

    bsz, seq, d = x.shape
    hd = d // n_heads
    h = F.rms_norm(x, (d,), p["n1"], 1e-6)
    q = F.linear(h, p["wq"]).view(bsz, seq, n_heads, hd).transpose(1, 2)
    k = F.linear(h, p["wk"]).view(bsz, seq, n_heads, hd).transpose(1, 2)
    v = F.linear(h, p["wv"]).view(bsz, seq, n_heads, hd).transpose(1, 2)
    s = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(hd)
    mask = torch.full((seq, seq), float("-inf"), device=x.device, dtype=s.dtype).triu(1)
    att = torch.softmax(s + mask, dim=-1)
    o = torch.matmul(att, v).transpose(1, 2).reshape(bsz, seq, d)
    x = x + F.linear(o, p["wo"], p["bo"])
    h = F.rms_norm(x, (d,), p["n2"], 1e-6)
    return x + F.linear(F.silu(F.linear(h, p["w1"])) * F.linear(h, p["w3"]), p["w2"])


def block_params(d, ff, dev, dt, seed=3):
    g = torch.Generator(device=dev).manual_seed(seed)

    def r(*s, scale=0.02):
        return (torch.randn(*s, device=dev, generator=g) * scale).to(dt)

    return {"n1": 1 + r(d), "n2": 1 + r(d), "wq": r(d, d), "wk": r(d, d), "wv": r(d, d), "wo": r(d, d),
            "bo": r(d), "w1": r(ff, d), "w3": r(ff, d), "w2": r(d, ff)}


def transformer() -> None:
    import redgen

    d, ff, heads, seq, batch = 1024, 2816, 16, 128, 64
    out = {}
    for name in ("bf16", "f32"):
        dt = DT[name]
        p = block_params(d, ff, "cuda", dt)
        x = torch.randn(batch, seq, d, device="cuda", generator=torch.Generator(device="cuda").manual_seed(4)).to(dt)
        plain = (block(x[:1], p, heads), block(x, p, heads)[:1])
        with redgen.batch_invariant():
            one = block(x[:1], p, heads)
            many = block(x, p, heads)[:1]
            counts = dict(redgen.runtime.mode.call_counts())
        eager_diff = (plain[0].float() - plain[1].float()).abs().max().item()
        ok = torch.equal(one, many)
        out[name] = {"redgen_equal": ok, "torch_max_diff": eager_diff, "routed_calls": counts}
        log(f"transformer block {name} (d={d}, seq={seq}, batch {batch}): redgen alone == in batch: {ok}; "
            f"plain torch max |diff| {eager_diff:.3g}; routed {counts}")
    RESULTS["transformer_block"] = out


def timings(budget_s: float) -> None:
    from triton.testing import do_bench_cudagraph

    t0 = time.time()
    rows = []
    torch.backends.cuda.matmul.allow_tf32 = False
    # bf16 in both weight layouts: b [K, N] contiguous, and w [N, K] read as w.t() (what
    # F.linear and nn.Linear hand to mm/addmm); f32 in the first.
    for name, layout in (("bf16", "kn"), ("bf16", "nk"), ("f32", "kn")):
        dt = DT[name]
        for k, n in SHAPES:
            b = torch.randn(k, n, device="cuda").to(dt) if layout == "kn" else torch.randn(n, k, device="cuda").to(dt).t()
            for m in MS:
                head = {"dtype": name, "layout": layout, "K": k, "N": n, "M": m}
                if time.time() - t0 > budget_s:
                    rows.append({**head, "skipped": "time budget"})
                    continue
                if name == "f32" and n == 128256 and m == 8192:
                    rows.append({**head, "skipped": "memory/time"})
                    continue
                a = torch.randn(m, k, device="cuda").to(dt)
                t_torch = do_bench_cudagraph(lambda a=a, b=b: torch.mm(a, b), rep=30)
                t_red = do_bench_cudagraph(lambda a=a, b=b: mm_mod.matmul(a, b), rep=30)
                flops = 2 * m * k * n
                _, bm, bn, *_ = mm_mod._regime(1, m, n, dt, mm_mod._programs(a.device))
                row = {**head, "cublas_ms": t_torch, "redgen_ms": t_red, "ratio": t_torch / t_red,
                       "redgen_tflops": flops / t_red / 1e9, "tile": f"{bm}x{bn}"}
                rows.append(row)
                log(f"time {name} {layout} M={m:5d} K={k:5d} N={n:6d}: cuBLAS {t_torch:8.4f} ms  redgen {t_red:8.4f} ms  "
                    f"ratio {t_torch / t_red:5.2f}  ({flops / t_red / 1e9:6.1f} TFLOP/s, {bm}x{bn})")
            del b
            torch.cuda.empty_cache()
    RESULTS["timings"] = rows


def _widest_filling(mod, nb, m, n, dtype) -> int:
    """The regime the launcher took before the narrow-N rule: M's class's first whose tiles
    reach FILL of the programs, whatever N (an index into REGIMES[dtype])."""
    regimes = mod.REGIMES[dtype]
    top = next(r[0] for r in regimes if r[0] is None or m <= r[0])
    cls = [i for i, r in enumerate(regimes) if r[0] == top]
    programs = mod._programs(torch.device("cuda"))
    return next((i for i in cls if nb * -(-m // regimes[i][1]) * -(-n // regimes[i][2]) >= mod.FILL * programs),
                cls[-1])


def bmm_timings() -> None:
    """bf16 bmm of many short matrices: attention written with torch.matmul (scores q @ k^T with N
    the sequence, values p @ v with N the head size), where any tile fills the SMs and the
    launcher keeps BLOCK_N within N's power of two. Beside cuBLAS: the tile the rule took before
    that (the class's widest that fills), forced, with its bits against the shipped pick's."""
    from triton.testing import do_bench_cudagraph

    rows = []
    for nb, m, k, n in ((1024, 128, 64, 128), (1024, 128, 128, 64), (16, 128, 64, 128), (256, 512, 128, 512),
                        (512, 1, 128, 2048), (512, 1, 2048, 128)):
        head = {"dtype": "bf16", "layout": "bmm", "NB": nb, "K": k, "N": n, "M": m}
        a = torch.randn(nb, m, k, device="cuda").bfloat16()
        b = torch.randn(nb, k, n, device="cuda").bfloat16()
        t_torch = do_bench_cudagraph(lambda a=a, b=b: torch.bmm(a, b), rep=30)
        t_red = do_bench_cudagraph(lambda a=a, b=b: bmm_mod._run(a, b), rep=30)
        _, bm, bn, *_ = bmm_mod._regime(nb, m, n, a.dtype, bmm_mod._programs(a.device))
        ref = bmm_mod._run(a, b)
        old = _widest_filling(bmm_mod, nb, m, n, a.dtype)
        bmm_mod.FORCE_REGIME = old
        try:
            t_old = do_bench_cudagraph(lambda a=a, b=b: bmm_mod._run(a, b), rep=30)
            same = torch.equal(bmm_mod._run(a, b), ref)
        finally:
            bmm_mod.FORCE_REGIME = None
        _, obm, obn, *_ = bmm_mod.REGIMES[a.dtype][old]
        rows.append({**head, "cublas_ms": t_torch, "redgen_ms": t_red, "ratio": t_torch / t_red, "tile": f"{bm}x{bn}",
                     "before_ms": t_old, "before_tile": f"{obm}x{obn}", "bits_equal": same})
        log(f"time bf16 bmm NB={nb:5d} M={m:4d} K={k:4d} N={n:4d}: cuBLAS {t_torch:8.4f} ms  redgen {t_red:8.4f} ms  "
            f"ratio {t_torch / t_red:5.2f}  ({bm}x{bn}); the widest filling tile {obm}x{obn}: {t_old:8.4f} ms, "
            f"bits equal {same}")
    RESULTS["bmm_timings"] = rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--skip", default="", help="comma list of sections to skip")
    ap.add_argument("--time-budget", type=float, default=300)
    args = ap.parse_args()
    skip = set(args.skip.split(",")) - {""}
    RESULTS["device"] = torch.cuda.get_device_name()
    RESULTS["torch"], RESULTS["triton"] = torch.__version__, triton.__version__
    log(f"device: {RESULTS['device']}; torch {torch.__version__}; triton {triton.__version__}")
    log(f"regimes: {mm_mod.REGIMES}")
    t = time.time()
    for sec, fn in (("correctness", correctness), ("sweep", sweep), ("transformer", transformer), ("probe", probe),
                    ("invariance", lambda: invariance(args.quick)), ("timings", lambda: timings(args.time_budget)), ("bmm", bmm_timings)):
        if sec in skip:
            continue
        s = time.time()
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - one section failing must not hide the others
            import traceback

            traceback.print_exc()
            RESULTS[sec + "_error"] = repr(e)
        log(f"-- {sec}: {time.time() - s:.0f}s (total {time.time() - t:.0f}s)")
        if args.out:
            Path(args.out).mkdir(parents=True, exist_ok=True)
            Path(args.out, "results.json").write_text(json.dumps(RESULTS, indent=1, default=str))


if __name__ == "__main__":
    main()
