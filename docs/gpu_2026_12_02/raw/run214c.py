import importlib.util, torch
def load(p):
    s = importlib.util.spec_from_file_location("fp8_quant", p); m = importlib.util.module_from_spec(s); s.loader.exec_module(m); return m
mods = {v: load(f"_scratch/r214/fp8_quant_{v}.py") for v in ("now", "mk2")}
for dt, m, n in (("bf16", 4096, 4096), ("f32", 4096, 8192), ("bf16", 4096, 32000)):
    g = torch.Generator(device="cuda").manual_seed(m + n)
    x = (torch.randn(m, n, device="cuda", generator=g) * 3).to({"bf16": torch.bfloat16, "f32": torch.float32}[dt])
    xf = x.float()
    s = torch.clamp(xf.abs().amax(-1, keepdim=True) / 448.0, min=1 / (448 * 512))
    a = xf / s
    b = (xf.double() / s.double()).float()
    c = xf * (1.0 / s)
    qa, qb = (t.clamp(-448, 448).to(torch.float8_e4m3fn).view(torch.uint8) for t in (a, b))
    qb_cpu = b.cpu().clamp(-448, 448).to(torch.float8_e4m3fn).view(torch.uint8).cuda()
    line = f"{dt} {m}x{n}: torch f32 quotient != exact {(a != b).sum().item()}, torch == x*(1/s) {(a == c).all().item()}; fp8(exact) gpu vs cpu conv != {(qb != qb_cpu).sum().item()}"
    for v, mod in mods.items():
        q, _ = mod.fp8_quant(x, -1)
        q = q.view(torch.uint8)
        line += f"; {v}: != torch {(q != qa).sum().item()}, != fp8(exact) {(q != qb).sum().item()}"
    print(line, flush=True)
