"""`cudal1 serve` against the real server on loopback (a subprocess), on the mini-suite with a short timing budget:
200 submissions from 16 concurrent clients, each answered once with `cudal1 eval`'s verdict; refused requests and
programs that crash or hang their worker; the trainers' examples; the server killed with kill -9 mid-load and
restarted: every accepted job answered, none twice."""
import os, sys, json, time, uuid, signal, socket, sqlite3, subprocess, threading
from pathlib import Path
import pytest
from conftest import ROOT

httpx = pytest.importorskip('httpx'); pytest.importorskip('fastapi'); pytest.importorskip('uvicorn')
from cudal1_nb.eval import harness_version

TASK = 'minibench/L1/1'
VARIANTS = ROOT/'data'/'minibench'/'variants'/'level1'/'1_Diag_Matmul_Column_Scale'
REF = ROOT/'data'/'minibench'/'tasks'/'level1'/'1_Diag_Matmul_Column_Scale.py'
CHEAP = dict(budget_s=0.02, warmup=1, min_trials=3, max_trials=5, n_seeds=1, ci_target=0.5, workers=2)
BROADCAST = (VARIANTS/'broadcast.py').read_text()
PROGRAMS = {   # the distinct programs really judged; every other submission is one of them again
    'broadcast': BROADCAST, 'column_loop': (VARIANTS/'column_loop.py').read_text(), 'float64_matmul': (VARIANTS/'float64_matmul.py').read_text(),
    'wrong': BROADCAST.replace('return x * self.scale', 'return x * self.scale + 1'),
    'threads': BROADCAST.replace('import torch\n', 'import threading\nimport torch\n', 1)}   # strict: static:thread rejects it
CRASH = BROADCAST.replace('        return x * self.scale', '        import os, signal, time\n        os.kill(os.getppid(), signal.SIGKILL); time.sleep(30)')   # its parent is the sandbox worker
HANG = BROADCAST.replace('        return x * self.scale', '        while True: pass')


def _free_port():
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); return s.getsockname()[1]

def _die_with_parent():
    "In the server's process: die with the test process (pytest killed by a timeout), not run on as an orphan."
    import ctypes
    try: ctypes.CDLL(None).prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG
    except (OSError, AttributeError): pass


class Served:
    "`cudal1 serve` in a subprocess on loopback: its own base directory, 16 named tokens, the short timing budget."
    def __init__(self, base:Path, *extra:str):
        self.base, self.port, self.extra, self.procs = Path(base), _free_port(), extra, []
        self.base.mkdir(parents=True, exist_ok=True)
        self.tokens = {f"c{i}": f"tok{i}-{uuid.uuid4().hex}" for i in range(16)}
        (self.base/'tokens').write_text(''.join(f"{n}:{t}\n" for n, t in self.tokens.items()))
        self.url = f"http://127.0.0.1:{self.port}"
    def auth(self, i:int=0)->dict: return {'Authorization': f"Bearer {self.tokens[f'c{i}']}"}
    def start(self):
        p = [x for k, v in CHEAP.items() for x in ('-p', k, str(v))]
        log = open(self.base/f'server{len(self.procs)}.log', 'w')
        self.proc = subprocess.Popen([sys.executable, '-m', 'cudal1_nb', 'serve', '--device', 'cpu', '--port', str(self.port), '--token-file',
                                      str(self.base/'tokens'), *p, *self.extra], env={**os.environ, 'CUDAL1_BASE_DIR': str(self.base)},
                                     stdout=log, stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=_die_with_parent, cwd=ROOT)
        self.procs.append(self.proc)
        for _ in range(600):
            assert self.proc.poll() is None, (self.base/f'server{len(self.procs) - 1}.log').read_text()[-3000:]
            try:
                if httpx.get(self.url + '/v1/health', timeout=2).status_code == 200: return self
            except httpx.HTTPError: pass
            time.sleep(0.1)
        raise AssertionError('the server did not start in 60 s')
    def kill9(self):
        "kill -9 the server alone (a crash): its sandbox workers see their socket close."
        os.kill(self.proc.pid, signal.SIGKILL); self.proc.wait()
    def stop(self):
        for p in self.procs:
            try: os.killpg(p.pid, signal.SIGKILL)   # the server and its workers
            except (ProcessLookupError, PermissionError): pass
            p.wait()
    def db(self, name:str='store.sqlite'): return sqlite3.connect(self.base/name if name == 'store.sqlite' else self.base/'serve'/name, timeout=30)


@pytest.fixture(scope='module')
def served(tmp_path_factory):
    "One server for the load, the refusals, the crashing programs and the examples (as one deployment would serve them)."
    s = Served(tmp_path_factory.mktemp('serve'), '--set', 'max_per_client', '100', '--set', 'max_queue', '400').start()
    yield s
    s.stop()


def _submit(c:httpx.Client, body:dict, path='/v1/jobs')->dict:
    "Submit, waiting out 429/503 as Retry-After says (as a real client does)."
    for _ in range(100):
        r = c.post(path, json=body)
        if r.status_code in (200, 202): return r.json()
        assert r.status_code in (429, 503), (r.status_code, r.text)
        time.sleep(float(r.headers['retry-after']))
    raise AssertionError('never accepted')

def _answer(c:httpx.Client, jid:str, within:float=300)->dict:
    end = time.time() + within
    while time.time() < end:
        r = c.get(f'/v1/jobs/{jid}', params={'wait': 20}); assert r.status_code == 200, r.text
        if r.json()['status'] == 'done': return r.json()
    raise AssertionError(f'job {jid} not answered in {within} s')

def _cli_verdicts(tmp:Path)->dict:
    "What `cudal1 eval` says of each program, with the same harness settings."
    files = []
    for k, code in PROGRAMS.items(): (tmp/f'{k}.py').write_text(code); files.append(str(tmp/f'{k}.py'))
    p = [x for k, v in CHEAP.items() for x in ('-p', k, str(v))]
    r = subprocess.run([sys.executable, '-m', 'cudal1_nb', 'eval', str(REF), *files, '--device', 'cpu', '--json', *p],
                       capture_output=True, text=True, timeout=600, cwd=ROOT, env={**os.environ, 'CUDAL1_BASE_DIR': str(tmp/'cli-base')})
    assert r.returncode == 0, r.stderr[-3000:]
    return {json.loads(l)['candidate'][:-3]: json.loads(l)['verdict'] for l in r.stdout.splitlines()}


def test_200_submissions_from_16_clients(served, tmp_path):
    """200 submissions (the 5 programs again and again, as programs and as fenced answers, singly and in batches) from 16 clients at
    once: every one answered, each with its program's verdict (`cudal1 eval`'s), the cheat with the static scan's thread evidence."""
    names = list(PROGRAMS)
    plan = [[(names[(i + k) % len(names)], (i + k) % 3) for k in range(13 if i < 8 else 12)] for i in range(16)]   # 8 x 13 + 8 x 12 = 200
    got, errors = {}, []
    def client(i):
        try:
            with httpx.Client(base_url=served.url, headers=served.auth(i), timeout=120) as c:
                ids = []
                for k, (name, form) in enumerate(plan[i]):
                    req = dict(task_id=TASK, request_id=f'c{i}-{k}', **({'program': PROGRAMS[name]} if form else {'completion': f"Faster:\n```python\n{PROGRAMS[name]}```"}))
                    if form == 2: ids.append(_submit(c, {'requests': [req]}, '/v1/jobs/batch')['jobs'][0]['id'])
                    else: ids.append(_submit(c, req)['id'])
                for (name, _), jid in zip(plan[i], ids): got[jid] = (name, _answer(c, jid))
        except Exception as e: errors.append(repr(e))
    t0 = time.time()
    th = [threading.Thread(target=client, args=(i,)) for i in range(16)]
    for t in th: t.start()
    for t in th: t.join(600)
    print(f"200 submissions answered in {time.time() - t0:.1f} s")
    assert not errors, errors[:3]
    assert len(got) == 200   # 200 distinct jobs
    cli = _cli_verdicts(tmp_path)
    assert cli == {'broadcast': 'ok', 'column_loop': 'ok', 'float64_matmul': 'ok', 'wrong': 'incorrect', 'threads': 'cheat'}, cli
    for jid, (name, job) in got.items():
        a = job['answer']
        assert a['verdict'] == cli[name], (name, a['verdict'], a['reason'])
        assert a['harness_version'] == harness_version() and a['reason'] and a['scorable']
        if a['verdict'] == 'ok': assert a['interval'][0] <= a['speedup'] <= a['interval'][1] and a['reward'] is not None
        # the cheat is rejected for its thread (the static scan's evidence); the answer may carry timing-noise flags beside it
        # (once, with 16 clients loading the 2 cores, `('ref_drift', 'T9', 'flag')`: the reference's time drifted), which the
        # service does not promise to be free of: the verdict above and this evidence are what it guarantees
        if name == 'threads': assert ('static:thread', 'T2', 'cheat') in [(f['flag'], f['id'], f['action']) for f in a['flags']], a['flags']
    with httpx.Client(base_url=served.url, headers=served.auth(3), timeout=60) as c:   # answered once: the same answer every time
        for jid in list(got)[:20]:
            j = c.get(f'/v1/jobs/{jid}').json()
            assert (j['answer'], j['finished']) == (got[jid][1]['answer'], got[jid][1]['finished'])
        again = c.post('/v1/jobs', json=dict(task_id=TASK, program=PROGRAMS['column_loop']))   # a repeat: answered from the store at once
        assert again.status_code == 200 and again.json()['answer']['cached'] and again.json()['answer']['verdict'] == 'ok'
    con = served.db()
    assert con.execute('SELECT count(*) FROM evaluations').fetchone()[0] == len(PROGRAMS)   # each program judged once
    assert con.execute("SELECT count(DISTINCT code_hash) FROM candidates WHERE origin='serve'").fetchone()[0] == len(PROGRAMS)
    jobs = served.db('jobs.sqlite')
    assert jobs.execute("SELECT count(*), max(runs) FROM jobs WHERE request_id LIKE 'c%-%'").fetchone() == (200, 1)


def test_refusals_and_failing_programs(served):
    "Each refusal a clear 4xx; a program that kills its worker and one that hangs are the candidate's error and timeout; the server goes on."
    c = httpx.Client(base_url=served.url, headers=served.auth(5), timeout=120)
    def detail(r, status):
        assert r.status_code == status, (r.status_code, r.text)
        assert r.json()['harness_version'] == harness_version()
        return r.json()['detail']
    assert detail(c.post('/v1/jobs', content=b'{"task_id": "minibench/L1/1", ', headers={'content-type': 'application/json'}), 400).startswith('malformed JSON')
    assert "unknown task 'minibench/L7/70'" in detail(c.post('/v1/jobs', json=dict(task_id='minibench/L7/70', program=BROADCAST)), 404)
    assert detail(c.post('/v1/jobs', json=dict(task_id=TASK, program=BROADCAST + '#' * 100_000)), 413).startswith('program is 100,')
    assert 'limit is 128 per batch' in detail(c.post('/v1/jobs/batch', json={'requests': [dict(task_id=TASK, program=BROADCAST)] * 129}), 413)
    assert 'timeout' in detail(c.post('/v1/jobs', json=dict(task_id=TASK, program=BROADCAST, timeout=5)), 422)
    assert 'missing token' in detail(httpx.post(served.url + '/v1/jobs', json=dict(task_id=TASK, program=BROADCAST)), 401)
    assert 'unknown token' in detail(httpx.post(served.url + '/v1/jobs', json=dict(task_id=TASK, program=BROADCAST), headers={'Authorization': 'Bearer ' + 'x' * 30}), 401)
    many = [dict(task_id=TASK, program=BROADCAST + f'# copy {i}\n') for i in range(101)]   # more than this client's share: nothing queued
    r = c.post('/v1/jobs/batch', json={'requests': many})
    assert 'the limit is 100 per client' in detail(r, 429) and int(r.headers['retry-after']) >= 1
    crash = _submit(c, dict(task_id=TASK, program=CRASH))
    hang = _submit(c, dict(task_id=TASK, program=HANG, timeout=10))
    a, b = _answer(c, crash['id'])['answer'], _answer(c, hang['id'])['answer']
    assert (a['verdict'], a['failure']) == ('error', 'candidate') and 'sandbox worker lost' in a['reason'], a['reason']
    assert (b['verdict'], b['failure']) == ('timeout', 'candidate') and 'no result within 10' in b['reason'], b['reason']
    assert c.get('/v1/health').json()['ok']   # and it goes on serving
    r = c.post('/v1/jobs', json=dict(task_id=TASK, program=HANG, timeout=10))   # the same hang again: its timeout is stored
    assert r.status_code == 200 and r.json()['answer']['verdict'] == 'timeout' and r.json()['answer']['cached']
    r = c.post('/v1/jobs', json=dict(task_id=TASK, completion='no program here'))
    assert r.status_code == 200 and r.json()['answer']['verdict'] == 'unparsed' and r.json()['answer']['reward'] is not None
    c.close()


def test_kernelgym_shape(served):
    "KernelGYM's submit / status / results, the client's task id as the job's key, the reference given as code."
    with httpx.Client(base_url=served.url, headers=served.auth(6), timeout=60) as c:
        kid = f'kg-{uuid.uuid4().hex[:8]}'
        r = c.post('/evaluate', json=dict(task_id=kid, reference_code=REF.read_text(), kernel_code=PROGRAMS['broadcast'], backend='cuda', num_perf_trials=100))
        assert r.status_code == 200 and r.json()['status'] in ('pending', 'completed'), r.text
        for _ in range(120):
            if c.get(f'/status/{kid}').json()['status'] == 'completed': break
            time.sleep(1)
        res = c.get(f'/results/{kid}').json()
        assert (res['correctness'], res['decoy_kernel'], res['error_code']) == (True, False, None)
        assert res['speedup'] > 1 and res['kernel_runtime'] > 0 and res['metadata']['harness_version'] == harness_version()
        assert c.get('/status/kg-unknown').status_code == 404


@pytest.mark.parametrize('example', ['trl_remote_reward.py', 'verl_compute_score.py', 'openrlhf_remote_rm.py', 'slime_remote_rm.py'])
def test_trainer_examples(served, example):
    "Each trainer's example against the server: the program's reward, and the floor for an answer without one."
    env = {**os.environ, 'CUDAL1_SERVE_URL': served.url, 'CUDAL1_SERVE_TOKEN': served.tokens['c7']}
    r = subprocess.run([sys.executable, str(ROOT/'examples'/example)], capture_output=True, text=True, timeout=300, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    with httpx.Client(base_url=served.url, headers=served.auth(7), timeout=60) as c:
        want = c.post('/v1/jobs', json=dict(task_id=TASK, program=BROADCAST)).json()['answer']['reward']
    from cudal1_nb.rl import RewardConfig
    rewards = [s['score'] for s in out['scores']] if 'scores' in out else out['rewards']
    assert rewards == [want, RewardConfig().floor_unparsed], out


def test_kill9_mid_load_and_restart(tmp_path):
    "kill -9 the server while it judges (clients still submitting), restart it on the same files: every accepted job answered, none twice."
    s = Served(tmp_path/'k', '--set', 'max_queue', '60', '--set', 'campaign', '3', '--set', 'sync_wait_s', '1').start()
    try:
        progs = [BROADCAST + f'# variant {i}\n' for i in range(8)]   # 8 programs to judge, 3 requests each
        c = httpx.Client(base_url=s.url, headers=s.auth(0), timeout=60)
        r = c.post('/v1/jobs/batch', json={'requests': [dict(task_id=TASK, program=BROADCAST + f'# many {i}\n') for i in range(61)]})
        assert r.status_code == 429 and 'the queue is full' in r.json()['detail'] and r.headers['retry-after']
        accepted = [j['id'] for j in c.post('/v1/jobs/batch', json={'requests': [dict(task_id=TASK, program=p, request_id=f'b{k}-{i}') for k in range(3) for i, p in enumerate(progs)]}).json()['jobs']]
        late, stop = [], threading.Event()
        def submitter():   # a client submitting through the crash: refused connections retried with the same request id
            with httpx.Client(base_url=s.url, headers=s.auth(1), timeout=60) as cc:
                for i in range(len(progs)):
                    while True:
                        try: late.append(_submit(cc, dict(task_id=TASK, program=progs[i], request_id=f'late-{i}'))['id']); break
                        except httpx.TransportError: time.sleep(0.5)
                    time.sleep(0.4)
        th = threading.Thread(target=submitter); th.start()
        before = {}
        for _ in range(600):
            rows = [c.get(f'/v1/jobs/{j}').json() for j in accepted]
            before = {r['id']: (r['answer'], r['finished']) for r in rows if r['status'] == 'done'}
            if len(before) >= 3 and s.db('jobs.sqlite').execute("SELECT count(*) FROM jobs WHERE state='running'").fetchone()[0]: break   # a campaign is judging
            time.sleep(0.1)
        assert 3 <= len(before) < len(accepted), len(before)   # mid-load: some answered, most not
        s.kill9()
        running = s.db('jobs.sqlite').execute("SELECT count(*) FROM jobs WHERE state='running'").fetchone()[0]
        assert running >= 1   # it was killed while judging
        time.sleep(1.0)   # clients see refused connections meanwhile
        s.start()
        th.join(300); assert not th.is_alive()
        answers = {j: _answer(c, j) for j in accepted + late}
        assert all(a['answer']['verdict'] == 'ok' for a in answers.values()), [a['answer']['reason'] for a in answers.values() if a['answer']['verdict'] != 'ok']
        assert all((answers[j]['answer'], answers[j]['finished']) == before[j] for j in before)   # answered before the kill: the same answer
        con = s.db()
        dup = con.execute('SELECT candidate_id, count(*) FROM evaluations GROUP BY candidate_id HAVING count(*) > 1').fetchall()
        assert dup == [] and con.execute('SELECT count(*) FROM evaluations').fetchone()[0] == len(progs)   # each program judged once
        jobs = s.db('jobs.sqlite')
        assert jobs.execute('SELECT count(*) FROM jobs').fetchone()[0] == len(accepted) + len(progs)   # the retried submissions made no second job
        assert jobs.execute("SELECT count(*) FROM jobs WHERE state != 'done' OR answer IS NULL").fetchone()[0] == 0
        assert jobs.execute('SELECT max(runs) FROM jobs').fetchone()[0] <= 2
        assert c.get('/v1/health').json()['recovered'] == running   # what the killed server was judging was put back and judged again
        new = dict(prompt='p', response=f"```python\n{BROADCAST}# slime {uuid.uuid4().hex}\n```", label=TASK)
        r = httpx.post(s.url + '/slime', params={'token': s.tokens['c2']}, json=new, timeout=60)   # not answered within sync_wait_s (1 s)
        assert r.status_code == 503 and 'retry, the same request joins them' in r.json()['detail'] and r.headers['retry-after'], r.text
        for _ in range(60):   # slime's client retries; each retry joins the same job
            r = httpx.post(s.url + '/slime', params={'token': s.tokens['c2']}, json=new, timeout=60)
            if r.status_code == 200: break
            assert r.status_code == 503; time.sleep(1)
        assert r.json()['verdict'] == 'ok' and r.json()['reward'] is not None
        assert con.execute('SELECT count(*) FROM evaluations').fetchone()[0] == len(progs) + 1   # judged once, however often it was asked
        c.close()
    finally: s.stop()


def test_answered_jobs_are_pruned_after_keep_days(tmp_path):
    "A server deletes, when it starts, the jobs answered longer ago than `keep_days` (waiting ones stay: `JobStore.prune`'s demonstration); keep_days=0 keeps all."
    from cudal1_nb.serve import ServeConfig, Server, JobStore, spec_of, unparsed_answer
    from cudal1_nb.minibench import minibench_tasks
    t = minibench_tasks()[0]
    for keep in (7.0, 0.0):
        cfg = ServeConfig(auth=False, jobs_db=str(tmp_path/f'jobs{keep}.sqlite'), db=str(tmp_path/'store.sqlite'), keep_days=keep)
        js = JobStore(cfg.jobs_db)
        nop = spec_of(dict(task_id=t.id, completion='no code'), {t.id: t}, cfg)
        old, new = js.add([nop, nop], 'a', answers={0: unparsed_answer(t.id, nop.why), 1: unparsed_answer(t.id, nop.why)})
        with js.tx() as c: c.execute("UPDATE jobs SET finished=? WHERE id=?", (time.time() - 8 * 86400, old['id']))   # answered 8 days ago
        js.close()
        with Server(cfg, [t], names={'cpu': 'cpu'}) as srv:
            assert (srv.jobs.get(old['id']) is None) == bool(keep), keep
            assert srv.jobs.get(new['id'])['state'] == 'done' and srv.jobs.counts()['done'] == (1 if keep else 2)


def test_remote_pays_as_local(tmp_path):
    """A server given a reward section pays what a local `KernelReward` with the same `RewardConfig` pays for the same
    completions -- its floors, its shaping -- and applies the same re-measure rule (a speedup above `remeasure_above` is
    measured twice before it counts)."""
    from cudal1_nb.prompts import fence
    from cudal1_nb.reward import KernelReward, RewardConfig
    from cudal1_nb.eval import EvalConfig
    from cudal1_nb.tasks import load_tasks
    rc = dict(smoothing='raw', cap=2.0, floor_fail=-5.0, floor_unparsed=-6.0, floor_cheat=-7.0, remeasure_above=1.5)
    comps = [fence(BROADCAST), 'no program here', fence(PROGRAMS['wrong']), fence(PROGRAMS['threads'])]
    s = Served(tmp_path/'r', '--set', 'reward', json.dumps(rc)).start()
    try:
        with httpx.Client(base_url=s.url, headers=s.auth(0), timeout=120) as c:
            jobs = [_submit(c, dict(task_id=TASK, completion=x)) for x in comps]
            remote = [(j if j['status'] == 'done' else _answer(c, j['id']))['answer']['reward'] for j in jobs]
        with s.db() as db:
            metas = [json.loads(m) for m, in db.execute("SELECT meta FROM evaluations WHERE kind='measured' AND verdict='ok'")]
    finally: s.stop()
    kr = KernelReward([t for t in load_tasks('minibench', validate=False) if t.id == TASK], RewardConfig(**rc), EvalConfig(**CHEAP),
                      db=str(tmp_path/'local.sqlite'))
    local = kr(prompts=['p'] * len(comps), completions=comps, task_id=[TASK] * len(comps))
    kr.close()
    assert remote == local == [2.0, -6.0, -5.0, -7.0], (remote, local)
    assert [m.get('remeasured') for m in metas] == ['agree'] or [m.get('remeasured') for m in metas] == ['disagree'], metas   # measured twice, as the local one
    assert kr.rollouts[0].remeasured in ('agree', 'disagree')


def test_unauthenticated_bad_body_is_401(served):
    "A request without a valid token gets 401 whatever its body: it learns nothing of the schema (or of a reference it sent)."
    with httpx.Client(base_url=served.url, timeout=60) as c:
        for h in ({}, {'Authorization': 'Bearer not-a-token-of-this-server'}):
            r = c.post('/v1/jobs', json=dict(task_id=TASK, program=123, timeout='x'), headers=h)
            assert r.status_code == 401 and 'token' in r.json()['detail'], (r.status_code, r.text)
        r = c.post('/v1/jobs', json=dict(task_id=TASK, program=123), headers=served.auth(1))
        assert r.status_code == 422, r.text   # with a token: what is wrong with the body


@pytest.mark.skipif(__import__('torch').cuda.is_available(), reason='a machine without a GPU refuses one')
def test_serve_refuses_a_gpu_it_does_not_have(tmp_path):
    "`cudal1 serve --device cuda` on a machine whose torch sees no GPU exits with a clear error before it starts."
    r = subprocess.run([sys.executable, '-m', 'cudal1_nb', 'serve', '--device', 'cuda', '--port', str(_free_port())], capture_output=True, text=True,
                       timeout=120, env={**os.environ, 'CUDAL1_BASE_DIR': str(tmp_path)}, cwd=ROOT)
    assert r.returncode == 2 and "device 'cuda': torch sees 0 CUDA GPUs on this machine" in r.stderr, (r.returncode, r.stderr[-2000:])


def test_documented_job_example_is_accepted(tmp_path):
    "The `POST /v1/jobs` example the service publishes in its schema (`/openapi.json`, `JOB_EXAMPLE`) is accepted as documented: 202, queued, its program found."
    from fastapi.testclient import TestClient
    from cudal1_nb.serve import JOB_EXAMPLE, ServeConfig, Server, make_app
    from cudal1_nb.minibench import minibench_tasks
    server = Server(ServeConfig(auth=False, db=str(tmp_path/'store.sqlite'), jobs_db=str(tmp_path/'jobs.sqlite')), minibench_tasks(), names={'cpu': 'cpu'})
    try:
        app = make_app(server)   # not started (no lifespan): the job is accepted and queued, nothing is judged
        example = app.openapi()['components']['schemas']['JobRequest']['examples'][0]
        assert example == JOB_EXAMPLE
        r = TestClient(app).post('/v1/jobs', json=example)
        assert r.status_code == 202, r.text
        job = r.json(); row = server.jobs.get(job['id'])
        assert (job['status'], job['request_id']) == ('queued', example['request_id'])
        assert json.loads(row['task'])['id'] == example['task_id'] and 'class ModelNew' in row['code'] and row['policy'] == example['policy']
    finally: server.close()


def test_feedback_hides_what_a_program_printed_of_its_inputs(served):
    """A program that raises with its inputs' values: `reason` (for logs) has them; `feedback` and KernelGYM's `error_message`
    (what a model is shown) do not -- the inputs come from the judge's secret seeds."""
    import re
    leak = BROADCAST.replace('        return x * self.scale', "        raise RuntimeError(f'leak {x.flatten()[:4].tolist()}')")
    with httpx.Client(base_url=served.url, headers=served.auth(7), timeout=60) as c:
        a = _answer(c, _submit(c, dict(task_id=TASK, program=leak))["id"])["answer"]
        nums = re.findall(r'-?\d+\.\d{3,}', a['reason'])
        assert a['verdict'] == 'error' and nums, a['reason']   # the inputs' values are in the reason...
        assert a['feedback'] and not any(n in a['feedback'] for n in nums), a['feedback']   # ...and not in what a model is shown
        assert not re.search(r'\d+\.\d{3,}', a['feedback']), a['feedback']
        kid = f'kg-{uuid.uuid4().hex[:8]}'
        assert c.post('/evaluate', json=dict(task_id=kid, reference_code=REF.read_text(), kernel_code=leak, backend='cuda')).status_code == 200
        for _ in range(120):
            if c.get(f'/status/{kid}').json()['status'] == 'completed': break
            time.sleep(1)
        res = c.get(f'/results/{kid}').json()
        assert res['error_message'] == res['metadata']['feedback'] and not any(n in res['error_message'] for n in nums), res['error_message']
