"""What a CUDA context costs a judge, and whether one may be made beside a timing (GPU only).

    python benchmarks/cuda_contexts.py cost                       # contexts made by 1, 1, 8 and 16 processes at once
    python benchmarks/cuda_contexts.py perturb [--setup full|context]   # a timing alone, and beside processes making contexts

`cost`: processes forked from one that imported torch (as a sandbox worker's children are) each import the job
module, make a context (`set_device`, a tensor, a synchronize), make cuBLAS's handle (a 64x64 matmul) and run a first
layer; printed per count: the wall time, each step's median and slowest process.
`perturb`: one process times samples of a tiny model (four 512-wide layers, 50 calls a sample: launch-bound) and of a
4096^2 matmul (5 calls: GPU-bound) for 11 s; after 3 s, K other processes (K = 0, 4, 8, 0, 8; `context`: 0, 8, 0, 8)
fork children in a loop that each make a context and exit (`full`: and run cuBLAS's 8x8 matmul; `context`: a tensor
and a synchronize only, no kernel). Printed per K: the samples' count, median, p90 and slowest (ms per call) after the
first quarter. A setting whose p90 or slowest moves with K must not run while another process times.
"""
import os, sys, time, json, statistics, argparse, multiprocessing as mp
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package


def _cost_child(w):
    import torch
    t0 = time.time(); out = {}
    import cudal1_nb.job.run; out['import_jobs'] = time.time() - t0
    t = time.time(); torch.cuda.set_device(0); torch.empty(1, device='cuda:0'); torch.cuda.synchronize(); out['ctx'] = time.time() - t
    t = time.time(); a = torch.randn(64, 64, device='cuda'); (a @ a).sum().item(); out['cublas'] = time.time() - t
    t = time.time(); x = torch.randn(128, 256, device='cuda'); torch.nn.functional.gelu(torch.nn.Linear(256, 256).cuda()(x)).sum().item(); out['first_ops'] = time.time() - t
    out['total'] = time.time() - t0
    os.write(w, (json.dumps(out) + '\n').encode()); os._exit(0)


def cost():
    import torch   # imported before the forks, no CUDA yet: as in a sandbox worker
    for k in (1, 1, 8, 16):
        r, w = os.pipe(); t0 = time.time(); pids = []
        for i in range(k):
            pid = os.fork()
            if pid == 0: os.close(r); _cost_child(w)
            pids.append(pid)
        os.close(w)
        for p in pids: os.waitpid(p, 0)
        rows = [json.loads(l) for l in os.read(r, 1 << 20).decode().splitlines()]; os.close(r)
        med = {key: round(sorted(x[key] for x in rows)[len(rows) // 2], 3) for key in rows[0]}
        mx = {key: round(max(x[key] for x in rows), 3) for key in rows[0]}
        print(f"{k} concurrent: wall {time.time() - t0:.2f} s; median {med}; max {mx}", flush=True)


def _churn(stop_at, setup):
    import torch
    while time.time() < stop_at:
        pid = os.fork()
        if pid == 0:
            torch.cuda.set_device(0)
            if setup == 'full': x = torch.ones(8, 8, device='cuda'); (x @ x).sum().item()
            else: torch.empty(1, device='cuda:0'); torch.cuda.synchronize()
            os._exit(0)
        os.waitpid(pid, 0)


def _timer(q, dur):
    import torch
    torch.manual_seed(0)
    m = torch.nn.Sequential(*[l for _ in range(4) for l in (torch.nn.Linear(512, 512), torch.nn.GELU())]).cuda().eval()
    x = torch.randn(32, 512, device='cuda'); a = torch.randn(4096, 4096, device='cuda')
    def sample(fn, k):
        torch.cuda.synchronize(); t = time.perf_counter()
        for _ in range(k): fn()
        torch.cuda.synchronize(); return (time.perf_counter() - t) / k * 1e3
    with torch.no_grad():
        for _ in range(200): m(x)
        for _ in range(20): a @ a
        out = {'tiny': [], 'mm': []}; end = time.time() + dur
        while time.time() < end:
            out['tiny'].append(sample(lambda: m(x), 50)); out['mm'].append(sample(lambda: a @ a, 5))
    q.put(out)


def perturb(setup):
    mp.set_start_method('fork')
    import torch
    for K in ((0, 4, 8, 0, 8) if setup == 'full' else (0, 8, 0, 8)):
        q = mp.Queue(); dur = 8.0
        t = mp.Process(target=_timer, args=(q, dur + 3)); t.start(); time.sleep(3)   # the timer warms up for 3 s first (its own context)
        cs = [mp.Process(target=_churn, args=(time.time() + dur, setup)) for _ in range(K)]
        [c.start() for c in cs]; res = q.get(); t.join(); [c.join() for c in cs]
        def st(v):
            v = v[len(v) // 4:]   # drop the samples of the first seconds (before the others started)
            s = sorted(v); return dict(n=len(v), med=round(statistics.median(v), 4), p90=round(s[int(.9 * len(s))], 4), mx=round(s[-1], 4))
        print(f"K={K} churners: tiny {st(res['tiny'])}; matmul {st(res['mm'])}", flush=True)


if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('what', choices=['cost', 'perturb']); ap.add_argument('--setup', choices=['full', 'context'], default='full')
    a = ap.parse_args()
    import torch
    if not torch.cuda.is_available(): sys.exit("cuda_contexts: needs a CUDA GPU (torch sees none)")
    cost() if a.what == 'cost' else perturb(a.setup)
