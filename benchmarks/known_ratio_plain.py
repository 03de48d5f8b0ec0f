"""The known-ratio candidates timed with a plain CUDA-event timer and no harness: per-call time of the reference and of
its run-twice copy (`known_ratio.known_candidates`), 8 distinct input sets rotated, events around 100 back-to-back
calls, 7 repeats, median, twice per side -> the ratio reference / twice as this GPU gives it (not assumed 0.5).
The programs are the release's own references and a copy that calls their forward twice: trusted code, run in process.

    python benchmarks/known_ratio_plain.py L1/23,L1/25,L2/2 [RELEASE.jsonl]   # default: h100.jsonl
"""
import sys, statistics, types, torch
sys.path.insert(0, '.')
from cudal1_nb.tasks import read_source, filter_tasks
import importlib.util
spec = importlib.util.spec_from_file_location('kr', 'benchmarks/known_ratio.py'); kr = importlib.util.module_from_spec(spec); spec.loader.exec_module(kr)
tasks = filter_tasks(read_source(sys.argv[2] if len(sys.argv) > 2 else 'h100.jsonl')[0], ids=sys.argv[1].split(','))
def load(code, name):
    m = types.ModuleType(name); exec(compile(code, name, 'exec'), m.__dict__); return m
def per_call(model, ins, n=100, reps=7):
    with torch.no_grad():
        for _ in range(20): model(*ins[0])
        torch.cuda.synchronize(); out = []
        for _ in range(reps):
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            for i in range(n): model(*ins[i % len(ins)])
            b.record(); torch.cuda.synchronize(); out.append(a.elapsed_time(b) / n)
    return statistics.median(out)
for t in tasks:
    (_, same), (_, twice) = kr.known_candidates(t)
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
