"""How long the device lock takes to pass from a timing job's process to the next timing, waiting, and whether the
holder's CUDA teardown disturbs that next timing.

Each round a child process (a job's stand-in: a CUDA context, `--alloc-mb` held by torch's allocator, a matmul) takes
the lock exclusively, works for 0.5 s, notes the time, and exits: letting go of the lock by its exit (`exit`, as a job
does) or by unlocking just before it (`early`). This process waits for the lock, notes when it gets it, and at once
times samples of a launch-bound op (`--calls` back-to-back calls between CUDA events) for `--sample-s` seconds.
Printed: a child's exit alone (end of work -> reaped: the teardown window); per mode the handover (child's end -> lock
here, median and range over rounds) and the samples' median time within the teardown window after the handover
against after it (ratio > 1: the teardown slowed the timing beside it).

    python benchmarks/lock_handover.py --rounds 8 --alloc-mb 2048      # GPU only
"""
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
import fcntl, json, os, statistics, subprocess, sys, tempfile, time
from benchmarks.common import parser

CHILD = r"""
import fcntl, os, sys, time, torch
lock, mode, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
x = torch.empty(mb * 2**20 // 4, device='cuda').fill_(1.0)   # held by the caching allocator, as a job's tensors are
a = torch.randn(2048, 2048, device='cuda'); (a @ a).sum().item(); torch.cuda.synchronize()
print('ready', flush=True); sys.stdin.readline()   # wait for the round to start
f = open(lock, 'a+'); fcntl.flock(f, fcntl.LOCK_EX)
t = time.time() + 0.5
while time.time() < t: a = a @ a * 1e-3; torch.cuda.synchronize()   # busy past the parent's wait for the lock
print(f'end {time.time():.6f}', flush=True)
if mode == 'early': fcntl.flock(f, fcntl.LOCK_UN)
os._exit(0)
"""


def _child(lock:str, mode:str, mb:int)->subprocess.Popen:
    "A started child, its CUDA context made and memory held (it printed 'ready')."
    p = subprocess.Popen([sys.executable, '-c', CHILD, lock, mode, str(mb)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    if line.strip() != 'ready': raise RuntimeError(f"lock_handover: the child did not start (it printed {line!r})")
    return p


def _samples(op, calls:int, seconds:float)->list:
    "(start time, ms per call) of back-to-back samples of `op` for `seconds`, each `calls` calls between CUDA events."
    import torch
    out, t_end = [], time.time() + seconds
    while time.time() < t_end:
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        t = time.time(); a.record()
        for _ in range(calls): op()
        b.record(); b.synchronize(); out.append((t, a.elapsed_time(b) / calls))
    return out


def round_(lock:str, mode:str, mb:int, op, calls:int, sample_s:float)->dict:
    "One handover: the child ends and exits (`mode`), this process takes the lock and times at once."
    p = _child(lock, mode, mb)
    p.stdin.write('go\n'); p.stdin.flush()
    time.sleep(0.2)   # the child holds the lock by now
    with open(lock, 'a+') as f:
        fcntl.flock(f, fcntl.LOCK_EX); t_lock = time.time()
        s = _samples(op, calls, sample_s)
        fcntl.flock(f, fcntl.LOCK_UN)
    end = float(p.stdout.readline().split()[1])
    p.wait()
    return dict(mode=mode, handover_s=t_lock - end, samples=[(t - t_lock, ms) for t, ms in s])


def teardown_s(lock:str, mb:int)->float:
    "Seconds from a child's end of work to its reaping when nothing else waits (its exit and context teardown)."
    p = _child(lock, 'exit', mb)
    p.stdin.write('go\n'); p.stdin.flush()
    end = float(p.stdout.readline().split()[1]); p.wait()
    return time.time() - end


def _near_far(samples:list, window:float)->tuple:
    "(ms of the samples that started within `window` s of taking the lock, ms of those after)."
    return [ms for t, ms in samples if t < window], [ms for t, ms in samples if t >= window]


def _med(xs:list, nd:int):
    return round(statistics.median(xs), nd) if xs else None


def summary(rounds:list, window:float)->dict:
    "Per mode: handover median/min/max (s), and the samples' median ms within `window` s of taking the lock against after it."
    out = {}
    for mode in sorted({r['mode'] for r in rounds}):
        rs = [r for r in rounds if r['mode'] == mode]
        ho = [r['handover_s'] for r in rs]
        split = [_near_far(r['samples'], window) for r in rs]
        near, far = [ms for n, _ in split for ms in n], [ms for _, f in split for ms in f]
        out[mode] = dict(rounds=len(rs), handover_median_s=round(statistics.median(ho), 4), handover_min_s=round(min(ho), 4),
                         handover_max_s=round(max(ho), 4), near_ms=_med(near, 5), far_ms=_med(far, 5), near_n=len(near), far_n=len(far),
                         near_over_far=round(statistics.median(near) / statistics.median(far), 4) if near and far else None)
    return out


def per_round(rounds:list, window:float)->list:
    "Each round as `--json` keeps it: its handover and its samples' median ms within `window` and after (the raw samples are not kept)."
    out = []
    for r in rounds:
        near, far = _near_far(r['samples'], window)
        out.append(dict(mode=r['mode'], handover_s=round(r['handover_s'], 6), near_n=len(near), far_n=len(far),
                        near_median_ms=_med(near, 6), far_median_ms=_med(far, 6)))
    return out


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('--rounds', type=int, default=8, help='handovers per mode')
    ap.add_argument('--alloc-mb', type=int, default=2048, help="memory each child's allocator holds (MB)")
    ap.add_argument('--calls', type=int, default=20, help='calls per timed sample')
    ap.add_argument('--sample-s', type=float, default=0.5, help='seconds of samples after each handover')
    ap.add_argument('--json', help="write the summary and each round's medians here")
    a = ap.parse_args(argv)
    import torch
    if not torch.cuda.is_available(): sys.exit("lock_handover: needs a CUDA GPU (torch sees none)")
    x = torch.zeros(1 << 16, device='cuda')
    op = lambda: x.add_(1.0)   # a launch-bound op, as the short tasks' references are
    _samples(op, a.calls, 0.3)
    lock = os.path.join(tempfile.mkdtemp(prefix='handover-'), 'cuda.lock')
    open(lock, 'a').close()
    td = [teardown_s(lock, a.alloc_mb) for _ in range(3)]
    rounds = [round_(lock, mode, a.alloc_mb, op, a.calls, a.sample_s) for _ in range(a.rounds) for mode in ('exit', 'early')]
    window = statistics.median(td)
    s = summary(rounds, window)
    print(f"{torch.cuda.get_device_name()}: a child's exit with {a.alloc_mb} MB held, alone: {window * 1e3:.1f} ms median "
          f"({', '.join(f'{t * 1e3:.1f}' for t in td)})")
    for mode, v in s.items():
        print(f"{mode:5s} handover {v['handover_median_s'] * 1e3:.1f} ms median [{v['handover_min_s'] * 1e3:.1f}, "
              f"{v['handover_max_s'] * 1e3:.1f}] over {v['rounds']} rounds; samples within {window * 1e3:.0f} ms of the handover "
              f"{v['near_ms']} ms per call (n={v['near_n']}) against {v['far_ms']} after (n={v['far_n']}): x{v['near_over_far']}")
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(dict(args=vars(a), teardown_s=td, summary=s, rounds=per_round(rounds, window),
                           note='per round: the samples within the teardown window (median of teardown_s) after taking the lock, and after it; '
                                'raw samples not kept'), f, indent=1)


if __name__ == '__main__': main()
