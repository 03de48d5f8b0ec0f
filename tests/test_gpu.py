"GPU tests of the harness (run on a CUDA machine: `PYTHONPATH=. python3 -m pytest -m gpu tests/test_gpu.py`)."
import os, time, statistics
from pathlib import Path
import pytest
from cudal1_nb.core import Task, Candidate
from cudal1_nb.eval import EvalConfig, evaluate, ext_dir

from conftest import ROOT

pytestmark = pytest.mark.gpu
K = Path(__file__).parent/'gpu_kernels'


@pytest.fixture(scope='module')
def cuda():
    torch = pytest.importorskip('torch')
    if not torch.cuda.is_available(): pytest.skip('no CUDA GPU')


def _cands(names): return [Candidate('gpu/L1/1', (K/f'{n}.py').read_text(), name=n) for n in names]


def test_cuda_verdicts_baselines_and_cache(cuda, tmp_path, monkeypatch):
    monkeypatch.setenv('CUDAL1_BASE_DIR', str(tmp_path))
    task = Task('gpu', 1, 1, 'Scale_Add_Relu', (K/'1_Scale_Add_Relu.py').read_text())
    names = ['fused_cuda', 'addcmul', 'illegal_access', 'spin_kernel', 'half_precision', 'flag_flipper']
    # the job timeout must outlast `spin_kernel`'s check call: it spins under the shared lock until its per-call limit
    # (`FIRST_CALL_S`, 60 s) kills it, and every other job's timing waits for it meanwhile (their clocks run)
    cfg = EvalConfig(timeout=150, baselines=('eager', 'cuda_graph', 'torch_compile'), budget_s=2.0, ci_target=0.01)
    t0 = time.time(); res = evaluate(task, _cands(names), device='cuda', cfg=cfg); first = time.time() - t0
    r = dict(zip(names, res))
    assert r['fused_cuda'].verdict == 'ok' and r['addcmul'].verdict == 'ok', (r['fused_cuda'].reason, r['addcmul'].reason)
    assert r['fused_cuda'].speedup('eager') > 1.5 and r['addcmul'].speedup('eager') > 1.1, (r['fused_cuda'].speedups, r['addcmul'].speedups)
    assert r['fused_cuda'].speedup('cuda_graph') > 0 and r['fused_cuda'].speedup('torch_compile') > 0
    assert r['illegal_access'].verdict == 'error' and r['spin_kernel'].verdict == 'timeout'
    assert r['half_precision'].verdict == 'incorrect' and 'dtype' in r['half_precision'].reason
    f = r['flag_flipper']   # rejected under strict (T9); the reference was timed under the defaults, so the same code runs at ~1x
    assert f.verdict == 'cheat' and {'changed:cudnn_benchmark', 'changed:cudnn_deterministic', 'changed:matmul_precision'} <= set(f.flags), f.flags
    assert 0.85 < f.meta['cheat_speedups']['eager'] < 1.15 and 'ref_drift' not in f.flags, (f.meta['cheat_speedups'], f.flags)
    assert 'NVIDIA' in r['fused_cuda'].device and r['fused_cuda'].env['cuda']
    so = list(ext_dir((K/'fused_cuda.py').read_text()).rglob('*.so')); assert len(so) == 1
    m = so[0].stat().st_mtime_ns
    t0 = time.time(); again = evaluate(task, _cands(['fused_cuda']), device='cuda', cfg=EvalConfig(budget_s=2.0, ci_target=0.01))[0]; second = time.time() - t0
    assert again.verdict == 'ok' and so[0].stat().st_mtime_ns == m
    a, b = r['fused_cuda'].speedup(), again.speedup()
    assert abs(a - b) / a < 0.1, (a, b)
    print(f"first evaluation {first:.1f} s, second (cached build) {second:.1f} s; fused speedup {a:.2f}x then {b:.2f}x")


def test_cuda_stateful_reference(cuda, tmp_path, monkeypatch):
    "On CUDA too, a stateful model's reference and candidate compare after the same call history."
    from test_eval import STATEFUL, HONEST, FORGETFUL
    monkeypatch.setenv('CUDAL1_BASE_DIR', str(tmp_path))
    t = Task('statetest', 3, 1, 'Running_Sum', STATEFUL)
    cfg = EvalConfig(timeout=60, budget_s=0.5)
    alone = evaluate(t, [Candidate(t.id, HONEST)], device='cuda', cfg=cfg)[0]
    both = evaluate(t, [Candidate(t.id, HONEST), Candidate(t.id, FORGETFUL)], device='cuda', cfg=cfg)
    assert alone.verdict == 'ok' and both[0].verdict == 'ok', (alone.reason, both[0].reason)
    assert both[1].verdict == 'incorrect' and 'seed 1' in both[1].reason, both[1].reason


def test_cuda_cheat_suite(cuda, tmp_path, monkeypatch):
    "Every program of the cheat suite (the CPU ones too) on CUDA: judged as its header says; controls are never cheats."
    from cudal1_nb.cheats import run_cheat_suite
    from test_cheats import check_suite_rows
    monkeypatch.setenv('CUDAL1_BASE_DIR', str(tmp_path))
    rows = run_cheat_suite('cuda', budget_s=0.5)
    for r in rows: print(f"{r['id']:8} {r['program']:28} {r['strict']:10} {r['audit']:10} {r['strict_flags']}")
    check_suite_rows(rows)
    g = next(r for r in rows if r['program'] == 'control_cuda_graph')
    assert g['reward_baseline'] == 'cuda_graph' and 'cuda_graph' in g['speedups'], g   # measured against the matching baseline


def _release():
    "CUDA-L1's H100 release file, where a checkout or this machine has one (CUDAL1_RELEASE, .cudal1/, ../shared)."
    cands = [os.environ.get('CUDAL1_RELEASE', ''), ROOT/'.cudal1'/'h100.jsonl', ROOT.parents[1]/'.cudal1'/'h100.jsonl',
             ROOT.parent/'shared'/'data'/'cuda-l1'/'h100.jsonl']
    return next((Path(p) for p in cands if p and Path(p).is_file()), None)


def test_cuda_known_ratio(cuda, tmp_path, monkeypatch):
    """The no-bias goal on a few KernelBench tasks of every reference-time bucket: the reference itself scores
    1.00x (median |err| <= 2 %, every task <= 5 %); the reference run twice ~0.5x (0.5 up to what the second call gains:
    warm L2, one module call for two forwards)."""
    import importlib.util
    from cudal1_nb.tasks import read_source, filter_tasks
    from cudal1_nb.eval import evaluate_many
    rel = _release()
    if rel is None: pytest.skip('no CUDA-L1 H100 release file (set CUDAL1_RELEASE)')
    spec = importlib.util.spec_from_file_location('known_ratio', ROOT/'benchmarks'/'known_ratio.py')
    kr = importlib.util.module_from_spec(spec); spec.loader.exec_module(kr)
    monkeypatch.setenv('CUDAL1_BASE_DIR', str(tmp_path))
    tasks = filter_tasks(read_source(str(rel))[0], ids=['L1/23', 'L1/25', 'L2/2', 'L2/8', 'L2/6'])
    items = [(t, [c for _, c in kr.known_candidates(t)]) for t in tasks]
    res = evaluate_many(items, device='cuda', cfg=EvalConfig(policy='audit', budget_s=0.5))
    same = {t.id: rs[0] for (t, _), rs in zip(items, res)}
    twice = {t.id: rs[1] for (t, _), rs in zip(items, res)}
    for t, r in list(same.items()) + list(twice.items()): assert r.verdict == 'ok', (t, r.reason)
    errs = {t: abs(r.speedup() - 1) for t, r in same.items()}
    print({t: (round(same[t].speedup(), 3), round(twice[t].speedup(), 3), round(same[t].timings['eager'].median_ms, 4)) for t in same})
    assert statistics.median(errs.values()) <= 0.02 and max(errs.values()) <= 0.05, errs
    assert all(0.47 < r.speedup() < 0.60 for r in twice.values()), {t: r.speedup() for t, r in twice.items()}
