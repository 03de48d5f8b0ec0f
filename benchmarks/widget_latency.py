"""How quickly the variant browser follows a task change with the whole CUDA-L1 release loaded (5 GPUs x 250 tasks).

    python benchmarks/widget_latency.py [RELEASE_DIR]   (default: ../shared/data/cuda-l1)

Imports the five release files into a fresh store, builds the browser, then switches across 50 tasks and prints the
median and worst time per switch (task change -> candidates, evaluations, diff, results and leaderboard rendered)."""
import sys, time, tempfile, statistics
from pathlib import Path
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from cudal1_nb.store import Store
from cudal1_nb.widgets import VariantBrowser


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    rel = Path(argv[0]) if argv else Path(__file__).resolve().parents[2]/'shared'/'data'/'cuda-l1'
    files = [rel/f"{g}.jsonl" for g in ('a100', 'h100', 'l40', '3090', 'h20')]
    st = Store(Path(tempfile.mkdtemp())/'store.sqlite')
    t0 = time.time()
    for f in files: st.import_release(f)
    t_import = time.time() - t0
    t0 = time.time(); b = VariantBrowser(st, suite='kernelbench'); t_build = time.time() - t0
    ids = [v for _, v in b.task.options][::5][:50]
    ts = []
    for tid in ids:
        t0 = time.time(); b.task.value = tid; ts.append(time.time() - t0)
    sel = []
    for tid in ids[:20]:
        b.task.value = tid
        opts = [v for _, v in b.variants.options]
        t0 = time.time(); b.variants.value = tuple(opts[:3]); sel.append(time.time() - t0)
    n_c = sum(len(st.candidates(t)) for _, t in b.task.options)
    print(f"store: {len(b.task.options)} tasks, {n_c} candidates, {len(st.evals())} evaluations; import of 5 releases {t_import:.1f} s; browser built in {t_build:.2f} s")
    print(f"task switch over {len(ts)} tasks: median {statistics.median(ts) * 1e3:.0f} ms, worst {max(ts) * 1e3:.0f} ms")
    print(f"selecting 3 variants over {len(sel)} tasks: median {statistics.median(sel) * 1e3:.0f} ms, worst {max(sel) * 1e3:.0f} ms")


if __name__ == '__main__':
    main()
