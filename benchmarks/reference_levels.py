"""The reference's own time in each phase of a candidate job -- alone before the candidate's import (clean), in the
paired rounds, alone after (post) -- and the speedup, for the same programs evaluated several times, with one job at a
time or several. Where the reference's time moves between phases and runs while the paired speedup holds, the host
moves, not the harness's pairing (`benchmarks/host_speed.py` says whether the host's CPU does).

    python benchmarks/reference_levels.py RELEASE.jsonl --ids kernelbench/L1/26,kernelbench/L2/94 --plan 1 8 1 8 [--json OUT.jsonl]
    python benchmarks/reference_levels.py tests/fixtures/release_small.jsonl --ids kernelbench/L1/1 --plan 1 --budget 0.05 --device cpu

`--plan` lists the `workers` of each run, in order; every run measures every program once (cold builds only the first time).
"""
import argparse, json, math, statistics, sys, time
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from cudal1_nb.audit import release_items
from cudal1_nb.eval import EvalConfig, evaluate_many

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('release'); ap.add_argument('--ids', required=True)
    ap.add_argument('--plan', type=int, nargs='+', default=[1, 8, 1, 8])
    ap.add_argument('--budget', type=float, default=0.5); ap.add_argument('--device', default='cuda')
    ap.add_argument('--json', default=None)
    a = ap.parse_args(argv)
    if a.device == 'cuda':
        import torch
        if not torch.cuda.is_available(): sys.exit("reference_levels: --device cuda needs a CUDA GPU (torch sees none); give --device cpu")
    rows, _ = release_items(a.release, ids=a.ids.split(','))
    items = [(t, [c]) for t, c, _ in rows if c is not None]
    if not items: sys.exit(f"none of {a.ids} has code in {a.release}")
    out, runs = open(a.json, 'w') if a.json else None, []
    for k, w in enumerate(a.plan):
        t0 = time.time()
        res = evaluate_many(items, device=a.device, cfg=EvalConfig(budget_s=a.budget, workers=w))
        print(f"run {k}: workers {w}, {time.time() - t0:.0f} s", flush=True)
        for (t, _), (r,) in zip(items, res):
            ms = {p: r.timings[p].median_ms * 1e3 for p in ('eager_clean', 'eager_paired', 'eager_post') if p in r.timings}
            row = dict(run=k, workers=w, task=t.id, verdict=r.verdict, speedup=r.speedups.get('eager'), us=ms, flags=r.flags)
            runs.append(row)
            if out: out.write(json.dumps(row) + '\n')
    print(f"\n{'task':22s} {'run':>3s} {'w':>2s} {'clean us':>9s} {'paired us':>9s} {'post us':>9s} {'speedup':>8s}")
    for t, _ in items:
        rs = [r for r in runs if r['task'] == t.id]
        for r in rs:
            u = r['us']
            print(f"{t.id:22s} {r['run']:3d} {r['workers']:2d} {u.get('eager_clean', float('nan')):9.1f} {u.get('eager_paired', float('nan')):9.1f} "
                  f"{u.get('eager_post', float('nan')):9.1f} {r['speedup'] or float('nan'):8.3f}")
    # per task: how far the reference's paired time and the speedup move across runs (max/min - 1)
    spread = lambda xs: max(xs) / min(xs) - 1 if xs and min(xs) > 0 else float('nan')
    sp = {t.id: (spread([r['us']['eager_paired'] for r in runs if r['task'] == t.id and 'eager_paired' in r['us']]),
                 spread([r['speedup'] for r in runs if r['task'] == t.id and r['speedup']])) for t, _ in items}
    ok = [v for v in sp.values() if not (math.isnan(v[0]) or math.isnan(v[1]))]
    if ok:
        print(f"\nacross runs, per task (max/min - 1), median over {len(ok)} tasks: reference paired time "
              f"{100 * statistics.median(v[0] for v in ok):.1f} %, speedup {100 * statistics.median(v[1] for v in ok):.1f} %")

if __name__ == '__main__': main()
