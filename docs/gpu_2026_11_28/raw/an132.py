import json, math
rows = json.load(open("/work/.device/1/run132.json"))
pts = []
for layout, K, N, M, tt, res, ek, tnp in rows:
    res = {tuple(map(int, c.strip("()").split(","))): v[0] for c, v in res.items()}
    pts.append((layout, K, N, M, tt, res))
SMS = 132
C = [(16,32,1,4,5),(16,64,1,4,5),(16,128,1,4,4),(32,32,1,4,5),(32,64,1,4,5),(32,128,1,4,4),(64,32,1,4,4),(64,64,8,4,4),(64,128,8,4,4),(64,256,8,8,3),(128,64,8,4,4),(128,128,8,4,4),(128,128,8,8,3),(128,256,8,8,3),(256,128,8,8,3)]
def cd(a,b): return -(-a//b)
def rule(M, N, cands, frac):
    # the biggest useful tile whose tile count reaches frac * SMs; else the one with the most tiles
    ok = [c for c in cands if cd(M,c[0])*cd(N,c[1]) >= frac*SMS]
    if ok:
        return max(ok, key=lambda c: (min(c[0], M)*c[1], -c[0]))  # useful area; then smaller BM
    return max(cands, key=lambda c: (cd(M,c[0])*cd(N,c[1]), -c[0]))
def evaluate(name, pick):
    lg = []; worst = []
    for layout, K, N, M, tt, res in pts:
        c = pick(M, N)
        if c not in res: print("missing", c, M, N); continue
        best = min(res.values())
        lg.append(math.log(best / res[c])); worst.append((best/res[c], layout, K, N, M, c, tt/res[c]))
    worst.sort()
    print(f"{name}: geomean best/rule {math.exp(sum(lg)/len(lg)):.3f}; worst", [f"{w[0]:.2f} {w[1]} {w[2]}x{w[3]} M={w[4]} {w[5][:2]}" for w in worst[:6]])
    return worst
def shipped(M, N):
    for mx, *c in [(16,16,64,1,4,5),(32,32,32,1,4,5),(64,64,32,1,4,4),(256,64,64,8,4,4),(1024,128,128,8,8,3),(None,128,256,8,8,3)]:
        if mx is None or M <= mx: return tuple(c)
evaluate("shipped", shipped)
def mk(cands_by_m, frac):
    def pick(M, N):
        for mx, cands in cands_by_m:
            if mx is None or M <= mx:
                return rule(M, N, cands, frac)
    return pick
A = [(16, [(16,32,1,4,5),(16,64,1,4,5),(16,128,1,4,4)]),
     (None, [(64,32,1,4,4),(64,64,8,4,4),(64,128,8,4,4),(64,256,8,8,3),(128,128,8,4,4),(128,256,8,8,3)])]
for f in (0.5, 0.75, 0.8, 0.9, 1.0):
    evaluate(f"A frac {f}", mk(A, f))
B = [(16, [(16,32,1,4,5),(16,64,1,4,5),(16,128,1,4,4),(64,256,8,8,3)]),
     (None, [(64,32,1,4,4),(64,64,8,4,4),(64,128,8,4,4),(64,256,8,8,3),(128,128,8,4,4),(128,256,8,8,3)])]
for f in (0.75, 0.9, 1.0):
    w = evaluate(f"B frac {f}", mk(B, f))
print()
for layout, K, N, M, tt, res in pts:
    if layout == "nk":
        b = min(res.values())
        print(f"{K:5d}x{N:6d} M={M:4d} t{tt*1e3:7.1f} " + " ".join(f"{c[0]}x{c[1]}{'' if c[3]==4 else 'w8'}:{res[c]/b:.2f}" for c in sorted(res)))
print()
T = [(1, [(16,128,1,4,4),(16,64,1,4,5)]),
     (16, [(16,128,1,4,4),(16,64,1,4,5),(16,32,1,4,5)]),
     (64, [(64,256,8,8,3),(64,128,8,4,4),(64,64,8,4,4),(64,32,1,4,4)]),
     (None, [(128,256,8,8,3),(128,128,8,4,4),(64,256,8,8,3),(64,128,8,4,4),(64,64,8,4,4),(64,32,1,4,4)])]
def mkT(num, den):
    def pick(M, N):
        for mx, cands in T:
            if mx is None or M <= mx:
                for c in cands:
                    if cd(M,c[0])*cd(N,c[1])*den >= SMS*num: return c
                return cands[-1]
    return pick
for num, den in ((1,2),(3,4),(5,6)):
    w = evaluate(f"T {num}/{den}", mkT(num, den))
import statistics
w = evaluate("T 3/4", mkT(3,4))
print("vs torch: geomean", math.exp(statistics.mean(math.log(x[6]) for x in w)), "min", min(x[6] for x in w))
for x in sorted(w, key=lambda x: x[6])[:20]: print(f"{x[6]:.2f} {x[1]} {x[2]}x{x[3]} M={x[4]} {x[5]} (best/rule {x[0]:.2f})")
print()
T = [(1, [(16,128,1,4,4),(16,64,1,4,5)]),
     (16, [(16,128,1,4,4),(16,64,1,4,5),(16,32,1,4,5)]),
     (32, [(64,256,8,8,3),(64,128,8,4,4),(32,32,1,4,5)]),
     (64, [(64,256,8,8,3),(64,128,8,4,4),(64,64,8,4,4),(64,32,1,4,4)]),
     (None, [(128,256,8,8,3),(128,128,8,4,4),(64,256,8,8,3),(64,128,8,4,4),(64,64,8,4,4),(64,32,1,4,4)])]
w = evaluate("T2 3/4", mkT(3,4))
