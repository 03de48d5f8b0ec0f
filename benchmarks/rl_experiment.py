"""The experiment of stage 3: from one stage-2 checkpoint, the same wall-clock budget per arm, several seeds:
contrastive GRPO, plain GRPO (the stage-1 prompt, no exemplars) and evolve (scored exemplars in context, no weight updates).

Every arm-seed starts from a copy of the same variant store (the one stage 1 and 2 left), so arms never see each other's
programs. Before any arm runs, the stage-2 policy itself is sampled on the training tasks (its own prompt, no update):
that is the yardstick of the target (the contrastive arm's geometric-mean sampled speedup >= 1.2x the stage-2
policy's, and above plain GRPO's with an interval over seeds).

    python benchmarks/rl_experiment.py --init RUN_DIR --store STORE.sqlite --out OUT \
        --seeds 0,1,2 --budget 180 [--arms contrastive,plain,evolve] [--device cuda] [--parallel 3] [-p KEY VALUE ...]

The policy trains and samples on --device; programs are judged where `-p eval_device` says (the RLConfig field, 'cpu'
by default). Either may list several GPUs (`--device cuda:0,cuda:1,cuda:2 -p eval_device cuda:3`): the arms of the
i-th seed train on the i-th listed device and are judged on the i-th listed eval device (both cycled), so every
device carries one arm-seed of each arm. With --parallel N, up to N arm-seeds run at once, each in its own process (give
each fewer harness workers with `-p workers K`), never two of which one trains on a GPU that times the other's programs
(its generation would run beside those timings): an arm-seed waits for such a one to end, so `--device cuda:0,cuda:1
-p eval_device cuda:0,cuda:1 --parallel 2` runs seed 0's arms on the first GPU and seed 1's on the second, each trained
and judged on its own GPU; refused when no two arm-seeds could run together. Every arm takes the same -p list; evolve,
which updates no weights, leaves out the adapter's shape (lora_r, lora_alpha). An arm-seed that fails is recorded
(`failed` in the summary) and the others go on.
Run again with the same OUT to go on: finished arm-seeds are read back, unfinished ones resume from their last
checkpoint (with the whole --budget again: a cut run is said so in its row).

RUN_DIR is a selftrain run (or sft run); STORE the store those stages wrote. Writes OUT/<arm>-s<seed>/ (the RL run
directories, rollouts and the run's evaluations, `evals.jsonl.gz`, included), OUT/baseline.json, OUT/summary.json, OUT/table.md and OUT/curves.html.
"""
import argparse, contextlib, json, math, resource, shlex, shutil, statistics, sys, time
from pathlib import Path
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package

ARMS = {'contrastive': dict(mode='grpo', arm='contrastive'), 'plain': dict(mode='grpo', arm='plain'),
        'evolve': dict(mode='evolve', arm='contrastive')}
SHOW = ('correct', 'fast_1', 'gmean', 'gmean_correct', 'tasks_correct')
UPDATE_ONLY = ('lora_r', 'lora_alpha')   # fields of the weight updates: evolve, which makes none, leaves them out


def arm_params(params:dict, arm:str)->dict:
    "One arm's RLConfig fields: the experiment's `-p` list with the arm's mode and prompt, less what its mode has no use for."
    return {k: v for k, v in dict(params, **ARMS[arm]).items() if not (ARMS[arm]['mode'] == 'evolve' and k in UPDATE_ONLY)}


def baseline(init, store, out, samples, seed, params, device='cpu'):
    "The stage-2 policy on the training tasks: its own (stage-1) prompt, `samples` per task, no update."
    from cudal1_nb.rl import RLConfig, KernelReward, evolve, policy_backend
    from cudal1_nb.rl_prompts import PromptSource
    from cudal1_nb.rl_metrics import step_metrics
    from cudal1_nb.checkpoint import load_policy, find_policy
    from cudal1_nb.tasks import load_tasks, split_tasks
    from cudal1_nb.generate import GenConfig
    from cudal1_nb.device import device_name
    from cudal1_nb.core import training_on
    cfg = RLConfig.from_params(dict(params, init=str(init), arm='plain', db=str(store), seed=seed, device=device))
    training_on(cfg.device)   # as the arms: the policy's GPU alone, the reward on `eval_device`
    tasks = load_tasks(cfg.suite, validate=False)
    out.mkdir(parents=True, exist_ok=True)
    res = {}
    for split in ('train', 'held-out') if cfg.held_out_samples else ('train',):   # as the arms: their `ids`, held-out only if they sample it
        ts = split_tasks(tasks, split, cfg.ids if split == 'train' else ())
        model, tok, _ = load_policy(find_policy(init), cfg.resolved_device())
        kr = KernelReward(tasks, cfg.reward_config(), cfg.eval_config(), cfg.eval_device, str(store), run='baseline', arm='stage2',
                          log_path=out/f'rollouts_{split}.jsonl')
        be = policy_backend(model, tok, 'stage2')   # no training: the fast path
        devname = device_name(cfg.eval_device.split(':')[0])
        ros = evolve(be, PromptSource(ts, cfg.plan(), str(store), devname, seed), kr,
                     steps=1, num_generations=samples, prompts_per_step=len(ts),
                     gen=GenConfig(max_new_tokens=cfg.max_completion_length, temperature=cfg.temperature, top_p=cfg.top_p, seed=seed), split=split)
        res[split] = step_metrics(ros)
    return res


def _cpu_s():
    "CPU seconds used so far by this process and its finished children (user + system)."
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


def ci95(xs, log=False):
    "Mean and a t-based 95 % interval over seeds; with `log`, of the logs (a geometric mean and its interval, always > 0)."
    xs = [x for x in xs if x is not None]
    if log: xs = [math.log(x) for x in xs]
    back = math.exp if log else (lambda v: v)
    if len(xs) < 2: return (back(xs[0]) if xs else None, None, None)
    t = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78}.get(len(xs), 2.26)
    m, h = statistics.fmean(xs), t * statistics.stdev(xs) / math.sqrt(len(xs))
    return back(m), back(m - h), back(m + h)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--init', required=True, help='the stage-2 (selftrain) or sft run directory every arm starts from')
    ap.add_argument('--store', required=True, help='the variant store stages 1-2 wrote (copied for every arm and seed)')
    ap.add_argument('--out', required=True)
    ap.add_argument('--seeds', default='0,1,2')
    ap.add_argument('--arms', default='contrastive,plain,evolve')
    ap.add_argument('--budget', type=float, default=180.0, help='seconds of training per arm and seed')
    ap.add_argument('--baseline-samples', type=int, default=4)
    ap.add_argument('--device', default='cpu', help="where the policy trains and samples: 'cpu', 'cuda' or 'cuda:N', or several GPUs 'cuda:0,cuda:1' (seed i on the i-th)")
    ap.add_argument('--parallel', type=int, default=1, help='arm-seeds run at once, each in its own process')
    ap.add_argument('--world', default='CPU mini-world', help='what the plot calls the task world and devices')
    ap.add_argument('--baseline-from', help="an earlier experiment's OUT directory with the same --init and --store: its baseline.json is the yardstick (not sampled again)")
    ap.add_argument('-p', nargs=2, action='append', default=[], metavar=('KEY', 'VALUE'), help='RLConfig field for every arm')
    ap.add_argument('--plotlyjs', default='inline', help="how curves.html gets plotly.js: 'inline' (a self-contained file, ~5 MB), 'cdn' (loaded from plotly's CDN) or the src of a script beside it, e.g. '../plotly.min.js'")
    ap.add_argument('--rewrite', action='store_true', help="only rewrite the tables and the plot from OUT/summary.json")
    ap.add_argument('--baseline-only', action='store_true', help="only sample the stage-2 policy (OUT/baseline.json) and stop: the arms read it when run with the same OUT")
    a = ap.parse_args(argv)
    if a.rewrite:   # the runs summary.json names, and any arm-seed of --arms x --seeds finished since (its experiment.json)
        sm = json.loads((Path(a.out)/'summary.json').read_text())
        a.budget = sm['budget_s']
        key = lambda k: (k.rsplit('-s', 1)[0], int(k.rsplit('-s', 1)[1]))
        runs = {key(k): v for k, v in sm['runs'].items()}
        seeds = sorted(set(sm['seeds']) | {int(x) for x in a.seeds.split(',')})
        for x in a.arms.split(','):
            for sd in seeds:
                if (f := Path(a.out)/f"{x}-s{sd}"/'experiment.json').exists(): runs[(x, sd)] = json.loads(f.read_text())
        failed = {key(k): v for k, v in sm.get('failed', {}).items() if key(k) not in runs}
        return write_results(Path(a.out), a, a.arms.split(','), seeds, sm['params'], sm['stage2'], runs, time.time() - sm['seconds'], sm['command'], failed, sm.get('git'))
    from cudal1_nb.rl import RLConfig, run_rl
    from cudal1_nb.commands import param_pairs as _params
    out, seeds, arms = Path(a.out), [int(s) for s in a.seeds.split(',')], a.arms.split(',')
    if bad := [x for x in arms if x not in ARMS]: sys.exit(f"unknown arm(s) {bad}; known: {list(ARMS)}")
    params = _params(a.p, None)   # each VALUE as JSON where it parses, else the string (as `cudal1 -p`)
    evs = str(params.get('eval_device', 'cpu'))   # one device, or several ('cuda:2,cuda:3')
    place = lambda seed: placement(a.device, evs, seeds, seed)
    for x in arms:   # refuse bad settings before anything runs
        for d in a.device.split(','):
            for e in evs.split(','): RLConfig.from_params(dict(arm_params(params, x), init=a.init, device=d, eval_device=e))
    ps = [place(sd) for sd in seeds for _ in arms]   # every arm-seed's placement
    if a.parallel > 1 and len(ps) > 1 and all(clash(p, q) for i, p in enumerate(ps) for q in ps[i + 1:]):
        sys.exit(f"--parallel {a.parallel}: no two arm-seeds can run at once: {clash(ps[0], ps[1])}")
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    if a.baseline_from:   # the stage-2 policy as an earlier experiment measured it: same checkpoint, store and sampling
        prev = json.loads((Path(a.baseline_from)/'summary.json').read_text())
        pa = ap.parse_args(shlex.split(prev['command'])[1:])   # its command, read by this parser
        def sampling(ps):   # what `baseline` samples and judges with
            c = RLConfig.from_params({k: v for k, v in _params(ps, None).items() if k != 'eval_device'} | dict(arm='plain', init=a.init))
            return c.temperature, c.top_p, c.max_completion_length, c.reward_config(), c.eval_config()
        if (pa.init, pa.store, pa.baseline_samples, sampling(pa.p)) != (a.init, a.store, a.baseline_samples, sampling(a.p)):
            sys.exit(f"{a.baseline_from} sampled the stage-2 policy otherwise (--init, --store, --baseline-samples or sampling -p): {prev['command']}")
        base = json.loads((Path(a.baseline_from)/'baseline.json').read_text())
    elif (out/'baseline.json').exists(): base = json.loads((out/'baseline.json').read_text())   # going on with an experiment
    else:
        bl_store = out/'baseline.sqlite'; shutil.copy(a.store, bl_store)
        base = baseline(a.init, bl_store, out/'baseline', a.baseline_samples, seeds[0], dict(params, **place(seeds[0])), place(seeds[0])['device'])
        bl_store.unlink()
    (out/'baseline.json').write_text(json.dumps(base, indent=1) + '\n')
    print('stage-2 policy:', json.dumps(base), flush=True)
    if a.baseline_only: return print(f"wrote {out/'baseline.json'} in {time.time() - t0:.0f} s")
    runs, todo, failed = {}, [], {}
    for seed in seeds:
        for x in arms:
            done = out/f"{x}-s{seed}"/'experiment.json'
            if done.exists(): runs[(x, seed)] = json.loads(done.read_text())
            else: todo.append((x, seed))
    jobs = [(x, seed, str(out/f"{x}-s{seed}"), a.store, dict(arm_params(params, x), init=a.init, seed=seed, steps=params.get('steps', 1000),
                                                             time_budget_s=a.budget, **place(seed))) for x, seed in todo]
    def finished(x, seed, get):
        try: s = get()
        except Exception as e:   # one arm-seed's failure (out of GPU memory, say) is recorded; the others go on
            failed[(x, seed)] = f"{type(e).__name__}: {(str(e).splitlines() or [''])[0][:300]}"
            print(f"{x} seed {seed}: FAILED: {failed[(x, seed)]} (run the experiment again with the same OUT to redo it)", flush=True)
        else:
            runs[(x, seed)] = s
            print(f"{x} seed {seed}: {s['steps']} steps, train last {json.dumps(s['train_last'])}, held-out after {json.dumps(s['held_out_after'])}", flush=True)
        write_results(out, a, arms, seeds, params, base, runs, t0, failed=failed)   # after every run: a stopped experiment keeps what it measured
    gpu = 'cuda' in a.device or 'auto' in a.device   # a GPU error (a device-side assert) ends its process's CUDA context: one process per arm-seed
    if (a.parallel > 1 or gpu) and len(jobs) > 1:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor, wait, FIRST_COMPLETED
        with ProcessPoolExecutor(a.parallel, mp_context=mp.get_context('spawn'), max_tasks_per_child=1) as ex:
            pending, futs = list(jobs), {}
            while pending or futs:
                while (k := next_job([j[4] for j in pending], [j[4] for j in futs.values()], a.parallel)) is not None:
                    j = pending.pop(k); futs[ex.submit(run_one, *j)] = j
                done, _ = wait(futs, return_when=FIRST_COMPLETED)
                for f in done: j = futs.pop(f); finished(j[0], j[1], f.result)
    else:
        for j in jobs: finished(j[0], j[1], lambda: run_one(*j))
    print(f"wrote {out} in {time.time() - t0:.0f} s" + (f"; {len(failed)} arm-seed(s) failed: {sorted(f'{x}-s{sd}' for x, sd in failed)}" if failed else ''))
    if failed: sys.exit(1)


def steps_note(s:dict)->str:
    "An arm-seed's optimizer steps as the tables give them: with the updates skipped for non-finite gradients, and whether it resumed."
    return f"{s['steps']}" + (f" ({len(s['skipped_updates'])} skipped)" if s.get('skipped_updates') else '') + (' (resumed)' if s.get('resumed') else '')


def placement(device:str, eval_device:str, seeds:list, seed:int)->dict:
    "Where `seed`'s arms train and are judged: the i-th seed on the i-th listed device and eval device, both lists cycled."
    devs, evs, i = device.split(','), eval_device.split(','), seeds.index(seed)
    return dict(device=devs[i % len(devs)], eval_device=evs[i % len(evs)])


def clash(p:dict, q:dict)->str|None:
    """Why two arm-seeds placed at `p` and `q` (`placement`'s dicts) must not run at once, or None: one trains on a GPU
    that times the other's programs. The device lock keeps one arm's judging apart from another's, not from the other
    arm's generation and updates: a timing beside them is slowed (a launch-bound program's synced time then exceeds its
    event time, and the `unjoined_stream` check flags honest programs). An arm trained and judged on the same GPU, alone
    there, is not disturbed: its trainer holds the lock shared while it works on that GPU."""
    from cudal1_nb.gpus import pick_gpu
    gpu = lambda d: pick_gpu(d.replace('auto', 'cuda'), None) if d == 'auto' or d.startswith('cuda') else None   # 'auto' trains on the first GPU
    for a, b in ((p, q), (q, p)):
        if (g := gpu(a['device'])) is not None and g == gpu(b['eval_device']):
            return (f"an arm-seed trains on {a['device']} and another's programs are timed on {b['eval_device']}, the same GPU: those "
                    f"timings would run beside its generation and updates; run the arms one at a time (--parallel 1), judge on another "
                    f"GPU (-p eval_device cuda:N), or give each seed its own GPU for both (--device cuda:0,cuda:1 -p eval_device cuda:0,cuda:1)")
    return None


def next_job(pending:list, running:list, parallel:int)->int|None:
    "The index of the first of the `pending` placements that may start beside the `running` ones (at most `parallel`), or None."
    if len(running) >= parallel: return None
    return next((i for i, p in enumerate(pending) if not any(clash(p, r) for r in running)), None)


def run_one(arm, seed, run_dir, store, params):
    "One arm-seed in `run_dir` from a private copy of `store` (resumed if begun); its summary with wall and CPU seconds, also in experiment.json."
    from cudal1_nb.rl import RLConfig, run_rl
    rd = Path(run_dir); rd.mkdir(parents=True, exist_ok=True)
    st = rd/'store.sqlite'
    resumed = st.exists()
    if not resumed: shutil.copy(store, st)
    first = last_eval_id(store)   # the evaluations after it are this run's
    cfg = RLConfig.from_params(dict(params, db=str(st)))
    t1, c1 = time.time(), _cpu_s()
    s = run_rl(cfg, rd, progress=False)
    s['wall_s'], s['cpu_s'] = round(time.time() - t1, 1), round(_cpu_s() - c1, 1)   # cpu_s: this process and its reaped children (sandbox workers)
    s['resumed'] = resumed
    s['step_split'], s['judged'] = step_split(rd), judged_programs(rd)
    keep_evals(st, first, rd/'evals.jsonl.gz')
    st.unlink()   # the programs are in rollouts.jsonl, their evaluations in evals.jsonl.gz; the store copy is large and per-run
    (rd/'experiment.json').write_text(json.dumps(s, indent=1) + '\n')
    return s


def last_eval_id(store)->int:
    "The highest evaluation row id in a store file (0 for none), read without writing to it."
    import sqlite3
    with contextlib.closing(sqlite3.connect(f'file:{Path(store).resolve()}?mode=ro', uri=True)) as db:
        return db.execute('SELECT MAX(id) FROM evaluations').fetchone()[0] or 0


def keep_evals(store, after:int, path)->int:
    """The evaluations a run added to its store copy (row id above `after`), one `EvalResult` per line, gzipped at `path`
    (read with `cudal1_nb.store.read_evals`): each job's timeline (`meta`: job seconds, device-lock holds) outlives the
    copy. Returns how many."""
    import gzip
    from cudal1_nb.core import atomic_write
    from cudal1_nb.store import Store
    with Store(store) as s: new = [e for i, e in s.evals(ids=True) if i > after]
    atomic_write(path, gzip.compress(''.join(e.to_json() + '\n' for e in new).encode()))
    return len(new)


def step_split(rd):
    """Median seconds per step of a run (curves.json's step_times): whole step, generation, reward (the trainer waits),
    update; the reward's share of all steps; and sampling's completion tokens per second of generation (the trainer log's
    mean completion length times the completions a step samples, over the generation seconds); `trained_s`, the sum of
    TRL's own step times (generation, reward and backward of every step, kept in its checkpoints across resumes)."""
    cv = json.loads((Path(rd)/'curves.json').read_text())
    times, log = cv.get('step_times', []), cv.get('trainer_log', [])
    med = lambda k: round(statistics.median(t.get(k, 0.0) for t in times), 2) if times else None
    c = json.loads((Path(rd)/'config.json').read_text())['config']
    per_step = c['prompts_per_step'] * c['num_generations']
    lens = {h['step']: h['completions/mean_length'] for h in log if 'completions/mean_length' in h}
    timed = [t for t in times if t['step'] + 1 in lens]   # a step's record is 0-based, the trainer log's 1-based
    gen = sum(t.get('generate_s', 0.0) for t in timed)
    return dict(steps=len(times), seconds=med('seconds'), generate_s=med('generate_s'), reward_s=med('reward_s'), update_s=med('update_s'),
                reward_share=round(sum(t.get('reward_s', 0) for t in times) / max(sum(t['seconds'] for t in times), 1e-9), 3) if times else None,
                tokens_per_s=round(sum(lens[t['step'] + 1] * per_step for t in timed) / gen, 1) if gen > 0 else None,
                trained_s=round(sum(h['step_time'] for h in log if isinstance(h.get('step_time'), (int, float))), 1))


def judged_programs(rd)->int:
    "The programs the judge ran for a run: its rollouts (both splits) with a program that was not a cached result."
    from cudal1_nb.rl_metrics import read_rollouts
    return sum(r.candidate_id is not None and not r.cached for r in read_rollouts(Path(rd)/'rollouts.jsonl'))


def write_results(out, a, arms, seeds, params, base, runs, t0, command=None, failed=None, git=None):
    "summary.json, table.md and curves.html over the runs finished so far: each arm over the seeds it finished (the count in its row); failed arm-seeds named."
    from cudal1_nb.rl_metrics import read_rollouts, curves
    from cudal1_nb.core import git_info
    failed = failed or {}
    per = {x: [s for s in seeds if (x, s) in runs] for x in arms}
    if not any(per.values()) and not failed: return   # nothing to say yet; a failure alone is said
    arms = [x for x in arms if per[x]]
    rows = []
    for x in arms:
        for split, key in (('train', 'train_last'), ('held-out', 'held_out_after')):
            r = dict(arm=x, split=split, seeds=len(per[x]))
            for m in SHOW:
                mean, lo, hi = ci95([runs[(x, s)][key].get(m) for s in per[x]], log=m.startswith('gmean'))
                r[m] = mean; r[m + '_ci'] = [lo, hi]
            if split == 'train':
                mean, lo, hi = ci95([runs[(x, s)]['train_best_gmean'] for s in per[x]], log=True); r['best_gmean'], r['best_gmean_ci'] = mean, [lo, hi]
            b = base.get(split) or {}
            r['ratio_to_stage2'] = r['gmean'] / b['gmean'] if r['gmean'] and b.get('gmean') else None
            rows.append(r)
    summary = dict(command=command or shlex.join(sys.argv),   # quoted: --baseline-from reads it back
                   git=git or git_info(), budget_s=a.budget, seeds=seeds, params=params, stage2=base, table=rows,
                   runs={f"{x}-s{s}": v for (x, s), v in runs.items()}, failed={f"{x}-s{s}": v for (x, s), v in failed.items()},
                   seconds=round(time.time() - t0, 1))
    (out/'summary.json').write_text(json.dumps(summary, indent=1) + '\n')
    fmt = lambda v: '—' if v is None else f"{v:.3f}"
    lines = ['| arm | split | seeds | correct | fast_1 | gmean sampled (95 % CI over seeds, on the logs) | gmean correct | tasks with a correct sample | best-so-far gmean | / stage 2 |', '|---|---|---|---|---|---|---|---|---|---|']
    for r in rows:
        ci = r['gmean_ci']
        lines.append(f"| {r['arm']} | {r['split']} | {r['seeds']} | {fmt(r['correct'])} | {fmt(r['fast_1'])} | {fmt(r['gmean'])} [{fmt(ci[0])}, {fmt(ci[1])}] | "
                     f"{fmt(r['gmean_correct'])} | {fmt(r['tasks_correct'])} | {fmt(r.get('best_gmean'))} | {fmt(r['ratio_to_stage2'])} |")
    lines.append(f"| stage 2 | train | - | {fmt(base['train']['correct'])} | {fmt(base['train']['fast_1'])} | {fmt(base['train']['gmean'])} | {fmt(base['train']['gmean_correct'])} | {fmt(base['train'].get('tasks_correct'))} | | 1.000 |")
    if 'held-out' in base:
        lines.append(f"| stage 2 | held-out | - | {fmt(base['held-out']['correct'])} | {fmt(base['held-out']['fast_1'])} | {fmt(base['held-out']['gmean'])} | {fmt(base['held-out']['gmean_correct'])} | {fmt(base['held-out'].get('tasks_correct'))} | | 1.000 |")
    lines += ['', '| arm | steps (per seed) | judged programs (per seed) | step s (median) | generation s | reward s (trainer waits) | update s | reward share of the step | sampled tokens/s | trained s (per seed, all steps) |', '|---|---|---|---|---|---|---|---|---|---|']
    for x in arms:
        sp = [runs[(x, s)].get('step_split') or {} for s in per[x]]
        md = lambda k: fmt(statistics.median(v[k] for v in sp if v.get(k) is not None)) if any(v.get(k) is not None for v in sp) else '—'
        lines.append(f"| {x} | {', '.join(steps_note(runs[(x, s)]) for s in per[x])} | {', '.join(str(runs[(x, s)].get('judged', '—')) for s in per[x])} | "
                     f"{md('seconds')} | {md('generate_s')} | {md('reward_s')} | {md('update_s')} | {md('reward_share')} | {md('tokens_per_s')} | "
                     f"{', '.join(fmt((runs[(x, s)].get('step_split') or {}).get('trained_s')) for s in per[x])} |")
    lines += [f"\nfailed, not in the tables: {k}-s{s}: {v}" for (k, s), v in sorted(failed.items())]
    (out/'table.md').write_text('\n'.join(lines) + '\n')
    print('\n'.join(lines))
    try:
        import plotly.graph_objects as go
        from plotly.subplots import make_subplots
        panels = (('correct', 'correct (train)'), ('fast_1', 'fast_1 (train)'), ('gmean', 'gmean sampled speedup (train)'),
                  ('reward', 'mean reward (train)'), ('kl', 'KL from the start policy (trainer log)'),
                  ('repeat_fast', 'faster programs repeating an exemplar (train)'))   # an arm whose prompts show none draws no line
        fig = make_subplots(rows=1, cols=len(panels), subplot_titles=[t for _, t in panels])
        colors = dict(contrastive='#1f77b4', plain='#ff7f0e', evolve='#2ca02c')
        for x in arms:
            cv = {s: {r['step']: r for r in curves(read_rollouts(out/f"{x}-s{s}"/'rollouts.jsonl')) if r['split'] == 'train'} for s in per[x]}
            for s in per[x]:   # the trainer's KL, logged at its 1-based step: the rollouts' step before it
                cf = out/f"{x}-s{s}"/'curves.json'
                for h in (json.loads(cf.read_text()).get('trainer_log', []) if cf.exists() else []):
                    if 'kl' in h and h['step'] - 1 in cv[s]: cv[s][h['step'] - 1]['kl'] = h['kl']
            steps = sorted({st for rs in cv.values() for st in rs})
            for i, (m, _) in enumerate(panels, 1):
                vals = [[rs[st][m] for rs in cv.values() if st in rs and rs[st].get(m) is not None] for st in steps]
                if not any(vals): continue
                mean = [statistics.fmean(v) if v else None for v in vals]
                lo, hi = [min(v) if v else None for v in vals], [max(v) if v else None for v in vals]
                fig.add_trace(go.Scatter(x=steps + steps[::-1], y=hi + lo[::-1], fill='toself', line=dict(width=0), fillcolor=colors[x], opacity=0.15,
                                         showlegend=False, hoverinfo='skip'), row=1, col=i)
                fig.add_trace(go.Scatter(x=steps, y=mean, mode='lines', name=x, line=dict(color=colors[x]), showlegend=i == 1), row=1, col=i)
        for i, (m, _) in enumerate(panels, 1):
            if base['train'].get(m) is not None: fig.add_hline(y=base['train'][m], line=dict(dash='dot', color='grey'), row=1, col=i)
        fig.update_layout(title=f"{a.world}, seeds per arm: {', '.join(f'{x} {len(per[x])}' for x in arms)}, {a.budget:.0f} s per arm (band: min-max over seeds; dotted: stage-2 policy)", height=380)
        fig.write_html(str(out/'curves.html'), include_plotlyjs=True if a.plotlyjs == 'inline' else a.plotlyjs)
    except ImportError: pass


if __name__ == '__main__': main()
