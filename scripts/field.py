#!/usr/bin/env python3
"""The round robin of docs/FIELD.md: every pair of programs in a folder (default programs/),
both colour assignments, seeds 1-20, scenario 1, classic board, 3 robots a side, 200 rounds.
Prints each program's score (3 a win, 1 a draw), W/D/L and draw rate, the overall draw rate,
the pairs that draw most and the draws by reason. Until `robots tournament` exists."""
import shutil, tempfile, itertools, json, os, subprocess, sys, concurrent.futures as cf, collections
BIN = os.environ.get("ROBOTS_BIN", os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release", "robots"))
PROG = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "programs")
LIMIT = 200
SEEDS = range(1, 21)
OUT = tempfile.mkdtemp(prefix="field-")
names = sorted(f[:-6] for f in os.listdir(PROG) if f.endswith(".robot"))
def yaml(g, v):
    t = lambda c, n: f"  - colour: {c}\n    robots:\n" + "".join(f"      - {{program: {PROG}/{n}.robot}}\n" for _ in range(3))
    return f"name: {g}-{v}\nboard: classic\nscenario: 1\nrules: {{rounds: {LIMIT}}}\nteams:\n" + t("green", g) + t("violet", v)
jobs = []
for a, b in itertools.combinations(names, 2):
    for g, v in ((a, b), (b, a)):
        p = f"{OUT}/{g}__{v}.yaml"; open(p, "w").write(yaml(g, v))
        for s in SEEDS: jobs.append((g, v, p, s))
def run(j):
    g, v, p, s = j
    r = subprocess.run([BIN, "run", p, "--seed", str(s), "--json", "--allow-outside"], capture_output=True, text=True)
    return j, json.loads(r.stdout)
with cf.ThreadPoolExecutor(3) as ex: res = list(ex.map(run, jobs))
st = {n: [0, 0, 0] for n in names}; draws = 0; pd = collections.Counter(); rc = collections.Counter()
for (g, v, p, s), d in res:
    w = d.get("winner")
    if w in (None, "draw"):
        draws += 1; rc[d.get("reason")] += 1; st[g][1] += 1; st[v][1] += 1; pd[tuple(sorted((g, v)))] += 1
    else:
        win, lose = (g, v) if w == "green" else (v, g); st[win][0] += 1; st[lose][2] += 1
print(f"draw rate {draws/len(res):.1%} ({draws}/{len(res)})")
for n in sorted(names, key=lambda n: -(3*st[n][0]+st[n][1])):
    W, D, L = st[n]; print(f"  {n:14s} score {3*W+D:4d}  W{W:4d} D{D:4d} L{L:4d}  draws {D/(W+D+L):.0%}")
print("worst pairs:", ", ".join(f"{a}-{b}:{c}" for (a, b), c in pd.most_common(25)))

print("draws by reason:", ", ".join(f"{r} {n}" for r, n in rc.most_common()))
shutil.rmtree(OUT)
