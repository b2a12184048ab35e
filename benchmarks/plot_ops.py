"""A plot of an ops_bench run: GPU time of each peer relative to torch eager, per point.

    python benchmarks/plot_ops.py results.json docs/ops_bench.png     # needs matplotlib

One bar group per point (op, dtype, rows x hidden): torch / peer on GPU time (CUDA graphs),
so > 1 is faster than torch; the dashed line is torch itself.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(src: str, dst: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = json.loads(Path(src).read_text())
    rows = [r for r in data["rows"] if "graph_redgen_ms" in r]
    peers = ["redgen"] + sorted({k[6:-3] for r in rows for k in r if k.startswith("graph_") and k.endswith("_ms")}
                                - {"redgen", "torch"})
    labels = [f"{r['op']} {r['dtype']}\n{r['rows']}x{r['hidden']}" for r in rows]
    fig, ax = plt.subplots(figsize=(max(8, len(rows) * 0.45), 5))
    width = 0.8 / len(peers)
    for i, p in enumerate(peers):
        xs = [j + i * width for j in range(len(rows))]
        ys = [r["graph_torch_ms"] / r[f"graph_{p}_ms"] if f"graph_{p}_ms" in r else 0 for r in rows]
        ax.bar(xs, ys, width, label=p)
    ax.axhline(1.0, color="black", linestyle="--", linewidth=1)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(rows))], labels, rotation=90, fontsize=6)
    ax.set_ylabel("speed vs torch eager (GPU time, higher is faster)")
    ax.set_title(f"ops_bench on {data['head']['device']}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(dst, dpi=120)
    print(f"wrote {dst}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
