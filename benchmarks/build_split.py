"""Where an extension build's time goes: per-file compile times from the ninja logs of a build cache, and what a
precompiled `torch/extension.h` would save on the C++ side (the reward's GPU throughput).

    python benchmarks/build_split.py CACHE_DIR [--pch N] [--json OUT]

CACHE_DIR is a harness build cache (`$CUDAL1_BASE_DIR/ext_cache`, one folder per program): every `.ninja_log` below it
gives the wall seconds of each compile (`main.o`: the C++ file `load_inline` writes, which includes
`torch/extension.h` and the pybind11 module; `*.cuda.o`: nvcc) and of the link. With `--pch N`, for N of the builds
the C++ file is compiled again exactly as ninja did (the command from its `build.ninja`), then again with a
precompiled `torch/extension.h` made once for those flags in a temporary include folder searched first (gcc uses a
`.gch` found beside a header's name in an include folder; `-Winvalid-pch` says when it does not). The build cache is
not changed."""
import argparse, json, os, re, shlex, statistics, subprocess, sys, tempfile, time
from pathlib import Path
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser
from cudal1_nb.analysis import percentile
from cudal1_nb.pch import ninja_vars, real_header


def ninja_times(log:Path)->list:
    "[(target, seconds), ...] of one `.ninja_log` (format v5+: start ms, end ms, mtime, target, hash)."
    rows = []
    for line in log.read_text().splitlines():
        if line.startswith('#') or not line.strip(): continue
        start, end, _, target = line.split('\t')[:4]
        rows.append((target, (int(end) - int(start)) / 1000))
    return rows


def kind(target:str)->str:
    return 'link' if target.endswith('.so') else 'nvcc' if target.endswith('.cuda.o') else 'c++' if target.endswith('.o') else 'other'


def cpp_command(build_dir:Path)->tuple|None:
    "(compiler, flags before the file, the C++ source, flags after) of the `main.o` compile in `build.ninja`."
    text = (build_dir/'build.ninja').read_text()
    var = ninja_vars(text)
    m = re.search(r'^build main\.o: compile (\S+)', text, re.M)
    if not m or 'cxx' not in var: return None
    return var['cxx'], shlex.split(var.get('cflags', '')), m.group(1), shlex.split(var.get('post_cflags', ''))


def timed(cmd:list)->tuple:
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    return time.perf_counter() - t, p.returncode, p.stderr


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('cache'); ap.add_argument('--pch', type=int, default=0); ap.add_argument('--json', default='')
    a = ap.parse_args(argv)
    logs = sorted(Path(a.cache).glob('**/.ninja_log'))
    if not logs: sys.exit(f"{a.cache}: no .ninja_log below it (a build cache of extensions built with ninja?)")
    per = {}
    for log in logs:
        for target, s in ninja_times(log): per.setdefault(kind(target), []).append(s)
    out = dict(cache=a.cache, builds=len(logs), split={})
    print(f"{len(logs)} builds in {a.cache}")
    print(f"{'step':6} {'n':>4} {'median s':>9} {'p90 s':>7} {'sum s':>8}")
    for k, v in sorted(per.items()):
        p90 = percentile(v, 90)
        out['split'][k] = dict(n=len(v), median=statistics.median(v), p90=p90, sum=sum(v))
        print(f"{k:6} {len(v):>4} {statistics.median(v):>9.1f} {p90:>7.1f} {sum(v):>8.1f}")
    if a.pch:
        head = real_header()
        rows, made = [], {}
        with tempfile.TemporaryDirectory() as tmp:
            for log in logs[:a.pch]:
                c = cpp_command(log.parent)
                if c is None: continue
                cxx, pre, src, post = c
                flags = [f for f in pre + post if not f.startswith('-DTORCH_EXTENSION_NAME')]
                key = ' '.join(flags)
                if key not in made:   # one header per set of flags (the extension's name is left out: the header does not use it)
                    d = Path(tmp)/f"pch{len(made)}"; (d/'torch').mkdir(parents=True)
                    s, rc, err = timed([cxx, '-x', 'c++-header', str(head), '-o', str(d/'torch'/'extension.h.gch')] + flags)
                    made[key] = (d, s) if rc == 0 else (None, s)
                    if rc: print(f"making the header failed ({rc}): {err[-300:]}")
                d, pch_s = made[key]
                plain, rc1, _ = timed([cxx] + pre + ['-c', src, '-o', str(Path(tmp)/'a.o')] + post)
                if d is None: continue
                with_pch, rc2, err = timed([cxx, f"-I{d}", '-Winvalid-pch'] + pre + ['-c', src, '-o', str(Path(tmp)/'b.o')] + post)
                used = rc2 == 0 and 'not used' not in err and 'invalid' not in err.lower()
                rows.append(dict(build=log.parent.name, plain_s=round(plain, 2), pch_s=round(with_pch, 2), header_s=round(pch_s, 2), pch_used=used, ok=rc1 == 0 and rc2 == 0))
                print(f"{log.parent.name[:40]:40} c++ {plain:6.1f} s, with the header {with_pch:6.1f} s (made once in {pch_s:.1f} s){'' if used else '  NOT USED: ' + err[-200:]}")
        out['pch'] = rows
        good = [r for r in rows if r['ok'] and r['pch_used']]   # a program whose own C++ file does not compile says nothing about the header
        if good:
            print(f"C++ compile, median of the {len(good)} that compile: {statistics.median(r['plain_s'] for r in good):.1f} s -> "
                  f"{statistics.median(r['pch_s'] for r in good):.1f} s with a precompiled torch/extension.h")
    if a.json: Path(a.json).write_text(json.dumps(out, indent=1) + '\n')


if __name__ == '__main__': main()
