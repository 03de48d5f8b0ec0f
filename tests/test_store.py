"Tests of `cudal1_nb.store`: release round trips, bad input, concurrent writers, killed writers, queries."
import json, os, signal, sqlite3, time, multiprocessing as mp
from pathlib import Path
import pytest
from cudal1_nb.core import Task, Candidate, EvalResult, Timing
from cudal1_nb.store import Store

FIX = Path(__file__).resolve().parent/'fixtures'/'release_small.jsonl'
SHARED = Path(__file__).resolve().parents[2]/'shared'/'data'/'cuda-l1'
RELEASES = ('a100', 'h100', 'l40', '3090', 'h20')
REF = 'import torch\nclass Model(torch.nn.Module):\n    def forward(self, x): return x + 1\n'

def counts(db):
    "Row counts of every table, read with plain sqlite3."
    with sqlite3.connect(db) as c:
        tabs = [r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        return {t: c.execute(f'SELECT count(*) FROM {t}').fetchone()[0] for t in tabs}

def integrity(db):
    with sqlite3.connect(db) as c: return c.execute('PRAGMA integrity_check').fetchone()[0], c.execute('PRAGMA foreign_key_check').fetchall()

@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path/'store.sqlite'); yield s; s.close()

# --- releases -------------------------------------------------------------------------------------------------------

def test_fixture_roundtrip(store, tmp_path):
    res = store.import_release(FIX)
    assert (res['name'], res['rows'], res['tasks_added'], res['candidates_added'], res['evals_added']) == ('cuda-l1:release_small', 6, 6, 15, 6)
    assert store.export_release('cuda-l1:release_small', tmp_path/'out.jsonl').read_bytes() == FIX.read_bytes()
    st = store.stats()
    assert st['tasks'] == {'kernelbench': 6} and st['candidates'] == {'baseline': 11, 'release': 4}
    assert st['evals'] == {'published': {'none': {'release_small': 6}}} and st['releases'] == {'cuda-l1:release_small': 6}
    pub = store.evals(kind='published')
    assert [e.candidate_id is None for e in pub] == [False, True, True, False, False, False]
    assert pub[1].speedups == dict.fromkeys(('eager', 'torch_compile', 'torch_compile_ro', 'cuda_graph', 'cudnn'))
    assert pub[4].speedups['eager'] == 3 and type(pub[4].speedups['eager']) is int     # ints stay ints
    assert store.get_task('kernelbench/L2/7').source == 'release_small.jsonl:5'
    assert [c.name for c in store.candidates('kernelbench/L2/1')] == ['cuda-l1:release_small', 'cudnn']   # cuda_graph_code null
    with sqlite3.connect(store.path) as c:
        states = c.execute("SELECT field, state, count(*) FROM release_codes GROUP BY 1, 2 ORDER BY 1, 2").fetchall()
    assert states == [('cuda_graph_code', 'code', 5), ('cuda_graph_code', 'null', 1), ('cudnn_code', 'code', 6),
                      ('custom_code', 'None', 1), ('custom_code', 'code', 4), ('custom_code', 'null', 1)]
    before = counts(store.path)
    assert store.import_release(FIX)['skipped'] and counts(store.path) == before          # same bytes: nothing happens

def test_reimport_changed_file_replaces(store, tmp_path):
    store.import_release(FIX)
    rows = [json.loads(l) for l in FIX.read_text().splitlines()]
    rows[0]['score_default'] = 1.5; del rows[2]
    p = tmp_path/'release_small.jsonl'; p.write_text(''.join(json.dumps(r) + '\n' for r in rows))
    res = store.import_release(p)
    assert res['replaced'] and not res['skipped']
    assert store.stats()['n_evals'] == 5 and store.stats()['releases'] == {'cuda-l1:release_small': 5}
    assert store.export_release('cuda-l1:release_small', tmp_path/'out.jsonl').read_bytes() == p.read_bytes()
    assert integrity(store.path) == ('ok', [])

BAD = [('{"level_id": 1, "task_id": ', 'not JSON'),
       ('{"level_id": 9, "task_id": 9}', "missing field(s) ['ref_code'"),
       ('"just a string"', 'expected a JSON object'),
       ('{{row}}|level_id="2"', 'level_id must be a non-negative int'),
       ('{{row}}|ref_code=null', 'ref_code must be a string'),
       ('{{row}}|custom_code=7', 'custom_code must be a string or null'),
       ('{{row}}|score_cudnn=-1.0', 'score_cudnn must be a positive finite number'),
       ('{{row}}|extra=1', "unknown field(s) ['extra']")]

@pytest.mark.parametrize('bad,msg', BAD)
def test_malformed_line(store, tmp_path, bad, msg):
    lines = FIX.read_text().splitlines()
    if bad.startswith('{{row}}'):
        k, v = bad.split('|')[1].split('=')
        r = {**json.loads(lines[3]), 'level_id': 4, k: json.loads(v)}; bad = json.dumps(r)
    p = tmp_path/'broken.jsonl'; p.write_text('\n'.join(lines[:3] + [bad] + lines[3:]) + '\n')
    store.add_task(Task('minibench', 1, 1, 'Inc', REF))
    before = counts(store.path)
    with pytest.raises(ValueError, match=r'broken\.jsonl:4: ') as e: store.import_release(p)
    assert msg in str(e.value)
    assert counts(store.path) == before and store.stats()['releases'] == {}

def test_baseline_needs_tasks(store, tmp_path):
    p = tmp_path/'baseline_cudnn.jsonl'; p.write_text(json.dumps(dict(level_id=1, task_id=1, code='x')) + '\n')
    with pytest.raises(ValueError, match=r"baseline_cudnn\.jsonl:1: task 'kernelbench/L1/1' is not in the store"): store.import_release(p)
    assert counts(store.path)['releases'] == 0

@pytest.mark.skipif(not SHARED.is_dir(), reason=f'{SHARED} not present')
def test_shared_releases_roundtrip(store, tmp_path):
    for n in RELEASES:
        src = SHARED/f'{n}.jsonl'
        if not src.exists(): pytest.skip(f'{src} missing')
        res = store.import_release(src)
        assert res['rows'] == sum(1 for _ in src.open())
        assert store.export_release(f'cuda-l1:{n}', tmp_path/f'{n}.jsonl').read_bytes() == src.read_bytes(), n
    for n in ('baseline_cuda_graph', 'baseline_cudnn'):
        if (src := SHARED/f'{n}.jsonl').exists():
            assert store.import_release(src)['format'] == 'baseline'
            assert store.export_release(f'cuda-l1:{n}', tmp_path/f'{n}.jsonl').read_bytes() == src.read_bytes(), n
    st = store.stats()
    assert st['tasks'] == {'kernelbench': 250} and st['n_evals'] == 250*len(RELEASES)
    with sqlite3.connect(store.path) as c:   # lossless without the raw-line fallback
        assert c.execute('SELECT count(*) FROM release_rows WHERE raw IS NOT NULL OR ref_code IS NOT NULL').fetchone()[0] == 0
    assert all(store.import_release(SHARED/f'{n}.jsonl')['skipped'] for n in RELEASES)

# --- records and queries ----------------------------------------------------------------------------------------------

def _graph(store):
    "root -> a -> c, root -> b -> c (diamond), plus d -> missing parent; evals on three devices."
    t = Task('minibench', 1, 1, 'Inc', REF); store.add_task(t)
    code = lambda s: REF.replace('class Model', 'class ModelNew').replace('x + 1', s)
    root = Candidate(t.id, code('x + 1'), name='root', origin='me')
    a = Candidate(t.id, code('x.add(1)'), name='a', parent_ids=[root.id])
    b = Candidate(t.id, code('1 + x'), name='b', parent_ids=[root.id])
    c = Candidate(t.id, code('x.add_(1)'), name='c', parent_ids=[b.id, a.id], prompt='contrast a and b')
    d = Candidate(t.id, code('torch.add(x, 1)'), name='d', parent_ids=['not-stored'])
    store.add_candidates([c, d, b, a, root])    # out of order on purpose
    return t, dict(root=root, a=a, b=b, c=c, d=d)

def test_records_roundtrip(store):
    t, cs = _graph(store)
    e = EvalResult(cs['a'].id, t.id, 'ok', True, {'eager': 1.5, 'cudnn': None}, {'candidate': Timing(1.0, 0.1, 9, 1.05, 0.9, 1.1)},
                   ['odd'], 'fine', 'NVIDIA H100', env=dict(torch='2.13.0', cuda='12.8', threads=4), meta={'seed': 3, 'x': [1, 2.5]})
    (i,) = store.add_evals([e])
    assert store.evals(ids=True) == [(i, e)] and EvalResult.from_dict(e.to_dict()) == store.evals()[0]
    assert store.get_task(t.id) == t and store.get_candidate(cs['c'].id) == cs['c']
    assert store.candidates(stage='manual', origin='me') == [cs['root']]
    with sqlite3.connect(store.path) as c:
        assert c.execute('SELECT torch_version, cuda_version, device FROM evaluations').fetchone() == ('2.13.0', '12.8', 'NVIDIA H100')
    assert store.add_candidates(cs.values()) == [x.id for x in cs.values()] and store.stats()['n_candidates'] == 5
    other = store.add_task(Task('minibench', 1, 2, 'Inc2', REF + '# 2\n'))
    with pytest.raises(ValueError, match='of task'): store.add_eval(EvalResult(cs['a'].id, other, 'ok'))
    assert store.stats()['n_evals'] == 1
    with pytest.raises(ValueError, match='unknown task'): store.add_candidate(Candidate('nope/L1/1', 'x'))
    with pytest.raises(ValueError, match='different code'): store.add_task(Task('minibench', 1, 1, 'Inc', REF + '#'))

def test_lineage(store):
    _, cs = _graph(store)
    name = lambda xs: [x.name for x in xs]
    assert name(store.lineage(cs['c'].id)) in (['root', 'a', 'b'], ['root', 'b', 'a'])
    assert name(store.lineage(cs['c'].id))[0] == 'root'
    assert name(store.descendants(cs['root'].id))[-1] == 'c' and sorted(name(store.descendants(cs['root'].id))) == ['a', 'b', 'c']
    assert store.lineage(cs['d'].id) == [] and store.lineage(cs['root'].id) == [] and store.descendants(cs['c'].id) == []

def test_best_k_and_exemplars(store):
    t, cs = _graph(store)
    ev = lambda n, v='ok', dev='h100', **sp: EvalResult(cs[n].id, t.id, v, v == 'ok', sp, device=dev)
    store.add_evals([ev('root', eager=1.0, torch_compile=0.5), ev('a', eager=2.0), ev('b', eager=1.5, torch_compile=1.2),
                     ev('c', eager=3.0), ev('c', 'incorrect'),                   # c's latest eval failed: c drops out
                     ev('a', eager=1.8),                                        # a re-measured: latest (1.8) counts
                     ev('b', dev='a100', eager=9.0), ev('d', 'error')])
    store.add_eval(EvalResult(cs['d'].id, t.id, kind='published', device='h100', speedups={'eager': 5.0}))
    best = store.best_k(t.id, k=2, device='h100')
    assert [(c.name, e.speedup()) for c, e in best] == [('a', 1.8), ('b', 1.5)] and all(e.ok for _, e in best)
    assert [c.name for c, _ in store.best_k(t.id)] == ['b', 'a', 'root']                # b's latest is the a100 one
    assert [(c.name, e.speedup('torch_compile')) for c, e in store.best_k(t.id, baseline='torch_compile', device='h100')] == [('b', 1.2), ('root', 0.5)]
    assert [c.name for c, _ in store.best_k(t.id, kind='published')] == ['d']
    assert [(c.name, s) for c, s in store.exemplars(t.id, device='h100')] == [('d', 5.0), ('a', 1.8), ('b', 1.5), ('root', 1.0)]
    assert [c.name for c, _ in store.exemplars(t.id, device='h100', kind='measured')] == ['a', 'b', 'root']
    assert store.exemplars(t.id, device='l40') == []

# --- processes --------------------------------------------------------------------------------------------------------

def _writer(path, wid, n, go):
    s = path if isinstance(path, Store) else Store(path)   # an inherited Store must reopen its connection after fork
    go.wait(10)
    t = 'minibench/L1/1'
    for i in range(n):
        c = Candidate(t, f'# writer {wid} variant {i}\n' + REF, name=f'w{wid}-{i}', stage='sft')
        s.add_candidate(c)
        s.add_eval(EvalResult(c.id, t, 'ok', True, {'eager': 1.0 + i/n}, device=f'dev{wid}'))
    s.close()

def test_concurrent_writers(tmp_path):
    s = Store(tmp_path/'store.sqlite'); s.add_task(Task('minibench', 1, 1, 'Inc', REF))   # parent opens before fork
    ctx = mp.get_context('fork'); go = ctx.Event()
    ps = [ctx.Process(target=_writer, args=(s if w % 2 else s.path, w, 200, go)) for w in range(4)]
    for p in ps: p.start()
    go.set()
    for p in ps: p.join(60)
    assert [p.exitcode for p in ps] == [0]*4
    st = s.stats()   # the parent's connection still works after the children used their own
    assert st['candidates'] == {'sft': 800} and st['n_evals'] == 800
    assert st['evals']['measured']['ok'] == {f'dev{w}': 200 for w in range(4)}
    assert len({e.candidate_id for e in s.evals()}) == 800 and integrity(s.path) == ('ok', [])

def _slow_txn(path, conn):
    "Add 3000 candidates in one transaction; report after 1000 and then crawl, waiting to be killed."
    s = Store(path)
    def gen():
        for i in range(3000):
            if i == 1000: conn.send('started')
            if i >= 1000: time.sleep(0.01)
            yield Candidate('minibench/L1/1', f'# {i}\n' + REF, stage='augment')
    s.add_candidates(gen())

def _import_loop(path, rel, conn):
    "Re-import a large release again and again under alternating names (each one transaction)."
    s = Store(path); i = 0
    while True:
        s.import_release(rel, name=f'big:{i % 3}')
        if i == 0: conn.send('started')
        s.remove_release(f'big:{(i+1) % 3}'); i += 1

def _kill_after_start(target, args, delay):
    ctx = mp.get_context('spawn'); a, b = ctx.Pipe()
    p = ctx.Process(target=target, args=(*args, b)); p.start()
    assert a.poll(30), 'child never reported'
    a.recv(); time.sleep(delay); os.kill(p.pid, signal.SIGKILL); p.join(10)
    assert p.exitcode == -signal.SIGKILL

def test_kill_mid_transaction(tmp_path):
    db = tmp_path/'store.sqlite'
    s = Store(db); s.add_task(Task('minibench', 1, 1, 'Inc', REF)); s.close()
    before = counts(db)
    _kill_after_start(_slow_txn, (db,), 0.2)
    assert integrity(db) == ('ok', []) and counts(db) == before     # none of the 1000+ inserted rows survive
    s = Store(db); s.add_candidates(Candidate('minibench/L1/1', f'# {i}\n' + REF) for i in range(50))
    assert s.stats()['candidates'] == {'manual': 50}; s.close()

def test_kill_mid_import(tmp_path):
    rows = [json.loads(l) for l in FIX.read_text().splitlines()]
    big = tmp_path/'big.jsonl'
    with big.open('w') as f:    # 1500 rows: one import is a few hundred ms
        for i in range(1500):
            r = dict(rows[i % 6], level_id=4, task_id=i); r['ref_code'] += f'# {i}\n'
            if isinstance(r['custom_code'], str) and r['custom_code'] != 'None': r['custom_code'] += f'# {i}\n'
            f.write(json.dumps(r) + '\n')
    db = tmp_path/'store.sqlite'
    _kill_after_start(_import_loop, (db, big), 0.35)
    assert integrity(db) == ('ok', [])
    s = Store(db)
    with sqlite3.connect(db) as c:   # each release that exists is complete
        for name, n in c.execute('SELECT name, n_rows FROM releases').fetchall():
            assert n == 1500
            assert c.execute('SELECT count(*) FROM release_rows WHERE release=? AND eval_id IS NOT NULL', (name,)).fetchone()[0] == 1500
            assert c.execute('SELECT count(*) FROM release_codes WHERE release=?', (name,)).fetchone()[0] == 4500
        nrel = c.execute('SELECT count(*) FROM releases').fetchone()[0]
        assert c.execute('SELECT count(*) FROM evaluations').fetchone()[0] == 1500*nrel
    assert 1 <= nrel <= 3     # two after a full round; three when killed between an import and the next removal
    s.import_release(big, name='after'); assert s.export_release('after', tmp_path/'out.jsonl').read_bytes() == big.read_bytes()
    s.close()
