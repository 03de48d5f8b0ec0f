"""The RL reward's pace on the programs a policy writes: recorded completions replayed through `KernelReward` in the
batches a trainer sent them, one call per batch, with the RL stage's harness settings.

    python benchmarks/reward_replay.py ROLLOUTS.jsonl.gz [...] [--n 160] [--device cuda] [--json OUT] [--evals FILE]

ROLLOUTS are a run's `rollouts.jsonl` (gzipped or not; e.g. the SmolLM2 runs in
`results/2026-11-27-smollm2-three-stages-minibench-4xh200/`): their training rollouts, grouped by (run, step) as the
trainer scored them, in file order, until `--n` completions; each batch is one `score` call of one `KernelReward`, made
once (as a trainer makes it) with a fresh variant store and the RL stage's evaluation settings (`RLConfig().eval_config()`,
`--budget` its timing budget). Prints per call the completions, the programs judged (parsed and not judged before in
this run), the seconds and programs/s; then the totals: programs/s over the calls' whole wall time, the exclusive
holds of the device lock summed over every process of every result (`meta.holds`, `meta.processes[].holds`) -- the
floor: no reward can judge faster than one program per (sum / programs) seconds on one GPU -- and the lock's
occupancy, that sum over the calls' wall time. Runs against any version of the package on `PYTHONPATH` (the same
rollouts before and after a change) that has `cudal1_nb.jsonl` (`device_replay.sh` adds it to an older one). `--evals FILE` writes every result (JSONL) for `benchmarks/audit_timeline.py`."""
import argparse, collections, dataclasses, json, os, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, os.environ.get('CUDAL1_PACKAGE_ROOT') or str(Path(__file__).resolve().parents[1]))   # run from a checkout without installing


def read_batches(paths:list, # rollouts files (JSONL, gzipped or not)
                 n:int, # completions at most
                 split:str='train', # the rollouts' split to take
                )->list:
    "[[rollout dict, ...], ...]: the training rollouts grouped by (file, run, step) as they were scored, in file order, until `n` completions."
    from cudal1_nb.jsonl import load_jsonl   # the package's reader (gzipped or not), from the root put first on the path above
    out, total = [], 0
    for p in paths:
        rows = load_jsonl(p)
        by = collections.OrderedDict()
        for r in rows:
            if r.get('split', 'train') == split: by.setdefault((r['run'], r['step']), []).append(r)
        for b in by.values():
            if total >= n: return out
            out.append(b[:n - total]); total += len(out[-1])
    return out


def ex_holds(r)->float:
    "Seconds result `r` held the device lock exclusively, over every job behind it (`audit_timeline.holds`: every process, its reference job)."
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path: sys.path.insert(0, here)   # once, not per result
    from audit_timeline import holds   # imported here: its module puts this checkout first on the path, after the package under test is loaded
    return sum(sec for _, sec, _ in holds([r.to_dict()], 'ex'))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('rollouts', nargs='+'); ap.add_argument('--n', type=int, default=160)
    ap.add_argument('--device', default='cuda'); ap.add_argument('--budget', type=float, default=0.0, help="timing budget per side (0: the RL stage's)")
    ap.add_argument('--json', default=''); ap.add_argument('--evals', default='')
    ap.add_argument('--workers', type=int, default=0, help="jobs at once on the judging device (0: the harness's default)")
    ap.add_argument('--gap', type=float, default=0.0, help="seconds between calls, as a trainer's generation and update take (not counted)")
    a = ap.parse_args(argv)
    base = tempfile.mkdtemp(prefix='cudal1-replay-')
    os.environ.setdefault('CUDAL1_BASE_DIR', base)
    import cudal1_nb
    from cudal1_nb.rl import KernelReward, RLConfig
    from cudal1_nb.tasks import load_tasks
    from cudal1_nb.eval import harness_version
    batches = read_batches(a.rollouts, a.n)
    if not batches: sys.exit(f"{', '.join(a.rollouts)}: no training rollouts")
    tasks = load_tasks('minibench', validate=False)
    rl = RLConfig(**({'budget_s': a.budget} if a.budget else {}))
    ecfg = rl.eval_config()
    if a.workers: ecfg = dataclasses.replace(ecfg, workers=a.workers)
    kr = KernelReward(tasks, rl.reward_config(), ecfg, device=a.device, db=str(Path(base)/'replay.sqlite'), run='replay', arm='replay')
    results = {}
    kr.on_result = lambda c, r: results.__setitem__(c.code_hash, r)
    rows, t_all = [], time.time()
    print(f"package {cudal1_nb.__file__}, harness {harness_version()}, device {a.device}, {sum(map(len, batches))} completions in {len(batches)} calls", flush=True)
    for i, b in enumerate(batches):
        if i and a.gap: time.sleep(a.gap)
        n0 = len(results)
        t0 = time.time()
        ros = kr.score(['(replayed)'] * len(b), [r['completion'] for r in b], [r['task_id'] for r in b], step=i)
        dt = time.time() - t0
        judged = len(results) - n0
        row = dict(call=i, completions=len(b), judged=judged, seconds=round(dt, 2), programs_per_s=round(judged / dt, 2) if dt else None,
                   verdicts=dict(collections.Counter(r.verdict for r in ros)))
        rows.append(row); print(json.dumps(row), flush=True)
    wall = sum(r['seconds'] for r in rows)
    judged = sum(r['judged'] for r in rows)
    ex = sum(ex_holds(r) for r in results.values())
    host = next((r.meta.get('host') for r in results.values() if r.meta.get('host')), None)
    out = dict(rollouts=a.rollouts, device=a.device, workers=a.workers or None, gap_s=a.gap, gpus=[__import__('torch').cuda.get_device_name(0)] if a.device.startswith('cuda') else [],
               cores=os.cpu_count(), harness=harness_version(), package=cudal1_nb.__file__, completions=sum(map(len, batches)), calls=len(batches),
               judged=judged, seconds=round(wall, 1), programs_per_s=round(judged / wall, 3) if wall else None,
               exclusive_s=round(ex, 1), floor_s_per_program=round(ex / judged, 3) if judged else None,
               lock_occupancy=round(ex / wall, 3) if wall else None, processes=sum(len(r.meta.get('processes') or [1]) for r in results.values()),
               verdicts=dict(collections.Counter(r.verdict for r in results.values())), host=host, calls_detail=rows,
               first_call_s=rows[0]['seconds'], later_programs_per_s=round(sum(r['judged'] for r in rows[1:]) / sum(r['seconds'] for r in rows[1:]), 3) if len(rows) > 1 else None)
    print(f"{judged} programs judged in {wall:.1f} s of reward calls: {out['programs_per_s']} programs/s ({out['later_programs_per_s']} after the first call); "
          f"exclusive holds {ex:.1f} s ({out['floor_s_per_program']} s per program: at most {round(judged / ex, 2) if ex else '-'} programs/s), lock occupancy {out['lock_occupancy']}; "
          f"{out['processes']} processes; verdicts {out['verdicts']}; host {host}")
    if a.json: Path(a.json).write_text(json.dumps(out, indent=1) + '\n')
    if a.evals: Path(a.evals).write_text(''.join(r.to_json() + '\n' for r in results.values()))
    kr.close() if hasattr(kr, 'close') else None


if __name__ == '__main__': main()
