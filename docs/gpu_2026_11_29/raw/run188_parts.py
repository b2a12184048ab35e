"""Run 188b: where a directly imported module's replayed call spends its host time on the GPU machine."""
import sys, time, timeit, importlib
import torch
sys.path.insert(0, ".")

def t(stmt, g, n=20000):
    return min(timeit.repeat(stmt, globals=g, number=n, repeat=7)) / n * 1e6

for op, make, call in (("mean", lambda: torch.randn(64, 4096, device="cuda"), "fn(x, -1)"),
                       ("softmax", lambda: torch.randn(8, 4096, device="cuda").bfloat16(), "fn(x, -1)"),
                       ("softmax_held", lambda: torch.randn(8, 4096, device="cuda").bfloat16(), "fn(x, -1)"),
                       ("argmax", lambda: torch.randn(8, 32000, device="cuda").bfloat16(), "fn(x, -1)"),
                       ("layer_norm", lambda: torch.randn(64, 4096, device="cuda"), "fn(x, w, b)")):
    mod = importlib.import_module(f"generated.cuda.{op}")
    x = make()
    w = torch.randn(4096, device="cuda"); b = torch.randn(4096, device="cuda")
    g = dict(mod.__dict__); g.update(x=x, w=w, b=b, fn=getattr(mod, op), torch=torch)
    eval(call, g); eval(call, g); torch.cuda.synchronize()
    res = {"call": t(call, g)}
    torch.cuda.synchronize()
    plans = list(mod._PLANS.items())
    if plans:
        key, plan = plans[0]
        args = {"mean": (x, -1, False, None), "softmax": (x, -1, None), "softmax_held": (x, -1, None),
                "argmax": (x, -1, False), "layer_norm": (x, w, b, -1, 1e-5, None)}[op]
        g.update(plan=plan, key=key, args=args, dev=plan[2])
        res["_replay"] = t("_replay(plan, args)", g)
        res["_replayed"] = t("_replayed(_run, args, key)", g)
        res["get"] = t("_PLANS.get(key)", g)
        res["empty"] = t("torch.empty_strided((64,), (1,), dtype=torch.float32, device=dev)", g)
        res["hooks"] = t("_hooks()", g)
        res["stream"] = t("_raw_stream(0)", g)
        res["curdev"] = t("torch.cuda.current_device()", g)
        res["_getDevice"] = t("torch._C._cuda_getDevice()", g)
        size, calls = plan[7]
        l = calls[0]
        g.update(L=l, a=list(l[8]))
        for pos, src, i in l[9]:
            g["a"][pos] = (args[i] if src == 0 else x).data_ptr()
        res["launch"] = t("L[0](L[1], L[2], L[3], 0, L[4], L[5], L[6], None, None, L[7], None, None, None, *a)", g)
        res["nargs"] = len(l[8])
        res["tensor_sig"] = t("(x.__class__, x.shape, x.stride(), x.dtype, x.device, x.requires_grad, x.data_ptr() % 16 == 0)", g)
        res["knobs"] = t("_knobs()", g)
    torch.cuda.synchronize()
    print(op, " ".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}" for k, v in res.items()))
g = {"torch": torch, "x": torch.randn(64, 4096, device="cuda")}
print("torch.mean", t("torch.mean(x, -1)", g), "torch.empty", t("torch.empty((64,), device='cuda')", g))
