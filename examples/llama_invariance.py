"""A Hugging Face Llama, batch invariant end to end under redgen.batch_invariant().

    python examples/llama_invariance.py            # GPU: hidden 4096, 2 layers, 32/8 heads, bf16, 3000-token prompts
    python examples/llama_invariance.py --tiny     # CPU, TRITON_INTERPRET=1: the CI-sized config

A LlamaForCausalLM is built from a config in code (random weights, nothing downloaded).
For plain torch and then under redgen.batch_invariant(), prompt 0 is generated greedily
(NEW tokens) alone and inside batches of 8 and 16 (same prompt length, other prompts
random), and:
1. the tokens and the logits of prompt 0 at every step must be bitwise identical
   across the batch sizes;
2. the log-probs of the generated tokens from one prefill of prompt 0 + its generated
   tokens must equal the decode-time ones bitwise (sampler vs trainer, on-policy RL).
Prints a table per mode and a verdict; exit code 0 when redgen's run holds both
properties. Attention reaches redgen through F.scaled_dot_product_attention's aten ops
(redgen/runtime/attention_routes.py); matmuls need the matmul routes (redgen/runtime/matmul_routes.py): without
them the mode routes attention and the norms/softmax only, and the cuBLAS matmuls
still vary with the batch (the run says which ops were routed).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


@dataclass(frozen=True)
class Setup:
    hidden: int
    layers: int
    heads: int
    kv_heads: int
    intermediate: int
    vocab: int
    prompt: int
    new: int
    batches: tuple[int, ...]
    dtype: str
    device: str


GPU = Setup(hidden=4096, layers=2, heads=32, kv_heads=8, intermediate=14336, vocab=32000, prompt=3000, new=32,
            batches=(1, 8, 16), dtype="bfloat16", device="cuda")
TINY = Setup(hidden=64, layers=2, heads=4, kv_heads=2, intermediate=128, vocab=128, prompt=40, new=4,
             batches=(1, 3), dtype="float32", device="cpu")


@contextlib.contextmanager
def rowwise_linear():
    """Every nn.Linear computes one row at a time: an M=1 product whatever the batch or the number
    of tokens, so batch invariant (slow; a stand-in for redgen's matmul routes on the tiny CPU run)."""
    import torch

    original = torch.nn.Linear.forward

    def forward(self, x):
        rows = x.reshape(-1, x.shape[-1])
        out = torch.cat([torch.nn.functional.linear(rows[i:i + 1], self.weight, self.bias)
                         for i in range(rows.shape[0])])
        return out.reshape(*x.shape[:-1], out.shape[-1])

    torch.nn.Linear.forward = forward
    try:
        yield
    finally:
        torch.nn.Linear.forward = original


def build(s: Setup):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    config = LlamaConfig(hidden_size=s.hidden, intermediate_size=s.intermediate, num_hidden_layers=s.layers,
                         num_attention_heads=s.heads, num_key_value_heads=s.kv_heads, vocab_size=s.vocab,
                         max_position_embeddings=s.prompt + s.new + 16, attn_implementation="sdpa")
    torch.manual_seed(0)
    with torch.device(s.device):  # random init on the device: 700M parameters initialise slowly on a CPU
        model = LlamaForCausalLM(config)
    return model.to(dtype=getattr(torch, s.dtype)).eval()


def generate(model, ids, new: int):
    """Greedy decoding with a KV cache: (tokens [B, new], float32 logits of row 0 per step [new, V])."""
    import torch

    with torch.no_grad():
        try:
            out = model(input_ids=ids, use_cache=True, logits_to_keep=1)  # transformers >= 4.50
        except TypeError:
            out = model(input_ids=ids, use_cache=True)
        past, logits = out.past_key_values, out.logits[:, -1]
        toks, rows = [], []
        for _ in range(new):
            tok = logits.argmax(-1)
            toks.append(tok)
            rows.append(logits[0].float().clone())
            out = model(input_ids=tok[:, None], past_key_values=past, use_cache=True)
            past, logits = out.past_key_values, out.logits[:, -1]
    return torch.stack(toks, 1), torch.stack(rows)


def prefill_logprobs(model, ids0, toks0):
    """log-probs of the generated tokens from one prefill of prompt + generated tokens (batch 1)."""
    import torch

    with torch.no_grad():
        seq = torch.cat([ids0, toks0[:-1]])[None]
        logits = model(input_ids=seq).logits[0, ids0.shape[0] - 1:].float()
    return torch.log_softmax(logits, -1).gather(-1, toks0[:, None])[:, 0]


def run(model, s: Setup, label: str) -> dict:
    import torch

    gen = torch.Generator().manual_seed(1)
    prompts = torch.randint(0, s.vocab, (max(s.batches), s.prompt), generator=gen).to(s.device)
    results = {b: generate(model, prompts[:b], s.new) for b in s.batches}
    toks1, logits1 = results[s.batches[0]]
    out = {"label": label, "rows": []}
    for b in s.batches[1:]:
        toks, logits = results[b]
        same_toks = torch.equal(toks[0], toks1[0])
        steps = [i for i in range(s.new) if torch.equal(logits[i], logits1[i])]
        diff = (logits - logits1).abs().max().item()
        out["rows"].append((b, same_toks, len(steps), diff))
    decode_lp = torch.log_softmax(logits1, -1).gather(-1, toks1[0][:, None])[:, 0]
    pre_lp = prefill_logprobs(model, prompts[0], toks1[0])
    out["prefill_equal"] = torch.equal(pre_lp, decode_lp)
    out["prefill_diff"] = (pre_lp - decode_lp).abs().max().item()
    out["invariant"] = all(r[1] and r[2] == s.new for r in out["rows"])
    return out


def report(r: dict, s: Setup) -> None:
    print(f"\n{r['label']}")
    print(f"| batch | tokens of prompt 0 = batch {s.batches[0]} | steps with bitwise-equal logits | max |diff| |")
    print("|---|---|---|---|")
    for b, same, steps, diff in r["rows"]:
        print(f"| {b} | {same} | {steps}/{s.new} | {diff:.3g} |")
    print(f"prefill log-probs of the {s.new} generated tokens == decode-time log-probs bitwise: "
          f"{r['prefill_equal']} (max |diff| {r['prefill_diff']:.3g})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tiny", action="store_true", help="the CI config on CPU (sets TRITON_INTERPRET=1)")
    ap.add_argument("--prompt", type=int, help="prompt length (default 3000; tiny 40)")
    ap.add_argument("--new", type=int, help="tokens to generate (default 32; tiny 4)")
    ap.add_argument("--rowwise-linear", action="store_true",
                    help="compute every nn.Linear one row at a time in both runs (a batch-invariant stand-in "
                         "for the matmul routes, for the tiny CPU run)")
    args = ap.parse_args(argv)
    s = TINY if args.tiny else GPU
    if args.prompt or args.new:
        s = Setup(**{**s.__dict__, "prompt": args.prompt or s.prompt, "new": args.new or s.new})
    if args.tiny:
        os.environ.setdefault("TRITON_INTERPRET", "1")
    import torch

    model = build(s)
    device = torch.cuda.get_device_name() if s.device == "cuda" else "CPU (triton interpreter)"
    print(f"device: {device}; Llama hidden {s.hidden}, {s.layers} layers, {s.heads} q / {s.kv_heads} kv heads, "
          f"{s.dtype}, prompts of {s.prompt} tokens, {s.new} new tokens, batches {s.batches}")
    linear = rowwise_linear() if args.rowwise_linear else contextlib.nullcontext()
    if args.rowwise_linear:
        print("nn.Linear: one row at a time in both runs (--rowwise-linear)")
    with linear:
        return _compare(model, s)


def _compare(model, s: Setup) -> int:
    import redgen
    from redgen.runtime import mode as redgen_mode

    plain = run(model, s, "plain torch")
    report(plain, s)
    before = redgen_mode.call_counts()
    with redgen.batch_invariant():
        routed = run(model, s, "redgen.batch_invariant()")
        counts = redgen_mode.call_counts() - before
    report(routed, s)
    print("routed aten calls: " + ", ".join(f"{k} x{v}" for k, v in sorted(counts.items())))
    ok = routed["invariant"] and routed["prefill_equal"]
    print(f"verdict: redgen {'holds' if ok else 'does NOT hold'} batch invariance and prefill/decode "
          f"consistency; plain torch {'holds' if plain['invariant'] and plain['prefill_equal'] else 'does not'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
