"""What the host's CPUs were doing during a run: sample `/proc` every `--every` seconds while a command runs, then print
a table per time window (how busy the cores were, and how many compiler and Python processes were running).

    python benchmarks/proc_sampler.py [--every 0.5] [--window 10] [--json OUT.jsonl] [--limit SECONDS] -- COMMAND ...

Each sample is appended to `--json` as it is taken, so a run stopped from outside keeps what was sampled. `--limit`
stops the command (its whole process group: the jobs and builds it started too) after that many seconds, then prints
the table and exits 124, as `timeout` does.

    python benchmarks/proc_sampler.py --from OUT.jsonl[.gz] [--window 10]    # the table of a saved run

Used for the reward's throughput: whether the builds keep every core they may use busy from the first second
to the last, or the run waits on something else (the GPU jobs, the start, the tail). Counted by process name:
`cc1plus` (the C++ compiler proper, also nvcc's host side), `cicc` and `ptxas` (nvcc's device side), `python*` (the
sandbox's job and build processes and the benchmark itself). Linux only."""
import argparse, json, os, signal, subprocess, sys, threading, time, collections
from pathlib import Path

KINDS = ('cc1plus', 'cicc', 'ptxas', 'python')


def cpu_times()->tuple:
    "(busy, total) jiffies over all cores from the first line of /proc/stat."
    v = [int(x) for x in Path('/proc/stat').read_text().split('\n', 1)[0].split()[1:]]
    idle = v[3] + (v[4] if len(v) > 4 else 0)
    return sum(v) - idle, sum(v)


def census()->dict:
    "How many running processes of each kind in `KINDS` (by the name in /proc/PID/comm)."
    c = collections.Counter()
    for p in Path('/proc').iterdir():
        if not p.name.isdigit(): continue
        try: name = (p/'comm').read_text().strip()
        except OSError: continue
        for k in KINDS:
            if name.startswith(k): c[k] += 1
    return dict(c)


def sample(stop:threading.Event, every:float, rows:list, out=None):
    "Every `every` seconds until `stop`: one row (seconds since the start, busy cores, process counts) into `rows`, and as a JSON line into `out`."
    t0, (b0, a0) = time.time(), cpu_times()
    while not stop.wait(every):
        b, a = cpu_times()
        rows.append(dict(t=round(time.time() - t0, 2), busy_cores=round((b - b0) / max(a - a0, 1) * (os.cpu_count() or 1), 2), **census()))
        if out is not None: out.write(json.dumps(rows[-1]) + '\n'); out.flush()
        b0, a0 = b, a


def run_limited(cmd:list, limit:float)->int:
    "Run `cmd` in a process group of its own; past `limit` seconds (0: none) kill the whole group and return 124."
    p = subprocess.Popen(cmd, start_new_session=True)
    try: return p.wait(timeout=limit or None)
    except subprocess.TimeoutExpired: return 124
    finally:   # on the limit, or on an error here (Ctrl-C): the command's jobs and builds go with it
        if p.poll() is None:
            try: os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError: pass
            p.wait()


def table(rows:list, window:float)->str:
    "Per window: mean busy cores and mean count of each process kind."
    out = [f"{'from s':>7} {'busy cores':>10} " + ' '.join(f"{k:>8}" for k in KINDS)]
    by = collections.defaultdict(list)
    for r in rows: by[int(r['t'] // window)].append(r)
    for w in sorted(by):
        rs = by[w]
        mean = lambda k: sum(r.get(k, 0) for r in rs) / len(rs)
        out.append(f"{w * window:>7.0f} {mean('busy_cores'):>10.1f} " + ' '.join(f"{mean(k):>8.1f}" for k in KINDS))
    return '\n'.join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--every', type=float, default=0.5); ap.add_argument('--window', type=float, default=10)
    ap.add_argument('--json', default=''); ap.add_argument('--limit', type=float, default=0, help='stop the command after this many seconds (0: no limit)')
    ap.add_argument('--from', dest='saved', default='', help='print the table of a saved --json file and run nothing')
    ap.add_argument('command', nargs=argparse.REMAINDER)
    a = ap.parse_args(argv)
    if a.saved:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # a checkout's package, for its reader of .gz files
        from cudal1_nb.jsonl import load_jsonl
        try: rows = load_jsonl(a.saved)
        except (OSError, ValueError) as e: sys.exit(f"{a.saved}: not a sampler's JSON lines file ({type(e).__name__}: {e})")
        print(table(rows, a.window)); return
    cmd = a.command[1:] if a.command[:1] == ['--'] else a.command
    if not cmd: sys.exit("give the command to run after --")
    if a.limit < 0: sys.exit(f"--limit must be >= 0 seconds, got {a.limit}")
    rows, stop = [], threading.Event()
    out = open(a.json, 'w') if a.json else None
    th = threading.Thread(target=sample, args=(stop, a.every, rows, out), daemon=True); th.start()
    try: rc = run_limited(cmd, a.limit)
    finally:
        stop.set(); th.join()
        if out is not None: out.close()
    if rc == 124 and a.limit: print(f"stopped after {a.limit:g} s (--limit)")
    print(table(rows, a.window))
    if rows:
        busy = [r['busy_cores'] for r in rows]
        print(f"{len(rows)} samples over {rows[-1]['t']:.0f} s: mean {sum(busy) / len(busy):.1f} busy cores of {os.cpu_count()}")
    sys.exit(rc)


if __name__ == '__main__': main()
