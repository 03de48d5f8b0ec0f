"""A multi-turn RL run against its single-turn twin, from their rollouts: at equal updates and at equal judged programs,
what the episodes reached, and what the revision turns changed.

    python benchmarks/rl_turns.py RUN RUN [RUN ...] [--json FILE]

RUN is one arm-seed directory of `rl_experiment.py` (its rollouts.jsonl[.gz], and step_times.jsonl when there), finished
or cut: only the updates whose rollouts are all logged count. The first RUN is the one the others are compared with.
An episode is a prompt's turns (`Rollout.episode_id`; a single-turn sample is an episode of one turn). Per run and
window (the first U updates, U the fewest any run has; and each run's first updates whose judged programs stay within
the fewest any run judged): judged programs, episodes, the correct fraction of first turns, of episodes (a correct
turn), of episodes with a program faster than the reference (`Rollout.counted` above 1); against the first RUN, the
paired difference in episode-correct fraction per task with its 95 % t interval over the tasks both sampled (episodes
of one task share its prompt, so they are not independent). For runs with more than one turn: of the turns that
followed a failed turn, how many were correct (fixed); of those that followed a correct one, how many stayed correct
and how many got faster. Training rollouts only; the median seconds of an update from step_times.jsonl.
"""
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
import collections, json, statistics
from pathlib import Path
from benchmarks.common import parser, load_jsonl, print_table


def load_run(d:Path)->dict:
    "A run's training rollouts grouped by update (`step`), its updates' seconds, and its turns (the most any episode took)."
    from cudal1_nb.rl_metrics import read_rollouts
    from benchmarks.rl_rollouts import rollouts_file
    f = rollouts_file(d)
    if f is None: raise SystemExit(f"rl_turns: no rollouts.jsonl(.gz) in {d}")
    ros = [r for r in read_rollouts(f) if r.split == 'train']
    if not ros: raise SystemExit(f"rl_turns: {f} holds no training rollouts")
    steps = collections.defaultdict(list)
    for r in ros: steps[r.step].append(r)
    st = d/'step_times.jsonl'
    secs = [x['seconds'] for x in load_jsonl(st)] if st.exists() else []
    return dict(name='/'.join(d.resolve().parts[-2:]), steps=dict(sorted(steps.items())), seconds=secs, turns=max(r.turn or 1 for r in ros))


def complete_steps(run:dict)->list:
    "The updates whose every episode is logged: all but a last one cut short (fewer rollouts than the run's usual update)."
    ks = list(run['steps'])
    usual = statistics.median(len(v) for v in run['steps'].values())
    return ks if len(run['steps'][ks[-1]]) >= 0.9 * usual else ks[:-1]


def episodes(rollouts:list)->list:
    "The rollouts as episodes, each its turns in order (a rollout without an episode id is an episode of one turn)."
    eps = collections.defaultdict(list)
    for i, r in enumerate(rollouts): eps[r.episode_id or f'#{i}'].append(r)
    return [sorted(v, key=lambda r: r.turn or 1) for v in eps.values()]


def window(rollouts:list)->dict:
    "What the episodes of these rollouts reached, per task too, and what their later turns changed."
    eps = episodes(rollouts)
    ok = lambda r: r.verdict == 'ok'
    fast = lambda r: ok(r) and (r.counted or 0) > 1.0
    by_task = collections.defaultdict(list)
    for e in eps: by_task[e[0].task_id].append(any(map(ok, e)))
    pairs = [(a, b) for e in eps for a, b in zip(e, e[1:])]
    return dict(programs=len(rollouts), episodes=len(eps), first_correct=sum(ok(e[0]) for e in eps) / len(eps),
                episode_correct=sum(any(map(ok, e)) for e in eps) / len(eps), episode_faster=sum(any(map(fast, e)) for e in eps) / len(eps),
                after_fail=sum(not ok(a) for a, _ in pairs), fixed=sum(not ok(a) and ok(b) for a, b in pairs),
                after_ok=sum(ok(a) for a, _ in pairs), kept=sum(ok(a) and ok(b) for a, b in pairs),
                faster_after_ok=sum(ok(a) and ok(b) and (b.counted or 0) > (a.counted or 0) for a, b in pairs),
                per_task={t: statistics.fmean(v) for t, v in by_task.items()})


def against(w:dict, w0:dict)->dict:
    "The paired difference in episode-correct fraction per task, w minus w0, over their common tasks: mean and 95 % t interval."
    from cudal1_nb.stats import mean_ci
    ts = sorted(w['per_task'].keys() & w0['per_task'].keys())
    if not ts: return dict(tasks=0, diff=None, lo=None, hi=None)
    m, lo, hi = mean_ci([w['per_task'][t] - w0['per_task'][t] for t in ts])
    return dict(tasks=len(ts), diff=m, lo=lo, hi=hi)


def compare(runs:list)->list:
    "One row per run and window ('updates': the first U updates of each; 'programs': each run's first updates within the fewest programs judged)."
    done = [complete_steps(r) for r in runs]
    if min(map(len, done)) < 1: raise SystemExit("rl_turns: a run has no complete update")
    U = min(map(len, done))
    cum = lambda r, ks: [sum(len(r['steps'][k]) for k in ks[:i + 1]) for i in range(len(ks))]
    P = min(cum(r, ks)[-1] for r, ks in zip(runs, done))
    none = dict(tasks=None, diff=None, lo=None, hi=None)
    rows = []
    for label, pick in (('updates', lambda r, ks: ks[:U]), ('programs', lambda r, ks: [k for k, c in zip(ks, cum(r, ks)) if c <= P])):
        sel = [pick(r, ks) for r, ks in zip(runs, done)]
        ws = [window([x for k in s for x in r['steps'][k]]) | dict(updates=len(s)) for r, s in zip(runs, sel)]
        for i, (r, w) in enumerate(zip(runs, ws)):
            secs = r['seconds'][1:w['updates']]   # the window's updates but the first, which compiles the sampler
            vs = against(w, ws[0]) if i else none
            rows.append(dict(window=label, run=r['name'], turns=r['turns'], **{k: v for k, v in w.items() if k != 'per_task'},
                             step_s=statistics.median(secs) if secs else None, **{f'vs_first_{k}': v for k, v in vs.items()}))
    return rows


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('runs', nargs='+', help='arm-seed directories of rl_experiment.py (the first: the twin the others are compared with)')
    ap.add_argument('--json', help='write the rows here')
    a = ap.parse_args(argv)
    if len(a.runs) < 2: ap.error('give at least two runs: the twin and the run compared with it')
    rows = compare([load_run(Path(d)) for d in a.runs])
    r3 = lambda d: {k: round(v, 3) if isinstance(v, float) else v for k, v in d.items()}
    print_table([r3(r) for r in rows], ['window', 'run', 'turns', 'updates', 'programs', 'episodes', 'first_correct', 'episode_correct',
                                        'episode_faster', 'step_s', 'vs_first_tasks', 'vs_first_diff', 'vs_first_lo', 'vs_first_hi'])
    multi = [r for r in rows if r['turns'] > 1]
    if multi:
        print(); print_table(multi, ['window', 'run', 'after_fail', 'fixed', 'after_ok', 'kept', 'faster_after_ok'])
    if a.json: Path(a.json).write_text(''.join(json.dumps(r) + '\n' for r in rows))
    return rows


if __name__ == '__main__': main()
