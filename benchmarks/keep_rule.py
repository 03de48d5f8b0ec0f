"""Stage 2's keep rule, measured: `keep=correct` (the paper) against `keep=fast` (correct and faster than the reference
beyond the harness's noise), from one stage-1 checkpoint, several seeds. Each run is one self-training round (round 0:
sample the stage-1 policy, fine-tune on what the rule keeps), then the fine-tuned policy is sampled and judged the same
way without training again (reported as round 1) -- so round 1 is the rule's effect. Every run gets its own copy of the store and, with --parallel > 1, its own CPU cores.

    python benchmarks/keep_rule.py --init SFT_RUN --store STORE.sqlite --out OUT [--keeps correct,fast] [--seeds 0,1]
        [--parallel 1] [--cores-per-run 2] [-p KEY VALUE ...]   # KEY: SelfTrainConfig fields (samples, steps, temperature...)

Writes OUT/<keep>-s<seed>/ (selftrain run directories), OUT/summary.json and OUT/table.md.
"""
import argparse, json, os, shutil, subprocess, sys, time
from pathlib import Path
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package

ROOT = str(Path(__file__).resolve().parents[1])   # the checkout, whose package each run imports

CHILD = """
import json, os, sys
cores = json.loads(os.environ['KEEP_RULE_CORES'])
if cores: os.sched_setaffinity(0, cores)
from pathlib import Path
from cudal1_nb.selftrain import SelfTrainConfig, run_selftrain, sample_round, round_report
from cudal1_nb.checkpoint import load_policy
from cudal1_nb.tasks import load_tasks, split_tasks
from cudal1_nb.store import Store
from cudal1_nb.core import seed_everything
cfg = SelfTrainConfig.from_params(json.loads(sys.argv[1]))
rd = Path(sys.argv[2])
summ = run_selftrain(cfg, rd, progress=False)   # one round: sample, judge, keep, fine-tune
if len(summ['rounds']) == 1 and summ['kept']:   # the fine-tuned policy, sampled and judged as round 0 was (no training)
    seed_everything(cfg.seed + 1)
    model, tok, _ = load_policy(rd/'model', cfg.sft_config().resolved_device())
    tasks = split_tasks(load_tasks(cfg.suite, validate=False), cfg.split, cfg.ids)
    with Store(cfg.db or None) as st: pairs, counts = sample_round(model, tok, tasks, cfg, 1, f"{rd.name}/model", store=st, progress=False)
    (rd/'after.json').write_text(json.dumps(round_report(1, pairs, counts, cfg.samples * len(tasks), []), default=str))   # beside the finished run
"""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--init', required=True); ap.add_argument('--store', required=True); ap.add_argument('--out', required=True)
    ap.add_argument('--keeps', default='correct,fast'); ap.add_argument('--seeds', default='0,1')
    ap.add_argument('--parallel', type=int, default=1); ap.add_argument('--cores-per-run', type=int, default=2)
    ap.add_argument('-p', nargs=2, action='append', default=[], metavar=('KEY', 'VALUE'))
    a = ap.parse_args(argv)
    from cudal1_nb.selftrain import SelfTrainConfig
    from cudal1_nb.commands import param_pairs as _params
    params = dict(rounds=1, samples=2, temperature=0.5, steps=40, time_budget_s=0, expected_steps_per_s=-1)
    params.update(_params(a.p, None))   # each VALUE as JSON where it parses, else the string (as `cudal1 -p`)
    runs = [(k, int(s)) for k in a.keeps.split(',') for s in a.seeds.split(',')]
    if not Path(a.store).is_file(): sys.exit(f"keep_rule: --store {a.store}: no such file (each run starts from a copy of it)")
    for k, s in runs:   # refuse bad settings before anything runs
        try: SelfTrainConfig.from_params(dict(params, keep=k, seed=s, init=a.init))
        except (ValueError, TypeError, FileNotFoundError) as e: sys.exit(f"keep_rule: keep={k} seed={s}: {e}")
    out = Path(a.out); out.mkdir(parents=True, exist_ok=True)
    t0, todo, live, done = time.time(), list(runs), {}, {}
    free = [list(range(i * a.cores_per_run, (i + 1) * a.cores_per_run)) for i in range(a.parallel)] if a.parallel > 1 else [[]]
    while todo or live:
        while todo and free:
            k, s = todo.pop(0); cores = free.pop(0)
            rd = out/f"{k}-s{s}"; rd.mkdir(exist_ok=True); shutil.copy(a.store, rd/'store.sqlite')
            env = dict(os.environ, KEEP_RULE_CORES=json.dumps(cores), **({'OMP_NUM_THREADS': str(len(cores))} if cores else {}),
                       PYTHONPATH=os.pathsep.join([ROOT] + [p for p in [os.environ.get('PYTHONPATH')] if p]))   # the checkout's package
            p = dict(params, keep=k, seed=s, init=a.init, db=str(rd/'store.sqlite'))
            log = open(rd/'log.txt', 'w')
            live[(k, s)] = (subprocess.Popen([sys.executable, '-c', CHILD, json.dumps(p), str(rd)], env=env, stdout=log, stderr=subprocess.STDOUT), cores, time.time())
        time.sleep(2)
        for key, (proc, cores, t1) in list(live.items()):
            if proc.poll() is None: continue
            del live[key]; free.append(cores)
            rd = out/f"{key[0]}-s{key[1]}"
            if proc.returncode: print(f"{key}: failed (exit {proc.returncode}); see {rd/'log.txt'}", flush=True); continue
            done[key] = dict(json.loads((rd/'summary.json').read_text()), wall_s=round(time.time() - t1, 1))
            if (rd/'after.json').exists(): done[key]['rounds'].append(json.loads((rd/'after.json').read_text()))
            (rd/'store.sqlite').unlink(missing_ok=True)
            print(f"{key}: {json.dumps([{m: r.get(m) for m in ('round', 'correct', 'fast_1', 'gmean', 'new_programs')} for r in done[key]['rounds']])}", flush=True)
    rows = []
    for (k, s), sm in sorted(done.items()):
        r = {i: x for i, x in enumerate(sm['rounds'])}
        row = dict(keep=k, seed=s, kept_r0=r[0]['new_programs'], wall_s=sm['wall_s'])
        for i in (0, 1):
            for m in ('correct', 'fast_1', 'gmean', 'tasks_correct'): row[f"{m}_r{i}"] = r.get(i, {}).get(m)
        rows.append(row)
    cols = ['keep', 'seed', 'correct_r0', 'fast_1_r0', 'gmean_r0', 'kept_r0', 'correct_r1', 'fast_1_r1', 'gmean_r1', 'tasks_correct_r1', 'wall_s']
    f = lambda v: '—' if v is None else f"{v:.3f}" if isinstance(v, float) else str(v)
    md = ['| ' + ' | '.join(cols) + ' |', '|' + '---|' * len(cols)] + ['| ' + ' | '.join(f(r[c]) for c in cols) + ' |' for r in rows]
    (out/'table.md').write_text('\n'.join(md) + '\n')
    (out/'summary.json').write_text(json.dumps(dict(command=' '.join(sys.argv), params=params, rows=rows, seconds=round(time.time() - t0, 1)), indent=1) + '\n')
    print('\n'.join(md))


if __name__ == '__main__': main()
