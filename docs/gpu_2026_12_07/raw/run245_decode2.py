"""Run 245c: where run 245b's 32-layer decode differed: each layer's output of the bound module
(C++ replay after a step's first layer) and of the Python direct path, against the general path."""
import importlib
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path.cwd()))
mod = importlib.import_module("generated.cuda.attention")
g = torch.Generator("cuda").manual_seed(0)
bf = torch.bfloat16
q = torch.randn(8, 16, 1, 128, generator=g, device="cuda").to(bf)
K = torch.randn(8, 4, 2000, 128, generator=g, device="cuda").to(bf)
V = torch.randn(8, 4, 2000, 128, generator=g, device="cuda").to(bf)
mod.attention(q, K[:, :, :600], V[:, :, :600], causal=False, heads_first=True)
fast = mod._FAST
print("bound", fast is not None)
for sync in (False, True):
    for name in ("cpp", "py"):
        mod._FAST = fast if name == "cpp" else None
        bad = []
        for n in range(700 + 100 * sync, 730 + 100 * sync):
            k, v = K[:, :, :n], V[:, :, :n]
            want = mod._run(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), False, None, None, None, None,
                            None, False).transpose(1, 2)
            outs = []
            for layer in range(32):
                outs.append(mod.attention(q, k, v, causal=False, heads_first=True))
                if sync:
                    torch.cuda.synchronize()
            torch.cuda.synchronize()
            bad += [(n, i) for i, o in enumerate(outs) if not torch.equal(o, want)]
        print(f"{name} sync={sync}: {len(bad)} of {30 * 32} outputs differ from the general path; first {bad[:8]}",
              flush=True)
mod._FAST = fast
