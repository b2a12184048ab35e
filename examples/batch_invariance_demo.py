"""Batch invariance with and without redgen's batch-invariant mode.

    python examples/batch_invariance_demo.py            # on a GPU: the seed's shapes
    python examples/batch_invariance_demo.py --small    # small shapes; on CPU it runs the
                                                        # kernels in Triton's interpreter

Part 1 repeats seed 000's experiment: torch.mean over dim 1 of a (2048, 4096, 16)
tensor, computed for the first row alone and inside the whole batch, in standard
PyTorch and in redgen's batch-invariant mode, for float32 and bfloat16.

Part 2 runs a tiny language-model head built only from ops redgen covers
(embedding -> rms_norm -> layer_norm -> tied-embedding logits -> log_softmax) for
one prompt alone and inside a batch of 64, and compares the bits. Where an op has
no generated module yet, the model builds it from mean/sum (which do), so every
reduction still runs a redgen kernel. The logits use a broadcast product and a
redgen sum instead of a matmul: torch's matmul is outside redgen's coverage
(docs/torch.md).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent


def _args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--small", action="store_true", help="small shapes (CPU / Triton interpreter)")
    p.add_argument("--device", default=None, help="cuda or cpu (default: cuda if available)")
    p.add_argument("--iters", type=int, default=None, help="repetitions of part 1 (default 10, 2 with --small)")
    return p.parse_args(argv)


def seed_experiment(device: str, shape: tuple[int, int, int], iters: int) -> dict[torch.dtype, bool]:
    """Seed 000: mean over dim 1 of row 0 alone vs row 0 of the whole batch."""
    b, d, x = shape
    verdicts = {}
    for dtype in (torch.float32, torch.bfloat16):
        a = torch.linspace(-100, 100, b * d * x, dtype=dtype, device=device).reshape(b, d, x)
        diffs = []
        for _ in range(iters):
            out1 = torch.mean(a[:1], dim=1, keepdim=False)
            out2 = torch.mean(a, dim=1, keepdim=False)[:1]
            diffs.append((out1.float() - out2.float()).abs().max().item())
        ok = max(diffs) == 0
        verdicts[dtype] = ok
        print(f"  Batch Deterministic: {ok}  max diff {max(diffs):.3g} (min {min(diffs):.3g}) "
              f"for {dtype} in {iters} iterations, shape {shape}")
    return verdicts


class TinyLM(torch.nn.Module):
    """embedding -> rms_norm -> layer_norm -> tied logits -> log_softmax, matmul-free."""

    def __init__(self, vocab: int, dim: int, have: set[str]):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.emb = torch.nn.Parameter(torch.randn(vocab, dim, generator=g))
        self.w_rms = torch.nn.Parameter(1 + 0.1 * torch.randn(dim, generator=g))
        self.w_ln = torch.nn.Parameter(1 + 0.1 * torch.randn(dim, generator=g))
        self.b_ln = torch.nn.Parameter(0.1 * torch.randn(dim, generator=g))
        self.have = have  # generated ops: use torch's function (routed) or build it from mean/sum
        self.pieces: list[str] = []

    def _note(self, what: str) -> None:
        if what not in self.pieces:
            self.pieces.append(what)

    def rms_norm(self, h: torch.Tensor) -> torch.Tensor:
        if "rms_norm" in self.have:
            self._note("rms_norm: F.rms_norm (aten _fused_rms_norm -> redgen rms_norm where torch has "
                       "that kernel, e.g. CUDA; elsewhere it decomposes into a routed mean)")
            return torch.nn.functional.rms_norm(h, (h.shape[-1],), self.w_rms, eps=1e-6)
        self._note("rms_norm: x * rsqrt(mean(x^2) + eps) * w (torch.mean -> redgen mean)")
        return h * torch.rsqrt(torch.mean(h * h, dim=-1, keepdim=True) + 1e-6) * self.w_rms

    def layer_norm(self, h: torch.Tensor) -> torch.Tensor:
        if "layer_norm" in self.have:
            self._note("layer_norm: F.layer_norm (aten native_layer_norm -> redgen layer_norm)")
            return torch.nn.functional.layer_norm(h, (h.shape[-1],), self.w_ln, self.b_ln, eps=1e-5)
        self._note("layer_norm: (x - mean) * rsqrt(mean((x - mean)^2) + eps) * w + b (-> redgen mean)")
        mu = torch.mean(h, dim=-1, keepdim=True)
        c = h - mu
        return c * torch.rsqrt(torch.mean(c * c, dim=-1, keepdim=True) + 1e-5) * self.w_ln + self.b_ln

    def logits(self, h: torch.Tensor) -> torch.Tensor:
        # A matmul written as a broadcast product and a reduction so that it runs
        # redgen's sum: cuBLAS matmul is not batch invariant (docs/torch.md).
        self._note("logits: sum(h[..., None, :] * E, -1) (torch.sum -> redgen sum; no matmul)")
        return torch.sum(h.unsqueeze(-2) * self.emb, dim=-1)

    def log_softmax(self, z: torch.Tensor) -> torch.Tensor:
        if "log_softmax" in self.have:
            self._note("log_softmax: F.log_softmax (aten _log_softmax -> redgen log_softmax)")
            return torch.log_softmax(z, dim=-1)
        # max is exact in any order, so torch's amax is batch invariant by value.
        m = torch.amax(z, dim=-1, keepdim=True)
        self._note("log_softmax: z - m - log(sum(exp(z - m))) (torch.sum -> redgen sum; amax "
                   + ("-> redgen amax)" if "amax" in self.have else "is torch's, exact in any order)"))
        return z - m - torch.log(torch.sum(torch.exp(z - m), dim=-1, keepdim=True))

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        h = torch.nn.functional.embedding(tokens, self.emb)
        return self.log_softmax(self.logits(self.layer_norm(self.rms_norm(h))))


def model_experiment(device: str, batch: int, seq: int, vocab: int, dim: int,
                     have: set[str]) -> tuple[bool, list[str]]:
    """One prompt alone vs the same prompt as row 0 of a batch: same bits?"""
    model = TinyLM(vocab, dim, have).to(device)
    tokens = torch.randint(0, vocab, (batch, seq), generator=torch.Generator().manual_seed(1)).to(device)
    with torch.no_grad():
        alone = model(tokens[:1])
        batched = model(tokens)[:1]
    same = torch.equal(alone, batched)
    diff = (alone - batched).abs().max().item()
    print(f"  one prompt alone vs inside a batch of {batch}: bitwise equal: {same} (max diff {diff:.3g}); "
          f"batch {batch} x seq {seq}, vocab {vocab}, dim {dim}")
    return same, model.pieces


def main(argv: list[str] | None = None) -> int:
    args = _args(argv)
    device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    if device == "cpu":
        # The generated kernels run on CPU tensors only in Triton's interpreter; it
        # must be chosen before triton is imported.
        os.environ.setdefault("TRITON_INTERPRET", "1")
    sys.path.insert(0, str(ROOT))  # this checkout's redgen and generated/
    import redgen
    from redgen.runtime import mode

    iters = args.iters or (2 if args.small else 10)
    seed_shape = (48, 2100, 4) if args.small else (2048, 4096, 16)
    model_shape = dict(batch=64, seq=2, vocab=8, dim=16) if args.small else dict(batch=64, seq=16, vocab=512, dim=256)
    have = set(redgen.available().get("cuda", ()))
    print(f"device: {device}" + (" (Triton interpreter)" if os.environ.get("TRITON_INTERPRET") == "1" else "")
          + f"; torch {torch.__version__}; generated ops: {', '.join(sorted(have))}")

    print("\nPart 1: torch.mean(a, dim=1), row 0 alone vs row 0 of the batch (seed 000)")
    print("Standard PyTorch:")
    seed_experiment(device, seed_shape, iters)
    print("Batch-invariant mode (redgen):")
    with redgen.batch_invariant():
        inv = seed_experiment(device, seed_shape, iters)
        key = "CPU" if device == "cpu" else device.upper()
        print("  routed: " + ", ".join(f"aten.{a} -> {op}" for a, k, op in mode.routes() if k == key))

    print("\nPart 2: a tiny matmul-free LM head, one prompt alone vs inside a batch")
    print("Standard PyTorch:")
    model_experiment(device, have=have, **model_shape)
    print("Batch-invariant mode (redgen):")
    before = mode.call_counts()
    with redgen.batch_invariant():
        same, pieces = model_experiment(device, have=have, **model_shape)
    used = mode.call_counts() - before
    for piece in pieces:
        print(f"  {piece}")
    print("  aten calls routed to redgen kernels: " + ", ".join(f"aten.{k} x{v}" for k, v in sorted(used.items())))
    not_routed = mode.skipped()
    if not_routed:
        print("  not routed (no generated module yet, or not a kernel of its own here): "
              + ", ".join(sorted(not_routed)))
    ok = all(inv.values()) and same
    print(f"\n{'OK' if ok else 'FAILED'}: batch-invariant mode gave the same bits alone and in a batch")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
