"""Durability of an evaluation campaign: kill -9 at random moments then resume (nothing lost, nothing twice, the store
consistent); candidates that take down their worker; a store that cannot be written (a full disk)."""
import os, sys, json, time, random, signal, sqlite3, subprocess, textwrap
import pytest
from cudal1_nb.core import Candidate
from cudal1_nb.eval import EvalConfig, evaluate_many, harness_version
from cudal1_nb.minibench import minibench_tasks, minibench_variants
from cudal1_nb.store import Store

from cudal1_nb.core import Task

N_TASKS, PER_TASK = 2, 6   # 12 candidates: three kills among their results still fall at random moments (2 to 7 results, 5 or more left)
CHEAP = dict(timeout=60, budget_s=0.02, warmup=1, min_trials=3, max_trials=5, n_seeds=1, ci_target=0.5, workers=2)
REF = "import torch\nimport torch.nn as nn\nclass Model(nn.Module):\n    def forward(self, x):\n        return x {op} 1\ndef get_inputs():\n    return [torch.randn(64)]\ndef get_init_inputs():\n    return []\n"
WAYS = ('x {op} 1', 'torch.{fn}(x, 1)', 'x.{fn}(1)', '(x.clone() {op} 1)')

def campaign_items(n_tasks=N_TASKS, per_task=PER_TASK):
    "Cheap candidates on tiny tasks (x + 1, x - 1 on 64 numbers): honest programs written a few ways, each distinct (a numbered comment)."
    out = []
    for k, (op, fn) in enumerate((('+', 'add'), ('-', 'sub'))[:n_tasks]):
        t = Task('durability', 1, k + 1, f'x{op}1', REF.format(op=op))
        out.append((t, [Candidate(t.id, "import torch\nimport torch.nn as nn\nclass ModelNew(nn.Module):\n    def forward(self, x):\n        return "
                                  + WAYS[i % len(WAYS)].format(op=op, fn=fn) + f"\n# campaign copy {i}\n", name=f"copy{i}", origin='test') for i in range(per_task)]))
    return out

SCRIPT = textwrap.dedent("""
    import sys, json
    sys.path.insert(0, {tests!r})
    from test_durability import campaign_items, CHEAP
    from cudal1_nb.eval import EvalConfig, evaluate_many
    from cudal1_nb.store import Store
    res = evaluate_many(campaign_items(), cfg=EvalConfig(**CHEAP), store=Store({db!r}), resume=True)
    print(json.dumps(sorted({{r.verdict for rs in res for r in rs}})))
""")

def _rows(db):
    if not os.path.exists(db): return 0
    c = sqlite3.connect(db, timeout=30)
    try: return c.execute("SELECT count(*) FROM evaluations").fetchone()[0]
    except sqlite3.OperationalError: return 0   # not created yet
    finally: c.close()

def _check_store(db, n_cands):
    "The store after a kill: intact, no candidate measured twice, every result with its candidate and task."
    c = sqlite3.connect(db, timeout=30)
    try:
        assert c.execute("PRAGMA integrity_check").fetchone()[0] == 'ok'
        assert c.execute("PRAGMA foreign_key_check").fetchall() == []
        dup = c.execute("SELECT candidate_id, count(*) FROM evaluations GROUP BY candidate_id HAVING count(*) > 1").fetchall()
        assert dup == [], f"measured twice: {dup}"
        assert c.execute("SELECT count(*) FROM evaluations e LEFT JOIN candidates c ON c.id = e.candidate_id WHERE c.id IS NULL").fetchone()[0] == 0
        n = c.execute("SELECT count(*) FROM evaluations").fetchone()[0]
        assert n <= n_cands
        return n
    finally: c.close()

def _start(db, tmp_path):
    f = tmp_path/'campaign.py'
    f.write_text(SCRIPT.format(tests=os.path.dirname(__file__), db=str(db)))
    return subprocess.Popen([sys.executable, str(f)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=_die_with_parent)

def _die_with_parent():
    "In the campaign's process: die when the test process does (pytest killed by a timeout), not run on as an orphan."
    import ctypes
    try: ctypes.CDLL(None).prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG
    except (OSError, AttributeError): pass

@pytest.fixture
def campaigns():
    "Started campaign processes, killed with their workers (their own process group) whatever happens to the test."
    ps = []
    yield ps
    for p in ps:
        try: os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError): pass

def test_kill9_resume(tmp_path, campaigns):
    "kill -9 a 12-candidate campaign at random moments (in start-up, then after random numbers of results), resume each time."
    db, n = str(tmp_path/'store.sqlite'), N_TASKS * PER_TASK
    seed = int(os.environ.get('CUDAL1_KILL_SEED', time.time_ns() % 10**6)); rng = random.Random(seed)
    kills = [('startup', rng.uniform(0.5, 3.0))] + [('results', k) for k in sorted(rng.sample(range(2, n - 4), 3))]
    print(f"kill seed {seed}: {kills}")
    seen = []
    for i, (what, at) in enumerate(kills):
        p, t0 = _start(db, tmp_path), time.time(); campaigns.append(p)
        while p.poll() is None:
            if (time.time() - t0 >= at) if what == 'startup' else (_rows(db) >= at): break
            time.sleep(0.02)
        assert p.poll() is None, f"the campaign ended before kill {i} ({what} {at}): {p.stderr.read()[-2000:]}"
        if i % 2: os.killpg(p.pid, signal.SIGKILL)   # the whole campaign, workers included
        else: os.kill(p.pid, signal.SIGKILL)         # only its driver: its workers see their socket close
        p.wait(); p.stdout.close(); p.stderr.close()
        seen.append(_check_store(db, n))
        print(f"kill {i} ({what} {at}) after {time.time() - t0:.1f} s: {seen[-1]} results stored", flush=True)
    assert seen == sorted(seen) and seen[-1] > 0, seen   # every kill kept what was recorded before it
    p, t0 = _start(db, tmp_path), time.time(); campaigns.append(p); out, err = p.communicate(timeout=900)
    print(f"resumed to the end in {time.time() - t0:.1f} s", flush=True)
    assert p.returncode == 0, err[-3000:]
    assert json.loads(out.strip().splitlines()[-1]) == ['ok']
    test_n = _check_store(db, n)
    assert test_n == n, (test_n, n)   # nothing lost, nothing twice
    st = Store(db)
    assert len(st.measured([c.id for _, cs in campaign_items() for c in cs], device='cpu', harness=harness_version())) == n

def _prog(body):
    "A candidate whose forward does `body` (an honest ModelNew otherwise unused)."
    return ("import os, sys, time, signal, ctypes\nimport torch, torch.nn as nn\nclass ModelNew(nn.Module):\n"
            "    def __init__(self, *a):\n        super().__init__()\n    def forward(self, *a):\n" + textwrap.indent(body, ' ' * 8) + "\n")

CRASHERS = dict(
    exit_at_import="import os\nos._exit(3)\n",
    segfault=_prog("ctypes.string_at(0)"),
    kills_worker=_prog("os.kill(os.getppid(), signal.SIGKILL); time.sleep(30)"),   # its parent is the sandbox worker
    huge_alloc=_prog("return bytearray(1 << 50)"),
)

def test_crashers_campaign_goes_on(tmp_path):
    "A candidate that takes its process or its worker down is that candidate's error; the others are measured."
    t = minibench_tasks()[0]
    vs = [v for v in minibench_variants(t) if not v.meta['cpp']][:2]
    bad = [Candidate(t.id, code, name=k) for k, code in CRASHERS.items()]
    cands = [vs[0]] + bad + [vs[1]]   # honest ones before and after
    st = Store(tmp_path/'s.sqlite')
    res = evaluate_many([(t, cands)], cfg=EvalConfig(**CHEAP), store=st)[0]
    v = {c.name: r for c, r in zip(cands, res)}
    assert [v[c.name].verdict for c in vs] == ['ok', 'ok'], [v[c.name].reason for c in vs]
    for k in CRASHERS: assert v[k].verdict == 'error', (k, v[k].verdict, v[k].reason)
    assert 'exited with status 3' in v['exit_at_import'].reason, v['exit_at_import'].reason
    assert 'SIGSEGV' in v['segfault'].reason, v['segfault'].reason
    assert 'sandbox worker lost' in v['kills_worker'].reason, v['kills_worker'].reason
    assert 'MemoryError' in v['huge_alloc'].reason, v['huge_alloc'].reason
    assert len(st.evals()) == len(cands)

def test_store_write_failure(tmp_path, monkeypatch):
    "A result the store cannot take (disk full) is that candidate's clear error; the rest is recorded; a resume measures only it."
    t, cands = campaign_items(1, 6)[0]
    st, victim = Store(tmp_path/'s.sqlite'), cands[2].id
    real = Store.add_evals
    def flaky(self, evals):
        evals = list(evals)
        if any(e.candidate_id == victim for e in evals): raise sqlite3.OperationalError('database or disk is full')
        return real(self, evals)
    monkeypatch.setattr(Store, 'add_evals', flaky)
    res = evaluate_many([(t, cands)], cfg=EvalConfig(**CHEAP), store=st)[0]
    assert [r.verdict for r in res] == ['ok', 'ok', 'error', 'ok', 'ok', 'ok'], [r.reason for r in res]
    assert 'could not be recorded in the store' in res[2].reason and 'database or disk is full' in res[2].reason, res[2].reason
    assert res[2].meta['measured_verdict'] == 'ok'
    assert len(st.evals()) == 5 and not st.evals(candidate_id=victim)   # no result for it...
    kept = st.processes([victim], device='cpu', harness=harness_version())[victim]   # ...but its judged process, kept as it was judged (with its candidate)
    assert list(kept) == [0] and kept[0].verdict == 'ok'
    monkeypatch.setattr(Store, 'add_evals', real)
    again = evaluate_many([(t, cands)], cfg=EvalConfig(**CHEAP), store=st, resume=True)[0]
    assert [r.verdict for r in again] == ['ok'] * 6 and len(st.evals()) == 6
    assert [r.created for i, r in enumerate(again) if i != 2] == [r.created for i, r in enumerate(res) if i != 2]   # from the store
    assert again[2].meta['lock_at'] == kept[0].meta['lock_at']   # judged from its kept process: not timed again

@pytest.fixture
def tiny_disk(tmp_path):
    d = tmp_path/'disk'; d.mkdir()
    r = subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', str(d)], capture_output=True)
    if r.returncode: pytest.skip(f"cannot mount a small tmpfs here: {r.stderr.decode().strip()[:200]}")
    yield d
    subprocess.run(['umount', '-l', str(d)])

def test_full_disk_store(tiny_disk):
    "The store on a real filesystem that fills up mid-campaign: those candidates' clear errors, the campaign goes on."
    t, cands = campaign_items(1, 8)[0]
    st, filler, seen = Store(tiny_disk/'s.sqlite'), tiny_disk/'filler', []
    def on_result(ti, ci, r):
        seen.append(ci)
        if len(seen) == 2:   # fill the disk after the second result...
            with open(filler, 'wb') as f:
                try:
                    while True: f.write(b'\0' * 65536); f.flush()
                except OSError: pass
        if len(seen) == 5: filler.unlink()   # ...and free it again after the fifth
    res = evaluate_many([(t, cands)], cfg=EvalConfig(**CHEAP), store=st, on_result=on_result)[0]
    bad = [r for r in res if r.verdict != 'ok']
    assert bad and all('could not be recorded in the store' in r.reason for r in bad), [r.reason for r in bad]
    assert res[-1].verdict == 'ok' and len(st.evals()) == len(cands) - len(bad)
    again = evaluate_many([(t, cands)], cfg=EvalConfig(**CHEAP), store=st, resume=True)[0]
    assert [r.verdict for r in again] == ['ok'] * len(cands) and len(st.evals()) == len(cands)

def _release(path, n:int):
    "A CUDA-L1-style release file of `n` tiny tasks (x + 1 on 64 numbers, written n ways), each with an honest program."
    rows = [dict(level_id=1, task_id=k + 1, ref_code=REF.format(op='+') + f"# task {k}\n",
                 custom_code="import torch\nimport torch.nn as nn\nclass ModelNew(nn.Module):\n    def forward(self, x):\n        return "
                             + WAYS[k % len(WAYS)].format(op='+', fn='add') + f"\n# program {k}\n", cuda_graph_code=None, cudnn_code=None,
                 score_default=1.0, score_torch_compile_default=None, score_torch_compile_reduce_overhead=None, score_cuda_graph=None, score_cudnn=None)
            for k in range(n)]
    path.write_text(''.join(json.dumps(r) + '\n' for r in rows))
    return path

def _procs(db)->dict:
    "(candidate, process) -> (created, the process's lock_at) of every process the store kept."
    if not os.path.exists(db): return {}
    c = sqlite3.connect(db, timeout=30)
    try: return {(a, j): (t, json.loads(r)['meta'].get('lock_at')) for a, j, t, r in c.execute("SELECT candidate_id, process, created, result FROM eval_processes")}
    except sqlite3.OperationalError: return {}
    finally: c.close()

def test_audit_kill_resume_processes(tmp_path, campaigns):
    """An audit whose every program is timed in two processes, killed twice -- once in its first processes, once among
    the second ones -- and resumed: each process kept before a kill is not timed again, and every result merges exactly
    the processes the store kept (none missing, none twice)."""
    n, rel, db, out = 5, _release(tmp_path/'rel.jsonl', 5), str(tmp_path/'audit.sqlite'), tmp_path/'audit'
    cmd = [sys.executable, '-m', 'cudal1_nb', 'audit', str(rel), '--device', 'cpu', '--db', db, '--out', str(out), '--json',
           *sum((['-p', k, str(v)] for k, v in dict(CHEAP, processes=2, repeat_all='true').items()), [])]
    kept = {}
    for i, at in enumerate((4, n + 3)):   # 4 of the n first processes; then 3 of the n second ones
        p = subprocess.Popen(cmd + (['--resume'] if i else []), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True, preexec_fn=_die_with_parent); campaigns.append(p)
        while p.poll() is None and len(_procs(db)) < at: time.sleep(0.02)
        assert p.poll() is None, f"the audit ended before kill {i}: {p.stderr.read()[-2000:]}"
        os.killpg(p.pid, signal.SIGKILL); p.wait(); p.stdout.close(); p.stderr.close()
        now = _procs(db)
        assert all(now[k] == v for k, v in kept.items()), "a process kept before a kill was timed again"
        kept = now
    assert 4 <= len(kept) < 2 * n and {j for _, j in kept} == {0, 1}, sorted(kept)
    r = subprocess.run(cmd + ['--resume'], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    final = _procs(db)
    assert all(final[k] == v for k, v in kept.items()) and len(final) == 2 * n, (len(final), len(kept))
    st = Store(db)
    evs = [e for e in st.evals() if e.kind == 'measured']
    assert len(evs) == n and len({e.candidate_id for e in evs}) == n and {e.verdict for e in evs} == {'ok'}
    for e in evs:   # the result merges exactly the two processes the store holds for its candidate
        assert [p['lock_at'] for p in e.meta['processes']] == [final[(e.candidate_id, j)][1] for j in (0, 1)], e.meta['processes']
