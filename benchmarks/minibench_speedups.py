"""Measured CPU speedup of every mini-suite variant over its reference.

Every variant goes through the evaluation harness (`cudal1_nb.eval`) on ONE CPU thread: checked against a float64
reference on three secret seeds, then timed interleaved with the reference on fresh inputs, each side at least `--reps`
calls (more until the median's 95 % CI is within 2 %, at most `--budget` seconds per side); the speedup is
median(reference) / median(variant). C++ variants are compiled first, in parallel, cached by source hash.

    python benchmarks/minibench_speedups.py               # print the table
    python benchmarks/minibench_speedups.py --write OUT.json   # also save the speedups
    python benchmarks/minibench_speedups.py --check results/2026-11-21-minibench-speedups-cpu/speedups.json   # order against a saved run
    python benchmarks/minibench_speedups.py --levels 1 --limit 1 --reps 3 --budget 0.05   # one task, quickly (its smoke test)
"""
import argparse, json, sys, time, platform
from pathlib import Path
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from cudal1_nb.core import git_info
from cudal1_nb.minibench import minibench_tasks, minibench_variants
from cudal1_nb.eval import EvalConfig, evaluate_many


TIE = 1.25   # speeds closer than this ratio are not 'clearly different'; the order check ignores such pairs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--reps', type=int, default=21); ap.add_argument('--budget', type=float, default=2.0); ap.add_argument('--write', metavar='PATH', help='save the speedups as JSON here')
    ap.add_argument('--check', metavar='PATH', help='a saved speedups.json whose clearly-apart orders must hold'); ap.add_argument('--levels', default='')
    ap.add_argument('--limit', type=int, default=0, help='at most this many tasks (0: all)')
    a = ap.parse_args(argv)
    levels = {int(x) for x in a.levels.split(',') if x}
    tasks = [t for t in minibench_tasks() if not levels or t.level in levels][:a.limit or None]
    if not tasks: sys.exit(f"minibench_speedups: no mini-suite task at level(s) {sorted(levels)} (levels 1-3)")
    ids = {t.id for t in tasks}
    vs = [v for v in minibench_variants() if v.task_id in ids]
    t0 = time.time()
    cfg = EvalConfig(min_trials=a.reps, max_trials=max(200, a.reps), budget_s=a.budget)
    out = evaluate_many([(t, [v for v in vs if v.task_id == t.id]) for t in tasks], cfg=cfg, progress=True)
    t2 = time.time()
    res = [dict(task_id=v.task_id, variant=v.name, cpp=v.meta['cpp'], verdict=r.verdict, reason=r.reason,
                speedup=r.speedup() if r.ok else None, ref_ms=r.timings['eager'].median_ms if r.ok else None)
           for t, rs in zip(tasks, out) for v, r in zip([v for v in vs if v.task_id == t.id], rs)]
    bad = [r for r in res if r['verdict'] != 'ok']
    by_task = {}
    for r in res: by_task.setdefault(r['task_id'], []).append(r)
    print(f"\nCPU speedups over the eager reference (harness, 1 thread, float32): median of >= {a.reps} interleaved calls each, "
          f"{platform.processor() or platform.machine()}, torch {__import__('torch').__version__}\n")
    print(f"{'task':<44} {'ref ms':>8}  {'variant':<24} {'C++':<4} {'speedup':>8}")
    problems, ref_of = [], {}
    for t in tasks:
        rs = sorted(by_task.get(t.id, []), key=lambda r: -r.get('speedup', 0))
        ref_ms = sorted(r['ref_ms'] for r in rs if 'ref_ms' in r)
        ref = ref_of[t.id] = ref_ms[len(ref_ms)//2] if ref_ms else float('nan')
        for i, r in enumerate(rs):
            label, refs = (f"{t.id} {t.name}"[:44], f"{ref:.3g}") if i == 0 else ('', '')
            sp = f"{r['speedup']:.2f}x" if r.get('speedup') else 'FAILED'
            print(f"{label:<44} {refs:>8}  {r['variant']:<24} {'yes' if r['cpp'] else '':<4} {sp:>8}")
        sps = [r['speedup'] for r in rs if r.get('speedup')]
        if not (2 <= ref <= 50): problems.append(f"{t.id}: reference takes {ref:.3g} ms (want 2-50 ms)")
        if not any(s < 1.0 for s in sps): problems.append(f"{t.id}: no variant slower than the reference")
        if not any(s >= 1.3 for s in sps): problems.append(f"{t.id}: no variant clearly faster (>= 1.3x)")
        pts = sorted([('reference', 1.0)] + [(r['variant'], r['speedup']) for r in rs if r.get('speedup')], key=lambda x: x[1])
        problems += [f"{t.id}: {a} ({x:.2f}x) and {b} ({y:.2f}x) are less than {TIE:.2f}x apart" for (a, x), (b, y) in zip(pts, pts[1:]) if y / x < TIE]
    all_sp = [r['speedup'] for r in res if r.get('speedup')]
    print(f"\n{len(tasks)} tasks, {len(vs)} variants ({sum(v.meta['cpp'] for v in vs)} C++), {len(bad)} incorrect; "
          f"{t2 - t0:.0f} s; speedups {min(all_sp):.2f}x .. {max(all_sp):.2f}x")
    for p in problems: print('PROBLEM', p)
    for r in bad: print('NOT OK', r['task_id'], r['variant'], r['verdict'], r.get('reason'))
    rc = 1 if problems or bad else 0
    if a.check:
        path = Path(a.check)
        saved = json.loads(path.read_text())['speedups']
        flips = []
        for tid, rs in by_task.items():
            old = dict(saved.get(tid, {}), reference=1.0)
            now = dict({r['variant']: r['speedup'] for r in rs if r.get('speedup')}, reference=1.0)
            common = sorted(v for v in now if v in old)
            for i, a in enumerate(common):          # every pair that was clearly apart must keep its order
                for b in common[i + 1:]:
                    if max(old[a], old[b]) / min(old[a], old[b]) >= TIE and (old[a] < old[b]) != (now[a] < now[b]):
                        flips.append(f"{tid}: {a} {old[a]:.2f}x -> {now[a]:.2f}x vs {b} {old[b]:.2f}x -> {now[b]:.2f}x")
        print(f"\norder vs {path.name}: {'holds' if not flips else 'CHANGED'}")
        for f in flips: print('  ', f)
        rc = rc or (1 if flips else 0)
    if a.write:
        out = dict(note='median-of-reps CPU speedups over the eager reference, 1 thread; written by benchmarks/minibench_speedups.py',
                   reps=a.reps, torch=__import__('torch').__version__, machine=platform.machine(), **git_info(),
                   ref_ms={t.id: round(ref_of[t.id], 4) for t in tasks if t.id in ref_of},
                   speedups={tid: {r['variant']: round(r['speedup'], 4) for r in rs if r.get('speedup')} for tid, rs in by_task.items()})
        Path(a.write).write_text(json.dumps(out, indent=1) + '\n'); print(f"wrote {a.write}")
    return rc


if __name__ == '__main__': sys.exit(main())
