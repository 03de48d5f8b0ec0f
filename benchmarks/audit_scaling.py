"""How fast audits of the same release progressed on different numbers of GPUs, from their evaluations alone.

    python benchmarks/audit_scaling.py LABEL=EVALS [LABEL=EVALS ...] [--k K]

EVALS is an audit's `evals.jsonl` (or `evals.partial.jsonl`, gzipped or not), e.g. `one_gpu=a.evals.jsonl.gz
two_gpus=b.evals.jsonl.gz`; the first is the baseline. A result records when its candidate's first process was judged
(`created`) and when its jobs first took the device lock (`meta.lock_at`, `meta.ref_lock_at`); a candidate timed in more
processes is final later, at a moment the result does not record. So this compares the runs' pace up to the K-th
candidate judged once (default: the largest K that every run reached, less the last 5 % of the smaller run, whose tail is
the extra processes of its last candidates), counted from each run's first lock: the part of a run where it has work for
every GPU. The whole audit's wall time is the command's own (`benchmarks/device_audit.sh` prints it). Prints per run:
results, processes, seconds from the first lock to the K-th first judgement, and the ratio to the baseline."""
import argparse, sys
from pathlib import Path
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser
from cudal1_nb.store import read_evals


def pace(rows:list)->dict:
    "The sorted seconds after the run's first lock at which each candidate was first judged, and its processes."
    locks = [t for r in rows for t in ((r.get('meta') or {}).get('lock_at'), (r.get('meta') or {}).get('ref_lock_at')) if t]
    if not locks: raise ValueError("no result records when it took the device lock (meta.lock_at): not an audit's evaluations")
    t0 = min(locks)
    return dict(judged=sorted(float(r['created']) - t0 for r in rows),
                processes=sum(len((r.get('meta') or {}).get('processes') or [None]) for r in rows))


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('runs', nargs='+', help='LABEL=EVALS, the baseline first')
    ap.add_argument('--k', type=int, default=0)
    a = ap.parse_args(argv)
    runs = []
    for s in a.runs:
        label, sep, path = s.partition('=')
        if not sep or not label or not path: sys.exit(f"{s!r}: give LABEL=EVALS")
        runs.append((label, pace(read_evals(path))))
    n = min(len(p['judged']) for _, p in runs)
    k = a.k or max(1, int(n * 0.95))
    if k > n: sys.exit(f"--k {k}: the smallest run has {n} results")
    base = runs[0][1]['judged'][k - 1]
    print(f"pace up to the {k}-th candidate judged once, from each run's first lock (ratio: the baseline's seconds / the run's)")
    print(f"{'run':<16} {'results':>7} {'processes':>9} {'seconds':>8} {'ratio':>6}")
    for label, p in runs:
        s = p['judged'][k - 1]
        print(f"{label:<16} {len(p['judged']):>7} {p['processes']:>9} {s:>8.0f} {base / s:>6.2f}")


if __name__ == '__main__': main()
