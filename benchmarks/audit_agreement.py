"""How well two audits of the same release agree: |speedup ratio - 1| over the tasks both called ok.

    python benchmarks/audit_agreement.py RUN1/evals.jsonl RUN2/evals.jsonl [--baseline eager] [--top 10]

Reads the full results (`evals.jsonl`, or `evals.partial.jsonl` of an interrupted audit); prints the median and 90th
percentile of |Δ speedup| (the harness's targets: <= 2 % and <= 5 %), overall and per bucket of the reference's time
(< 0.3 ms, 0.3-1 ms, > 1 ms: the first run's eager median), the verdict changes and the largest differences. The
buckets are printed again for two groups: candidates whose own speed can change from one process to the next (a flag
of `SELF_VARIABLE` in either run: CUDA graphs, backend flags they switch on such as cuDNN autotuning, outputs reused
across calls, an extension that failed to build and fell back) and the rest -- what the harness's timing alone gives."""
import argparse, statistics, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # run from a checkout without installing
from cudal1_nb.store import read_evals


def load(path):
    try: return {r['task_id']: r for r in read_evals(path)}
    except ValueError as e: sys.exit(str(e))


SELF_VARIABLE = ('static:cuda_graph', 'static:backend_flags', 'output_reused', 'build_failed')   # and every 'changed:*' flag


def self_variable(flags:str)->bool:
    "Whether a result's flags (space-separated) say the candidate's own speed can vary between processes."
    return any(f in SELF_VARIABLE or f.startswith('changed:') for f in flags.split())


BUCKETS = (('< 0.3 ms', 0.0, 0.3), ('0.3-1 ms', 0.3, 1.0), ('> 1 ms', 1.0, float('inf')))


def rejudge(r):
    "The eager speedup of an ok result by the judge's rule (cudal1_nb.verdict.judge: the paired reference time), from its saved timings."
    t = r['timings']
    ms = lambda k: t[k]['median_ms']
    return ms('eager_paired') / ms('candidate') if ms('candidate') > 0 else None


def ref_ms(r)->float:
    "The reference's time of a result (ms): the eager time its speedup divided."
    t = r.get('timings') or {}
    return (t.get('eager_paired') or t.get('eager') or {}).get('median_ms', float('nan'))


def stats(v:list)->tuple:
    "(median, 90th percentile, max) of sorted values."
    return statistics.median(v), (statistics.quantiles(v, n=10)[-1] if len(v) > 1 else v[0]), v[-1]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('a'); ap.add_argument('b')
    ap.add_argument('--baseline', default='eager'); ap.add_argument('--top', type=int, default=10)
    ap.add_argument('--rejudge', action='store_true', help="eager speedups from the saved timings by the judge's current rule "
                    "(the paired reference time) -- for results judged by an older rule")
    o = ap.parse_args(argv)
    a, b = load(o.a), load(o.b)
    both = sorted(set(a) & set(b))
    flips = [(t, a[t]['verdict'], b[t]['verdict']) for t in both if a[t]['verdict'] != b[t]['verdict']]
    diffs = []
    for t in both:
        x, y = a[t], b[t]
        if not x['verdict'] == y['verdict'] == 'ok': continue
        sx, sy = [rejudge(r) if o.rejudge and o.baseline == 'eager' else (r.get('speedups') or {}).get(o.baseline) for r in (x, y)]
        if sx and sy:
            diffs.append((abs(sy / sx - 1), t, sx, sy, ' '.join(x['flags']), ' '.join(y['flags'])))
    if not diffs: sys.exit("no task is ok in both runs")
    v = sorted(d[0] for d in diffs)
    dev = {r['device'] for r in list(a.values())[:1] + list(b.values())[:1]}
    print(f"{len(both)} tasks in both runs ({', '.join(sorted(dev))}); {len(diffs)} ok in both; baseline {o.baseline}")
    print(f"|Δ speedup|: median {stats(v)[0]:.2%}, 90th percentile {stats(v)[1]:.2%}, max {v[-1]:.2%}")
    print(f"{'bucket':12} {'n':>4} {'median':>8} {'p90':>8} {'max':>8}")
    var = {d[1] for d in diffs if self_variable(d[4]) or self_variable(d[5])}   # tasks flagged so in either run
    groups = (('every task', diffs), ('fixed-speed candidates', [d for d in diffs if d[1] not in var]),
              ('self-variable candidates', [d for d in diffs if d[1] in var]))
    for gname, ds in groups:
        if not ds: continue
        v = sorted(d[0] for d in ds)
        print(f"{gname} (n {len(ds)}): median {stats(v)[0]:.2%}, p90 {stats(v)[1]:.2%}")
        for name, lo, hi in BUCKETS:
            w = sorted(d[0] for d in ds if lo <= ref_ms(a[d[1]]) < hi)
            if w: print(f"  {name:10} {len(w):>4} {stats(w)[0]:>8.2%} {stats(w)[1]:>8.2%} {stats(w)[2]:>8.2%}")
    print(f"verdict changes: {len(flips)}" + ''.join(f"\n  {t}: {x} -> {y}" for t, x, y in flips))
    if o.top > 0: print("largest differences:")
    for d, t, sx, sy, fx, fy in sorted(diffs, reverse=True)[:o.top]:
        print(f"  {t:22s} {sx:7.3f}x {sy:7.3f}x  {d:6.1%}  [{fx}] [{fy}]")


if __name__ == '__main__':
    main()
