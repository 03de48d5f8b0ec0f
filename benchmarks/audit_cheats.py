"""The programs an audit rejected as cheats, one markdown row each: task, name, catalog id, published speedup, what the
harness alone measured (before the policy), and why.

    python benchmarks/audit_cheats.py AUDIT_DIR/audit.jsonl [--evals AUDIT_DIR/evals.jsonl.gz]

Reads an audit's table (`audit.jsonl`, written by `cudal1 audit`, or by `cudal1 audit RELEASE --from-evals EVALS --out DIR`
from saved results); with `--evals`, the speedup the harness measured for each rejected program is read from its full
result (`meta.cheat_speedups`), since the table pays a cheat nothing."""
import argparse, json, sys
from pathlib import Path
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser
from cudal1_nb.jsonl import load_jsonl
from cudal1_nb.store import read_evals


def why(reason:str)->str:
    "The policy's own words, without the catalog id it starts with and the harness's verdict it ends with."
    r = reason.split('; the harness alone said:')[0]
    return r.split(' ', 1)[1] if r[:1].isupper() and r.split(' ', 1)[0][1:].isdigit() else r


def harness_alone(reason:str)->str:
    "The verdict the harness gave before the policy ('ok', 'incorrect', ...)."
    return reason.split('; the harness alone said: ', 1)[1].split(',')[0] if '; the harness alone said: ' in reason else ''


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('table', help="an audit's audit.jsonl")
    ap.add_argument('--evals', help="the same audit's evals.jsonl(.gz): the harness's own speedup of each rejected program")
    o = ap.parse_args(argv)
    rows = [r for r in load_jsonl(o.table) if r.get('verdict') == 'cheat']
    meas, err = {}, {}
    if o.evals:
        for e in read_evals(o.evals):
            m, t = e.get('meta') or {}, e['task_id'].split('/', 1)[1]
            sp = (m.get('cheat_speedups') or {}).get('eager') or (e.get('speedups') or {}).get('eager')
            if sp: meas[t] = sp
            if m.get('err_ratio') and m.get('max_abs_err') is not None:
                err[t] = f"precision: max error {m['max_abs_err']:.2g} = {m['err_ratio']:,.0f}x float32's own against float64"
    print('| task | name | id | published | measured (not paid) | harness alone | why |')
    print('|---|---|---|---|---|---|---|')
    for r in sorted(rows, key=lambda r: (r['level'], r['task'])):
        t = f"L{r['level']}/{r['task']}"
        m = meas.get(t)
        print(f"| {t} | {r['name'][:34]} | {r['cheat_ids']} | {r['published_eager']} | {f'{m:.3g}' if m else '--'} | "
              f"{harness_alone(r['reason'])} | {err[t] if 'precision' in r['reason'] and t in err else why(r['reason'])[:110]} |")
    print(f"\n{len(rows)} programs rejected", file=sys.stderr)


if __name__ == '__main__': main()
