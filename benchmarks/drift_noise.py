"""How far the reference's own time moves between the moments of one candidate job, on results already measured.

    python benchmarks/drift_noise.py AUDIT1/evals.jsonl [AUDIT2/evals.jsonl ...] [--tol 0.10]

For every result judged ok that kept the reference's three timings (alone before the candidate's import, in the
candidate's rounds, alone after), per file: how many the judge's `ref_drift` rule flags today (one-sided, the CUDA
tolerance `cudal1_nb.verdict.DRIFT_TOL`) and how many a two-sided rule with tolerance `--tol` flags (the rule up to
the two-sided rule of harness 0.1.0+76e511b8aacf), the largest median ratio (rounds / alone before), and the largest slow-down beyond the CI. Then, for
each pair of files given one after the other, the correlation over their common tasks of log(rounds / alone before):
near 0 when the drift belongs to the moment rather than to the candidate."""
import argparse, math, statistics, sys
from pathlib import Path
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser
from cudal1_nb.core import Timing
from cudal1_nb.evalstats import drifted, ref_drift, summary_log_ratio_ci
from cudal1_nb.store import read_evals
from cudal1_nb.verdict import DRIFT_TOL

PHASES = ('eager_clean', 'eager_paired', 'eager_post')


def phases(r):
    "The three reference timings of a result judged ok, or None."
    t = r.get('timings') or {}
    if r.get('verdict') != 'ok' or any(k not in t for k in PHASES): return None
    return [Timing(**t[k]) for k in PHASES]


def row(path, tol:float):
    rs = {r['task_id']: p for r in read_evals(path) if (p := phases(r))}
    now = sum(ref_drift(c, a, b, DRIFT_TOL['cuda']) is not None for c, a, b in rs.values())
    old = sum(drifted(c, a, tol) or drifted(c, b, tol) for c, a, b in rs.values())
    ratio = max((x.median_ms / c.median_ms for c, a, b in rs.values() for x in (a, b)), default=float('nan'))
    beyond = max((summary_log_ratio_ci(x, c)[0] for c, a, b in rs.values() for x in (a, b)), default=float('nan'))
    return rs, dict(file=Path(path).name, n=len(rs), flagged_now=now, flagged_two_sided=old, max_ratio=ratio, max_beyond_ci=math.expm1(beyond))


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('evals', nargs='+', help="audit results (evals.jsonl)")
    ap.add_argument('--tol', type=float, default=0.10, help="the two-sided rule's tolerance to compare with (the earlier two-sided rule's: 0.10 on CUDA)")
    a = ap.parse_args(argv)
    runs = []
    print(f"{'file':48} {'n ok':>5} {'flagged now':>12} {'two-sided':>10} {'max ratio':>10} {'max beyond CI':>14}")
    for p in a.evals:
        rs, d = row(p, a.tol); runs.append((d['file'], rs))
        print(f"{d['file']:48} {d['n']:5d} {d['flagged_now']:12d} {d['flagged_two_sided']:10d} {d['max_ratio']:9.2f}x {d['max_beyond_ci']:+13.0%}")
    for (fa, ra), (fb, rb) in zip(runs, runs[1:]):
        common = sorted(set(ra) & set(rb))
        if len(common) < 3: continue
        d = lambda r, k: math.log(r[k][1].median_ms / r[k][0].median_ms)
        cor = statistics.correlation([d(ra, k) for k in common], [d(rb, k) for k in common])
        print(f"drift per task, {fa} vs {fb}: correlation {cor:+.2f} over {len(common)} tasks")


if __name__ == '__main__': main()
