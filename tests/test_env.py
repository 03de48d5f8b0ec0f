"""Multi-turn episodes on the CPU (`cudal1_nb.env`, `cudal1_nb.envserve`, `cudal1_nb.envclient`): a compile error and a
parse error fixed in turn 2 and paid as such; a cheat rejected at any turn; the feedback free of the secret seeds,
the inputs and the reference's outputs; bad input refused with a clear error; a killed server that resumes its
episodes (or ends them, saying why); OpenEnv's own client driving it, and the examples."""
import os, re, sys, json, math, time, uuid, signal, socket, subprocess, threading
from pathlib import Path
import pytest
from conftest import ROOT

from cudal1_nb.core import mix_seed
from cudal1_nb.env import EnvConfig, KernelEnv, EpisodeError, Turn, discounted_returns, trloo_advantages, turn_credit
from cudal1_nb.minibench import minibench_tasks

TASK = 'minibench/L1/1'
BROADCAST = (ROOT/'data'/'minibench'/'variants'/'level1'/'1_Diag_Matmul_Column_Scale'/'broadcast.py').read_text()
CHEAP = dict(budget_s=0.02, warmup=1, min_trials=3, max_trials=5, n_seeds=2, ci_target=0.5, workers=2)
BROKEN_CPP = BROADCAST.replace('import torch.nn as nn\n', 'import torch.nn as nn\nfrom torch.utils.cpp_extension import load_inline\n'
                               '_ext = load_inline(name="env_test_broken", cpp_sources="int twice(int x) { return 2 * x }", '
                               'no_implicit_headers=True)\n', 1)   # g++ stops at once: no header to read first
THREADS = BROADCAST.replace('import torch\n', 'import threading\nimport torch\n', 1)   # the strict policy rejects it (T2)
LEAK = BROADCAST.replace('        return x * self.scale',
                         '        raise RuntimeError(f"seed {torch.initial_seed()} inputs {x.flatten()[:6].tolist()}")')
WRONG = BROADCAST.replace('return x * self.scale', 'return x * self.scale + 0.5')
fenced = lambda code, why='Here is my program.': f"{why}\n```python\n{code}```\n"


@pytest.fixture(scope='module')
def env(tmp_path_factory):
    "One environment for the module's episodes (its judges stay warm across tests): the mini-suite, 3 turns, a short timing budget."
    d = tmp_path_factory.mktemp('env')
    old = os.environ.get('CUDAL1_BASE_DIR'); os.environ['CUDAL1_BASE_DIR'] = str(d/'base')
    e = KernelEnv(minibench_tasks(), EnvConfig(max_turns=3, db=str(d/'store.sqlite'), episodes=str(d/'episodes.sqlite'), eval=CHEAP,
                                                reward=dict(remeasure_above=1000.0)))   # the variant's ~10x is not measured twice here
    yield e
    e.close()
    if old is None: os.environ.pop('CUDAL1_BASE_DIR', None)
    else: os.environ['CUDAL1_BASE_DIR'] = old


def test_compile_error_fixed_in_turn_2(env):
    "Turn 1 does not compile: told the compiler's error, paid the failure floor; turn 2 fixes it: judged correct, paid its speedup, a win."
    o = env.reset(TASK)
    o1 = env.step(o.episode_id, fenced(BROKEN_CPP))
    assert (o1.turn, o1.verdict, o1.done, o1.reward) == (1, 'error', False, env.rcfg.floor_fail)
    assert "did not compile" in o1.feedback and 'error:' in o1.feedback, o1.feedback
    assert o1.feedback in o1.prompt and o1.messages[-1]['content'].startswith('## Result of attempt 1 of 3')
    o2 = env.step(o.episode_id, fenced(BROADCAST, 'Dropped the extension: broadcasting is enough.'))
    assert (o2.turn, o2.verdict, o2.done, o2.end) == (2, 'ok', True, 'win')
    assert o2.counted > 1 and o2.reward == pytest.approx(min(env.rcfg.clip_k, math.log(o2.counted)))   # what KernelReward pays for it
    ep = env.state(o.episode_id)
    assert [(t.turn, t.verdict, t.kind) for t in ep.turns] == [(1, 'error', 'build'), (2, 'ok', 'ok')]
    assert ep.rewards == [env.rcfg.floor_fail, o2.reward] and ep.turns[1].win
    assert ep.turns[1].candidate_id and ep.turns[0].candidate_id   # both programs went to the store, the second derived from the first
    from cudal1_nb.store import Store
    with Store(env.cfg.db) as st: assert ep.turns[0].candidate_id in st.get_candidate(ep.turns[1].candidate_id).parent_ids


def test_parse_error_fixed_in_turn_2(env):
    "Turn 1 holds no program: told why (nothing is judged), paid the unparsed floor; turn 2 is judged and scores."
    o = env.reset(TASK)
    o1 = env.step(o.episode_id, "```python\nclass ModelNew(nn.Module)\n    def forward(self, x): return x\n```")
    assert (o1.verdict, o1.reward, o1.done) == ('unparsed', env.rcfg.floor_unparsed, False)
    assert 'syntax error in the code block: line 1' in o1.feedback
    o2 = env.step(o.episode_id, BROADCAST)   # a bare program is an answer too
    assert (o2.verdict, o2.done, o2.end) == ('ok', True, 'win') and o2.reward > 0


def test_cheat_rejected_in_any_turn(env):
    "A rejected program at turn 1 or at turn 2 is paid the cheat floor and ends the episode; a later step is refused, saying why."
    for before in ([], ['no program here']):
        o = env.reset(TASK)
        for x in before: env.step(o.episode_id, x)
        oc = env.step(o.episode_id, fenced(THREADS))
        assert (oc.verdict, oc.reward, oc.done, oc.end) == ('cheat', env.rcfg.floor_cheat, True, 'cheat')
        assert oc.turn == len(before) + 1 and 'rule 3, No side work' in oc.feedback
        assert 'T2' not in oc.feedback and 'static' not in oc.feedback   # the rule broken, not the detector that caught it
        with pytest.raises(EpisodeError, match='is over: it ended at a rejected program') as e: env.step(o.episode_id, fenced(BROADCAST))
        assert e.value.status == 409
    cont = KernelEnv(minibench_tasks()[:1], EnvConfig(on_cheat='continue', db=env.cfg.db, episodes=env.cfg.episodes))   # the other rule
    ep = cont.state(cont.reset(TASK).episode_id)
    t = Turn('r', 0, TASK, 'plain', verdict='cheat', reward=env.rcfg.floor_cheat, turn=1)
    assert not cont._advance(ep, t).done and env._advance(ep, t).end == 'cheat'
    cont.close()


def _numbers(text:str)->list: return re.findall(r"\d*\.\d{3,}|\d{5,}", text)

def test_feedback_never_leaks(env):
    "A program that raises with its check seed and input values, one with wrong outputs: the text holds no seed, no input, no reference output."
    import types
    from cudal1_nb.job.setup import seeded_inputs, seeded_model
    o = env.reset(TASK); ol = env.step(o.episode_id, fenced(LEAK))
    o = env.reset(TASK); ow = env.step(o.episode_id, fenced(WRONG))
    assert (ol.verdict, ow.verdict) == ('error', 'incorrect')
    secrets = [h.secret for h in (env.judges[1].judge.warm, env.judges[1].judge.rewarm) if h is not None]
    n = env.ecfg.n_seeds
    seeds = [x for s in secrets for x in [mix_seed(s, TASK, 'check', i) for i in range(n)] + [mix_seed(s, TASK, 'idx', i) for i in range(n)]
             + [mix_seed(s, TASK, 'init'), mix_seed(s, TASK, 'time')]]
    raw = [t.reason for t in env.state(ol.episode_id).turns]
    assert any(str(s) in r for s in seeds for r in raw)   # the program did print its check seed in its error: the text is what must not carry it
    mod = types.ModuleType('reference'); exec(env.tasks[TASK].code, mod.__dict__)   # the suite's own (trusted) reference: its inputs, outputs
    vals = []
    for i in range(n):
        xs = seeded_inputs(mod, mix_seed(secrets[0], TASK, 'check', i), 'cpu')
        y = seeded_model(mod, 'Model', mod.get_init_inputs(), mix_seed(secrets[0], TASK, 'init'))(*xs)
        vals += xs[0].flatten()[:6].tolist() + y.flatten()[:6].tolist()
    numel = str(2048 * 512)
    for fb in (ol.feedback, ow.feedback, ol.prompt, ow.prompt):
        assert not any(str(s) in fb or str(s)[:8] in fb for s in seeds), fb
        assert not any(f"{v:.4f}"[:-1] in fb for v in vals if abs(v) > 1e-3), fb
        assert _numbers(fb.replace(numel, '')) == [], fb
    print(ol.feedback, ow.feedback, sep='\n')


def test_fresh_seeds_per_turn(env):
    "Each turn index has its own judge and its own secret: what turn 1 saw of its inputs is no use to turn 2."
    o = env.reset(TASK)   # an episode of its own with two judged turns (not one an earlier test left behind)
    o1 = env.step(o.episode_id, fenced(WRONG)); o2 = env.step(o.episode_id, fenced(BROADCAST))
    assert (o1.turn, o1.verdict, o2.turn, o2.verdict) == (1, 'incorrect', 2, 'ok')
    assert {1, 2} <= set(env.judges)
    assert env.judges[1].judge.warm.secret != env.judges[2].judge.warm.secret


def test_bad_input(env):
    "Unknown task, unknown episode, a step after the end, a turn out of order, an answer that is not text or too long: each a clear error."
    cases = [(lambda: env.reset('minibench/L9/9'), 404, "unknown task 'minibench/L9/9'"),
             (lambda: env.step('no-such-episode', 'x'), 404, "no episode 'no-such-episode'"),
             (lambda: env.state('no-such-episode'), 404, "no episode 'no-such-episode'")]
    o = env.reset(TASK, episode_id=f"bad-{uuid.uuid4().hex[:6]}")
    cases += [(lambda: env.reset(TASK, episode_id=o.episode_id), 409, 'exists already'),
              (lambda: env.step(o.episode_id, 'x', turn=3), 409, 'the next step is turn 1, not 3'),
              (lambda: env.step(o.episode_id, b'bytes'), 422, 'must be a string'),
              (lambda: env.step(o.episode_id, 'x' * (env.cfg.max_completion + 1)), 413, 'the limit is'),
              (lambda: env.reset(TASK, exemplars=['no-such-candidate']), 404, 'unknown exemplar')]
    for f, status, msg in cases:
        with pytest.raises(EpisodeError) as e: f()
        assert e.value.status == status and msg in str(e.value), str(e.value)
    env.step(o.episode_id, 'a'); env.step(o.episode_id, 'b')
    assert env.step(o.episode_id, 'a', turn=1).turn == 1   # a retried turn: its recorded answer
    with pytest.raises(EpisodeError, match='was taken already'): env.step(o.episode_id, 'c', turn=1)
    env.step(o.episode_id, 'c')
    with pytest.raises(EpisodeError, match=r"is over: it took its 3 turns"): env.step(o.episode_id, 'd')
    with pytest.raises(ValueError, match='max_turns'): EnvConfig(max_turns=0)


def test_concurrent_steps_judged_together(env):
    "Steps of several episodes from several threads: each answered once, with its own turn."
    eids = [env.reset(TASK).episode_id for _ in range(4)]
    out = {}
    def go(e): out[e] = env.step(e, fenced(WRONG if e == eids[0] else BROADCAST))
    ths = [threading.Thread(target=go, args=(e,)) for e in eids]
    for t in ths: t.start()
    for t in ths: t.join(300)
    assert sorted(out) == sorted(eids) and all(o.turn == 1 for o in out.values())
    assert out[eids[0]].verdict == 'incorrect' and all(out[e].verdict == 'ok' for e in eids[1:])


def test_credit_rules():
    "Discounted returns and TRLOO on hand-computed episodes."
    assert discounted_returns([-2.5, 1.0], 0.5) == [-2.0, 1.0]
    assert discounted_returns([None, 1.0], 0.5) == [None, 1.0]
    a = trloo_advantages([[1.0, 2.0], [3.0], [5.0, 4.0]])
    assert a == [[1.0 - 4.0, 2.0 - 4.0], [3.0 - 3.0], [5.0 - 2.0, 4.0 - 2.0]]
    assert turn_credit([[None]], 'trloo') == [[None]]
    with pytest.raises(ValueError, match='unknown credit rule'): turn_credit([[1.0]], 'ppo')



def test_budget_table_equal_budgets():
    "Refinement and sampling compared after j judged programs per slot: correct, fast_1, best gmean, programs used (an early win uses fewer)."
    from cudal1_nb.env import Episode
    from cudal1_nb.refine import budget_table
    def turn(v, counted=None, i=1): return Turn('r', 0, TASK, 'plain', verdict=v, counted=counted, turn=i)
    ep = lambda *ts: Episode(uuid.uuid4().hex, TASK, 'plain', 'p', turns=list(ts))
    refined = [ep(turn('incorrect'), turn('ok', 2.0, 2)), ep(turn('ok', 4.0))]   # the second won at turn 1
    sampled = [ep(turn('unparsed')), ep(turn('ok', 1.0)), ep(turn('error')), ep(turn('error'))]   # 2 slots of 2 samples
    rows = {(r['arm'], r['budget']): r for r in budget_table(refined, sampled, 2)}
    assert (rows['refine', 1]['correct'], rows['refine', 2]['correct'], rows['refine', 2]['programs']) == (0.5, 1.0, 1.5)
    assert rows['refine', 2]['best_gmean'] == pytest.approx(math.sqrt(2.0 * 4.0)) and rows['refine', 2]['fast_1'] == 1.0
    assert (rows['sample', 2]['correct'], rows['sample', 2]['fast_1'], rows['sample', 2]['programs']) == (0.5, 0.0, 2.0)
    assert rows['sample', 1]['unparsed'] == 0.5

# ---- the server ---------------------------------------------------------------------------------------------------------

httpx = pytest.importorskip('httpx'); pytest.importorskip('fastapi'); pytest.importorskip('uvicorn')

def _free_port():
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); return s.getsockname()[1]

def _die_with_parent():
    import ctypes
    try: ctypes.CDLL(None).prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG: die with the test process
    except (OSError, AttributeError): pass


class EnvServed:
    "`cudal1 env` (as `python -m cudal1_nb env`) in a subprocess on loopback: its own base directory, one token, the short timing budget."
    def __init__(self, base:Path):
        self.base, self.port, self.procs = Path(base), _free_port(), []
        self.base.mkdir(parents=True, exist_ok=True)
        self.token = f"tok-{uuid.uuid4().hex}"
        (self.base/'tokens').write_text(f"tester:{self.token}\n")
        self.url = f"http://127.0.0.1:{self.port}"
    def start(self, *extra:str):
        log = open(self.base/f'server{len(self.procs)}.log', 'w')
        cmd = [sys.executable, '-m', 'cudal1_nb', 'env', '--port', str(self.port), '--token-file', str(self.base/'tokens'), '--max-turns', '3',
               '--env', 'eval', json.dumps(CHEAP), '--env', 'episodes', str(self.base/'episodes.sqlite'),
               '--env', 'db', str(self.base/'store.sqlite'), *extra]
        self.proc = subprocess.Popen(cmd, env={**os.environ, 'CUDAL1_BASE_DIR': str(self.base)}, stdout=log, stderr=subprocess.STDOUT,
                                     start_new_session=True, preexec_fn=_die_with_parent, cwd=ROOT)
        self.procs.append(self.proc)
        for _ in range(900):
            assert self.proc.poll() is None, (self.base/f'server{len(self.procs) - 1}.log').read_text()[-3000:]
            try:
                if httpx.get(self.url + '/health', timeout=2).status_code == 200: return self
            except httpx.HTTPError: pass
            time.sleep(0.1)
        raise AssertionError('the server did not start in 90 s')
    def kill9(self): os.killpg(self.proc.pid, signal.SIGKILL); self.proc.wait()
    def stop(self):
        for p in self.procs:
            try: os.killpg(p.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError): pass
            p.wait()


def test_killed_server_resumes_episodes(tmp_path):
    "kill -9 between turns and while judging: the restarted server resumes the episode (the retry judged once); --no-resume ends it, saying why."
    from cudal1_nb.envclient import EnvClient
    s = EnvServed(tmp_path/'srv').start()
    try:
        c = EnvClient(s.url, s.token, timeout_s=240)
        o = c.reset(TASK)
        o1 = c.step(o.episode_id, 'no program in this answer')
        assert (o1.turn, o1.verdict) == (1, 'unparsed')
        s.kill9(); s.start()   # killed between two turns
        assert c.step(o.episode_id, 'no program in this answer', turn=1).turn == 1   # a retry of turn 1: its record
        got = {}
        th = threading.Thread(target=lambda: got.update(o2=c.step(o.episode_id, fenced(BROADCAST)))); th.start()
        time.sleep(3); s.kill9(); s.start()   # killed while it judges turn 2 (or just after): the client retries it
        th.join(240)
        assert got['o2'].turn == 2 and got['o2'].verdict == 'ok' and got['o2'].done
        ep = c.state(o.episode_id)
        assert [t.turn for t in ep.turns] == [1, 2] and ep.end == 'win'
        o = c.reset(TASK); c.step(o.episode_id, 'no program')
        s.kill9(); s.start('--no-resume')
        from cudal1_nb.client import ServiceError
        with pytest.raises(ServiceError) as e: c.step(o.episode_id, 'again')
        assert e.value.status == 409 and 'was ended (the environment was restarted and does not resume episodes (resume=False)' in e.value.detail
        r = httpx.post(s.url + '/reset', json={'task_id': 'minibench/L9/9'}, headers={'Authorization': f'Bearer {s.token}'})
        assert r.status_code == 404 and "unknown task 'minibench/L9/9'" in r.json()['detail']
        assert httpx.post(s.url + '/reset', json={}).status_code == 401
        other = httpx.post(s.url + '/step', json={'action': {'completion': 'x', 'episode_id': 'someone-elses'}},
                           headers={'Authorization': f'Bearer {s.token}'})
        assert other.status_code == 404
        c.close()
    finally: s.stop()


@pytest.fixture(scope='module')
def served(tmp_path_factory):
    s = EnvServed(tmp_path_factory.mktemp('envsrv')).start()
    yield s
    s.stop()


def test_examples(served):
    "The example that drives an episode over HTTP runs against the server and prints its turns."
    env = {**os.environ, 'CUDAL1_ENV_URL': served.url, 'CUDAL1_SERVE_TOKEN': served.token}
    r = subprocess.run([sys.executable, str(ROOT/'examples'/'env_episodes.py')], capture_output=True, text=True, timeout=300, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out['verdicts'] == ['unparsed', 'ok'] and out['done'] and out['end'] == 'win'


def test_trl_environment_example():
    "TRL's environment mode (`environment_factory=KernelToolEnv`) trains two steps of a tiny model on an in-process KernelEnv."
    pytest.importorskip('trl')
    env = {k: v for k, v in os.environ.items() if k != 'CUDAL1_ENV_URL'}
    r = subprocess.run([sys.executable, str(ROOT/'examples'/'trl_environment.py')], capture_output=True, text=True, timeout=600, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out['steps'] == 2 and out['env_reward'] == [-2.5, -2.5]   # a random model never submits: the floor of an episode without a program


def _openenv_python()->str|None:
    "An interpreter with OpenEnv's client (`openenv-core`): $CUDAL1_OPENENV_PYTHON, else this one if it has it."
    if (p := os.environ.get('CUDAL1_OPENENV_PYTHON')): return p
    try:
        import openenv.core.generic_client   # noqa: F401  (importable: this interpreter has the client)
        return sys.executable
    except Exception: return None

def test_openenv_client(served):
    "OpenEnv's own `GenericEnvClient` (WebSocket, no headers: the token in the base URL) drives an episode."
    py = _openenv_python()
    if py is None: pytest.skip("no interpreter with openenv-core (pip install openenv-core; or set CUDAL1_OPENENV_PYTHON)")
    env = {**os.environ, 'CUDAL1_ENV_URL': served.url, 'CUDAL1_SERVE_TOKEN': served.token}
    r = subprocess.run([py, str(ROOT/'examples'/'openenv_client.py')], capture_output=True, text=True, timeout=300, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out['rewards'][0] == -2.5 and out['verdicts'] == ['unparsed', 'ok'] and out['done']
    assert out['state']['step_count'] == 2


def test_websocket_session_in_process(tmp_path):
    "OpenEnv's messages over one WebSocket session (Starlette's in-process client): reset, step, state, errors, resume."
    from fastapi.testclient import TestClient
    from cudal1_nb.envserve import EnvServeConfig, EnvServer, make_env_app
    (tmp_path/'tokens').write_text("t:tok-0123456789abcdef\n")
    cfg = EnvServeConfig(token_file=str(tmp_path/'tokens'), max_sessions=1,
                         env=dict(episodes=str(tmp_path/'e.sqlite'), db=str(tmp_path/'s.sqlite'), gather_s=0.0))
    with TestClient(make_env_app(EnvServer(cfg, minibench_tasks()[:1]))) as c:
        with c.websocket_connect('/ws?token=tok-0123456789abcdef') as ws:
            ws.send_text(json.dumps({'type': 'reset', 'data': {'seed': 3}})); o = json.loads(ws.receive_text())
            eid = o['data']['observation']['episode_id']
            ws.send_text(json.dumps({'type': 'step', 'data': {'completion': 'none'}})); o = json.loads(ws.receive_text())
            assert (o['type'], o['data']['reward'], o['data']['observation']['turn']) == ('observation', -2.5, 1)
            ws.send_text('{not json'); assert json.loads(ws.receive_text())['data']['code'] == 'INVALID_JSON'
            ws.send_text(json.dumps({'type': 'dance'})); assert json.loads(ws.receive_text())['data']['code'] == 'UNKNOWN_TYPE'
            ws.send_text(json.dumps({'type': 'step', 'data': {'text': 'x'}}))
            assert json.loads(ws.receive_text())['data']['code'] == 'VALIDATION_ERROR'
            with c.websocket_connect('/ws?token=tok-0123456789abcdef') as ws2:   # past max_sessions: told, and closed
                assert json.loads(ws2.receive_text())['data']['code'] == 'CAPACITY_REACHED'
        with c.websocket_connect('/t/tok-0123456789abcdef/ws') as ws:   # a new session resumes the episode
            ws.send_text(json.dumps({'type': 'reset', 'data': {'resume': eid}})); o = json.loads(ws.receive_text())
            assert o['data']['observation']['turn'] == 1
            ws.send_text(json.dumps({'type': 'state'})); assert json.loads(ws.receive_text())['data']['step_count'] == 1
        with c.websocket_connect('/ws?token=wrong') as ws:
            assert json.loads(ws.receive_text())['data']['code'] == 'UNAUTHORIZED'
