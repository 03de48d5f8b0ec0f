"""Known-ratio benchmark: candidates whose true speedup is known by construction, scored by the harness.

    python benchmarks/known_ratio.py                                   # the mini-suite on the CPU
    python benchmarks/known_ratio.py --source DIR_OR_RELEASE.jsonl --device cuda [--levels 1,2] [--ids L1/22,L2/18] [--limit 16]
    python benchmarks/known_ratio.py --table ROWS.jsonl                 # the table of rows saved with --json

Per task, two candidates built from the reference program itself:
  same   the reference with `Model` renamed `ModelNew`                  true speedup 1.00x
  twice  a `ModelNew(Model)` whose forward runs the reference's twice   true speedup ~0.50x
(`twice` is ~0.5 only up to what the second call gains from the first: warm caches on the CPU, launch overlap on a
GPU; `same` is exact.) Both are evaluated under the `audit` policy (the harness's timing is what is measured; a
flag changes nothing here). Printed per reference-time bucket (< 0.3 ms, 0.3-1 ms, > 1 ms, by the eager reference's
median): n, the median and worst |measured / true - 1|, the median measured speedup, and the median speedup against the
paired reference (`paired x`: the reference timed in the same rounds, which the reported speedup divides since issue
14's fix; rows of older runs may differ there). The goal is median <= 2 % and worst <= 5 % in every bucket.
"""
import argparse, json, re, statistics, sys, time
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser
from cudal1_nb.core import Candidate
from cudal1_nb.tasks import read_source, filter_tasks
from cudal1_nb.eval import EvalConfig, evaluate_many
from cudal1_nb.jsonl import load_jsonl

KINDS = {'same': 1.0, 'twice': 0.5}
BUCKETS = (('< 0.3 ms', 0.0, 0.3), ('0.3-1 ms', 0.3, 1.0), ('> 1 ms', 1.0, float('inf')))
_re_model = re.compile(r'\bclass\s+Model\s*\(')


def known_candidates(task)->list:
    "The known-ratio candidates of a task: [(kind, Candidate)]; none when its program has no `class Model(`."
    if not _re_model.search(task.code): return []
    same = _re_model.sub('class ModelNew(', task.code).replace('super(Model, self)', 'super(ModelNew, self)')
    twice = task.code + ("\n\nclass ModelNew(Model):\n    def forward(self, *args, **kwargs):\n"
                         "        super().forward(*args, **kwargs)\n        return super().forward(*args, **kwargs)\n")
    return [(k, Candidate(task.id, code, name=f"known_{k}", origin='known_ratio')) for k, code in (('same', same), ('twice', twice))]


def bucket_of(ref_ms:float)->str:
    return next(name for name, lo, hi in BUCKETS if lo <= ref_ms < hi)


def table(rows:list)->str:
    "Per bucket and kind: n, median and worst |measured/true - 1| (%), median measured speedup."
    out = [f"{'bucket':10} {'kind':6} {'n':>3} {'median |err|':>13} {'worst |err|':>12} {'median x':>9} {'paired x':>9}"]
    for name, _, _ in BUCKETS:
        for k, true in KINDS.items():
            rs = [r for r in rows if r['bucket'] == name and r['kind'] == k]
            if not rs: continue
            errs = [abs(r['speedup'] / true - 1) for r in rs]
            out.append(f"{name:10} {k:6} {len(rs):>3} {100 * statistics.median(errs):>12.1f}% {100 * max(errs):>11.1f}% "
                       f"{statistics.median(r['speedup'] for r in rs):>9.3f} {statistics.median(r.get('paired', float('nan')) for r in rs):>9.3f}")
    return '\n'.join(out)


def main(argv=None):
    ap = parser(__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--source', default='minibench', help="'minibench', a KernelBench-style directory or a release .jsonl file")
    ap.add_argument('--device', default='cpu', choices=['cpu', 'cuda'])
    ap.add_argument('--levels', default='', help='comma-separated levels (default: all)')
    ap.add_argument('--ids', default='', help='comma-separated task ids (L1/22 or kernelbench/L1/22; default: all)')
    ap.add_argument('--limit', type=int, default=None, help='at most this many tasks')
    ap.add_argument('--budget', type=float, default=None, help="seconds of timed calls per side (default: EvalConfig's)")
    ap.add_argument('--workers', type=int, default=0)
    ap.add_argument('--json', help='also write one JSON object per candidate here')
    ap.add_argument('--table', help='only print the table of rows saved earlier with --json')
    a = ap.parse_args(argv)
    if a.table:
        print(table(load_jsonl(a.table))); return 0
    tasks, _ = read_source(a.source)
    tasks = filter_tasks(tasks, [int(x) for x in a.levels.split(',') if x] or None, [x for x in a.ids.split(',') if x] or None, a.limit)
    items, kinds = [], []
    for t in tasks:
        cs = known_candidates(t)
        if cs: items.append((t, [c for _, c in cs])); kinds.append([k for k, _ in cs])
    cfg = EvalConfig(policy='audit', workers=a.workers, **({'budget_s': a.budget} if a.budget else {}))
    t0 = time.time()
    rows, skipped = [], []
    out = open(a.json, 'w') if a.json else None
    def on_result(ti, ci, r):   # rows as they come (a run cut short still leaves its rows in --json)
        t, k = items[ti][0], kinds[ti][ci]
        sp = (r.speedups or r.meta.get('cheat_speedups') or {}).get('eager')
        if r.verdict not in ('ok', 'cheat') or not sp:
            skipped.append((t.id, k, r.verdict, r.reason[:160])); print('\nskipped:', *skipped[-1], flush=True); return
        ref_ms = r.timings['eager'].median_ms
        ms = {n: r.timings[n].median_ms for n in ('candidate', 'eager_clean', 'eager_paired', 'eager_post') if n in r.timings}
        row = dict(task=t.id, kind=k, true=KINDS[k], speedup=sp, ref_ms=ref_ms, bucket=bucket_of(ref_ms),
                   paired=ms['eager_paired'] / ms['candidate'], ms=ms, ci=(r.meta.get('speedup_ci') or {}).get('eager'),
                   calls=r.meta.get('calls_per_sample'), flags=r.flags, device=r.device)
        rows.append(row)
        if out: out.write(json.dumps(row) + '\n'); out.flush()
    evaluate_many(items, device=a.device, cfg=cfg, progress=True, on_result=on_result)
    if out: out.close()
    print(f"\nknown-ratio benchmark: {a.source} on {a.device} ({rows[0]['device'] if rows else '?'}), {len(items)} tasks, "
          f"{time.time() - t0:.0f} s")
    print(table(rows))
    print(f"{len(skipped)} skipped (printed above as they came)")
    return 0


if __name__ == '__main__':
    sys.exit(main())
