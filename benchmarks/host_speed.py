"""Does this host's speed move while nothing else runs? A probe every ~0.2 s: a fixed pure-Python loop (the CPU), 200
launches of a tiny kernel with a sync (the launch path), one 4096^2 float32 matmul timed with events (the GPU).

A launch-bound timing measures the first two as much as the GPU: where they swing (a virtual machine whose vCPUs share
cores with other guests), the reference time of short kernels swings with them, and a candidate that launches fewer
kernels than the reference gets a different speedup in a slow stretch than in a fast one.

    python benchmarks/host_speed.py --seconds 40 [--load 12] [--pin 0] [--json OUT.json]

`--load N` runs N busy Python loops on the last N cores meanwhile; `--pin C` runs the probe on core C.
"""
import argparse, json, os, statistics, subprocess, sys, time

def cpu_ms(iters:int=200_000)->float:
    "Milliseconds of a fixed pure-Python loop."
    t, s = time.perf_counter(), 0
    for i in range(iters): s += i * i
    return (time.perf_counter() - t) * 1e3

def launch_us(x, torch, n:int=200)->float:
    "Microseconds per launch of a tiny in-place kernel, `n` back to back between two syncs."
    torch.cuda.synchronize(); t = time.perf_counter()
    for _ in range(n): x.add_(1)
    torch.cuda.synchronize()
    return (time.perf_counter() - t) * 1e6 / n

def gpu_ms(a, torch)->float:
    "Milliseconds of one matmul, by CUDA events."
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record(); a @ a; e1.record(); e1.synchronize()
    return e0.elapsed_time(e1)

def steal()->tuple:
    "(steal jiffies, all jiffies) from /proc/stat: time the hypervisor ran something else on this guest's vCPUs."
    v = [int(x) for x in open('/proc/stat').readline().split()[1:]]
    return v[7], sum(v)

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--seconds', type=float, default=40.0)
    ap.add_argument('--load', type=int, default=0, help='busy Python loops on the last N cores meanwhile')
    ap.add_argument('--pin', type=int, default=None, help='run the probe on this core')
    ap.add_argument('--json', default=None, help='write every probe here')
    a = ap.parse_args(argv)
    import torch
    if not torch.cuda.is_available(): sys.exit("host_speed.py needs a CUDA GPU (the launch path and the GPU are two of its three probes)")
    if a.pin is not None: os.sched_setaffinity(0, {a.pin})
    cores = sorted(os.sched_getaffinity(0)) if a.pin is None else list(range(os.cpu_count()))
    busy = [subprocess.Popen(['taskset', '-c', str(c), sys.executable, '-c', 'while True: pass']) for c in cores[len(cores) - a.load:]] if a.load else []
    try:
        x, m = torch.zeros(16, device='cuda'), torch.randn(4096, 4096, device='cuda')
        for _ in range(3): cpu_ms(); launch_us(x, torch); gpu_ms(m, torch)
        s0, rows, t_end = steal(), [], time.time() + a.seconds
        while time.time() < t_end:
            rows.append(dict(t=round(time.time(), 3), cpu_ms=cpu_ms(), launch_us=launch_us(x, torch), gpu_ms=gpu_ms(m, torch)))
            time.sleep(0.2)
        s1 = steal()
    finally:
        for p in busy: p.kill()
    print(f"{torch.cuda.get_device_name()}, {os.cpu_count()} CPUs, {len(rows)} probes over {a.seconds:.0f} s, load {a.load}, pin {a.pin}")
    print(f"{'probe':10s} {'min':>8s} {'p10':>8s} {'median':>8s} {'p90':>8s} {'max':>8s} {'p90/p10':>8s}")
    for k in ('cpu_ms', 'launch_us', 'gpu_ms'):
        v = sorted(r[k] for r in rows); q = lambda f: v[min(len(v) - 1, int(f * len(v)))]
        print(f"{k:10s} {v[0]:8.3f} {q(0.1):8.3f} {statistics.median(v):8.3f} {q(0.9):8.3f} {v[-1]:8.3f} {q(0.9) / q(0.1):8.2f}")
    print(f"correlation cpu/launch {statistics.correlation([r['cpu_ms'] for r in rows], [r['launch_us'] for r in rows]):.2f}; "
          f"steal {100 * (s1[0] - s0[0]) / max(1, s1[1] - s0[1]):.2f} % of CPU time")
    if a.json: json.dump(dict(device=torch.cuda.get_device_name(), cpus=os.cpu_count(), load=a.load, pin=a.pin, rows=rows), open(a.json, 'w'))

if __name__ == '__main__': main()
