"""Every training rollout of a stage-3 experiment, per arm-seed and per arm: what the arms wrote over the whole run,
not only in its last quarter (`rl_experiment.py`'s table), and how many of the faster programs repeat a program the
prompt showed.

    python benchmarks/rl_rollouts.py OUT [OUT ...] --store STORE.sqlite [--first N] [--json FILE]

OUT is an `rl_experiment.py` output directory (its <arm>-s<seed>/rollouts.jsonl[.gz]); STORE the store the experiment
started from (the exemplars shown at the first steps; later exemplars are programs of the run itself, read from its
rollouts). Per arm: the metrics of `cudal1_nb.rl_metrics.step_metrics` over all training rollouts (failures count 1.0x in the
geometric mean) with a 95 % interval over seeds on the log scale; of the correct programs faster than the reference
beyond noise, how many are an exemplar of their own prompt again (`repeats`) and how close each is to the nearest
exemplar it was shown (`closest`), as `cudal1_nb.parse.repeats_exemplar` and `closest_exemplar` say; and the
faster programs and their repeats in each quarter of the run's steps. `--first N` compares the arms at one sampling
budget: each arm-seed's first N training rollouts in the order it sampled them (an arm-seed with fewer is refused),
e.g. an evolve arm that stopped early against the GRPO arms' first as many completions.
"""
import argparse, json, sqlite3, statistics, sys
from pathlib import Path
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.rl_experiment import ci95   # the experiment's own interval over seeds


def arm_seed(rollouts:list, # one arm-seed's `Rollout`s
             programs:dict, # candidate id -> program text: the store's and these rollouts' own
            )->dict:
    "`step_metrics` over the training rollouts, their step count, and the faster correct programs that repeat an exemplar of their prompt."
    from cudal1_nb.rl_metrics import step_metrics
    from cudal1_nb.parse import repeats_exemplar, closest_exemplar
    tr = [r for r in rollouts if r.split == 'train']
    if not tr: raise ValueError('no training rollouts')
    fast = [r for r in tr if r.verdict == 'ok' and (r.counted or 0) > 1.0]
    shown = lambda r: [programs[e] for e in (r.exemplar_ids or []) if e in programs]
    code = lambda r: programs.get(r.candidate_id, '')
    rep = [repeats_exemplar(code(r), shown(r)) for r in fast]
    closest = lambda r: closest_exemplar(code(r), shown(r))   # None: no exemplar shown
    steps = max(r.step for r in tr) + 1
    q = [min(4 * r.step // steps, 3) for r in fast]   # the quarter of the run each faster program is in
    quarters = [[q.count(i), sum(k == i and x for k, x in zip(q, rep))] for i in range(4)]
    return dict(step_metrics(tr), steps=steps, fast=len(fast), repeats=sum(rep), quarters=quarters,
                fast_closest=[c if c is None else round(c, 3) for c in map(closest, fast)], fast_speedups=[round(r.counted, 3) for r in fast])


def rollouts_file(d:Path)->Path|None:
    "An arm-seed directory's rollout log: rollouts.jsonl, or rollouts.jsonl.gz as a results folder keeps it; None when it has neither."
    return next((f for f in (d/'rollouts.jsonl', d/'rollouts.jsonl.gz') if f.exists()), None)


def first_rollouts(rollouts:list, # one arm-seed's `Rollout`s in the order they were logged
                   n:int, # training rollouts to keep (0: all)
                   name:str='', # the arm-seed, for the error
                  )->list:
    "The held-out rollouts and the first `n` training ones; a clear error when the arm-seed sampled fewer than `n`."
    if not n: return rollouts
    tr = [r for r in rollouts if r.split == 'train']
    if len(tr) < n: raise SystemExit(f"{name}: {len(tr)} training rollouts, fewer than --first {n}")
    keep = {id(r) for r in tr[:n]}
    return [r for r in rollouts if r.split != 'train' or id(r) in keep]


def experiment(out:Path, store:Path, first:int=0)->dict:
    "{'runs': {arm-seed: arm_seed(...)}, 'arms': {arm: pooled}} for one experiment directory (each arm-seed's first `first` training rollouts, 0: all)."
    from cudal1_nb.rl_metrics import read_rollouts
    from cudal1_nb.prompts import parse_response
    with sqlite3.connect(f'file:{store}?mode=ro', uri=True) as db: base = dict(db.execute('SELECT id, code FROM candidates'))
    runs = {}
    for d in sorted(p for p in Path(out).iterdir() if p.is_dir() and '-s' in p.name):
        f = rollouts_file(d)
        if f is None: continue
        ros = first_rollouts(read_rollouts(f), first, str(d))
        programs = dict(base)   # exemplars drawn from the run's own programs are found among its rollouts
        programs.update({r.candidate_id: c for r in ros if r.candidate_id and (c := parse_response(r.completion).code)})
        runs[d.name] = arm_seed(ros, programs)
    if not runs: raise SystemExit(f"{out}: no <arm>-s<seed>/rollouts.jsonl here")
    arms = {}
    for arm in sorted({k.rsplit('-s', 1)[0] for k in runs}):
        rs = [v for k, v in runs.items() if k.rsplit('-s', 1)[0] == arm]
        g, lo, hi = ci95([r['gmean'] for r in rs], log=True)
        arms[arm] = dict(seeds=len(rs), n=sum(r['n'] for r in rs), steps=[r['steps'] for r in rs],
                         correct=statistics.mean(r['correct'] for r in rs), fast_1=statistics.mean(r['fast_1'] for r in rs),
                         gmean=g, gmean_ci=[lo, hi], gmean_per_seed=[r['gmean'] for r in rs],
                         fast=sum(r['fast'] for r in rs), repeats=sum(r['repeats'] for r in rs),
                         quarters=[[sum(r['quarters'][i][j] for r in rs) for j in (0, 1)] for i in range(4)],
                         closest_median=statistics.median(c) if (c := [x for r in rs for x in r['fast_closest'] if x is not None]) else None)
    return dict(out=str(out), runs=runs, arms=arms)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('out', nargs='+', help="rl_experiment.py output directories")
    ap.add_argument('--store', required=True, help="the store the experiments started from")
    ap.add_argument('--first', type=int, default=0, help="only each arm-seed's first N training rollouts (one sampling budget for every arm)")
    ap.add_argument('--json', help="write the figures here")
    a = ap.parse_args(argv)
    if not Path(a.store).exists(): sys.exit(f"--store {a.store}: no such file")
    if a.first < 0: sys.exit(f"--first {a.first}: give a count of rollouts, 0 for all")
    res = [experiment(Path(o), Path(a.store), a.first) for o in a.out]
    f = lambda x: '—' if x is None else f"{x:.3f}"
    for r in res:
        print(f"\n{r['out']}" + (f" (each arm-seed's first {a.first} training rollouts)" if a.first else '') + "\n| arm | seeds | steps | n | correct | fast_1 | gmean sampled (95 % CI over seeds) | per seed | faster programs | repeat an exemplar | closest exemplar (median) |")
        print('|---|---|---|---|---|---|---|---|---|---|---|')
        for arm, x in r['arms'].items():
            print(f"| {arm} | {x['seeds']} | {', '.join(map(str, x['steps']))} | {x['n']} | {x['correct']:.3f} | {x['fast_1']:.3f} | "
                  f"{x['gmean']:.3f} [{f(x['gmean_ci'][0])}, {f(x['gmean_ci'][1])}] | {', '.join(f'{g:.3f}' for g in x['gmean_per_seed'])} | {x['fast']} | {x['repeats']} | {f(x['closest_median'])} |")
        print("\n| arm | faster programs that repeat an exemplar, by quarter of the run |\n|---|---|")
        for arm, x in r['arms'].items(): print(f"| {arm} | {' / '.join(f'{k} of {n}' for n, k in x['quarters'])} |")
    if a.json: Path(a.json).write_text(json.dumps(res, indent=1) + '\n')


if __name__ == '__main__':
    main()
