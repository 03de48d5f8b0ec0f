"""Where an audit's wall time went: how busy the device lock was, and which tasks held it longest.

    python benchmarks/audit_timeline.py RUN/evals.jsonl [--top 10] [--start EPOCH]

`--start` (seconds since the epoch, e.g. `date +%s.%N` just before the command) adds how long the run took before
its first lock and until its last result: the start of a campaign (workers, builds that every job waits for) and its
tail, which the lock's own span does not show.

Every job records when it took the run's device lock (`meta.lock_at`, seconds since the epoch) and how long it did its
device work under it (`meta.locked_s`; a separate reference job's as `ref_lock_at`/`ref_locked_s`). The lock is
held until the job's process exits, so the time between one job's end of work and the next job's `lock_at` is
the holder writing its result and exiting, or a lock nobody wanted (every job still building or preparing); the
lock passes before the exiting process's CUDA teardown (`benchmarks/lock_handover.py`). Prints the span from the first
acquisition to the last release, the device-work total, the share of the span it covers, the longest holders, and the
time split: compiles (`meta.build_s`, on the cores the timing leaves free, in parallel with it), reference jobs under
the lock, and the candidate jobs' phases under it (`meta.phase_s`: reference outputs and the clean timing, import and
construction, the correctness checks, warm-up, the paired timing, the post timing). Import and construction include
any extension build the program does there, which runs with the lock let go (`meta.build_free_s`).

It also prints how many jobs were in their device work at once per 20 s (each job from its first hold to its last
release): how full the job slots were kept. A result does not name its GPU: on several GPUs (the Ray executor) the
holds of every GPU's lock are merged; when exclusive holds overlap, it says how many at once and the share per GPU.

Since jobs hold the lock shared for untimed device work and exclusively for timing (`meta.holds`, `meta.ref_holds`:
`[kind, start, seconds]` per hold), the serial part of the run is the exclusive holds: it prints them and the shared
holds apart (results of older runs have one exclusive hold per job, from `lock_at`/`locked_s`), and what the lock was
doing while some job waited to time (`lock_states`): the part of the span where the lock was held shared, or free,
with a timing queued is what a scheduler that closes shared windows sooner could give back. `handovers`: the time
from one timing's end to the start of the next, already waiting, one (the holder's process exiting before the lock is free)."""
import argparse, statistics, sys
from pathlib import Path
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser
from cudal1_nb.store import read_evals


def _jobs(m:dict)->list:
    """(holds, lock_at, locked_s, what) of every job behind one result: its first process's candidate job, its reference
    job, and each later process's candidate job (`meta.processes[j]`, recorded since every process's holds are kept)."""
    out = [(m.get('holds'), m.get('lock_at'), m.get('locked_s'), 'candidate'), (m.get('ref_holds'), m.get('ref_lock_at'), m.get('ref_locked_s'), 'reference')]
    return out + [(p.get('holds'), p.get('lock_at'), p.get('locked_s'), f"process {j + 1}") for j, p in enumerate(m.get('processes') or []) if j and p.get('holds')]


def holds(rows, kind:str|None='ex'):
    "(start, seconds, label) of every lock hold of `kind` ('ex', 'sh', None: both) recorded in the results, every process's."
    out = []
    for r in rows:
        for hs, at, s, what in _jobs(r.get('meta') or {}):
            if hs is None: hs = [['ex', at, s]] if at is not None and s is not None else []   # an older run: one exclusive hold
            out += [(float(a), float(sec), f"{r['task_id']} {what} ({k})") for k, a, sec in hs if kind in (None, k) and sec is not None]
    return sorted(out)


def job_holds(rows):
    "Per job that recorded its holds (`meta.holds`, `meta.ref_holds`, `meta.processes[j].holds`), its finished ones: [(kind, start, seconds)], in order."
    for r in rows:
        for hs, _, _, _ in _jobs(r.get('meta') or {}):
            if (hs := [(k, float(a), float(sec)) for k, a, sec in hs or [] if sec is not None]): yield hs


def most_at_once(h:list, # exclusive holds: (start, seconds, label)
                 tol:float=0.05, # seconds of overlap a handover may show (one job's end recorded after the next one's start)
                )->int:
    "The most exclusive holds that overlap by more than `tol` (a hold shared by several results counted once): above 1, the results come from that many GPUs at least."
    uniq = {(round(a, 3), round(s, 3)) for a, s, _ in h if s > tol}
    ev = sorted([(a, 1) for a, s in uniq] + [(a + s - tol, -1) for a, s in uniq])   # at a tie, an end before a start
    k = top = 0
    for _, d in ev: k += d; top = max(top, k)
    return top


def holds_and_waits(rows)->tuple:
    """([(kind, start, end)] of every job's holds, [(start, end)] of every wait for an exclusive hold: from the end of a
    job's hold to the start of its next one, exclusive)."""
    held, waits = [], []
    for hs in job_holds(rows):
        held += [(k, a, a + s) for k, a, s in hs]
        waits += [(a0 + s0, a1) for (_, a0, s0), (k1, a1, _) in zip(hs, hs[1:]) if k1 == 'ex']
    return held, waits


def handovers(rows)->list:
    """Seconds from the end of one exclusive hold to the start of the next, where the next one's job was already waiting
    for it and no shared hold ran in between: the lock handed from one timing to the next. The lock is let go when the
    holder's process exits: this is the holder writing its result, its exit (not its CUDA teardown, which comes after)
    and the next job's waking."""
    held, waits = holds_and_waits(rows)
    waits = {(round(a, 3), round(b, 3)) for a, b in waits}
    exs = sorted({(round(a, 3), round(b, 3)) for k, a, b in held if k == 'ex'})
    shs = [(a, b) for k, a, b in held if k == 'sh']
    out = []
    for (_, b0), (a1, _) in zip(exs, exs[1:]):
        if a1 > b0 and any(w0 <= b0 and w1 == a1 for w0, w1 in waits) and not any(a < a1 and b > b0 for a, b in shs):
            out.append(a1 - b0)
    return out


def jobs_at_once(rows, window:float=20.0)->list:
    """[(seconds from the first lock, mean jobs in their device work)] per `window`: a job counts from its first hold of
    the lock to the end of its last (a reference job shared by several results once), every process of a candidate.
    Jobs still running at a stop are not in the results, so they are not counted."""
    spans = {(round(min(a for _, a, _ in hs), 3), round(max(a + sec for _, a, sec in hs), 3)) for hs in job_holds(rows)}
    if not spans: return []
    t0, t1 = min(a for a, _ in spans), max(b for _, b in spans)
    out = []
    for k in range(int((t1 - t0) // window) + 1):
        w0 = t0 + k * window
        out.append((k * window, sum(max(0.0, min(b, w0 + window) - max(a, w0)) for a, b in spans) / window))
    return out


def lock_states(rows, step:float=0.05)->dict:
    """Seconds of the span in each state of the lock: held exclusively; held shared while a job waits for its exclusive
    hold (between the end of a job's hold and the start of its next exclusive one); held shared with no job waiting;
    free while a job waits (handing over: one process exiting, the next waking); free. Sampled every `step` seconds."""
    held, waits = holds_and_waits(rows)
    if not held: return {}
    t0, t1 = min(a for _, a, _ in held), max(b for _, _, b in held)
    n = int((t1 - t0) / step) + 1
    ex, sh, wt = [0] * n, [0] * n, [0] * n
    def mark(arr, a, b):
        for i in range(int((a - t0) / step), min(n, int((b - t0) / step))): arr[i] += 1
    for k, a, b in held: mark(ex if k == 'ex' else sh, a, b)
    for a, b in waits: mark(wt, a, b)
    out = dict.fromkeys(('exclusive', 'shared, a timing waits', 'shared, none waits', 'free, a timing waits', 'free'), 0.0)
    for e, s_, w in zip(ex, sh, wt):
        k = 'exclusive' if e else ('shared, a timing waits' if w else 'shared, none waits') if s_ else ('free, a timing waits' if w else 'free')
        out[k] += step
    return out


PHASES = (('reference outputs + warm-up', ('reference',)), ('import + construct', ('import', 'construct')),
          ('checks (secret seeds)', ('check',)), ('clean timing', ('clean',)), ('warm-up', ('warmup',)), ('paired timing', ('time',)),
          ('post timing', ('post',)))


def split(rows)->list:
    "[(what, seconds, count)]: compiles, reference jobs under the lock, and the candidate jobs' phases."
    ms = [r.get('meta') or {} for r in rows]
    b = [m['build_s'] for m in ms if m.get('build_s') is not None]
    out = [('compile jobs (sum; parallel, off the timing cores)', sum(b), len(b)),
           ('reference jobs under the lock', sum(m.get('ref_locked_s') or 0 for m in ms), sum(m.get('ref_locked_s') is not None for m in ms)),
           ('candidate jobs under the lock', sum(m.get('locked_s') or 0 for m in ms), sum(m.get('locked_s') is not None for m in ms))]
    later = [p.get('locked_s') for m in ms for p in (m.get('processes') or [])[1:] if p.get('locked_s') is not None]
    if later: out.append(("candidates' later processes under the lock", sum(later), len(later)))
    ph = [(m, m['phase_s']) for m in ms if m.get('phase_s') and m.get('locked_s') is not None]
    shared = any(m.get('holds') for m, _ in ph)   # phases of jobs that hold the lock shared, then exclusive: wall seconds, waits included
    if shared: out.append(("candidate jobs' phases (wall seconds, each including its wait for the lock):", None, len(ph)))
    for what, keys in PHASES:
        if keys == ('reference',) and not shared:   # its clock starts before the lock is taken: the part under the lock is what the others leave
            sec = sum(m['locked_s'] + (m.get('build_free_s') or 0) - sum(v for k, v in p.items() if k != 'reference') for m, p in ph)
        else: sec = sum(sum(p.get(k, 0) for k in keys) for _, p in ph)
        out.append((f"  {what}", sec, len(ph)))
    return out


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('evals'); ap.add_argument('--top', type=int, default=10)
    ap.add_argument('--start', type=float, default=None, help='when the command started (seconds since the epoch)')
    o = ap.parse_args(argv)
    try: rows = read_evals(o.evals)
    except ValueError as e: sys.exit(str(e))
    h, sh = holds(rows), holds(rows, 'sh')
    if not h: sys.exit(f"{o.evals}: no result records when it held the device lock (meta.lock_at); audits before this field can't be laid out")
    t0 = min(a for a, _, _ in h + sh)
    span = max(a + s for a, s, _ in h + sh) - t0
    if o.start is not None:
        first, last = t0 - o.start, max(r.get('created') or 0 for r in rows) - o.start
        if first < 0: sys.exit(f"--start {o.start:.0f} is after the first lock ({first:+.0f} s): give the time the command started")
    work = sum(s for _, s, _ in h)
    gaps = [b[0] - (a[0] + a[1]) for a, b in zip(h, h[1:])]
    print(f"{len(rows)} results, {len(h)} exclusive and {len(sh)} shared lock holds over {span:.0f} s (first acquisition to last release)")
    if o.start is not None:
        print(f"from the start: first lock after {first:.0f} s, last result after {last:.0f} s")
    print(f"timing under the exclusive lock (serial): {work:.0f} s = {work / span:.0%} of the span")
    if (k := most_at_once(h)) > 1:
        print(f"  up to {k} exclusive holds at once: these results come from {k} GPUs or more, whose locks this timeline merges "
              f"(a result does not name its GPU); over {k} GPUs the timing fills {work / (k * span):.0%} of their time, and the "
              f"lock's states below describe the merged holds, not one GPU's lock")
    if sh: print(f"untimed device work under the shared lock (jobs at once): {sum(s for _, s, _ in sh):.0f} s summed over jobs")
    if gaps:
        print(f"between exclusive holds: median {statistics.median(gaps):.2f} s, total {sum(gaps):.0f} s "
              f"(teardown of the holder's process, shared work, or no job ready); longest {max(gaps):.1f} s")
    if sh:
        st = lock_states(rows)
        print("the lock's state over the span: " + ', '.join(f"{k} {v:.0f} s" for k, v in st.items()))
    if (ho := handovers(rows)):
        print(f"handovers from one timing to the next waiting one (the holder's process exiting): {len(ho)}, median "
              f"{statistics.median(ho):.3f} s, total {sum(ho):.1f} s")
    if (ja := jobs_at_once(rows)):
        print("jobs in their device work at once (first hold to last release), mean per 20 s from the first lock: "
              + ' '.join(f"{n:.1f}" for _, n in ja))
    c = [x for r in rows for x in ((r.get('meta') or {}).get('compiles') or [])]
    if c: print(f"Inductor compiles run with the lock let go: {len(c)}, {sum(c):.0f} s")
    print("time split (seconds; the lock's holds are serial, compiles overlap them):")
    for what, sec, n in split(rows): print(f"  {what}" if sec is None else f"  {what:52s} {sec:8.1f} s  (n={n})")
    print("longest holds:")
    for at, s, what in sorted(h + sh, key=lambda x: -x[1])[:o.top]:
        print(f"  {s:7.2f} s  at +{at - t0:5.0f} s  {what}")


if __name__ == '__main__': main()
