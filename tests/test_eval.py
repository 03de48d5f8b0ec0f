"The harness on CPU: verdicts for good and bad candidates, a batch over several tasks, cached compiles, the `cudal1 eval` command."
import json, os, time
from pathlib import Path
import pytest
from conftest import cudal1, ROOT
from cudal1_nb.core import Candidate
from cudal1_nb.eval import EvalConfig, evaluate, evaluate_many, ext_dir
from cudal1_nb.policy import apply_policy
from cudal1_nb.minibench import minibench_tasks, minibench_variants

CFG = EvalConfig(timeout=20, budget_s=0.3, min_trials=5)


def _task(tid): return next(t for t in minibench_tasks() if t.id == tid)


def _wrap(code, body):
    "A variant whose forward is changed by `body` (which sees `out` = the honest output and the inputs `a`)."
    return code.replace('class ModelNew', 'class _Honest') + f"\nclass ModelNew(_Honest):\n    def forward(self, *a):\n        out = super().forward(*a)\n{body}\n"


BAD = {
    'incorrect': '        return out * 1.05',
    'crashing': '        import ctypes; ctypes.string_at(0)',
    'exiting': '        import os; os._exit(0)',
    'sys_exit': '        raise SystemExit(0)',
    'mutating': '        a[0].mul_(0.5)\n        return out',
    'too_slow': '        import time; time.sleep(0.5)\n        return out',
    'wrong_shape': '        return out[:1]',
    'wrong_dtype': '        return out.double()',
    'not_tensor': '        return [out]',
}
WANT = dict(incorrect='incorrect', crashing='error', exiting='error', sys_exit='error', mutating='incorrect',
            too_slow='ok', wrong_shape='incorrect', wrong_dtype='incorrect', not_tensor='incorrect')


TAMPER = dict(   # candidates that replace the clock or the comparison, at import or inside forward (each wraps the first honest variant)
    clock=lambda code: 'import time\n_real = time.perf_counter\ntime.perf_counter = lambda: _real() * 0.5\n' + code,
    allclose=lambda code: _wrap(code, '        import torch\n        torch.allclose = lambda *a, **k: True\n        return out'),
    harness=lambda code: _wrap(code, '        import sys\n'
                                     '        sys.modules["cudal1_nb.job.timing"].Timer.__call__ = lambda self, fn, xs: (fn(*xs), 1e-6)\n        return out'),
    compiled=lambda code: _wrap(code, '        return out').replace('out = super().forward(*a)', 'out = self._c(*a)').replace(
        'class ModelNew(_Honest):', 'class ModelNew(_Honest):\n    def __init__(self, *a, **k):\n        super().__init__(*a, **k)\n'
                                    '        import torch\n        self._c = torch.compile(super().forward)'),
)


@pytest.fixture(scope='module')
def l2_3(tmp_path_factory):
    """One batch on minibench/L2/3, judged once for the three tests below (each candidate is judged in its own processes,
    so a batch gives each the verdict it gets alone): the honest variants, the usual failures (`BAD`), a global switch
    changed at import, two precision downgrades, and timer and check tampering. Returns (task, honest variants, name -> result)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv('CUDAL1_BASE_DIR', str(tmp_path_factory.mktemp('base')))
        t = _task('minibench/L2/3')
        good = [v for v in minibench_variants(t) if not v.meta['cpp']]
        bad = [Candidate(t.id, _wrap(good[0].code, b), name=k) for k, b in BAD.items()]
        flip = Candidate(t.id, 'import torch\ntorch.set_num_threads(2)\n' + good[0].code, name='threads')   # global state changed at import
        low = [Candidate(t.id, _wrap(good[0].code, f'        return out.to(torch.{k}).to(out.dtype)'), name=k) for k in ('float16', 'bfloat16')]
        tamper = [Candidate(t.id, f(good[0].code), name=k) for k, f in TAMPER.items()]
        # TorchScript reads a function's source: a program run from its text must still give it (`sandbox.load_program`)
        scripted = Candidate(t.id, 'import torch\n\n@torch.jit.script\ndef _same(x: torch.Tensor) -> torch.Tensor:\n    return x\n\n'
                             + good[0].code, name='scripted')
        cands = good + bad + [flip] + low + tamper + [scripted]
        # torch.compile's first call: ~27 s on 2 busy cores. Nine paired rounds, not five: with five the median's interval is the
        # whole range, so one round slowed by a busy CPU spreads the 3x speedup's interval below 1.0; with nine it drops the extremes
        cfg = EvalConfig(timeout=120, budget_s=CFG.budget_s, min_trials=9)
        res = evaluate(t, cands, cfg=cfg)
    assert len({c.name for c in cands}) == len(cands)
    return t, good, {c.name: r for c, r in zip(cands, res)}


@pytest.mark.xdist_group('eval-l2-3')
def test_verdicts_for_good_and_bad_candidates(l2_3):
    t, good, got = l2_3
    th = got['threads']   # T9 under strict: a global switch a program changes stays changed for whatever runs next in the process
    assert th.verdict == 'cheat' and th.meta['cheat_ids'] == ['T9'] and 'changed:threads' in th.flags, (th.reason, th.flags)
    assert th.meta['changed']['threads'] == [1, 2] and apply_policy(th, 'audit').verdict == 'ok'
    assert all(got[g.name].verdict == 'ok' and got[g.name].correct for g in good)
    assert got['scripted'].verdict == 'ok', got['scripted'].reason
    assert {k: got[k].verdict for k in BAD} == WANT, {k: (got[k].verdict, got[k].reason) for k in BAD}
    assert 'SIGSEGV' in got['crashing'].reason   # a forward that never returns: `test_call_that_never_returns_is_stopped_in_seconds`
    assert 'without a result' in got['exiting'].reason and 'SystemExit' in got['sys_exit'].reason
    assert 'modified its input' in got['mutating'].reason and 'input_mutation' in got['mutating'].flags
    assert got['too_slow'].speedup() < 0.1 and got['too_slow'].timings['candidate'].median_ms > 450
    assert 'shape' in got['wrong_shape'].reason and 'dtype' in got['wrong_dtype'].reason and 'not a plain torch.Tensor' in got['not_tensor'].reason
    fast = max(good, key=lambda g: got[g.name].speedup())
    r = got[fast.name]
    assert r.speedup() > 1.5 and set(r.timings) >= {'candidate', 'eager', 'eager_clean', 'eager_paired', 'eager_post'}
    assert r.timings['candidate'].n >= 9 and r.env['torch'] and r.device == 'cpu'
    lo, hi = r.meta['speedup_ci']['eager']   # the speedup's 95 % interval (log scale) holds the speedup
    assert lo <= r.speedup() <= hi and lo > 1.0



@pytest.mark.xdist_group('eval-l2-3')
def test_every_process_records_its_holds_of_the_lock(l2_3):
    """A result keeps its job's holds of the device lock whatever its verdict (an audit's timeline counts every process):
    rejected on its outputs, raised in its own code (`sandbox.on_error`), tampering; a job that died has none to say."""
    t, good, got = l2_3
    for k in ('incorrect', 'wrong_shape', 'mutating', 'sys_exit', 'harness', good[0].name):
        m = got[k].meta
        assert m.get('holds') and all(kind in ('sh', 'ex') and sec >= 0 for kind, _, sec in m['holds']), (k, got[k].verdict, m.get('holds'))
        assert m['lock_at'] >= m['holds'][0][1] and m['job_s'] > 0, k
    assert got['sys_exit'].verdict == 'error' and got['harness'].verdict == 'cheat'
    assert 'holds' not in got['crashing'].meta and got['crashing'].meta['job_s'] > 0   # killed by its signal: nothing came back

TINY = """import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x):
        return x * 2.0

def get_inputs():
    return [torch.randn(64)]

def get_init_inputs():
    return []
"""


def test_call_that_never_returns_is_stopped_in_seconds(base_dir):
    """The per-call limit (max(5 s, 1000x the reference's time)) answers long before the 300 s job timeout, naming the phase;
    a call that never returns, stopped by the job's timeout, is named by its phase too."""
    from cudal1_nb.core import Task
    t = Task('tests', 1, 1, 'tiny', TINY)
    sleeper = TINY.replace('class Model(', 'class ModelNew(').replace('        return x * 2.0', (
        '        self.n = getattr(self, "n", 0) + 1\n        if self.n > 4:\n            import time; time.sleep(3600)\n        return x * 2.0'))
    t0 = time.time()
    r = evaluate(t, [sleeper], cfg=EvalConfig(timeout=300, budget_s=0.3, min_trials=5))[0]
    assert r.verdict == 'timeout' and "phase 'warmup'" in r.reason and 'one call ran over 5 s' in r.reason, r.reason
    assert time.time() - t0 < 90
    # a forward that never returns from its first call (whose limit allows for a compile, 60 s): here the job's own timeout
    # stops it first, and its reason names the phase too
    hang = TINY.replace('class Model(', 'class ModelNew(').replace('        return x * 2.0', '        while True: pass')
    r = evaluate(t, [hang], cfg=EvalConfig(timeout=10, budget_s=0.3, min_trials=5))[0]
    assert r.verdict == 'timeout' and "phase 'check'" in r.reason, r.reason


def test_batch_of_10_with_3_faulty(base_dir):
    "A batch over several tasks with faulty candidates among honest ones: each faulty one fails, every honest one is measured ok."
    items, faulty = [], set()
    tasks = [t for t in minibench_tasks() if t.level in (1, 3)][:4]
    names = list(BAD)
    n = 0
    for t in tasks:
        cs = [v for v in minibench_variants(t) if not v.meta['cpp']][:2]
        if len(faulty) < 3:
            k = names[len(faulty)] if names[len(faulty)] != 'too_slow' else 'incorrect'
            c = Candidate(t.id, _wrap(cs[0].code, BAD[k]), name=f'bad-{k}'); faulty.add(c.id); cs.append(c)
        items.append((t, cs)); n += len(cs)
        if n >= 10: break
    assert n >= 10 and len(faulty) == 3
    res = evaluate_many(items, cfg=CFG)
    flat = [(c, r) for (t, cs), rs in zip(items, res) for c, r in zip(cs, rs)]
    assert all(r.verdict != 'ok' for c, r in flat if c.id in faulty)
    good = [(c, r) for c, r in flat if c.id not in faulty]
    assert len(good) >= 7 and all(r.verdict == 'ok' and r.speedup() > 0 for c, r in good), [(c.name, r.reason) for c, r in good if not r.ok]


@pytest.fixture(scope='module')
def build_base(tmp_path_factory):
    """One base directory for the tests that build extensions: the precompiled `torch/extension.h` (about 15 s to make on
    2 cores) is made once for them; each builds programs of its own, in build folders of their own."""
    with pytest.MonkeyPatch.context() as mp:
        d = tmp_path_factory.mktemp('builds')
        mp.setenv('CUDAL1_BASE_DIR', str(d))
        yield d


def test_cli_eval_json_and_exit_codes(tmp_path, base_dir):
    t = _task('minibench/L1/1')
    v = [x for x in minibench_variants(t) if not x.meta['cpp']][0]
    ref, good, bad = tmp_path/'1_Ref.py', tmp_path/'good.py', tmp_path/'bad.py'
    ref.write_text(t.code); good.write_text(v.code); bad.write_text(_wrap(v.code, BAD['incorrect']))
    r = cudal1('eval', str(ref), str(good), str(bad), '--json', '-p', 'budget_s', '0.3')
    assert r.returncode == 0, r.stderr
    rows = [json.loads(l) for l in r.stdout.splitlines()]
    assert [x['verdict'] for x in rows] == ['ok', 'incorrect']
    assert set(rows[0]) >= {'verdict', 'correct', 'speedup', 'timings', 'flags', 'reason'} and rows[0]['speedup']['eager'] > 0
    assert rows[0]['timings']['candidate']['n'] >= 10
    broken = tmp_path/'2_Broken.py'; broken.write_text('class Model: pass\n')
    r = cudal1('eval', str(broken), str(good))
    assert r.returncode == 2 and 'bad reference task' in r.stderr
    r = cudal1('eval', str(ref), str(tmp_path/'missing.py'))
    assert r.returncode == 2 and 'no such file' in r.stderr


def test_cli_audit_on_fixture_release(tmp_path, base_dir):
    rel = ROOT/'tests'/'fixtures'/'download'/'optimized_cuda_code'/'h100.json'
    r = cudal1('audit', str(rel), '--device', 'cpu', '--json', '--out', str(tmp_path/'a'), '--db', str(tmp_path/'s.sqlite'), '-p', 'budget_s', '0.3')
    assert r.returncode == 0, r.stderr
    rows = [json.loads(l) for l in r.stdout.splitlines()]
    assert [(x['level'], x['task'], x['verdict']) for x in rows] == [(1, 1, 'ok'), (2, 1, 'no_code')]
    assert rows[0]['published_eager'] == 1.02 and rows[0]['measured_eager'] > 0
    assert (tmp_path/'a'/'audit.csv').read_text().splitlines()[0].startswith('level,task,name')
    import sqlite3
    con = sqlite3.connect(tmp_path/'s.sqlite')
    assert con.execute("select count(*) from evaluations where kind='measured' and verdict='ok'").fetchone()[0] == 1
    assert con.execute("select count(*) from evaluations where kind='published'").fetchone()[0] == 2
    # the tables again from the saved results, measuring nothing; a result file missing the measured task -> not_measured
    ev = tmp_path/'a'/'evals.jsonl'
    assert not (tmp_path/'a'/'evals.partial.jsonl').exists() and len(ev.read_text().splitlines()) == 1
    r2 = cudal1('audit', str(rel), '--from-evals', str(ev), '--out', str(tmp_path/'b'), '--json')
    assert r2.returncode == 0, r2.stderr
    assert [json.loads(l) for l in r2.stdout.splitlines()] == rows
    (tmp_path/'empty.jsonl').write_text('')
    r3 = cudal1('audit', str(rel), '--from-evals', str(tmp_path/'empty.jsonl'), '--out', str(tmp_path/'c'), '--json')
    assert [json.loads(l)['verdict'] for l in r3.stdout.splitlines()] == ['not_measured', 'no_code']
    (tmp_path/'bad.jsonl').write_text('{not json\n')
    r4 = cudal1('audit', str(rel), '--from-evals', str(tmp_path/'bad.jsonl'), '--out', str(tmp_path/'d'))
    assert r4.returncode != 0 and 'bad.jsonl:1: not JSON' in r4.stderr
    # an audit resumed on its store measures nothing it has: the same rows, no new result in the store
    r5 = cudal1('audit', str(rel), '--device', 'cpu', '--json', '--out', str(tmp_path/'e'), '--db', str(tmp_path/'s.sqlite'), '--resume', '-p', 'budget_s', '0.3')
    assert r5.returncode == 0, r5.stderr
    assert [json.loads(l) for l in r5.stdout.splitlines()] == rows
    assert con.execute("select count(*) from evaluations where kind='measured'").fetchone()[0] == 1
    assert len((tmp_path/'e'/'evals.jsonl').read_text().splitlines()) == 1
    r6 = cudal1('audit', str(rel), '--device', 'cpu', '--resume')
    assert r6.returncode != 0 and '--resume needs --db' in r6.stderr


STATEFUL = '''import torch
import torch.nn as nn

class Model(nn.Module):
    "Keeps a running sum of its inputs across calls (as KernelBench's stateful RNN cells keep their hidden state)."
    def __init__(self, n):
        super().__init__()
        self.proj = nn.Linear(n, n)
        self.register_buffer('acc', torch.zeros(n))
    def forward(self, x):
        self.acc = self.acc + x.mean(0)
        return self.proj(x) + self.acc

def get_inputs(): return [torch.randn(16, 64)]
def get_init_inputs(): return [64]
'''
HONEST = STATEFUL.replace('class Model(', 'class ModelNew(').replace('self.acc = self.acc + x.mean(0)', 'self.acc += x.sum(0) / x.shape[0]')
FORGETFUL = STATEFUL.replace('class Model(', 'class ModelNew(').replace('self.acc = self.acc + x.mean(0)\n        return self.proj(x) + self.acc',
                                                                      'return self.proj(x) + self.acc + x.mean(0)')


def test_stateful_reference_sees_the_candidates_call_history(base_dir):
    "The reference that is timed and checked with the candidate has had the same calls in the same order, folded job or not."
    from cudal1_nb.core import Task
    t = Task('statetest', 3, 1, 'Running_Sum', STATEFUL)
    honest, forgetful = Candidate(t.id, HONEST, name='honest'), Candidate(t.id, FORGETFUL, name='forgetful')
    alone = evaluate(t, [honest], cfg=CFG)[0]                       # folded: reference outputs made in the candidate's job
    both = evaluate(t, [honest, forgetful], cfg=CFG)                # a separate reference job
    for r in (alone, both[0]):
        assert r.verdict == 'ok' and r.meta['timed_checked'] >= CFG.min_trials, r.reason
    assert both[1].verdict == 'incorrect' and 'seed 1' in both[1].reason, both[1].reason   # the first call agrees, the second not


BROKEN_BUILD = '''from torch.utils.cpp_extension import load_inline
try:
    _ext = load_inline(name='cudal1_test_broken', cpp_sources='torch::Tensor twice(torch::Tensor x) { return x * not_declared_anywhere; }',
                       functions=['twice'])
except Exception as e:
    print('the build failed; falling back to PyTorch:', e); _ext = None
'''


def test_failed_build_is_flagged_and_not_retried(build_base):
    "A candidate whose extension fails to build and that falls back to PyTorch is measured, flagged, and its build is not paid for twice."
    t = _task('minibench/L2/3')
    good = next(v for v in minibench_variants(t) if not v.meta['cpp'])
    c = Candidate(t.id, BROKEN_BUILD + good.code, name='broken-build')
    first = evaluate(t, [c], cfg=CFG)[0]
    assert first.verdict == 'ok' and 'build_failed' in first.flags and 'what ran is its fallback' in first.reason, (first.reason, first.flags)
    assert 'not_declared_anywhere' in first.meta['build_errors']['cudal1_test_broken']
    assert json.loads((ext_dir(c.code)/'builds.json').read_text())   # recorded for the next evaluation
    again = evaluate(t, [c], cfg=CFG)[0]
    assert again.verdict == 'ok' and again.meta['build_errors'] == first.meta['build_errors']
    assert first.meta['build_s'] > 3 * again.meta['build_s'], (first.meta['build_s'], again.meta['build_s'])   # the compiler ran once


@pytest.mark.xdist_group('eval-l2-3')
def test_precision_downgrade_is_flagged(l2_3):
    "Outputs that pass atol=rtol=1e-2 but carry fp16/bf16 rounding are flagged `precision`; the honest variants are not."
    t, good, res = l2_3
    for k in ('float16', 'bfloat16'):   # strict (the default policy) rejects a precision downgrade; `audit` keeps it as a flag
        assert res[k].verdict == 'cheat' and 'precision' in res[k].flags and res[k].meta['err_ratio'] > 100, (k, res[k].reason, res[k].meta.get('err_ratio'))
        assert res[k].reason.startswith('C10 precision') and apply_policy(res[k], 'audit').verdict == 'ok'
    for g in good: assert 'precision' not in res[g.name].flags and res[g.name].meta['err_ratio'] < 10, (g.name, res[g.name].meta.get('err_ratio'))


@pytest.mark.xdist_group('eval-l2-3')
def test_timer_and_check_tampering_is_a_cheat(l2_3):
    "Candidates that replace the clock or the comparison (at import, or inside forward) get verdict cheat, naming what they replaced."
    t, good, res = l2_3
    assert res[good[0].name].verdict == 'ok', res[good[0].name].reason
    assert res['compiled'].verdict == 'ok', res['compiled'].reason   # torch.compile wraps torch.manual_seed itself: not tampering
    want = {'clock': 'time.perf_counter', 'allclose': 'torch.allclose', 'harness': 'job.timing.Timer.__call__'}
    for k, name in want.items():
        assert res[k].verdict == 'cheat' and name in res[k].reason and 'tamper' in res[k].flags, (k, res[k].verdict, res[k].reason)


RETURNS_STATE = '''import torch
import torch.nn as nn

class Model(nn.Module):
    "An RNN cell that returns its hidden state, kept as a plain attribute (KernelBench L3/34 does this)."
    def __init__(self, n):
        super().__init__()
        self.cell = nn.Linear(2 * n, n)
        self.hidden = torch.zeros(8, n)
    def forward(self, x):
        self.hidden = torch.tanh(self.cell(torch.cat([x, self.hidden.to(x.device)], dim=1)))
        return self.hidden

def get_inputs(): return [torch.randn(8, 32)]
def get_init_inputs(): return [32]
'''


def test_reference_returning_its_state_is_not_poisoned(base_dir):
    "Reference outputs are overwritten with NaN before they are freed (C7), except when the model still holds them."
    from cudal1_nb.core import Task
    t = Task('statetest', 3, 2, 'Returns_State', RETURNS_STATE)
    honest = RETURNS_STATE.replace('class Model(', 'class ModelNew(').replace('torch.cat([x, self.hidden.to(x.device)], dim=1)', 'torch.cat((x, self.hidden.to(x.device)), 1)')
    res = evaluate(t, [Candidate(t.id, honest, name='a'), Candidate(t.id, honest + '\n', name='b')], cfg=CFG)   # two candidates: a separate reference job
    for r in res: assert r.verdict == 'ok' and r.meta['timed_checked'] >= CFG.min_trials, r.reason


def test_known_ratio_candidates_and_table():
    "benchmarks/known_ratio.py: the two candidates built from a reference, and its per-bucket table (pure parts)."
    import importlib.util
    spec = importlib.util.spec_from_file_location('known_ratio', ROOT/'benchmarks'/'known_ratio.py')
    kr = importlib.util.module_from_spec(spec); spec.loader.exec_module(kr)
    from cudal1_nb.core import Task
    (k1, same), (k2, twice) = kr.known_candidates(Task('tests', 1, 1, 'tiny', TINY))
    assert (k1, k2) == ('same', 'twice') and 'class ModelNew(nn.Module)' in same.code and 'class Model(' not in same.code
    assert twice.code.startswith(TINY) and twice.code.count('super().forward') == 2
    assert kr.known_candidates(Task('tests', 1, 2, 'none', 'x = 1\n')) == []
    assert [kr.bucket_of(x) for x in (0.05, 0.3, 0.99, 1.0, 40.0)] == ['< 0.3 ms', '0.3-1 ms', '0.3-1 ms', '> 1 ms', '> 1 ms']
    rows = [dict(bucket='< 0.3 ms', kind='same', speedup=s, paired=s) for s in (0.98, 1.0, 1.06)]
    line = kr.table(rows).splitlines()[1].split()
    assert line[3:6] == ['same', '3', '2.0%'] and line[6] == '6.0%', line


REF_BUILDS = '''import torch, torch.nn as nn
from torch.utils.cpp_extension import load_inline
_ext = load_inline('cudal1_test_refext', 'torch::Tensor twice(torch::Tensor x) { return x * 2; }', functions=['twice'])
class Model(nn.Module):
    def forward(self, x): return _ext.twice(x)
def get_inputs(): return [torch.randn(256)]
def get_init_inputs(): return []
'''


def test_reference_that_builds_is_built_once(build_base):
    """A reference that builds an extension at import, and a candidate that builds one too: the candidate's compile job
    and its candidate job both load the reference in the candidate's build cache, and must pass torch the same build
    arguments (the precompiled header's include folder too), or the candidate job rebuilds the reference's extension.
    Evaluated a second time, nothing is compiled again: both cached builds are loaded as they are."""
    from cudal1_nb.core import Task
    t = Task('mine', 1, 1, 'twice_ext', REF_BUILDS)
    c = Candidate(t.id, REF_BUILDS.replace('cudal1_test_refext', 'cudal1_test_candext').replace('class Model(', 'class ModelNew('), name='own-ext')
    r = evaluate(t, [c], cfg=CFG)[0]
    assert r.verdict == 'ok', r.reason
    log = (ext_dir(c.code)/'cudal1_test_refext'/'.ninja_log').read_text().splitlines()
    assert sum('\tmain.o\t' in l for l in log) == 1, log   # main.o compiled once (a rebuilt reference: twice, and the job may time out)
    # a second evaluation never recompiles: both cached builds (the candidate's, the reference's) are loaded as they are
    # (this was test_second_evaluation_never_recompiles, on a mini-suite C++ variant: one build less, the same behaviour)
    built = lambda: {p: p.stat().st_mtime_ns for p in ext_dir(c.code).rglob('*') if p.suffix in ('.so', '.o')}
    before = built()
    assert {p.parent.name for p in before if p.suffix == '.so'} == {'cudal1_test_refext', 'cudal1_test_candext'}, before
    r2 = evaluate(t, [c], cfg=CFG)[0]
    assert r2.verdict == 'ok' and built() == before, r2.reason   # every object and library as it was: nothing compiled or linked again


def test_harness_version_ignores_what_nbdev_generates(tmp_path):
    "The harness's hash reads code, not the notebook names in the lines nbdev writes: renaming a notebook keeps the version."
    from cudal1_nb.contract import _code_bytes
    a, b = tmp_path/'a.py', tmp_path/'b.py'
    a.write_text("# AUTOGENERATED! DO NOT EDIT! File to edit: ../nbs/03_x.ipynb.\n# %% ../nbs/03_x.ipynb #ab12\ndef f(): return 1  # a comment\n")
    b.write_text("# AUTOGENERATED! DO NOT EDIT! File to edit: ../nbs/03y.ipynb.\n# %% ../nbs/03y.ipynb #cd34\ndef f(): return 1  # a comment\n")
    assert _code_bytes(a) == _code_bytes(b) == b"def f(): return 1  # a comment\n"
    b.write_text(b.read_text().replace('return 1', 'return 2'))
    assert _code_bytes(a) != _code_bytes(b)
