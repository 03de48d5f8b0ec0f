"""The evidence behind `unjoined_stream` (T1): per candidate, every event sample's gap between the synced time and the
event time (ms per call), beyond the reference's median gap, as the judge saw it.

    python benchmarks/unjoined_samples.py --log OUT.jsonl [cheat_detections.py options, e.g. --device cuda --budget 0.5]

Runs `benchmarks/cheat_detections.py` (the cheat suite through the harness) with the judge's `unjoined` wrapped: each
call appends {name, candidate id, the (synced, event) pairs of the candidate and of the reference, the judge's answer}
to `--log`, then a table prints per program the smallest and largest gap and synced/event ratio. On the CPU there are
no event times and nothing is logged."""
import argparse, json, runpy, statistics, sys
from pathlib import Path
ROOT = Path(__file__).resolve().parents[1]
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser, load_jsonl
import cudal1_nb.verdict as V


def spy(log):
    "Wrap the judge's `unjoined` so that every call appends its inputs and answer to the open file `log`."
    orig = V.unjoined
    def logged(v):
        out = orig(v)
        pc, pr = V.event_pairs(v.cand, v.cand_events), V.event_pairs(v.eager_paired, v.ref_events)
        c = sys._getframe(1).f_locals.get('cand')   # the judge's candidate: for the program's name only
        log.write(json.dumps(dict(name=getattr(c, 'name', None), cid=getattr(c, 'id', None), pc=pc, pr=pr, out=out)) + '\n'); log.flush()
        return out
    V.unjoined = logged


def table(rows:list)->str:
    "Per logged candidate: event samples, min/max gap beyond the reference's (ms per call), min/max synced/event, flagged."
    out = [f"{'program':30} {'n':>3} {'gap min':>8} {'gap max':>8} {'ratio min':>9} {'ratio max':>9}  flagged"]
    for r in rows:
        if not r['pc']: continue
        gr = statistics.median(s - e for s, e in r['pr']) if r['pr'] else 0.0
        g, q = [s - e - gr for s, e in r['pc']], [s / e for s, e in r['pc'] if e > 0] or [float('nan')]
        out.append(f"{str(r['name'])[:30]:30} {len(g):3} {min(g):8.3f} {max(g):8.3f} {min(q):9.2f} {max(q):9.2f}  {'yes' if r['out'] is not None else 'no'}")
    return '\n'.join(out)


if __name__ == '__main__':
    ap = parser(__doc__)
    ap.add_argument('--log', required=True, help='JSON lines written here (appended)')
    ap.add_argument('--table', action='store_true', help='only print the table of an existing --log')
    a, rest = ap.parse_known_args()
    if not a.table:
        with open(a.log, 'a') as f:
            spy(f)
            sys.argv = ['cheat_detections.py', *rest]
            runpy.run_path(str(ROOT/'benchmarks'/'cheat_detections.py'), run_name='__main__')
    print(table(load_jsonl(a.log)))
