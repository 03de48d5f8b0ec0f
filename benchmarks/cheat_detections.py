"""Run the cheat suite (data/cheats) through the harness and print, per catalog id, what each policy made of it.

    python benchmarks/cheat_detections.py [--device cpu|cuda] [--budget 0.3] [--programs C11_zeros,...] [--json OUT]

Every program is evaluated once (policy `strict`) and its result judged again under `audit`. 'as expected' says
whether both verdicts (and the flags the program's header names) are what its header expects."""
import argparse, json, sys, time
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from cudal1_nb.cheats import run_cheat_suite


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--device', default='cpu', choices=['cpu', 'cuda'])
    ap.add_argument('--budget', type=float, default=0.3, help='seconds of timed calls per candidate and side')
    ap.add_argument('--programs', default='', help="only these programs, comma-separated file names without .py (default: all)")
    ap.add_argument('--json', help='also write one JSON object per program here')
    a = ap.parse_args(argv)
    t0 = time.time()
    try: rows = run_cheat_suite(a.device, a.budget, progress=True, programs=[p for p in a.programs.split(',') if p])
    except ValueError as e: sys.exit(f"cheat_detections: {e}")
    secs = time.time() - t0
    print(f"\n{'id':8} {'program':28} {'strict':10} {'audit':10} {'expected':9} detections (flags, static ones last)")
    for r in rows:
        dyn = [f for f in r['strict_flags'] if not f.startswith(('static:', 'changed:'))]
        sta = [f for f in r['strict_flags'] if f.startswith('static:')]
        good = r['strict_ok'] and r['audit_ok']
        print(f"{r['id']:8} {r['program'][:28]:28} {r['strict']:10} {r['audit']:10} {'yes' if good else 'NO':9} {', '.join(dyn + sta)}")
    cheats = [r for r in rows if r['id'] != 'control']
    caught = sum(r['strict'] != 'ok' or any(not f.startswith('changed:') for f in r['strict_flags']) for r in cheats)
    dyn_caught = sum(r['audit'] != 'ok' or any(not f.startswith(('static:', 'changed:')) for f in r['strict_flags']) for r in cheats)
    n_ok = sum(r['strict_ok'] and r['audit_ok'] for r in rows)
    print(f"\n{len(rows)} programs on {a.device} ({len(cheats)} cheats over {len({r['id'] for r in cheats})} catalog ids, "
          f"{len(rows) - len(cheats)} honest controls), {secs:.0f} s:")
    print(f"  as their headers expect: {n_ok}/{len(rows)}")
    print(f"  cheats rejected or flagged (strict): {caught}/{len(cheats)}; by dynamic evidence alone (audit): {dyn_caught}/{len(cheats)}")
    print(f"  honest controls judged cheat: {sum(r['strict'] == 'cheat' for r in rows if r['id'] == 'control')}")
    if a.json:
        with open(a.json, 'w') as f:
            for r in rows: f.write(json.dumps(r) + '\n')
    return 0 if n_ok == len(rows) else 1


if __name__ == '__main__':
    sys.exit(main())
