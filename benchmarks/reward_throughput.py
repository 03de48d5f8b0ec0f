"""Throughput of the RL reward on never-compiled programs: a batch of real kernels replayed through `KernelReward`, as
one RL step would hand them over, with an empty build cache.

    python benchmarks/reward_throughput.py RELEASE.jsonl [RELEASE2.jsonl ...] [--n 64] [--batch 32] [--device cuda]
        [--budget 0.3] [--executor local|ray] [--json OUT]

RELEASE is a CUDA-L1 release file (e.g. h100.jsonl, or gzipped): its programs that compile an extension (`load_inline`)
are taken, from each release in turn (a program already taken from an earlier one is skipped), first `--n` of them
(`--all`: then the programs that build none, after all that do, for a batch larger than the releases' 138 distinct
extension programs; `--fill`: past the five releases' 415 distinct programs, copies of the extension programs, each with
a comment line appended, so a new source that builds and is judged anew), each answered as a model would (the program in
a fenced block), in batches of `--batch` (one `KernelReward` call each, the whole batch judged concurrently in the
sandboxed pool). The base directory (so the extension build cache) is a fresh temporary directory unless `--warm` is
given. Prints per batch and in total: programs judged per minute, the verdicts, the build time summed over programs
(`meta.build_s`), where the device lock was held (`meta.locked_s`), and the re-measurement campaigns of the call's
outliers (when each started, its programs, its seconds). `--evals FILE` writes every result (JSONL) for
`benchmarks/audit_timeline.py`; while the call runs, each first result goes to `FILE.partial` as it comes and a line
every 16 results says how many are judged, so a stopped run keeps them. Builds use the precompiled `torch/extension.h`
(`cudal1_nb.pch`) unless `--no-pch`; with `--warm` a header made by an earlier run is used (copy
`$CUDAL1_BASE_DIR/ext_cache/_pch` alone into a fresh base directory for never-compiled programs with a made header)."""
import argparse, json, os, statistics, sys, tempfile, time, collections
from pathlib import Path
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser


def _gpus(device:str)->list:
    "The names of the GPUs this host's torch sees ([] on the CPU)."
    if device != 'cuda': return []
    import torch
    return [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]


COPY_NOTE = ' of this program: a new source, built anew\n'   # the end of the comment line a copy gets (`pick_programs`)


def pick_programs(releases:list, # CUDA-L1 release files, in the order their programs are taken
                  n:int, # how many programs at most
                  all_programs:bool=False, # after those that build an extension, those that build none
                  fill:bool=False, # past the distinct programs, copies of the extension ones, each a new source
                  levels:list|None=None, # KernelBench levels to keep (None: all)
                 )->list:
    "[(task, program code)]: distinct programs, extension builders first; a copy ends with a comment line naming it."
    from cudal1_nb.audit import release_items
    picked, seen = [], set()
    rels = [release_items(rel, levels=levels)[0] for rel in releases]
    for ext in ((True, False) if all_programs else (True,)):
        for items in rels:
            for t, c, _ in items:
                if c is not None and ('load_inline' in c.code) == ext and c.code not in seen: seen.add(c.code); picked.append((t, c.code))
    picked = picked[:n]
    ext = [(t, code) for t, code in picked if 'load_inline' in code]
    k = 0
    while fill and ext and len(picked) < n:   # copy k+1 of each extension program in turn: new code hash, new build directory
        t, code = ext[k % len(ext)]
        picked.append((t, code + f"\n# copy {1 + k // len(ext)}{COPY_NOTE}")); k += 1
    return picked


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('release', nargs='+'); ap.add_argument('--n', type=int, default=64); ap.add_argument('--batch', type=int, default=32)
    ap.add_argument('--device', default='cuda'); ap.add_argument('--budget', type=float, default=0.3)
    ap.add_argument('--workers', type=int, default=0); ap.add_argument('--levels', default='')
    ap.add_argument('--all', action='store_true', help='after the programs that build an extension, those that build none')
    ap.add_argument('--fill', action='store_true', help='past the distinct programs, copies of those that build an extension, each with a comment line added (a new source: built and judged anew)')
    ap.add_argument('--executor', default='local', choices=('local', 'ray'), help="where the jobs run (EvalConfig.executor): 'ray' spreads them over the GPUs of a Ray cluster (a local one unless RAY_ADDRESS is set)")
    ap.add_argument('--warm', action='store_true', help='keep the existing build cache (default: a cold one)')
    ap.add_argument('--json', default='')
    ap.add_argument('--evals', default='', help='write every EvalResult here (JSONL), for benchmarks/audit_timeline.py')
    ap.add_argument('--no-pch', action='store_true', help='builds without the precompiled torch/extension.h (EvalConfig.pch=False)')
    a = ap.parse_args(argv)
    if not a.warm: os.environ['CUDAL1_BASE_DIR'] = tempfile.mkdtemp(prefix='cudal1-reward-')
    from cudal1_nb.rl import KernelReward, RewardConfig
    from cudal1_nb.verify import verification_config
    from cudal1_nb.prompts import fence
    from dataclasses import replace
    picked = pick_programs(a.release, a.n, all_programs=a.all, fill=a.fill, levels=[int(x) for x in a.levels.split(',') if x] or None)
    if not picked: sys.exit(f"{', '.join(a.release)}: no program to judge (without --all: none that builds an extension)")
    if len(picked) < a.n: print(f"only {len(picked)} distinct programs in {', '.join(a.release)} (asked for {a.n}; --fill adds copies)", flush=True)
    copies = sum(code.endswith(COPY_NOTE) for _, code in picked)
    tasks = list({t.id: t for t, _ in picked}.values())
    cfg = replace(verification_config(0, a.budget, a.workers), policy='strict', pch=not a.no_pch, executor=a.executor)
    from cudal1_nb.eval import pch_dir, harness_version
    had = sorted(str(p.parent) for p in pch_dir().glob('*/made.json'))   # headers made before this run (--warm)
    kr = KernelReward(tasks, RewardConfig(), cfg, device=a.device, db=str(Path(os.environ.get('CUDAL1_BASE_DIR', tempfile.mkdtemp()))/'reward.sqlite'), run='throughput')
    rows, t_all = [], time.time()
    part = open(a.evals + '.partial', 'w') if a.evals else None   # each first result as it comes: a stopped run keeps them
    done = [0]
    def _progress(c, r):
        done[0] += 1
        if part is not None: part.write(r.to_json() + '\n'); part.flush()
        if done[0] % 16 == 0: print(f"{done[0]} judged after {time.time() - t_all:.0f} s", flush=True)
    kr.on_result = _progress
    for b in range(0, len(picked), a.batch):
        batch = picked[b:b + a.batch]
        t0 = time.time()
        ros = kr.score(['(replayed)'] * len(batch), [fence(code) for _, code in batch], [t.id for t, _ in batch], step=b // a.batch)
        dt = time.time() - t0
        evs = [kr.cache[k] for k in kr.cache if k[0] in {t.id for t, _ in batch}]
        build = [e.meta.get('build_s') for e in evs if e.meta.get('build_s') is not None]
        locked = [e.meta.get('locked_s') for e in evs if e.meta.get('locked_s') is not None]
        row = dict(batch=b // a.batch, programs=len(batch), seconds=round(dt, 1), per_min=round(60 * len(batch) / dt, 1),
                   verdicts=dict(collections.Counter(r.verdict for r in ros)), build_s_sum=round(sum(build), 1),
                   build_s_median=round(statistics.median(build), 1) if build else None, locked_s_sum=round(sum(locked), 1),
                   remeasure_batches=[dict(start_s=round(r['at'] - t0, 1), n=r['n'], seconds=r['seconds'])
                                      for r in kr.remeasure_batches if r['step'] == b // a.batch])   # the outliers' second campaigns, from the call's start
        rows.append(row); print(json.dumps(row), flush=True)
    total = time.time() - t_all
    out = dict(release=a.release, device=a.device, programs=len(picked), extension_programs=sum('load_inline' in code for _, code in picked), copies=copies, batch=a.batch, seconds=round(total, 1),
               per_min=round(60 * len(picked) / total, 1), cores=os.cpu_count(), executor=a.executor, harness=harness_version(),
               gpus=_gpus(a.device), workers=a.workers, budget_s=a.budget, cold=not a.warm, batches=rows,
               pch=not a.no_pch, headers_before=len(had),
               headers_made=[json.loads(p.read_text()) for p in pch_dir().glob('*/made.json') if str(p.parent) not in had],
               reward_per_rollout=[r.reward for r in kr.rollouts])
    print(f"{len(picked)} never-compiled programs in {total:.0f} s: {out['per_min']} per minute on {os.cpu_count()} cores ({a.device}); "
          f"precompiled header: {'off' if a.no_pch else f'{len(had)} made before, made now: ' + str([h['seconds'] for h in out['headers_made']])}")
    if a.json: Path(a.json).write_text(json.dumps(out, indent=1) + '\n')
    if a.evals:
        part.close(); Path(a.evals + '.partial').unlink()
        Path(a.evals).write_text(''.join(e.to_json() + '\n' for e in kr.cache.values()))


if __name__ == '__main__': main()
