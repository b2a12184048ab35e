"""Batch-invariant mode for attention: the aten ops F.scaled_dot_product_attention dispatches to.

`torch.nn.functional.scaled_dot_product_attention` (what Hugging Face transformers'
"sdpa" attention calls) is a composite op: it picks a backend and calls one of
    CUDA: aten._scaled_dot_product_flash_attention, _scaled_dot_product_efficient_attention,
          _scaled_dot_product_cudnn_attention (or the math path, which decomposes into
          matmul/softmax and is not routed here);
    CPU:  aten._scaled_dot_product_flash_attention_for_cpu (the op the interpreter tests route).
These adapters hand the call's [B, H, L, D] tensors to the generated `attention` op
(specs/attention.red) with heads_first=True: it reads them in flash-attn layout through
their strides. Covered: dropout_p == 0, f32/f16/bf16,
head dim 16..256, GQA (H a multiple of the key heads), a scale, is_causal when the query
and key lengths are equal (torch aligns its causal mask top-left, the kernel bottom-right:
the same mask only then), and an attn_mask that is recognisably causal (bottom-right) or
all-visible (bool, or additive 0 / -inf / dtype min). Anything else that reaches these ops
-- a padding mask, an additive bias, dropout, an unsupported head dim, autograd's logsumexp
for the efficient/cudnn backward -- falls back to torch's kernel with the mode's warning.
Calls torch sends to the math path (e.g. dropout on CPU, float64) never reach these ops:
the math path decomposes into matmul/softmax above the device key and is not routed
(docs/attention.md). Recognising a mask compares it on the
device with the causal pattern (one sync per call that passes a mask). A call without a mask is
decided by its signature, so the mode replays it (route_replay.py; in C++: fast_route.py).
"""

from __future__ import annotations

from typing import Any

import torch

from redgen.runtime.route import Args, Fns, Route, _Fallback

_FLOATS = (torch.float32, torch.float16, torch.bfloat16)
_HEAD_DIMS = (16, 32, 64, 128, 256)


def _mask_causal(mask: torch.Tensor, lq: int, lk: int) -> bool:
    """True for a bottom-right causal mask, False for an all-visible one; _Fallback otherwise."""
    if mask.dim() > 4 or tuple(mask.shape[-2:]) not in ((lq, lk), (1, lk), (lq, 1), (1, 1)):
        raise _Fallback(f"attn_mask of shape {tuple(mask.shape)} is not a [.., {lq}, {lk}] mask")
    if mask.dtype == torch.bool:
        visible = mask
    elif mask.is_floating_point():
        visible = mask == 0
        hidden = (mask == float("-inf")) | (mask <= torch.finfo(mask.dtype).min)
        if not bool((visible | hidden).all()):
            raise _Fallback("attn_mask is an additive bias (values other than 0 and -inf / the dtype's min)")
    else:
        raise _Fallback(f"attn_mask of dtype {mask.dtype}")
    i = torch.arange(lq, device=mask.device)[:, None]
    j = torch.arange(lk, device=mask.device)[None, :]
    if not bool((visible ^ (j <= lk - lq + i)).any()):
        return True
    if bool(visible.all()):
        return False
    raise _Fallback("attn_mask is neither causal nor all-visible (a padding mask)")


def _run(fns: Fns, a: Args, mask_arg: str | None) -> tuple[torch.Tensor, torch.Tensor]:
    """(out [B, H, Lq, D], logsumexp [B, H, Lq] float32) of one SDPA call, or _Fallback."""
    q, k, v = a["query"], a["key"], a["value"]
    if not all(isinstance(t, torch.Tensor) and t.dim() == 4 for t in (q, k, v)):
        raise _Fallback("query/key/value are not 4-d [B, heads, L, D] tensors")
    if q.dtype not in _FLOATS or k.dtype != q.dtype or v.dtype != q.dtype:
        raise _Fallback(f"dtypes {q.dtype}, {k.dtype}, {v.dtype}")
    if a.get("dropout_p"):
        raise _Fallback("dropout_p > 0")
    b, h, lq, d = q.shape
    _, g, lk, _ = k.shape
    if v.shape != k.shape or k.shape[0] != b or k.shape[3] != d:
        raise _Fallback(f"shapes q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}")
    if d not in _HEAD_DIMS or g == 0 or h % g:
        raise _Fallback(f"head dim {d} / {h} query heads over {g} key heads")
    causal = bool(a.get("is_causal"))
    mask = a.get(mask_arg) if mask_arg else None
    if causal and mask is not None:
        raise _Fallback("is_causal together with attn_mask")
    if causal and lq != lk:
        raise _Fallback(f"is_causal with {lq} queries and {lk} keys: torch aligns that mask top-left")
    if mask is not None:
        causal = _mask_causal(mask, lq, lk)
    # heads_first: the launcher reads the call's [B, heads, L, D] tensors and returns out and
    # the logsumexp in that layout (the flash-layout call's bits, without five views a call)
    return fns["attention"](q, k, v, causal=causal, scale=a.get("scale"), return_lse=True, heads_first=True)


# The backend ops' other outputs, which SDPA's composite discards: cumulative lengths (empty on
# the dense path), the dropout RNG's seed and offset (unused without dropout, which falls back),
# the debug mask (empty), the efficient backend's [B, H, 0] logsumexp. Never read or written, so
# one set per (backend, device, dtype, B, H) serves every call: no allocation and one lookup per
# routed call. Distinct places get distinct tensors, so no two outputs of one call share memory.
_UNUSED: dict[tuple, tuple[torch.Tensor, ...]] = {}


def _unused(kind: str, q: torch.Tensor) -> tuple[torch.Tensor, ...]:
    key = (kind, q.device, q.dtype, q.shape[0], q.shape[1])
    got = _UNUSED.get(key)
    if got is None:
        i32, i64, u64 = torch.int32, torch.long, torch.uint64
        shapes = {"flash": (((0,), i32), ((0,), i32), ((2,), u64), ((), u64), ((0,), q.dtype)),
                  "efficient": (((q.shape[0], q.shape[1], 0), torch.float32), ((), i64), ((), i64)),
                  "cudnn": (((0,), i32), ((0,), i32), ((), i64), ((), i64), ((0,), q.dtype))}[kind]
        got = _UNUSED[key] = tuple(torch.empty(shape, dtype=dtype, device=q.device) for shape, dtype in shapes)
    return got


def _cpu_flash(fns: Fns, a: Args) -> Any:
    return _run(fns, a, "attn_mask")


def _flash(fns: Fns, a: Args) -> Any:
    o, lse = _run(fns, a, None)
    q = a["query"]
    cu_q, cu_k, seed, offset, debug = _unused("flash", q)
    return o, lse, cu_q, cu_k, q.shape[2], a["key"].shape[2], seed, offset, debug


def _efficient(fns: Fns, a: Args) -> Any:
    if a.get("compute_log_sumexp"):
        raise _Fallback("compute_log_sumexp (autograd's backward)")
    o, _ = _run(fns, a, "attn_bias")
    return (o, *_unused("efficient", a["query"]))


def _cudnn(fns: Fns, a: Args) -> Any:
    if a.get("compute_log_sumexp"):
        raise _Fallback("compute_log_sumexp (autograd's backward)")
    o, lse = _run(fns, a, "attn_bias")
    q = a["query"]
    cu_q, cu_k, seed, offset, debug = _unused("cudnn", q)
    return o, lse.unsqueeze(-1), cu_q, cu_k, q.shape[2], a["key"].shape[2], seed, offset, debug


# The keyword the adapters pass: a module generated before it existed is not routed (mode.skipped()).
_PARAMS = {"attention": ("heads_first",)}

# A mask's values decide `causal`: a call with a mask is never replayed (`reads`); one without is
# decided by its signature. The adapters' other outputs are _unused's cached tensors, lengths from
# the shapes and (cudnn) a view of the logsumexp (`holds`). flash and cudnn return the query and
# key lengths (query and key: the schema's arguments 0 and 1, their dim 2) as outputs 4 and 5
# (`lengths`: a decode's plans stand for other key lengths, fast_route.py `_family`).
_LENGTHS = ((4, 0, 2), (5, 1, 2))
ROUTES: tuple[Route, ...] = tuple(
    Route(aten, ("attention",), adapter, _PARAMS, reads=reads, holds=True, lengths=lengths)
    for aten, adapter, reads, lengths in (
        ("_scaled_dot_product_flash_attention_for_cpu.default", _cpu_flash, ("attn_mask",), ()),
        ("_scaled_dot_product_flash_attention.default", _flash, (), _LENGTHS),
        ("_scaled_dot_product_efficient_attention.default", _efficient, ("attn_bias",), ()),
        ("_scaled_dot_product_cudnn_attention.default", _cudnn, ("attn_bias",), _LENGTHS))
)
