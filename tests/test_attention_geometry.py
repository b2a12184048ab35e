"""Issue 12: dense attention calls are bound by their geometry, the key length left out.

A decode step's key length grows by one, so a replay keyed on the whole signature recorded a
new plan in every step's first layer. The cuda launcher now keeps, per geometry (every field
of the signature but the key length), what its checks worked out and the kernels it bound;
the key length moves only len_k, the K/V strides over it, the chunk count and the partials'
size. Here: under the interpreter, the bits of the general path at every key length, on both
paths; one geometry for a whole decode; the checks still raise; and, against stand-ins for
compiled Triton kernels (as on a GPU), the launches pass exactly the general path's arguments.
"""

from __future__ import annotations

import importlib

import pytest
import torch

from redgen.runtime.loader import load
from tests.stand_ins import ATTENTION_PATHS as PATHS
from tests.stand_ins import FastReplay, Kernel, gpu_like


@pytest.fixture
def mod(attention_mod):
    return attention_mod


def _x(*shape, seed=0, dtype=torch.float32):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed)).to(dtype)


def _step(lk, seed=0, lq=1, dtype=torch.float32):
    """A decode step as Hugging Face makes it: [B, heads, L, D] tensors read transposed, the
    cache a fresh contiguous tensor each step (its strides move with the key length)."""
    q = _x(2, 4, lq, 16, seed=seed, dtype=dtype).transpose(1, 2)
    k = _x(2, 2, lk, 16, seed=seed + 1, dtype=dtype).transpose(1, 2)
    v = _x(2, 2, lk, 16, seed=seed + 2, dtype=dtype).transpose(1, 2)
    return q, k, v


def _general(mod, q, k, v, **kw):
    return mod._run(q, k, v, kw.get("causal", mod.CAUSAL), kw.get("scale"), None, None, None, None,
                    kw.get("return_lse", False))


def _same(a, b):
    a, b = (a if isinstance(a, tuple) else (a,)), (b if isinstance(b, tuple) else (b,))
    return len(a) == len(b) and all(
        x.shape == y.shape and x.dtype == y.dtype and x.stride() == y.stride() and torch.equal(x, y)
        for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("path", ["split", "fused"])
def test_a_decode_gives_the_general_paths_bits_at_every_key_length_from_one_geometry(mod, path, monkeypatch):
    monkeypatch.setattr(mod, "SPLIT_BELOW", PATHS[path])
    calls = []
    real = mod._Call
    monkeypatch.setattr(mod, "_Call", lambda *a: calls.append(a) or real(*a))
    # one chunk, then two (the split path's second pass appears), then two with a new remainder
    for i, lk in enumerate((255, 256, 257, 300)):
        q, k, v = _step(lk, seed=i)
        got = mod.attention(q, k, v, causal=True, return_lse=True)
        assert _same(got, _general(mod, q, k, v, causal=True, return_lse=True)), lk
    assert len(mod._GEOMETRY) == 1
    assert len(calls) == 1 + 4  # the geometry's checks once, then the general path's own calls


def test_what_the_geometry_holds_works_out_a_new_one(mod):
    q, k, v = _step(40)
    mod.attention(q, k, v, causal=False)
    for other in [dict(causal=True), dict(return_lse=True), dict(scale=0.5)]:
        mod.attention(q, k, v, **{"causal": False, **other})
    mod.attention(q.to(torch.bfloat16), k.to(torch.bfloat16), v.to(torch.bfloat16), causal=False)
    mod.attention(*_step(40, lq=3), causal=False)  # another query length
    mod.attention(*_step(41), causal=False)  # another key length: the same geometry as the first call
    assert len(mod._GEOMETRY) == 6


def test_an_unreturned_logsumexp_and_a_static_cache(mod):
    """The cache as a static buffer sliced to the key length: strides stay, lengths move."""
    buf_k, buf_v = _x(2, 2, 64, 16, seed=1), _x(2, 2, 64, 16, seed=2)
    q = _x(2, 4, 1, 16).transpose(1, 2)
    for lk in (10, 11, 50):
        k, v = buf_k[:, :, :lk].transpose(1, 2), buf_v[:, :, :lk].transpose(1, 2)
        assert _same(mod.attention(q, k, v), _general(mod, q, k, v))
    assert len(mod._GEOMETRY) == 1


def test_bad_calls_raise_as_the_general_path_does_and_leave_no_geometry(mod):
    q, k, v = _step(40)
    with pytest.raises(ValueError, match="k and v must have the same shape"):
        mod.attention(q, k, v[:, :39])
    with pytest.raises(ValueError, match="head dim 8"):
        mod.attention(q[..., :8], k[..., :8], v[..., :8])
    with pytest.raises(TypeError, match="must share a dtype"):
        mod.attention(q, k.half(), v)
    assert mod._GEOMETRY == {}


def test_a_head_dim_not_contiguous_keeps_the_general_path(mod):
    """The general path copies such a tensor; the geometry records that it must."""
    q, k, v = _step(40)
    kk = torch.empty(k.shape[:-1] + (32,))[..., ::2]
    kk.copy_(k)
    got = mod.attention(q, kk, v)
    assert list(mod._GEOMETRY.values()) == [False]
    assert _same(got, _general(mod, q, kk, v)) and _same(mod.attention(q, kk, v), got)


def test_rows_that_see_no_key_are_nan_not_unwritten(mod):
    """No keys at all: every tile is fused and has no chunk. Its rows are stored as a row that
    sees no key in a tile with some is: NaN, logsumexp -inf (never memory left as it was)."""
    q, k, v = _step(0)
    o, lse = mod.attention(q, k, v, return_lse=True)
    assert torch.isnan(o).all() and (lse == float("-inf")).all()


@pytest.mark.parametrize("path", ["split", "fused"])
def test_heads_first_is_the_flash_layout_call_on_transposed_views(mod, path, monkeypatch):
    """torch SDPA's layout, as the mode's adapters pass it: the same bits, and out and the
    logsumexp the very views a transposed call would return (shape and strides)."""
    monkeypatch.setattr(mod, "SPLIT_BELOW", PATHS[path])
    for lk in (256, 300):
        q, k, v = (x.transpose(1, 2) for x in _step(lk, dtype=torch.bfloat16))  # [B, heads, L, D]
        o, lse = mod.attention(q, k, v, causal=True, return_lse=True, heads_first=True)
        want_o, want_lse = _general(mod, q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), causal=True,
                                    return_lse=True)
        assert _same((o, lse), (want_o.transpose(1, 2), want_lse.transpose(1, 2)))
        assert _same(mod.attention(q, k, v, causal=True, heads_first=True), want_o.transpose(1, 2))
    assert len(mod._GEOMETRY) == 2  # with and without the logsumexp; the key length left out


def test_heads_first_refuses_what_it_cannot_read(mod):
    q, k, v = _step(40)
    with pytest.raises(ValueError, match=r"with heads_first, k must be \[B, heads, L, D\], got \(2, 40, 32\)"):
        mod.attention(q, k.flatten(2), v, heads_first=True)
    cu = torch.tensor([0, 1], dtype=torch.int32)
    with pytest.raises(ValueError, match="heads_first is for dense calls"):
        mod.attention(q[0], k[0], v[0], cu_seqlens_q=cu, cu_seqlens_k=cu, heads_first=True)


# --- as on a GPU: stand-ins for the compiled kernels, the bound launches' arguments ---------
def _c_launchers(mod, monkeypatch, path="split"):
    """The module as on a GPU (gpu_like) on `path`, its two kernels stand-ins with a C launcher each
    (their logs record what ran); returns (forward, combine)."""
    gpu_like(mod, monkeypatch, _check=lambda name, t, device_type: None, SPLIT_BELOW=PATHS[path])
    fwd, comb = Kernel(mod._attn_fwd, c_launcher=True), Kernel(mod._attn_combine, c_launcher=True)
    monkeypatch.setattr(mod, "_attn_fwd", fwd)
    monkeypatch.setattr(mod, "_attn_combine", comb)
    return fwd, comb


def test_bound_launches_pass_the_general_paths_arguments(mod, monkeypatch):
    fwd, comb = _c_launchers(mod, monkeypatch)
    mod.attention(*_step(300), causal=True)  # binds: Triton's path
    assert [e[0] for e in fwd.log + comb.log] == ["triton", "triton"]
    q, k, v = _step(301, seed=5)  # the key length moved; no integer changed its specialization class
    out = mod.attention(q, k, v, causal=True)
    (kind, bound), = fwd.log[1:]
    assert kind == "launch" and [e[0] for e in comb.log] == ["triton", "launch"]
    # the grid (one tile, two sequences x two KV heads, two chunks), the stream, the compiled
    # function, the launcher's own flags, no scratch, the metadata, no hooks
    assert bound[:13] == (1, 4, 2, 7, "fn", 0, 1, None, None, "meta", None, None, None)
    general = []
    monkeypatch.setattr(mod, "_go", lambda kernel, grid, args, consts: general.append((kernel, grid, args, consts)))
    _general(mod, q, k, v, causal=True)
    g_args = general[0][2]
    tail = tuple(general[0][3][p.name] if p.name in general[0][3] else p.default for p in fwd.params[len(g_args):])
    passed = bound[13:]
    assert len(passed) == len(g_args) + len(tail)
    for a, b in zip(passed, g_args, strict=False):
        if isinstance(b, torch.Tensor):  # the call's tensors and its output by address; fresh buffers
            assert isinstance(a, int)
            if any(b is t for t in (q, k, v)):
                assert a == b.data_ptr()
        else:
            assert a == b and type(a) is type(b)
    assert passed[len(g_args):] == tail
    assert passed[3] == out.data_ptr()


@pytest.mark.parametrize("path,return_lse", [("split", True), ("split", False), ("fused", True), ("fused", False)])
def test_direct_launches_pass_the_general_paths_arguments(mod, monkeypatch, path, return_lse):
    """Once every launch of a geometry is bound to its C launcher, _dense launches through them
    directly (no view, no argument list rebuilt by _launch): each launch, the logsumexp returned or
    not, passes the general path's grid and arguments, the call's tensors and outputs by address."""
    fwd, comb = _c_launchers(mod, monkeypatch, path)
    mod.attention(*_step(300), causal=True, return_lse=return_lse)  # binds: Triton's path
    q, k, v = _step(301, seed=5)
    out = mod.attention(q, k, v, causal=True, return_lse=return_lse)
    o, lse = out if return_lse else (out, None)
    launched = [e[1] for e in fwd.log + comb.log if e[0] == "launch"]
    general = []
    monkeypatch.setattr(mod, "_go", lambda kernel, grid, args, consts: general.append((kernel, grid, args, consts)))
    _general(mod, q, k, v, causal=True, return_lse=return_lse)
    assert len(launched) == len(general) == (2 if path == "split" else 1)
    for passed, (kernel, grid, g_args, consts) in zip(launched, general, strict=True):
        assert passed[:13] == ((*grid, 1, 1)[:3] + (7, "fn", 0, 1, None, None, "meta", None, None, None))
        tail = tuple(consts[p.name] if p.name in consts else p.default for p in kernel.params[len(g_args):])
        body = passed[13:]
        assert len(body) == len(g_args) + len(tail) and body[len(g_args):] == tail
        for a, b in zip(body, g_args, strict=False):
            if isinstance(b, torch.Tensor):
                assert isinstance(a, int) and a % 16 == 0
                if any(b is t for t in (q, k, v)):
                    assert a == b.data_ptr()
            else:
                assert a == b and type(a) is type(b)
    fwd_args = launched[0][13:]
    assert fwd_args[3] == o.data_ptr()
    if return_lse:
        assert fwd_args[4] == lse.data_ptr()
    if path == "split":  # the combine reads the partials and logsumexp the first launch wrote
        assert launched[1][13:16] == (fwd_args[3], fwd_args[4], fwd_args[5])
        if not return_lse:
            assert fwd_args[5] - fwd_args[4] == 256


def test_an_unreturned_logsumexp_shares_the_partials_allocation(mod, monkeypatch):
    """Host time (run 219: an allocation costs 4-6 us on an H200 host): a decode call that does not
    return the logsumexp allocates the output and one workspace, the partials from the first
    256-byte step past the logsumexp; a returned logsumexp keeps an allocation of its own."""
    fwd, comb = _c_launchers(mod, monkeypatch)
    mod.attention(*_step(300), causal=True)  # binds
    made, real = [], torch.empty_strided
    monkeypatch.setattr(torch, "empty_strided", lambda *a, **kw: made.append(a[0]) or real(*a, **kw))
    q, k, v = _step(301, seed=5)
    mod.attention(q, k, v, causal=True)
    # the output [2, 1, 4, 16]; the logsumexp's 8 elements in one 256-byte step, then two chunks'
    # partials of 2 x 4 rows (m, l and 16 accumulators each)
    assert made == [(2, 1, 4, 16), (64 + 2 * 8 * 18,)]
    (kind, bound), = fwd.log[1:]
    assert kind == "launch" and bound[13 + 5] - bound[13 + 4] == 256  # lse, then the partials
    assert comb.log[-1][1][13 + 2] - comb.log[-1][1][13 + 1] == 256
    made.clear()
    o, lse = mod.attention(q, k, v, causal=True, return_lse=True)
    assert len(made) == 3 and lse.untyped_storage().nbytes() == lse.numel() * 4 and o.shape == (2, 1, 4, 16)


def test_the_ascend_launcher_takes_heads_first_too():
    """The mode's adapters pass heads_first to whichever target they route to."""
    asc = importlib.import_module("generated.ascend.attention")
    q, k, v = (x.transpose(1, 2) for x in _step(40))
    o, lse = asc.attention(q, k, v, causal=True, return_lse=True, heads_first=True)
    want_o, want_lse = asc.attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), causal=True,
                                     return_lse=True)
    assert _same((o, lse), (want_o.transpose(1, 2), want_lse.transpose(1, 2)))


@pytest.mark.parametrize("heads_first", [False, True])
def test_a_dense_call_hands_its_plan_to_the_cpp_replay(mod, monkeypatch, heads_first):
    _c_launchers(mod, monkeypatch)
    rec = FastReplay()
    monkeypatch.setattr(mod, "_FAST", rec)
    q, k, v = _step(300)
    if heads_first:
        q, k, v = (x.transpose(1, 2) for x in (q, k, v))
    got = mod.attention(q, k, v, causal=True, return_lse=heads_first, heads_first=heads_first)
    args = (q, k, v, True, None, heads_first, heads_first)
    assert rec.asked[0][0] == id(mod._dense) and all(a is b for a, b in zip(rec.asked[0][1], args, strict=True))
    (run, handed, plan), = rec.stored
    assert run is mod._dense and all(a is b for a, b in zip(handed, args, strict=True))
    _, _, _, outs, scratch, launches, many, direct = plan
    results = got if heads_first else (got,)
    # the outputs as returned (heads first: transposed views, strides and all), the partials and
    # an unreturned logsumexp as workspaces, both launches with the C launcher's arguments
    assert outs == tuple((tuple(r.shape), r.stride(), r.dtype) for r in results) and many is heads_first
    assert len(scratch) == (1 if heads_first else 2) and len(launches) == 2 and len(direct) == 2
    # the tensors in place: q, k, v are the call's arguments 0-2, out is output 0
    assert [s for s in launches[0][3] if s[0] < 4] == [(0, 0, 0), (1, 0, 1), (2, 0, 2), (3, 1, 0)]
    monkeypatch.setattr(mod, "_PROBE", [])  # while the mode probes, neither asked nor handed over
    mod.attention(q, k, v, causal=True, return_lse=heads_first, heads_first=heads_first)
    assert len(rec.asked) == 1 and len(rec.stored) == 1


def test_a_transposed_fresh_output_is_replayable_a_view_is_not(mod):
    base = torch.empty(2, 3, 4, 5)
    assert mod._fresh(base) and mod._fresh(base.transpose(1, 2)) and mod._fresh(base.permute(3, 0, 2, 1))
    assert not mod._fresh(base[:, 1:]) and not mod._fresh(base[..., ::2]) and not mod._fresh(base[0])
    assert not mod._fresh(torch.empty(6).as_strided((2, 3), (0, 1)))  # overlapping
    assert mod._fresh(torch.empty(1, 4, 1)) and mod._fresh(torch.empty(0, 3))


def test_the_moving_integers_specialize_as_any_launch_argument():
    """`_int_specs` (a dense call's six moving integers in one call) gives `_spec`'s tuples, so the
    kernels a geometry binds are those `_go` would pick, at every edge of Triton's specialization."""
    mod = importlib.import_module(load("attention", "cuda").__module__)
    values = (0, 1, 2, 15, 16, 17, 700, 2**31 - 1, 2**31, 2**63 - 1, 2**63, -1, -(2**31), -(2**31) - 1)
    assert mod._int_specs(*values) == tuple(map(mod._spec, values))


def test_a_handed_over_plan_launches_its_own_calls_grid(mod, monkeypatch):
    """A geometry's binding is kept under how Triton specializes the moving integers, not under the
    grid: keys of 300 and 600 (two and three chunks of 256) share it. The plan each call hands over
    (to C++, or to the mode's probe) must launch that call's own grid. Keeping the first call's grid
    (H100 run 245: two chunks of partials for a key length of three) replayed a decode step's later
    layers over part of its keys."""
    _c_launchers(mod, monkeypatch)
    rec = FastReplay()
    monkeypatch.setattr(mod, "_FAST", rec)
    for lk in (300, 600, 300):
        mod.attention(*_step(lk), causal=True)
    assert len(rec.stored) == 3
    for (_, _, plan), lk in zip(rec.stored, (300, 600, 300), strict=True):
        chunks = -(-lk // mod.CHUNK)
        _, _, _, _, _, launches, _, direct = plan
        assert [launch[1][2:] for launch in launches] == [(chunks,), ()]  # split pass (tiles, rows, chunks); combine
        assert [call[1:4] for call in direct[1]] == [(*launches[0][1],), (*launches[1][1], 1)]


def test_a_launch_through_the_launchers_python_takes_its_own_grid(mod, monkeypatch):
    """Where the compiled kernel has no C launcher to call (or a profiler's hooks are set), the
    binding's `run` launches: with this call's grid, not the one the binding was made with."""
    gpu_like(mod, monkeypatch, _check=lambda name, t, device_type: None, SPLIT_BELOW=PATHS["split"])
    fwd = Kernel(mod._attn_fwd)
    monkeypatch.setattr(mod, "_attn_fwd", fwd)
    monkeypatch.setattr(mod, "_attn_combine", Kernel(mod._attn_combine))
    for lk in (300, 600):
        mod.attention(*_step(lk), causal=True)
    assert [e[0] for e in fwd.log] == ["triton", "bound"] and fwd.log[0][1] == (1, 4, 2)
    assert fwd.log[1][1][:3] == (1, 4, 3)  # run(g0, g1, g2, stream, ...): three chunks of 256


@pytest.mark.parametrize("path,return_lse", [("split", False), ("split", True), ("fused", False)])
def test_a_new_key_lengths_plan_is_the_last_ones_with_its_integers(mod, monkeypatch, path, return_lse):
    """A decode step's first layer hands a new key length's plan over. It is the plan _plan would
    record (launches, grids, arguments, tensor places, outputs, workspaces, the C launcher's form),
    made from the last plan of its geometry and kind without _plan's search for the tensors."""
    _c_launchers(mod, monkeypatch, path)
    rec = FastReplay()
    monkeypatch.setattr(mod, "_FAST", rec)
    lengths = (300, 301, 600, 780, 300)  # 2, 2, 3, 4, 2 chunks of 256
    for lk in lengths:  # each plan made by _plan: the kind's last plan forgotten before each call
        for geo in mod._GEOMETRY.values():
            geo.plans.clear()
        mod.attention(*_step(lk), causal=True, return_lse=return_lse)
    want = [plan for _, _, plan in rec.stored]
    rec.stored.clear()
    searched = []
    real = mod._plan
    monkeypatch.setattr(mod, "_plan", lambda *a: searched.append(a) or real(*a))
    for lk in lengths:
        mod.attention(*_step(lk), causal=True, return_lse=return_lse)
    got = [plan for _, _, plan in rec.stored]
    assert got == want and len({p[4] for p in got}) == (3 if path == "split" else 1)  # the partials' sizes move
    # _plan ran for none of them: the geometry kept its kinds' plans from the first pass
    assert searched == []
    q, k, v = _step(302)
    k.requires_grad_(True)
    mod.attention(q, k, v, causal=True, return_lse=return_lse)
    assert rec.stored[-1][2][0] is True and not any(p[0] for p in got)
