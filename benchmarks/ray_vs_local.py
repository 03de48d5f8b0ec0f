"""Ray executor vs the local pool: the same audit (release programs that build no extension) run alternately through
each, wall time per run, and whether the verdicts agree.

    python benchmarks/ray_vs_local.py RELEASE.jsonl --device cuda --n 24 --reps 2 --budget 0.5 [--json OUT.json]
    python benchmarks/ray_vs_local.py tests/fixtures/release_small.jsonl --device cpu --n 1 --reps 1 --budget 0.05   # on the CPU

The Ray cluster is a local one on this machine (`ray.init(num_gpus=..., num_cpus=...)`), started once before the
first run (its start is reported apart); the Ray executor is then kept across runs, as the RL reward keeps it, and its
first run (actors placed, their sandbox workers started) is reported apart from the warm ones. The local pool starts its
workers in every run, as `audit` always does. Runs alternate local, ray, local, ray... so drift of the machine falls on
both sides.
"""
import argparse, json, os, statistics, sys, tempfile, time
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from cudal1_nb.audit import audit, release_items
from cudal1_nb.eval import EvalConfig
from cudal1_nb.job.builds import needs_compile

def pick_ids(release:str, # a release file
             n:int, # at most this many programs
            )->list:
    "The ids ('L1/1') of the first `n` programs of `release` that build no extension (neither they nor their task's reference)."
    items, _ = release_items(release)
    return [f"L{t.level}/{t.num}" for t, c, _ in items if c is not None and not needs_compile(c.code) and not needs_compile(t.code)][:n]

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('release'); ap.add_argument('--device', default='cuda'); ap.add_argument('--n', type=int, default=24)
    ap.add_argument('--reps', type=int, default=2); ap.add_argument('--budget', type=float, default=0.5); ap.add_argument('--json')
    a = ap.parse_args(argv)
    if a.device == 'cuda':
        import torch
        if not torch.cuda.is_available(): sys.exit("ray_vs_local: --device cuda needs a CUDA GPU (torch sees none); give --device cpu")
    ids = pick_ids(a.release, a.n)
    if not ids: sys.exit(f"ray_vs_local: no program of {a.release} builds no extension: nothing to run")
    import ray
    t0 = time.time()
    ray.init(num_cpus=os.cpu_count(), include_dashboard=False, log_to_driver=False)
    ray_start = time.time() - t0
    runs = []
    for rep in range(a.reps + 1):   # rep 0: Ray's cold run (actors started) beside a local run
        for kind in ('local', 'ray'):
            cfg = EvalConfig(budget_s=a.budget, executor=kind, policy='audit')
            with tempfile.TemporaryDirectory() as d:
                t = time.time()
                s = audit(a.release, device=a.device, cfg=cfg, ids=ids, out_dir=d, show=False)
                wall = time.time() - t
            runs.append(dict(rep=rep, executor=kind, wall_s=round(wall, 2), verdicts=s['verdicts'],
                             by_task={r['task']: r['verdict'] for r in s['rows']}, gmean=s['gmean_measured_eager']))
            print(f"rep {rep} {kind:5s} {wall:7.1f} s  {s['verdicts']}  gmean {s['gmean_measured_eager']}", flush=True)
    warm = lambda k: [r['wall_s'] for r in runs if r['executor'] == k and r['rep'] > 0]
    lw, rw = warm('local'), warm('ray')
    agree = all(r['by_task'] == runs[0]['by_task'] for r in runs)
    summ = dict(programs=len(ids), ids=ids, budget_s=a.budget, device=a.device, ray_cluster_start_s=round(ray_start, 1),
                ray_cold_s=[r['wall_s'] for r in runs if r['executor'] == 'ray' and r['rep'] == 0][0],
                local_first_s=[r['wall_s'] for r in runs if r['executor'] == 'local' and r['rep'] == 0][0],
                local_s=lw, ray_s=rw, ratio_median=round(statistics.median(rw) / statistics.median(lw), 4), verdicts_agree=agree, runs=runs)
    print(f"\n{len(ids)} programs, budget {a.budget} s: local {lw} s, ray (warm) {rw} s, median ratio ray/local {summ['ratio_median']}; "
          f"ray cold run {summ['ray_cold_s']} s (cluster start {summ['ray_cluster_start_s']} s apart); verdicts agree across all runs: {agree}")
    if a.json: open(a.json, 'w').write(json.dumps(summ, indent=1) + '\n')
    ray.shutdown()

if __name__ == '__main__': main()
