"""How well two audits of the same release agree: |speedup ratio - 1| over the tasks both called ok, and how often each
audit's speedup lies inside the other's 95 % interval.

    python benchmarks/audit_agreement.py RUN1/evals.jsonl RUN2/evals.jsonl [--baseline eager] [--top 10]
    python benchmarks/audit_agreement.py A.jsonl[+A2.jsonl+A3.jsonl] B.jsonl[+B2.jsonl] --rescore [--floors F1,F2,F3]

Reads the full results (`evals.jsonl[.gz]`, or `evals.partial.jsonl` of an interrupted audit); prints the median and
90th percentile of |Δ speedup| (the harness's targets: <= 2 % and <= 5 %), overall and per bucket of the reference's
time (`cudal1_nb.evalstats.REF_BUCKETS`: the first run's eager median), for every task and per speed class; then the
*coverage*: the share of tasks whose speedup in one audit lies inside the other audit's interval, each direction, per
bucket and per class, with the median half-width of the intervals (the harness's targets: >= 90 % each way, a median
half-width <= 5 %); the two hosts' relative speed (the median ratio of their reference and candidate times per bucket);
the hosts' calibrations (a kernel launch's and a tiny model's time, recorded with every result: `meta['host']`); the
verdict changes and the largest differences.

Speed classes: `process-variable` (a result timed in several processes that disagreed: flag `process_variable`, in
either audit), `may vary` (its flags say its speed may change between processes, `cudal1_nb.verdict.may_vary`: CUDA
graphs, backend flags, cached pointers, reused outputs, a failed build's fallback, a global switch; timed alike in
every process it had) and `fixed-speed` (neither).

`--rescore` builds every interval again with the harness's current rule (`cudal1_nb.verdict.needs_process`,
`cudal1_nb.evalstats.process_interval`) from what the files hold -- a calibration of that rule on older results, not a
validation of it: a result's own within-process interval (`meta['within_ci']`, else `meta['speedup_ci']`), widened by
the floor; with `A.jsonl+A2.jsonl+...` the later files stand in for the extra processes the harness would have timed
(each task takes from them the processes the rule asks for). `--floors` rescores with other floors than the harness's
(`cudal1_nb.evalstats.PROCESS_FLOOR`, one per reference-time bucket, log half-widths): how wide the intervals would have
to be for a coverage."""
import argparse, math, statistics, sys
from pathlib import Path
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser
from cudal1_nb.store import read_evals
from cudal1_nb import evalstats
from cudal1_nb.evalstats import REF_BUCKETS, ref_bucket, process_interval
from cudal1_nb.verdict import may_vary, needs_process


def load(spec:str)->list:
    "Per file of `spec` ('A.jsonl' or 'A.jsonl+B.jsonl+...'), {task id: result dict}."
    try: return [{r['task_id']: r for r in read_evals(p)} for p in spec.split('+')]
    except ValueError as e: sys.exit(str(e))


def ref_ms(r)->float:
    "The reference's time of a result (ms): the eager time its speedup divided."
    t = r.get('timings') or {}
    return (t.get('eager_paired') or t.get('eager') or {}).get('median_ms', float('nan'))


def rejudge(r):
    "The eager speedup of an ok result by the judge's rule (cudal1_nb.verdict.judge: the paired reference time), from its saved timings."
    t = r['timings']
    ms = lambda k: t[k]['median_ms']
    return ms('eager_paired') / ms('candidate') if ms('candidate') > 0 else None


def _ci(r, b:str, within:bool=False):
    "(speedup, lo, hi) of baseline `b` in result `r`: its recorded interval (`within`: the within-process one), or None."
    s = (r.get('speedups') or {}).get(b)
    m = r.get('meta') or {}
    ci = ((m.get('within_ci') if within else None) or m.get('speedup_ci') or {}).get(b)
    return (s, *ci) if s and ci and 0 < ci[0] <= s <= ci[1] else None


def speed_class(variable:bool, flags)->str:
    "A result's class in `CLASSES`: its processes disagreed (`variable`), its flags say its speed may vary, or neither."
    return 'process-variable' if variable else 'may vary' if may_vary(flags) else 'fixed-speed'


def measured(rs:list, t:str, b:str, o)->dict|None:
    "One audit's view of task `t`: speedup, lo, hi, class -- as recorded, or (`o.rescore`) by the current rule from its processes' files."
    r = rs[0].get(t)
    if r is None or r['verdict'] != 'ok': return None
    s = rejudge(r) if o.rejudge and b == 'eager' else (r.get('speedups') or {}).get(b)
    if not s: return None
    cls = speed_class('process_variable' in r['flags'], r['flags'])
    if not o.rescore:
        iv = _ci(r, b)
        return dict(s=s, lo=iv[1] if iv else s, hi=iv[2] if iv else s, cls=cls, k=len((r.get('meta') or {}).get('processes') or [1]))
    ps, ms = [], ref_ms(r)
    for f in rs:   # the processes the rule asks for, from the files in order
        x = f.get(t)
        p = _ci(x, b, within=True) if x is not None and x['verdict'] == 'ok' else None
        ps.append(p)
        if p is None or not needs_process(ps, r['flags'], ms, o.processes, o.repeat_all): break
    ps = [p for p in ps if p]
    if not ps or not ms > 0: return None
    iv = process_interval(ps, ms)
    return dict(s=iv['speedup'], lo=iv['lo'], hi=iv['hi'], cls=speed_class(iv['variable'], r['flags']), k=len(ps))


def cand_ms(r)->float:
    "The candidate's time of a result (ms)."
    return ((r.get('timings') or {}).get('candidate') or {}).get('median_ms', float('nan'))


def by_bucket(rows:list)->list:
    "[(None, rows)], then (bucket name, its rows) per bucket of the reference's time (`REF_BUCKETS`) that has any."
    return [(None, rows)] + [(n, w) for n, _, _ in REF_BUCKETS if (w := [r for r in rows if r['bucket'] == n])]


def ratios(rows:list, a:dict, b:dict, ms)->list:
    "B's time / A's by `ms` (`ref_ms`, `cand_ms`) per row, leaving out a row either of whose times is missing."
    xy = [(ms(a[r['t']]), ms(b[r['t']])) for r in rows]
    return [y / x for x, y in xy if x > 0 and y > 0]


def host_speed(rows:list, a:dict, b:dict)->list:
    """Per bucket of the reference's time: (bucket, n, median B/A reference time, median B/A candidate time) over the
    tasks ok in both. Both ratios away from 1 in the fastest bucket alone: the hosts launch work at different speeds."""
    out = []
    for name, rs in by_bucket(rows):
        ref, cand = ratios(rs, a, b, ref_ms), ratios(rs, a, b, cand_ms)
        if ref and cand: out.append((name or 'every task', len(ref), statistics.median(ref), statistics.median(cand)))
    return out


def calibration_line(a:dict, b:dict)->str:
    "The hosts' own calibrations (`meta['host']`, `cudal1_nb.evalstats.host_ratio`): B's launch and tiny-model times against A's, or why there are none."
    ha, hb = (next((r['meta']['host'] for r in x.values() if (r.get('meta') or {}).get('host')), None) for x in (a, b))
    h = evalstats.host_ratio(ha, hb)
    if h is None: return "host calibration: " + ("none in " + ' and '.join(n for n, x in (('A', ha), ('B', hb)) if not x)) + " (audits before it was recorded)"
    return (f"host calibration: launch {ha['launch_us']:.2f} / {hb['launch_us']:.2f} us, tiny model {ha['tiny_ms']:.4f} / {hb['tiny_ms']:.4f} ms (A / B): "
            f"B/A {h['launch']:.2f}x, {h['tiny']:.2f}x -- " + ("the hosts launch work differently: compare intervals only between like hosts" if h['differ'] else "alike"))


def load_line(rows:list, a:dict, b:dict)->str:
    """What the runs' own references under 0.3 ms say of the hosts: their median B/A time (`host_speed`), off 1 by more
    than `evalstats.HOST_TOL` when the hosts launched work differently while judging. A calibration is taken on an idle
    host before an audit; the audit's load can slow one host's launches and not the other's, so hosts calibrated alike
    can still differ here, and then launch-bound speedups do not carry from one run to the other."""
    fast = next(((n, r) for name, n, r, _ in host_speed(rows, a, b) if name == REF_BUCKETS[0][0]), None)
    if fast is None: return f"under load: no task {REF_BUCKETS[0][0]} ok in both"
    n, r = fast
    differ = abs(math.log(r)) > math.log1p(evalstats.HOST_TOL)
    return (f"under load: the references {REF_BUCKETS[0][0]} took {r:.2f}x as long in B as in A (n={n}) -- "
            + ("the hosts launched work differently during these runs: compare intervals only between like hosts" if differ else "alike"))


def stats(v:list)->tuple:
    "(median, 90th percentile, max) of sorted values."
    return statistics.median(v), (statistics.quantiles(v, n=10)[-1] if len(v) > 1 else v[0]), v[-1]


CLASSES = ('process-variable', 'may vary', 'fixed-speed')


def coverage(rows:list)->str:
    "One line: n, coverage a-in-b and b-in-a, the median half-width (a fraction, both audits' intervals)."
    if not rows: return ''
    ab = sum(r['b']['lo'] <= r['a']['s'] <= r['b']['hi'] for r in rows) / len(rows)   # a's speedup inside b's interval
    ba = sum(r['a']['lo'] <= r['b']['s'] <= r['a']['hi'] for r in rows) / len(rows)
    hw = statistics.median(math.sqrt(x['hi'] / x['lo']) - 1 for r in rows for x in (r['a'], r['b']))
    return f"{len(rows):>4} {ba:>9.1%} {ab:>9.1%} {hw:>10.2%}"


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('a'); ap.add_argument('b')
    ap.add_argument('--baseline', default='eager'); ap.add_argument('--top', type=int, default=10)
    ap.add_argument('--rejudge', action='store_true', help="eager speedups from the saved timings by the judge's current rule "
                    "(the paired reference time) -- for results judged by an older rule")
    ap.add_argument('--rescore', action='store_true', help="intervals again by the harness's current rule (a calibration on older results)")
    ap.add_argument('--processes', type=int, default=3, help='with --rescore: at most this many processes per task (EvalConfig.processes)')
    ap.add_argument('--repeat-all', action='store_true', help='with --rescore: a second process for every ok task (EvalConfig.repeat_all)')
    ap.add_argument('--floors', default='', help="with --rescore: the floors per reference-time bucket, comma-separated log half-widths "
                    f"in the order {', '.join(n for n, _, _ in REF_BUCKETS)} (default: the harness's, "
                    f"{', '.join(str(evalstats.PROCESS_FLOOR[n]) for n, _, _ in REF_BUCKETS)})")
    o = ap.parse_args(argv)
    if o.floors:
        if not o.rescore: ap.error('--floors needs --rescore')
        try: fl = [float(x) for x in o.floors.split(',')]
        except ValueError: ap.error(f"--floors: numbers, comma-separated, got {o.floors!r}")
        if len(fl) != len(REF_BUCKETS) or not all(0 <= x < 1 for x in fl): ap.error(f"--floors: {len(REF_BUCKETS)} values in [0, 1), got {o.floors!r}")
        evalstats.PROCESS_FLOOR.update(zip((n for n, _, _ in REF_BUCKETS), fl))   # this process only: the rule's floors, for the calibration
    A, B = load(o.a), load(o.b)
    a, b = A[0], B[0]
    both = sorted(set(a) & set(b))
    flips = [(t, a[t]['verdict'], b[t]['verdict']) for t in both if a[t]['verdict'] != b[t]['verdict']]
    rows = []
    for t in both:
        x, y = measured(A, t, o.baseline, o), measured(B, t, o.baseline, o)
        if x and y:
            cls = next(c for c in CLASSES if c in (x['cls'], y['cls']))   # the more variable class of the two
            rows.append(dict(t=t, a=x, b=y, d=abs(y['s'] / x['s'] - 1), cls=cls, bucket=ref_bucket(ref_ms(a[t])) if ref_ms(a[t]) > 0 else REF_BUCKETS[0][0],
                             fa=' '.join(a[t]['flags']), fb=' '.join(b[t]['flags'])))
    if not rows: sys.exit("no task is ok in both runs")
    dev = {r['device'] for r in list(a.values())[:1] + list(b.values())[:1]}
    print(f"{len(both)} tasks in both runs ({', '.join(sorted(dev))}); {len(rows)} ok in both; baseline {o.baseline}"
          + ("; intervals rescored by the current rule (calibration, not validation)" if o.rescore else '; intervals as recorded')
          + (f"; floors {o.floors}" if o.floors else ''))
    v = sorted(r['d'] for r in rows)
    print(f"|Δ speedup|: median {stats(v)[0]:.2%}, 90th percentile {stats(v)[1]:.2%}, max {v[-1]:.2%}")
    groups = [('every task', rows)] + [(c, [r for r in rows if r['cls'] == c]) for c in CLASSES]
    print(f"\n|Δ speedup| per bucket of the reference's time\n  {'class / bucket':26} {'n':>4} {'median':>8} {'p90':>8} {'max':>8}")
    for g, rs in groups:
        if not rs: continue
        for name, w in by_bucket(rs):
            w = sorted(r['d'] for r in w)
            print(f"  {(g if name is None else '  ' + name):26} {len(w):>4} {stats(w)[0]:>8.2%} {stats(w)[1]:>8.2%} {stats(w)[2]:>8.2%}")
    print(f"\ncoverage: B's speedup inside A's interval (B in A), A's inside B's (A in B); median half-width of both\n  {'class / bucket':26} {'n':>4} {'B in A':>9} {'A in B':>9} {'half-width':>10}")
    for g, rs in groups:
        if not rs: continue
        for name, w in by_bucket(rs): print(f"  {(g if name is None else '  ' + name):26} {coverage(w)}")
    print(f"\nhost speed: B's times / A's, median per bucket (a ratio away from 1.00 in the fastest bucket alone: the hosts launch "
          f"work at different speeds, and launch-bound speedups do not carry from one to the other)\n  {'bucket':26} {'n':>4} {'reference':>9} {'candidate':>9}")
    for name, n, rr, cr in host_speed(rows, a, b): print(f"  {name:26} {n:>4} {rr:>9.3f} {cr:>9.3f}")
    print(calibration_line(a, b))
    print(load_line(rows, a, b))
    ks = [r[s]['k'] for r in rows for s in 'ab']
    print(f"processes per task: mean {statistics.fmean(ks):.2f} (A {statistics.fmean(r['a']['k'] for r in rows):.2f}, B {statistics.fmean(r['b']['k'] for r in rows):.2f})")
    print(f"verdict changes: {len(flips)}" + ''.join(f"\n  {t}: {x} -> {y}" for t, x, y in flips))
    if o.top > 0: print("largest differences:")
    for r in sorted(rows, key=lambda r: -r['d'])[:o.top]:
        x, y = r['a'], r['b']
        print(f"  {r['t']:22s} {x['s']:7.3f}x [{x['lo']:.3f}, {x['hi']:.3f}] {y['s']:7.3f}x [{y['lo']:.3f}, {y['hi']:.3f}]  {r['d']:6.1%}  [{r['fa']}] [{r['fb']}]")


if __name__ == '__main__':
    main()
