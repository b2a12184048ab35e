"""Seeded fuzzer of redgen's front end, verifier, emitter and CLI (issue 13).

    python scripts/fuzz.py --seed 0 --inputs 100000 [--json out.json] [--import-every 1]

Inputs are spec texts (the shipped specs and the test specs, mutated at the character,
token and line level; specs generated from the grammar; hostile shapes: deep nesting,
huge literals, odd line breaks, non-UTF-8 bytes) run through parse -> check -> plan
(both targets) -> prove -> emit, and the emitted module of every spec that proves
compiled and (one per distinct source) imported; then a fixed set of odd files through
the CLI. Each input must end in a proof or a coded RedgenError. The bar:

- traceback: any other exception (counted, with the first few inputs kept);
- hang: an input that takes more than --timeout seconds of CPU (SIGPROF: a loaded machine
  does not make a slow input a hang), or 15 times that in wall time (SIGALRM: a read that
  blocks, as on a FIFO, uses no CPU);
- misplaced caret: a coded error whose line:col is outside its source, or whose
  rendering does not put the caret under that column of the line it shows;
- import failure: an emitted module that does not compile or import.

Exit status 1 when any of them is non-zero. tests/test_fuzz.py runs a bounded slice.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.util
import io
import json
import os
import random
import re
import signal
import stat
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# Sampled kernel runs (--run-every) go through Triton's interpreter, on CPU tensors; it is
# chosen when triton.jit runs, so before any emitted module is imported.
os.environ.setdefault("TRITON_INTERPRET", "1")

from redgen import check, ir, parse  # noqa: E402
from redgen.errors import RedgenError, source_lines  # noqa: E402
from redgen.pipeline import emit_plan, plan_op  # noqa: E402
from redgen.pipeline import prove_plan as prove  # noqa: E402

BREAKS = ["\r", "\x0c", "\x0b", "\x85", "\u2028", "\u2029", "\r\n", "\x1c", "\x1d", "\x1e"]
WORDS = ["op", "in", "out", "param", "acc", "reduce", "tile", "split", "warps", "cores", "layout",
         "innermost", "like", "fixed_size", "fixed_count", "auto", "sum", "max", "min", "argmax", "argmin",
         "exp", "log", "sqrt", "rsqrt", "abs", "cdiv", "f32", "f16", "bf16", "i64", "x", "w", "b", "y", "s",
         "N", "M", "K", "__init__", "for", "class", "_p"]
PUNCT = list("[](),:=|+-*/#.") + ["\n", " ", "\t"]
NUMBERS = ["0", "1", "2", "3", "256", "4096", "1e-5", "1e999", "1e308", ".5", "9" * 40, "1" + "0" * 19,
           "4611686018427387904", "4611686018427387905", "0.0", "1e-400"]


class Hang(BaseException):  # noqa: N818 - not an Exception: `except Exception` must not swallow it
    """An input ran past --timeout."""


def _alarm(signum, frame):
    raise Hang


def corpus() -> list[str]:
    files = sorted((ROOT / "specs").glob("*.red")) + sorted((ROOT / "tests" / "specs").rglob("*.red"))
    return [f.read_text() for f in files]


# --- inputs ------------------------------------------------------------------------------
def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(12)
        i = rng.randrange(len(text) + 1)
        j = min(len(text), i + rng.randint(1, 12))
        if kind == 0:
            text = text[:i] + text[j:]
        elif kind == 1:
            text = text[:i] + rng.choice(PUNCT) + text[i:]
        elif kind == 2:
            text = text[:i] + rng.choice(WORDS) + text[i:]
        elif kind == 3:
            text = text[:i] + rng.choice(NUMBERS) + text[j:]
        elif kind == 4:
            text = text[:i] + rng.choice(BREAKS) + text[i:]
        elif kind == 5:
            lines = text.split("\n")
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        elif kind == 6:
            lines = text.split("\n")
            k = rng.randrange(len(lines))
            lines.insert(rng.randrange(len(lines) + 1), lines[k])
            text = "\n".join(lines)
        elif kind == 7:  # deep nesting around a name
            at = text.find("(x", i)
            depth = rng.choice([5, 50, 99, 100, 101, 150, 400, 2000])
            wrap = rng.choice([("-", ""), ("abs(", ")"), ("(", ")"), ("exp(", ")"), ("x + ", ""), ("1 * ", "")])
            if at >= 0:
                text = text[: at + 1] + wrap[0] * depth + "x" + wrap[1] * depth + text[at + 2 :]
        elif kind == 8:
            text = text[:i] + chr(rng.choice([0, 7, 27, 0xA0, 0x200B, 0xFEFF, 0x1F600, rng.randrange(0x20, 0x3000)])) \
                + text[i:]
        elif kind == 9:  # a long flat chain
            at = text.find("= ", i)
            if at >= 0:
                text = text[: at + 2] + " + ".join(["x"] * rng.choice([10, 200, 3000])) + text[at + 2 :]
        elif kind == 10:  # one number of the spec replaced by an odd one
            spans = [m.span() for m in re.finditer(r"\d+(\.\d*)?([eE][-+]?\d+)?", text)]
            if spans:
                a, b = rng.choice(spans)
                text = text[:a] + rng.choice(NUMBERS) + text[b:]
        else:
            text = text.replace("\n", rng.choice(BREAKS))
    return text


def expr(rng: random.Random, names: list[str], depth: int) -> str:
    if depth <= 0 or rng.random() < 0.3:
        return rng.choice(names + ["1", "2.5", "0.5"])
    k = rng.randrange(6)
    if k == 0:
        return f"-{expr(rng, names, depth - 1)}"
    if k == 1:
        return f"{rng.choice(['exp', 'log', 'sqrt', 'rsqrt', 'abs'])}({expr(rng, names, depth - 1)})"
    if k == 2:
        return f"{rng.choice(['max', 'min'])}({expr(rng, names, depth - 1)}, {expr(rng, names, depth - 1)})"
    return f"({expr(rng, names, depth - 1)} {rng.choice('+-*/')} {expr(rng, names, depth - 1)})"


def generate(rng: random.Random) -> str:
    """A spec from the grammar, well formed most of the time: proofs and emits get exercised."""
    after = rng.random() < 0.5
    axes = "M, N, K" if after else "M, N"
    outs = "M, K" if after else "M"
    lines = [f"op g{rng.randrange(1000)}", f"in x[{axes}] : f32 | f16 | bf16"]
    names = ["x"]
    if rng.random() < 0.3:
        lines.append("in w[N] : f32 | f16 | bf16")
        names.append("w")
    if rng.random() < 0.4:
        lines.append(f"param eps = {rng.choice(['1e-5', '1e-6', '0.5', '1e30 * 1e30', '1 / 0', '2'])}")
        names.append("eps")
    lines += [f"out y[{outs}] : like x", "acc f32"]
    comb = rng.choice(["sum", "max", "min", "sum", "argmax"])
    lines.append(f"reduce N: s = {comb}({expr(rng, names, rng.randint(0, 4))})")
    if comb == "argmax":
        lines[lines.index(f"out y[{outs}] : like x")] = f"out y[{outs}] : i64"
        lines.append("y = s")
    else:
        lines.append(f"y = {expr(rng, ['s', 'N'] + [n for n in names if n == 'eps'], rng.randint(0, 3))}")
    if rng.random() < 0.6:
        lines.append(f"tile N = {rng.choice([1, 2, 64, 128, 256, 512, 1024, 3, 4096, 1 << 20])}")
    if rng.random() < 0.6:
        kind = rng.choice(["fixed_size", "fixed_count"])
        val = rng.choice(["4096", "1024", "0", "N / 0", "cdiv(N, 0)", "M", "cores", "N / M", "cdiv(N, 4)",
                          "cores / M", "4611686018427387904", "max(N, 1)", "N - N", "cdiv(4096, M - M)",
                          "N / (M - M)", "4096 / (K - 1)", "cdiv(N, cores - cores)", "min(M, 0) + 1"])
        lines.append(f"split N {kind} {val}")
    if rng.random() < 0.5:
        lines.append(f"warps {rng.choice([1, 2, 4, 8, 16, 32, 3, 64])}")
    if rng.random() < 0.5:
        lines.append(f"cores {rng.choice(['40', 'auto', '1', '48', '100000'])}")
    rng.shuffle(lines[2:]) if rng.random() < 0.05 else None
    return "\n".join(lines) + rng.choice(["\n", "", "\r\n", "\n\n# end\n"])


def chain(rng: random.Random) -> str:
    """Locals each reading the one before (data or constant), up to past the limit."""
    n = rng.choice([3, 50, 99, 100, 101, 400])
    first = rng.choice(["s", "N", "2.5", "eps"])
    body = [f"a0 = {first}"] + [f"a{i} = {rng.choice(['-', 'abs(', 'a0 + '])}a{i - 1}"
                                 + (")" if False else "") for i in range(1, n)]
    body = [b + ")" * b.count("(") for b in body]
    return "\n".join(["op c", "in x[M, N] : f32", "param eps = 1e-6", "out y[M] : like x",
                      "reduce N: s = sum(x)", *body, f"y = s * a{n - 1}"]) + "\n"


def one_input(rng: random.Random, base: list[str]) -> str | bytes:
    r = rng.random()
    if r < 0.01:
        return chain(rng)
    if r < 0.55:
        return mutate(rng.choice(base), rng)
    if r < 0.93:
        return generate(rng)
    if r < 0.97:
        return mutate(generate(rng), rng)
    # raw bytes: UTF-8 of a spec with invalid bytes spliced in
    data = bytearray(rng.choice(base).encode())
    for _ in range(rng.randint(1, 3)):
        data.insert(rng.randrange(len(data) + 1), rng.choice([0x80, 0xFF, 0xC3, 0xE2, 0xED, 0xF8]))
    return bytes(data)


# --- checks ------------------------------------------------------------------------------
def caret_ok(e: RedgenError) -> bool:
    """The error's position lies in its source, and the rendering shows that line with the
    caret under that column."""
    if not (e.loc and e.source):
        return True
    lines = source_lines(e.source)
    if not 1 <= e.loc.line <= max(1, len(lines)):
        return False
    if not lines:
        return e.loc.col == 1
    line = lines[e.loc.line - 1]
    if not 1 <= e.loc.col <= len(line) + 1:
        return False
    rendered = e.render().split("\n")
    if len(rendered) != 3:
        return False
    gutter = f"{e.loc.line:5d} | "
    shown, caret = rendered[1], rendered[2]
    if not shown.startswith(gutter) or not caret.endswith("^"):
        return False
    # the caret sits under the shown form of character col (or one past the end)
    from redgen.errors import _shown

    width = sum(1 if c == "\t" else len(_shown(c)) for c in line[: e.loc.col - 1])
    return len(caret) - 1 == len(gutter) + width


class Fuzz:
    def __init__(self, timeout: float, import_every: int, run_every: int = 0):
        self.run_every = run_every
        self.stats: Counter = Counter()
        self.failures: list[dict] = []
        self.timeout = timeout
        self.import_every = import_every
        self.imported: set[str] = set()
        self.tmp = Path(tempfile.mkdtemp(prefix="redgen_fuzz_"))

    def fail(self, kind: str, data, detail: str) -> None:
        self.stats[kind] += 1
        if self.stats[kind] == 1:  # the first of each kind, at once (a long run is watched)
            print(f"--- first {kind}\n{data!r}\n{detail[-2000:]}", file=sys.stderr, flush=True)
        if len(self.failures) < 50:
            shown = data if isinstance(data, str) else repr(data)
            self.failures.append({"kind": kind, "input": shown[:3000], "detail": detail[-3000:]})

    def run(self, data: str | bytes) -> None:
        self.stats["inputs"] += 1
        self._arm(self.timeout)
        try:
            self._run(data)
        except Hang:
            self.fail("hang", data, f"more than {self.timeout} s of CPU or {15 * self.timeout} s of wall time")
        except RecursionError:
            self.fail("traceback", data, traceback.format_exc())
        finally:
            self._arm(0)

    @staticmethod
    def _arm(seconds: float) -> None:
        signal.setitimer(signal.ITIMER_PROF, seconds)
        signal.setitimer(signal.ITIMER_REAL, 15 * seconds)

    def _run(self, data: str | bytes) -> None:
        try:
            if isinstance(data, bytes):
                path = self.tmp / "input.red"
                path.write_bytes(data)
                spec = parse.parse_file(path)
            else:
                spec = parse.parse(data, "fuzz.red")
            op = check.check(spec)
            sources = []
            for target in ("cuda", "ascend"):
                try:
                    plan = plan_op(op, target)  # every kernel family: reductions, contractions, attention
                    cert = prove(plan)
                except RedgenError as e:
                    self._coded(e, data, f"plan/prove {target}")
                    continue
                sources.append((target, emit_plan(plan, cert)))
                self.stats[f"proved {target}"] += 1
            for target, src in sources:
                # (the sampled kernel runs know the reductions' launchers only)
                self._emitted(src, data, op if target == "cuda" and isinstance(op, ir.Op) else None)
        except RedgenError as e:
            self._coded(e, data, "front end")
        except Hang:
            raise
        except Exception:  # noqa: BLE001 - exactly what the fuzzer hunts
            self.fail("traceback", data, traceback.format_exc())

    def _coded(self, e: RedgenError, data, where: str) -> None:
        self.stats[f"error {e.code}"] += 1
        try:
            ok = caret_ok(e)
        except Exception:  # noqa: BLE001
            self.fail("traceback", data, traceback.format_exc())
            return
        if not ok:
            self.fail("misplaced caret", data, f"{where}: {e.render()!r}")

    def _emitted(self, src: str, data, op=None) -> None:
        try:
            code = compile(src, "<emitted>", "exec")
        except SyntaxError:
            self.fail("import failure", data, traceback.format_exc())
            return
        del code
        digest = hashlib.sha256(src.encode()).hexdigest()
        if digest in self.imported or len(self.imported) % self.import_every and self.import_every > 1:
            self.imported.add(digest)
            return
        self.imported.add(digest)
        path = self.tmp / f"_fuzz_{digest[:16]}.py"
        path.write_text(src)
        name = f"_redgen_fuzz_{digest[:16]}"
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        try:
            spec.loader.exec_module(mod)
            self.stats["imported"] += 1
        except Exception:  # noqa: BLE001
            self.fail("import failure", data, traceback.format_exc())
            sys.modules.pop(name, None)
            path.unlink(missing_ok=True)
            return
        try:
            if op is not None and self.run_every and self.stats["imported"] % self.run_every == 0:
                self._run_kernel(mod, op, data)
        finally:
            sys.modules.pop(name, None)
            path.unlink(missing_ok=True)

    def _run_kernel(self, mod, op, data) -> None:
        """Run the emitted cuda launcher under the interpreter on a small batch: it must not
        raise, and row 0 alone must give the bits it gets in the batch (bitwise)."""
        import torch

        size = {op.reduce_axis: 37, op.before: 3, op.after: 2}
        gen = torch.Generator().manual_seed(0)
        dt = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}

        def make(i):
            shape = [size[a] for a in i.axes]
            if i.integer:  # class indices (nll_loss's targets): in range, one element gathered a row
                return torch.randint(0, size[op.reduce_axis], shape, generator=gen)
            return torch.randn(shape, generator=gen).to(dt[i.dtypes[0]])

        xs = [make(i) for i in op.inputs]
        dim = op.inputs[0].axes.index(op.reduce_axis)
        fn = getattr(mod, op.name)
        if hasattr(mod, "SHORT_MAX"):
            # One module is built here, not the op its `short` statement names: this op's own order at
            # every length, as the build's interpreter check runs it (a missing module is test_short's).
            mod.SHORT_MAX = 0
        self.stats["kernel runs"] += 1
        try:
            full = fn(*xs, dim=dim)
            if op.before and op.inputs[0].axes[0] == op.before:
                # row 0 of every input that has the batch axis first (add_rms_norm's residual too)
                one = fn(*[x[:1] if i.axes[:1] == (op.before,) else x for x, i in zip(xs, op.inputs, strict=True)],
                         dim=dim)
                full, one = (full, one) if isinstance(full, tuple) else ((full,), (one,))
                for f, o in zip(full, one, strict=True):
                    # bitwise, NaN included (torch.equal says nan != nan)
                    if not torch.equal(f[:1].contiguous().view(torch.uint8), o.contiguous().view(torch.uint8)):
                        self.fail("not batch invariant", data, "row 0 alone differs from row 0 in a batch of 3")
        except Exception:  # noqa: BLE001
            self.fail("kernel failure", data, traceback.format_exc())

    # --- odd files through the CLI --------------------------------------------------------
    def cli_cases(self) -> None:
        from redgen.cli import main

        good = (ROOT / "specs" / "sum.red").read_text()
        d = self.tmp / "cli"
        d.mkdir()
        (d / "dir.red").mkdir()
        (d / "latin1.red").write_bytes(good.replace("sum", "s\xe9m", 1).encode("latin-1"))
        (d / "unreadable.red").write_text(good)
        os.chmod(d / "unreadable.red", 0)
        fifo = d / "fifo.red"
        if hasattr(os, "mkfifo"):
            os.mkfifo(fifo)
        (d / "outfile").write_text("a file, not a directory")
        (d / "dunder.red").write_text(good.replace("op sum", "op __init__"))
        (d / "kw.red").write_text(good.replace("op sum", "op class"))
        (d / "long.red").write_text(good.replace("op sum", "op " + "a" * 300))
        (d / "dup1.red").write_text(good)
        (d / "dup2.red").write_text(good)
        (d / "nl\nname.red").write_text(good.replace("op sum", "op nlname"))
        cases = [
            (["check", str(d / "dir.red")], 1),
            (["check", str(d / "latin1.red")], 1),
            (["check", str(fifo)], 1),
            (["build", str(d / "dunder.red"), "--target", "cuda", "--no-empirical", "--out", str(d / "o1")], 1),
            (["build", str(d / "kw.red"), "--target", "cuda", "--no-empirical", "--out", str(d / "o2")], 1),
            (["build", str(d / "long.red"), "--target", "cuda", "--no-empirical", "--out", str(d / "o3")], 1),
            (["build", str(d / "dup1.red"), "--target", "cuda", "--no-empirical", "--out", str(d / "outfile")], 1),
            (["build", str(d), "--target", "cuda", "--no-empirical", "--out", str(d / "o4")], 1),
            (["build", str(d / "dup1.red"), "--target", "nope", "--no-empirical", "--out", str(d / "o5")], 2),
            (["check"], 2),
        ]
        if os.geteuid() != 0:  # root reads anything
            cases.append((["check", str(d / "unreadable.red")], 1))
        for argv, want in cases:
            self.stats["cli cases"] += 1
            out, err = io.StringIO(), io.StringIO()
            self._arm(max(self.timeout, 30))
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    try:
                        rc = main(argv)
                    except SystemExit as e:
                        rc = e.code
            except Hang:
                self.fail("hang", " ".join(argv), "cli case")
                continue
            except Exception:  # noqa: BLE001
                self.fail("traceback", " ".join(argv), traceback.format_exc())
                continue
            finally:
                self._arm(0)
            text = out.getvalue() + err.getvalue()
            if rc != want or "Traceback" in text or "error[" not in text:
                self.fail("cli", " ".join(argv), f"rc {rc} (want {want}): {text[-800:]}")
            written = [p for p in d.rglob("*.py")]
            if written:
                self.fail("cli partial write", " ".join(argv), ", ".join(map(str, written)))
        os.chmod(d / "unreadable.red", stat.S_IRUSR | stat.S_IWUSR)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--inputs", type=int, default=2000)
    ap.add_argument("--timeout", type=float, default=20.0,
                    help="CPU seconds per input before it counts as a hang (wall: 15 times that)")
    ap.add_argument("--import-every", type=int, default=1,
                    help="import one emitted module in this many distinct ones (1: all)")
    ap.add_argument("--run-every", type=int, default=0,
                    help="run one in this many imported cuda modules under the interpreter (0: none)")
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--progress", type=int, default=0, help="print figures every this many inputs")
    args = ap.parse_args(argv)
    signal.signal(signal.SIGALRM, _alarm)
    signal.signal(signal.SIGPROF, _alarm)
    # torch and triton imported before any timed input: their first import (seconds on a
    # loaded machine) would otherwise count against the first emitted module's import.
    import torch  # noqa: F401
    import triton  # noqa: F401
    sys.setrecursionlimit(1000)  # the interpreter default: what a user's `redgen` gets
    rng = random.Random(args.seed)
    base = corpus()
    fz = Fuzz(args.timeout, args.import_every, args.run_every)
    t0 = time.monotonic()
    fz.cli_cases()
    for n in range(args.inputs):
        fz.run(one_input(rng, base))
        if args.progress and (n + 1) % args.progress == 0:
            print(f"{n + 1} inputs, {time.monotonic() - t0:.0f} s: {dict(fz.stats)}", file=sys.stderr, flush=True)
            if args.json:
                Path(args.json).write_text(json.dumps({"partial": n + 1, "stats": dict(fz.stats),
                                                       "failures": fz.failures}, indent=1) + "\n")
    seconds = time.monotonic() - t0
    bad = {k: fz.stats[k] for k in ("traceback", "hang", "misplaced caret", "import failure", "cli",
                                      "cli partial write", "kernel failure", "not batch invariant")}
    report = {"seed": args.seed, "inputs": args.inputs, "seconds": round(seconds, 1), "bad": bad,
              "stats": dict(sorted(fz.stats.items())), "failures": fz.failures}
    text = json.dumps(report, indent=1)
    if args.json:
        Path(args.json).write_text(text + "\n")
    print(json.dumps({k: v for k, v in report.items() if k != "failures"}, indent=1))
    for f in fz.failures[:5]:
        print(f"--- {f['kind']}\n{f['input']!r}\n{f['detail']}", file=sys.stderr)
    return 1 if any(bad.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
