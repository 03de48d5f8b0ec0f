"""What watching torch's global switches costs a candidate job per sample of calls, in microseconds.

    python benchmarks/switch_overhead.py [--n 20000] [--repeat 7]

After every sample of a side's calls the job reads every switch, notes what changed, keeps the candidate's state and
puts the harness's back (one snapshot and restore); before the next sample it reads them again and puts that side's
state (the reference's, or the candidate's own). Both hooks are untimed; their sum per sample is printed last, beside
what the tamper guard and the reference's-functions watch already cost at the same point.
Each figure is the fastest of `--repeat` runs of `--n` (the machine's other load only adds to it)."""
import argparse, time, timeit
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser
import torch
from cudal1_nb.job.switches import switches, read_switches, put_switches, SwitchWatch, TorchWatch, torch_spaces
from cudal1_nb.job.guard import snapshot, check_guard


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('--n', type=int, default=20000, help='calls per run')
    ap.add_argument('--repeat', type=int, default=7, help='runs; the fastest counts')
    a = ap.parse_args(argv)
    t0 = time.perf_counter(); sw = switches(); found = time.perf_counter() - t0
    w = SwitchWatch()
    def from_cand(): w.check(); w.keep(); w.put(w.now)
    def pair(): from_cand(); w.put()
    us = lambda f: min(timeit.repeat(f, number=a.n, repeat=a.repeat)) / a.n * 1e6
    print(f"{len(sw)} switches, found in {found * 1e3:.1f} ms (once per job)")
    print(f"read every switch:                          {us(read_switches):6.1f} us")
    print(f"put a state back (nothing differs):         {us(lambda: put_switches(w.base)):6.1f} us")
    print(f"snapshot + restore after a sample (read, note, keep, put): {us(from_cand):6.1f} us")
    print(f"both hooks of a sample (that, then the reference's state put): {us(pair):6.1f} us")
    snap, tw = snapshot(), TorchWatch(torch_spaces())
    print(f"for scale, at the same point: tamper guard {us(lambda: check_guard(snap)):6.1f} us, reference's functions {us(tw.check):6.1f} us")


if __name__ == '__main__': main()
