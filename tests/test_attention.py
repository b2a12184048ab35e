"""Attention (specs/attention.red): accuracy, bitwise invariance, prefill/decode, mode routing.

Runs the committed generated modules under the Triton interpreter (tests/conftest.py) on tiny
shapes: head dim 16, 4 query / 2 KV heads; the spec's own tiles (64 rows, 64-key blocks) and
256-key chunks, so a 300-key sequence has two chunks and a ragged tail. Every invariance
check is bitwise (torch.equal); accuracy is against a float64 reference (tests/tolerances.py).
"""

from __future__ import annotations

import importlib
import warnings
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F  # noqa: N812

from redgen.cli import main
from redgen.errors import NotInvariant
from redgen.pipeline import build_spec, plan_spec
from redgen.verify.attention_empirical import reference
from redgen.verify.proof import prove
from redgen.verify.recheck import recheck_module
from tests.tolerances import assert_accurate, assert_attention_accurate

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "specs" / "attention.red"
H, G, D = 4, 2, 16


@pytest.fixture(scope="module")
def attn():
    return importlib.import_module("generated.cuda.attention")


@pytest.fixture(scope="module")
def attn_ascend():
    return importlib.import_module("generated.ascend.attention")


def _seqs(lq: list[int], lk: list[int], dtype=torch.float32, seed: int = 0):
    gen = torch.Generator().manual_seed(seed)
    qs = [torch.randn(n, H, D, generator=gen).to(dtype) for n in lq]
    ks = [torch.randn(n, G, D, generator=gen).to(dtype) for n in lk]
    vs = [torch.randn(n, G, D, generator=gen).to(dtype) for n in lk]
    return qs, ks, vs


def _varlen(fn, qs, ks, vs, **kw) -> list[torch.Tensor]:
    cu_q = torch.tensor([0, *torch.tensor([len(x) for x in qs]).cumsum(0).tolist()], dtype=torch.int32)
    cu_k = torch.tensor([0, *torch.tensor([len(x) for x in ks]).cumsum(0).tolist()], dtype=torch.int32)
    o = fn(torch.cat(qs), torch.cat(ks), torch.cat(vs), cu_seqlens_q=cu_q, cu_seqlens_k=cu_k, **kw)
    return [o[a:b] for a, b in zip(cu_q[:-1].tolist(), cu_q[1:].tolist(), strict=True)]


# --- accuracy --------------------------------------------------------------------------------
@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_accuracy_against_float64(attn, causal, dtype):
    lq, lk = [300, 1, 5], [300, 70, 9]
    qs, ks, vs = _seqs(lq, lk, dtype)
    for o, q, k, v in zip(_varlen(attn.attention, qs, ks, vs, causal=causal), qs, ks, vs, strict=True):
        assert o.dtype == dtype
        assert_attention_accurate(o, reference(q, k, v, causal), dtype, v.abs().max().item())


def test_scale_and_lse(attn):
    qs, ks, vs = _seqs([7], [40])
    o, lse = attn.attention(qs[0][None], ks[0][None], vs[0][None], scale=0.3, causal=False, return_lse=True)
    assert_accurate(o[0], reference(qs[0], ks[0], vs[0], False, scale=0.3), torch.float32)
    s = torch.einsum("qhd,khd->hqk", qs[0].double(), ks[0].double().repeat_interleave(H // G, 1)) * 0.3
    assert_accurate(lse[0], torch.logsumexp(s, -1).T, torch.float32)


# --- bitwise invariance ----------------------------------------------------------------------
def test_each_sequence_alone_equals_it_inside_a_batch(attn):
    qs, ks, vs = _seqs([300, 1, 3, 17], [300, 70, 3, 100], torch.bfloat16)
    batch = _varlen(attn.attention, qs, ks, vs)
    for b in range(4):
        assert torch.equal(_varlen(attn.attention, [qs[b]], [ks[b]], [vs[b]])[0], batch[b])
    moved = _varlen(attn.attention, qs[::-1], ks[::-1], vs[::-1])[::-1]
    assert all(torch.equal(a, b) for a, b in zip(batch, moved, strict=True))


def test_dense_batch_equals_varlen_and_single_rows(attn):
    qs, ks, vs = _seqs([1, 1, 1], [280, 280, 280])
    dense = attn.attention(torch.stack(qs), torch.stack(ks), torch.stack(vs))
    for b, o in enumerate(_varlen(attn.attention, qs, ks, vs)):
        assert torch.equal(dense[b], o)
        assert torch.equal(attn.attention(qs[b][None], ks[b][None], vs[b][None])[0], o)


def test_prefill_and_decode_give_the_same_bits(attn):
    (q,), (k,), (v,) = _seqs([300], [300], torch.bfloat16)
    prefill = attn.attention(q[None], k[None], v[None])[0]
    for p in (0, 63, 64, 255, 256, 299):
        step = attn.attention(q[None, p:p + 1], k[None, :p + 1], v[None, :p + 1])[0, 0]
        assert torch.equal(step, prefill[p]), f"position {p}"
    chunk = attn.attention(q[None, 260:], k[None], v[None])[0]  # chunked prefill: the last 40 queries
    assert torch.equal(chunk, prefill[260:])


def test_fused_and_split_paths_give_the_same_bits(attn, monkeypatch):
    qs, ks, vs = _seqs([2, 300], [600, 300])
    natural = _varlen(attn.attention, qs, ks, vs)
    for below in (0, 1 << 62):  # always fused; split whenever there is more than one chunk
        monkeypatch.setattr(attn, "SPLIT_BELOW", below)
        assert all(torch.equal(a, b) for a, b in zip(_varlen(attn.attention, qs, ks, vs), natural, strict=True))


def test_ascend_module_gives_the_cuda_bits_at_every_grid(attn, attn_ascend, monkeypatch):
    qs, ks, vs = _seqs([300, 1], [300, 90], torch.bfloat16)
    want = _varlen(attn.attention, qs, ks, vs)
    for cores in (1, 3, 20):
        monkeypatch.setattr(attn_ascend, "CORES", cores)
        got = _varlen(attn_ascend.attention, qs, ks, vs)
        assert all(torch.equal(a, b) for a, b in zip(got, want, strict=True)), f"CORES={cores}"


# --- launcher errors -------------------------------------------------------------------------
@pytest.mark.parametrize("change, error, words", [
    (lambda q, k, v: (q, k[..., :8], v[..., :8]), ValueError, "head dims"),
    (lambda q, k, v: (q[..., :3, :], k, v), ValueError, "not a multiple of 2 KV heads"),
    (lambda q, k, v: (q.double(), k, v), TypeError, "dtype torch.float64"),
    (lambda q, k, v: (q, k.half(), v), TypeError, "share a dtype"),
    (lambda q, k, v: (q[0], k, v), ValueError, "must be [B, L, heads, D]"),
])
def test_launcher_errors_are_clear(attn, change, error, words):
    q, k, v = torch.randn(1, 2, H, D), torch.randn(1, 5, G, D), torch.randn(1, 5, G, D)
    with pytest.raises(error, match=words.replace("[", r"\[").replace("]", r"\]")):
        attn.attention(*change(q, k, v))


# --- verifier ----------------------------------------------------------------------------------
def test_spec_verifies_for_both_targets():
    for target in ("cuda", "ascend"):
        cert = prove(plan_spec(SPEC, target))
        assert cert.depends_on == ("L",)
        assert "batch" in cert.independent_of and "cores" in cert.independent_of
        assert "prefill row at position p and the decode step at p" in cert.statement
        assert cert.order["chunk"] == 256 and cert.order["fp_fusion"] is False


def test_committed_modules_carry_the_current_certificate(monkeypatch):
    monkeypatch.chdir(ROOT)
    for target in ("cuda", "ascend"):
        path = ROOT / "generated" / target / "attention.py"
        assert recheck_module(path, ROOT)["target"] == target
        assert "enable_fp_fusion=False" in path.read_text()


def test_split_count_from_the_batch_is_refused_with_a_counterexample(tmp_path):
    bad = tmp_path / "a.red"
    bad.write_text(SPEC.read_text().replace("split S fixed_size 256", "split S fixed_count cdiv(cores, batch)"))
    with pytest.raises(NotInvariant) as info:
        prove(plan_spec(bad, "cuda"))
    assert "batch=1: 40 chunks of 25, key blocks of 64; batch=2: 20 chunks of 50" in info.value.message


def test_build_of_a_refused_spec_writes_nothing(tmp_path, capsys):
    bad = tmp_path / "a.red"
    bad.write_text(SPEC.read_text().replace("split S fixed_size 256", "split S fixed_count 4"))
    assert main(["build", str(bad), "--target", "cuda", "--out", str(tmp_path / "out")]) == 1
    assert "S=4096, T=4096, i=999: one chunk" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_noncausal_spec_builds_and_is_not_causal(tmp_path):
    spec = tmp_path / "attention_full.red"
    spec.write_text(SPEC.read_text().replace("mask causal ", "mask none   "))
    built = build_spec(spec, "cuda", empirical=False)
    assert "CAUSAL = False" in built.source
    assert "L = S" in built.certificate.statement


def test_schedule_lines_before_the_inputs(tmp_path, capsys):
    """`warps 4` before the inputs checks as after them (a fuzzed spec once raised IndexError
    there); a schedule name of an input not yet declared is an unknown name."""
    text = SPEC.read_text()
    assert "\nwarps 4\n" in text
    moved = text.replace("\nwarps 4\n", "\n").replace("op attention\n", "op attention\nwarps 4\n")
    spec = tmp_path / "attention_warps_first.red"
    spec.write_text(moved)
    assert main(["verify", str(spec), "--no-empirical"]) == 0
    spec.write_text(moved.replace("warps 4\n", "warps S\n", 1))
    assert main(["verify", str(spec), "--no-empirical"]) != 0
    assert "unknown name 'S'" in capsys.readouterr().err


# --- batch-invariant mode --------------------------------------------------------------------
def _bhld(dtype=torch.float32, lq=70, lk=70, b=2):
    gen = torch.Generator().manual_seed(3)
    q = torch.randn(b, H, lq, D, generator=gen).to(dtype)
    k = torch.randn(b, G, lk, D, generator=gen).to(dtype)
    v = torch.randn(b, G, lk, D, generator=gen).to(dtype)
    return q, k, v


def test_mode_routes_sdpa_as_transformers_calls_it(attn):
    import redgen
    from redgen.runtime import mode
    from redgen.runtime.mode import BatchInvarianceWarning

    q, k, v = _bhld()
    want = attn.attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)).transpose(1, 2)
    causal_bool = torch.ones(70, 70, dtype=torch.bool).tril()
    causal_add = torch.zeros(70, 70).masked_fill(~causal_bool, torch.finfo(torch.float32).min)
    before = mode.call_counts()
    with warnings.catch_warnings():
        warnings.simplefilter("error", BatchInvarianceWarning)  # none of these may fall back
        with redgen.batch_invariant():
            got = [F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True),
                   F.scaled_dot_product_attention(q, k, v, attn_mask=causal_bool, enable_gqa=True),
                   F.scaled_dot_product_attention(q, k, v, attn_mask=causal_add[None, None], enable_gqa=True)]
            full = F.scaled_dot_product_attention(q, k, v, enable_gqa=True, scale=0.2)
            one = F.scaled_dot_product_attention(q[:1], k[:1], v[:1], is_causal=True, enable_gqa=True)
    assert (mode.call_counts() - before)["_scaled_dot_product_flash_attention_for_cpu.default"] == 5
    for g in got:
        assert torch.equal(g, want)
    assert torch.equal(one, want[:1])
    assert_accurate(full.transpose(1, 2)[0],
                    reference(q[0].transpose(0, 1), k[0].transpose(0, 1), v[0].transpose(0, 1), False, 0.2),
                    torch.float32)


@pytest.mark.parametrize("route", ["_flash", "_cudnn"])
def test_gpu_adapters_return_torchs_outputs_and_share_the_unused_ones(attn, route):
    """The CUDA backends' adapters (called here on CPU tensors, as the mode calls them): the
    output and logsumexp as the op's schema places them; the outputs SDPA discards (empty
    cumulative lengths, the RNG's seed and offset, the debug mask) are one tensor per place,
    shared by every call and never two places of one call."""
    from redgen.runtime import attention_routes

    q, k, v = _bhld()
    fns = {"attention": attn.attention}
    a = {"query": q, "key": k, "value": v, "dropout_p": 0.0, "is_causal": True, "return_debug_mask": False,
         "scale": None, "attn_bias": None, "compute_log_sumexp": False}
    first, second = (getattr(attention_routes, route)(fns, a) for _ in range(2))
    o, lse = attn.attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), return_lse=True)
    assert torch.equal(first[0], o.transpose(1, 2)) and torch.equal(second[0], first[0])
    assert torch.equal(first[1].reshape(lse.transpose(1, 2).shape), lse.transpose(1, 2))
    unused = [i for i, t in enumerate(first) if isinstance(t, torch.Tensor) and i > 1]
    assert len(unused) == 5
    assert all(first[i] is second[i] for i in unused)
    assert len({first[i].data_ptr() if first[i].numel() else id(first[i]) for i in unused}) == 5
    assert first[4:6] == (q.shape[2], k.shape[2])


@pytest.mark.parametrize("kwargs, reason", [
    ({"attn_mask": "padding"}, "neither causal nor all-visible"),
    ({"head_dim": 8}, "head dim 8"),
    ({"attn_mask": "bias"}, "additive bias"),
])
def test_mode_falls_back_with_a_warning(kwargs, reason):
    import redgen
    from redgen.runtime.mode import BatchInvarianceWarning

    q, k, v = _bhld()
    if kwargs.pop("head_dim", None):
        q, k, v = q[..., :8], k[..., :8], v[..., :8]
    if kwargs.get("attn_mask") == "padding":
        mask = torch.ones(2, 1, 70, 70, dtype=torch.bool)
        mask[0, :, :, :3] = False
        kwargs = {"attn_mask": mask}
    elif kwargs.get("attn_mask") == "bias":
        kwargs = {"attn_mask": torch.randn(70, 70)}
    with redgen.batch_invariant(), pytest.warns(BatchInvarianceWarning, match=reason):
        F.scaled_dot_product_attention(q, k, v, enable_gqa=True, **kwargs)


def test_torch_ops_attention(attn):
    from torch._subclasses.fake_tensor import FakeTensorMode

    import redgen.runtime.custom_ops  # noqa: F401 - registers torch.ops.redgen.*

    qs, ks, vs = _seqs([3, 300], [40, 300])
    cu_q = torch.tensor([0, 3, 303], dtype=torch.int32)
    cu_k = torch.tensor([0, 40, 340], dtype=torch.int32)
    args = (torch.cat(qs), torch.cat(ks), torch.cat(vs))
    got = torch.ops.redgen.attention(*args, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k)
    assert torch.equal(got, attn.attention(*args, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k))
    with FakeTensorMode() as mode:
        fake = torch.ops.redgen.attention(*(mode.from_tensor(t) for t in args), causal=False)
    assert fake.shape == args[0].shape and fake.dtype == args[0].dtype


def test_tiny_llama_is_batch_invariant_and_prefill_decode_consistent(capsys):
    pytest.importorskip("transformers")
    from examples.llama_invariance import main as llama

    # Every linear layer goes through the matmul routes (redgen/runtime/matmul_routes.py), attention
    # through SDPA's aten op: the whole forward pass is redgen's.
    assert llama(["--tiny"]) == 0
    out = capsys.readouterr().out
    assert "_scaled_dot_product_flash_attention_for_cpu.default x" in out
    assert "mm.default x" in out
    assert "| 3 | True | 4/4 | 0 |" in out
