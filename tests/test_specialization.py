"""What Triton may specialize on in the generated kernels (targets.Target.unspecialized).

cuda lets K (the columns after the reduce axis) specialize: where K is a multiple of 16,
Triton then knows that a cols kernel's column mask (k < K) is constant over 16 columns, and
loads a column block in 16-byte vectors. With K unspecialized the same tile took one 2-byte
load an element, and the cols kernels were bound by L1 (mean bf16 16 x 2048 x 2048 on an H100:
85 -> 59 us, docs/gpu_2026_11_26/README.md runs 16-17). The batch (M, R) is never specialized on, so a new
batch size compiles nothing. Specialization changes what the compiler knows of an integer, never
a floating-point operation: the order and the bits stay the same (measured bit for bit on the GPU).
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from redgen import targets

ROOT = Path(__file__).resolve().parent.parent


def _unspecialized(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """(kernel, its do_not_specialize) for every @triton.jit kernel of a generated module."""
    out = []
    for node in ast.parse(path.read_text()).body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for dec in node.decorator_list:
            if isinstance(dec, ast.Call) and ast.unparse(dec.func) == "triton.jit":
                kw = {k.arg: ast.literal_eval(k.value) for k in dec.keywords}
                if "do_not_specialize" in kw:
                    out.append((node.name, tuple(kw["do_not_specialize"])))
    return out


@pytest.mark.parametrize("target", ["cuda", "ascend"])
def test_every_reduction_kernel_leaves_the_targets_integers_unspecialized(target):
    t = targets.get(target)
    seen = 0
    for path in sorted((ROOT / "generated" / target).glob("*.py")):
        for name, dns in _unspecialized(path):
            seen += 1
            assert tuple(a for a in dns if a != "PID0") == t.unspecialized, (path.name, name, dns)
    assert seen >= 20  # every reduction module has some
    # the batch is never specialized on (a new batch size compiles nothing); cuda lets K specialize
    assert {"M", "R"} <= set(t.unspecialized)
    assert ("K" in t.unspecialized) == (target == "ascend")


# Compiles (for sm_90, on the CPU: Triton ships ptxas) a kernel of mean the way a launch on a
# contiguous bf16 [M, N, K] tensor specializes it: each integer argument that is 1 becomes a
# constant and each multiple of 16 is known as one, unless the kernel says do_not_specialize;
# ALIGN as the launcher passes it (or as the test forces it). Prints the widths of its global loads.
_LOADS = """
import importlib, json, re, sys
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
name, (M, N, K, align) = sys.argv[1], map(int, sys.argv[2:6])
k = getattr(importlib.import_module("generated.cuda.mean"), name)
cols = "cols" in name
consts = {"WIDE": False, "BLOCK": 32 if cols else 1, "LANES": 256, "LOG2_LANES": 8, "PAIRS": True,
          "UNROLL": 1 if cols else 8, "ALIGN": align, "TILE": 256, "LOG2_TILE": 8, "STACK": 0, "DEPTH": 1, "SPLIT": 1,
          "LOG2_SPLIT": 0, "FLAT": False}  # the TILE walk, a block of columns
values = {"s_in_0_m": N * K, "s_in_0_n": K, "s_in_0_k": 1, "s_out_0_m": K, "s_out_0_k": 1, "M": M, "N": N, "K": K,
          "R": M * K, "CHUNK": 4096, "NUM_CHUNKS": 1, "PID0": 0}
sig, constexprs, attrs = {}, {}, {}
for i, p in enumerate(k.params):
    if p.is_constexpr:
        sig[p.name], constexprs[(i,)] = "constexpr", consts[p.name]
    elif p.name.endswith("_ptr"):
        sig[p.name], attrs[(i,)] = "*bf16", [["tt.divisibility", 16]]
    elif p.do_not_specialize:
        sig[p.name] = "i32"
    elif values[p.name] == 1:
        sig[p.name], constexprs[(i,)] = "constexpr", 1
    else:
        sig[p.name] = "i32"
        if values[p.name] % 16 == 0:
            attrs[(i,)] = [["tt.divisibility", 16]]
src = ASTSource(fn=k, signature=sig, constexprs=constexprs, attrs=attrs)
ptx = triton.compile(src, target=GPUTarget("cuda", 90, 32), options=dict(num_warps=4, enable_fp_fusion=False)).asm["ptx"]
print(json.dumps(sorted(set(re.findall(r"ld\\.global(?:\\.[a-z0-9]+)*", ptx)))))
"""


def _loads(tmp_path, kernel, m, n, k, align) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}  # triton.jit, not the interpreter
    script = tmp_path / "loads.py"  # a file: triton.jit reads its kernel's source
    script.write_text(_LOADS)
    out = subprocess.run([sys.executable, str(script), kernel, str(m), str(n), str(k), str(align)],
                         capture_output=True, text=True, env=env, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("kernel", ["_k_cols_fused", "_k_cols_partial0"])
def test_a_cols_kernel_loads_16_byte_vectors_where_k_is_a_multiple_of_16(kernel, tmp_path):
    loads = _loads(tmp_path, kernel, 16, 2048, 2048, 16)
    assert any(".v4." in f for f in loads), loads
    assert not any(f.endswith((".b16", ".u16")) for f in loads), loads  # no element-wise loads of the tile


@pytest.mark.parametrize(("align", "vectors"), [(8, True), (1, False)])
def test_align_gives_a_cols_kernel_vectors_where_k_is_a_multiple_of_8_only(align, vectors, tmp_path):
    """K = 1000: Triton's own specialization sees no multiple of 16, so without ALIGN (1) every
    element is a 2-byte load; the launcher's ALIGN 8 makes them 16-byte vectors."""
    loads = _loads(tmp_path, "_k_cols_fused", 16, 1000, 1000, align)
    assert any(".v4." in f for f in loads) is vectors, loads
    assert any(f.endswith((".b16", ".u16")) for f in loads) is not vectors, loads


def _aligns(mod, monkeypatch, names=None):
    """The ALIGN of every launch of `mod` from now on (no call replays a recorded one); the
    launched kernels' names into `names` if given."""
    monkeypatch.setattr(mod, "_PLANS", {})
    seen = []
    go = mod._go

    def spy(kernel, grid, args, consts):
        seen.append(consts.get("ALIGN"))
        if names is not None:
            names.append(kernel.fn.__name__)
        return go(kernel, grid, args, consts)

    monkeypatch.setattr(mod, "_go", spy)
    return seen


@pytest.mark.parametrize(("make", "dim", "align"), [
    (lambda: torch.randn(2, 40, 24), 1, 8),  # cols: K 24, strides 960 and 24
    (lambda: torch.randn(2, 40, 20), 1, 4),
    (lambda: torch.randn(2, 40, 21), 1, 1),
    (lambda: torch.randn(2, 40, 48), 1, 16),
    (lambda: torch.randn(2, 40, 48)[:, :, :40], 1, 8),  # K 40 in rows of 48
    (lambda: torch.randn(3, 1000), 1, 8),  # rows: N 1000, stride 1000
    (lambda: torch.randn(3, 1004)[:, :1000], 1, 4),  # N 1000 in rows of 1004
    (lambda: torch.randn(3, 999), 1, 1),
])
def test_align_divides_the_lengths_and_strides_of_the_kernel_it_is_given_to(make, dim, align, monkeypatch):
    mod = importlib.import_module("generated.cuda.mean")
    x = make()
    seen = _aligns(mod, monkeypatch)
    y = mod.mean(x, dim)
    assert seen and set(seen) == {align}
    # The rebinding x // ALIGN * ALIGN leaves every integer as it was: the same bits as with ALIGN 1.
    monkeypatch.setattr(mod, "_align", lambda *values: 1)
    monkeypatch.setattr(mod, "_PLANS", {})  # not the recorded launches of the call above
    seen.clear()
    assert torch.equal(mod.mean(x, dim), y)
    assert seen and set(seen) == {1}


def test_an_align_that_does_not_divide_changes_the_result(monkeypatch):
    """The check above can fail: an ALIGN of 16 at K 20 rebinds K to 16 and the strides to
    multiples of 16, and the kernels read other elements."""
    mod = importlib.import_module("generated.cuda.mean")
    x = torch.randn(2, 40, 20)
    seen = _aligns(mod, monkeypatch)
    y = mod.mean(x, 1)
    monkeypatch.setattr(mod, "_align", lambda *values: 16)
    monkeypatch.setattr(mod, "_PLANS", {})
    assert not torch.equal(mod.mean(x, 1), y)
    assert seen == [4, 16]


def test_align_reaches_mapped_outputs_and_the_row_kernel(monkeypatch):
    """softmax_held (softmax's rows of up to 8192): its outputs are over the reduce axis (their
    strides are hinted too), and its rows are held on chip (the row kernel)."""
    mod = importlib.import_module("generated.cuda.softmax_held")
    for x, dim, align, kernel in ((torch.randn(3, 40, 24), 1, 8, "_k_cols_fused"),
                                  (torch.randn(5, 1000), 1, 8, "_k_rows_row")):
        names = []
        seen = _aligns(mod, monkeypatch, names)
        y = mod.softmax_held(x, dim)
        assert names == [kernel] and seen == [align], (names, seen)
        monkeypatch.setattr(mod, "_align", lambda *values: 1)
        monkeypatch.setattr(mod, "_PLANS", {})
        seen.clear()
        assert torch.equal(mod.softmax_held(x, dim), y)
        assert seen == [1]
        monkeypatch.undo()
