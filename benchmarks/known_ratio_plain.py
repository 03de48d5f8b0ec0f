"""The known-ratio candidates timed with a plain CUDA-event timer and no harness: per-call time of the reference and of
its run-twice copy (`known_ratio.known_candidates`), 8 distinct input sets rotated, events around 100 back-to-back
calls, 7 repeats, median, twice per side -> the ratio reference / twice as this GPU gives it (not assumed 0.5).
The programs are the release's own references and a copy that calls their forward twice: trusted code, run in process.

    python benchmarks/known_ratio_plain.py L1/23,L1/25,L2/2 RELEASE.jsonl   # e.g. CUDA-L1's h100.jsonl (GPU only)
"""
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
import statistics, sys, types
from benchmarks.common import parser


def load(code:str, name:str):
    "A module made from trusted `code` (a release's reference, or its run-twice copy)."
    m = types.ModuleType(name); exec(compile(code, name, 'exec'), m.__dict__); return m


def per_call(model, ins:list, n:int=100, reps:int=7)->float:
    "Median over `reps` of the mean per-call milliseconds of `n` back-to-back calls on the rotated inputs `ins`."
    import torch
    with torch.no_grad():
        for _ in range(20): model(*ins[0])
        torch.cuda.synchronize(); out = []
        for _ in range(reps):
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            for i in range(n): model(*ins[i % len(ins)])
            b.record(); torch.cuda.synchronize(); out.append(a.elapsed_time(b) / n)
    return statistics.median(out)


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('ids', help='comma-separated task ids of the release, e.g. L1/23,L2/2'); ap.add_argument('release', help='a release .jsonl file')
    a = ap.parse_args(argv)
    import torch
    if not torch.cuda.is_available(): sys.exit("known_ratio_plain: needs a CUDA GPU (torch sees none): it times with CUDA events")
    from cudal1_nb.tasks import read_source, filter_tasks
    from benchmarks.known_ratio import known_candidates
    tasks = filter_tasks(read_source(a.release)[0], ids=a.ids.split(','))
    for t in tasks:
        (_, same), (_, twice) = known_candidates(t)
        mr, mt = load(t.code, 'ref'), load(twice.code, 'twice')
        torch.manual_seed(0)
        with torch.device('cuda'):
            init = mr.get_init_inputs()
            torch.manual_seed(1); ref = mr.Model(*init).eval()
            torch.manual_seed(1); tw = mt.ModelNew(*init).eval()
            ins = [[x.cuda() if torch.is_tensor(x) else x for x in mr.get_inputs()] for _ in range(8)]
        r1, w1, r2, w2 = per_call(ref, ins), per_call(tw, ins), per_call(ref, ins), per_call(tw, ins)
        r, w = (r1 + r2) / 2, (w1 + w2) / 2
        print(f"{t.id:22} ref {1000*r:8.2f} us  twice {1000*w:8.2f} us  ratio {r/w:.3f}  (runs: {r1/w1:.3f}, {r2/w2:.3f})", flush=True)


if __name__ == '__main__': main()
