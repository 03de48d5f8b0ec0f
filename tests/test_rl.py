"""Stages 2-3 from the outside: bad input refused before anything runs (and nothing written), and the evolve mode
driven by an OpenAI-compatible server (a scripted one on the loopback interface) through the same reward."""
import json, threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
import pytest
from conftest import cudal1

pytest.importorskip('papermill'); pytest.importorskip('trl')


@pytest.mark.parametrize('args, msg', [
    (('stage', 'rl', '-p', 'init', '/nonexistent/run'), 'does not exist'),
    (('stage', 'rl', '-p', 'tau', '0'), 'tau'),
    (('stage', 'rl', '-p', 'floor_fail', '0.5'), 'floors'),
    (('stage', 'rl', '-p', 'ids', '["minibench/L9/9"]'), 'unknown task id'),
    (('stage', 'rl', '-p', 'ids', '["minibench/L1/2"]'), "not in the 'train' split"),   # a held-out task is never trained on
    (('stage', 'selftrain', '-p', 'keep', 'best'), 'keep must be'),
    (('stage', 'train', '-p', 'rl.num_generations', '1'), 'stage rl'),              # a later stage's bad value: refused before collect runs
])
def test_bad_input_refused_before_anything_runs(tmp_path, args, msg):
    base = tmp_path/'base'
    p = cudal1(*args, env=dict(CUDAL1_BASE_DIR=str(base)), timeout=300)
    assert p.returncode == 2 and msg in p.stderr, p.stderr[-2000:]
    assert not (base/'runs').exists() or not any((base/'runs').rglob('config.json')), "a run directory was written"


class Teacher(BaseHTTPRequestHandler):
    "An OpenAI-compatible chat endpoint that answers every prompt with the fastest program the prompt shows, else a fixed one."
    protocol_version = 'HTTP/1.1'
    def do_POST(self):
        import re
        body = json.loads(self.rfile.read(int(self.headers['Content-Length'])))
        blocks = re.findall(r"```python\n(.*?)\n```", body['messages'][-1]['content'], re.S)
        self.server.calls += 1
        code = blocks[-1] if len(blocks) > 1 else self.server.default
        data = json.dumps(dict(id='c', object='chat.completion', created=0, model=body['model'], choices=[dict(
            index=0, finish_reason='stop', message=dict(role='assistant', content=f"### 1. Performance Analysis\nreuse the fastest.\n\n```python\n{code}\n```"))])).encode()
        self.send_response(200); self.send_header('Content-Type', 'application/json'); self.send_header('Content-Length', str(len(data)))
        self.end_headers(); self.wfile.write(data)
    def log_message(self, *a): pass


@contextmanager
def teacher(default):
    srv = ThreadingHTTPServer(('127.0.0.1', 0), Teacher); srv.daemon_threads = True; srv.default, srv.calls = default, 0
    th = threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True); th.start()
    try: yield srv, f"http://127.0.0.1:{srv.server_address[1]}/v1"
    finally: srv.shutdown(); srv.server_close()


TID = 'minibench/L1/1'


def _evolve_on_a_teacher(tmp_path, monkeypatch, steps, **kw):
    "run_rl in evolve mode on a local API teacher that always answers TID's shortest variant: (server, summary, rollouts)."
    pytest.importorskip('openai')
    monkeypatch.setenv('CUDAL1_BASE_DIR', str(tmp_path/'base')); monkeypatch.setenv('OPENAI_API_KEY', 'test-key')
    from cudal1_nb.minibench import minibench_variants
    from cudal1_nb.rl import RLConfig, run_rl
    from cudal1_nb.rl_metrics import read_rollouts
    slow = min(minibench_variants(TID), key=lambda v: len(v.code))
    with teacher(slow.code) as (srv, url):
        cfg = RLConfig(mode='evolve', backend=f"openai:teacher@{url}", ids=(TID,), steps=steps, num_generations=2, prompts_per_step=1,
                       held_out_samples=0, db=str(tmp_path/'s.sqlite'), **kw)
        s = run_rl(cfg, tmp_path/'run', progress=False)
    return srv, s, read_rollouts(tmp_path/'run'/'rollouts.jsonl')


def test_evolve_with_an_api_backend(tmp_path, monkeypatch):
    "Evolve mode: an API model proposes, the reward judges in the sandbox, every rollout is logged and stored; the second step's prompts show exemplars."
    from cudal1_nb.store import Store
    srv, s, ros = _evolve_on_a_teacher(tmp_path, monkeypatch, 2)
    assert srv.calls == 4 and s['steps'] == 2 and s['mode'] == 'evolve'
    assert [r.step for r in ros] == [0, 0, 1, 1] and {r.verdict for r in ros} == {'ok'}
    assert not ros[0].exemplar_ids and ros[2].exemplar_ids          # step 0: cold start; step 1: the store's programs as exemplars
    assert ros[0].reward == ros[1].reward and ros[2].cached and ros[3].cached   # one program, judged once: the same reward, then from the cache
    assert ros[0].remeasured in ('agree', 'disagree')                # above 3x: measured twice before it counts
    with Store(tmp_path/'s.sqlite') as st: assert {c.stage for c in st.candidates(TID)} == {'rl'}
    assert (tmp_path/'run'/'summary.json').exists() and json.loads((tmp_path/'run'/'curves.json').read_text())['curves']


def test_evolve_judging_ahead_sees_the_store_a_step_old(tmp_path, monkeypatch):
    "Evolve with `overlap`: step 1 is generated while step 0 is judged, so its prompts show no exemplar yet; every step logged in order, with its time split."
    srv, s, ros = _evolve_on_a_teacher(tmp_path, monkeypatch, 3, overlap=True)
    assert srv.calls == 6 and s['steps'] == 3
    assert [r.step for r in ros] == [0, 0, 1, 1, 2, 2] and {r.verdict for r in ros} == {'ok'}
    assert not ros[0].exemplar_ids and not ros[2].exemplar_ids and ros[4].exemplar_ids   # step 1 built before step 0's program was stored
    times = json.loads((tmp_path/'run'/'curves.json').read_text())['step_times']
    assert [t['step'] for t in times] == [0, 1, 2] and all(t['update_s'] == 0 for t in times)


def test_kernel_reward_reports_each_first_result_as_it_comes(tmp_path, monkeypatch):
    "`KernelReward.on_result` sees every program judged in a call, as it is judged; a callback that raises is warned about and judging goes on."
    monkeypatch.setenv('CUDAL1_BASE_DIR', str(tmp_path/'base'))
    from cudal1_nb.minibench import minibench_tasks, minibench_variants
    from cudal1_nb.rl import KernelReward
    from cudal1_nb.prompts import fence
    t = next(x for x in minibench_tasks() if x.id == 'minibench/L1/1')
    vs = sorted(minibench_variants(t.id), key=lambda v: len(v.code))[:2]
    kr, seen = KernelReward([t], db=str(tmp_path/'s.sqlite')), []
    def cb(c, r): seen.append(c.id); raise RuntimeError('a broken progress line')
    kr.on_result = cb
    with pytest.warns(UserWarning, match='on_result raised RuntimeError: a broken progress line'):
        ros = kr.score(['p', 'p'], [fence(v.code) for v in vs], [t.id, t.id])
    assert sorted(seen) == sorted(r.candidate_id for r in ros) and len(seen) == 2
    assert all(r.reward is not None and r.verdict == 'ok' for r in ros), [(r.verdict, r.reason) for r in ros]


def _rl_experiment():
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location('rl_experiment', Path(__file__).resolve().parents[1]/'benchmarks'/'rl_experiment.py')
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
    return m


def test_rl_experiment_tables_each_arm_over_its_seeds_and_names_the_failed(tmp_path):
    "benchmarks/rl_experiment.py: an arm-seed that failed (out of GPU memory, say) is named, the others are tabled over the seeds each finished."
    import time
    from types import SimpleNamespace
    ex = _rl_experiment()
    m = lambda c: dict(n=4, correct=c, fast_1=0.0, gmean=1.0, gmean_correct=1.0, tasks_correct=2)
    run = lambda c: dict(steps=3, train_last=m(c), held_out_after=m(0.0), train_best_gmean=1.0,
                         step_split=dict(seconds=10.0, generate_s=8.0, reward_s=1.0, update_s=1.0, reward_share=0.1))
    for d in ('contrastive-s0', 'contrastive-s1', 'plain-s0'): (tmp_path/d).mkdir(); (tmp_path/d/'rollouts.jsonl').write_text('')
    runs = {('contrastive', 0): run(0.2), ('contrastive', 1): run(0.4), ('plain', 0): run(0.3)}
    ex.write_results(tmp_path, SimpleNamespace(budget=60.0, world='w', plotlyjs='cdn'), ['contrastive', 'plain'], [0, 1], {},
                     {'train': m(0.5)}, runs, time.time(), command='c', failed={('plain', 1): 'OutOfMemoryError: CUDA out of memory'})
    sm = json.loads((tmp_path/'summary.json').read_text())
    rows = {(r['arm'], r['split']): r for r in sm['table']}
    assert (rows[('contrastive', 'train')]['seeds'], rows[('plain', 'train')]['seeds']) == (2, 1)
    assert abs(rows[('contrastive', 'train')]['correct'] - 0.3) < 1e-9 and rows[('plain', 'train')]['correct'] == 0.3
    assert sm['failed'] == {'plain-s1': 'OutOfMemoryError: CUDA out of memory'}
    assert 'plain-s1: OutOfMemoryError' in (tmp_path/'table.md').read_text()
    first = tmp_path/'first'; first.mkdir()   # the first arm-seed to end failed: the summary says so at once
    ex.write_results(first, SimpleNamespace(budget=60.0, world='w', plotlyjs='cdn'), ['contrastive'], [0], {}, {'train': m(0.5)}, {},
                     time.time(), command='c', failed={('contrastive', 0): 'OutOfMemoryError: x'})
    assert json.loads((first/'summary.json').read_text())['failed'] == {'contrastive-s0': 'OutOfMemoryError: x'}
    argv = ['rl_experiment.py', '--out', 'o', '--world', 'mini-suite, judged on a second GPU']   # read back by --baseline-from
    import sys, shlex
    old_argv, sys.argv = sys.argv, argv
    try: ex.write_results(first, SimpleNamespace(budget=60.0, world='w', plotlyjs='cdn'), ['contrastive'], [0], {}, {'train': m(0.5)}, {},
                          time.time(), failed={('contrastive', 0): 'OutOfMemoryError: x'})
    finally: sys.argv = old_argv
    assert shlex.split(json.loads((first/'summary.json').read_text())['command']) == argv


def test_rl_experiment_never_trains_beside_another_arms_timings():
    """An arm-seed that trains on the GPU timing another's programs would slow those timings: the two never run at once
    (another GPU, the CPU, or one arm trained and judged alone on its GPU is fine); with two GPUs each seed gets one."""
    ex = _rl_experiment()
    P = lambda d, e: dict(device=d, eval_device=e)
    assert ex.clash(P('cuda', 'cuda'), P('cuda', 'cuda')) and ex.clash(P('cuda:0', 'cuda:1'), P('cuda:1', 'cuda:1'))
    assert 'cuda:1' in ex.clash(P('cuda:0', 'cuda:2'), P('cuda:1', 'cuda:0'))   # either way round
    assert ex.clash(P('auto', 'cuda:1'), P('cuda:1', 'cuda'))   # 'auto' trains on the first GPU
    assert ex.clash(P('cuda:0', 'cuda:0'), P('cuda:1', 'cuda:1')) is None and ex.clash(P('cuda:0', 'cuda:2'), P('cuda:1', 'cuda:2')) is None
    assert ex.clash(P('cuda', 'cpu'), P('cuda', 'cpu')) is None and ex.clash(P('cpu', 'cuda'), P('cpu', 'cuda')) is None
    # four arm-seeds (contrastive, plain x seeds 0, 1) on two GPUs, each seed trained and judged on its own: two at a time
    place = lambda sd: ex.placement('cuda:0,cuda:1', 'cuda:0,cuda:1', [0, 1], sd)
    jobs = [place(0), place(0), place(1), place(1)]   # the experiment's order: seed 0's arms, then seed 1's
    assert ex.next_job(jobs, [], 2) == 0 and ex.next_job(jobs[1:], [jobs[0]], 2) == 1   # seed 1's first arm, not seed 0's second
    assert ex.next_job([jobs[1], jobs[3]], [jobs[0], jobs[2]], 2) is None and ex.next_job([jobs[1], jobs[3]], [jobs[2]], 2) == 0
    assert ex.next_job(jobs, [], 1) == 0 and ex.next_job(jobs[1:], [jobs[0]], 1) is None
    same = [place(0)] * 2   # one GPU for everything: one at a time
    assert ex.next_job(same[1:], same[:1], 4) is None


def test_rl_experiment_gives_every_arm_one_parameter_list():
    "The arms' -p list serves evolve too: the adapter's shape (which evolve would refuse) is left out of its arm alone."
    from cudal1_nb.rl import RLConfig
    ex = _rl_experiment()
    ps = dict(lora_r=16, lora_alpha=32, learning_rate=2e-5, overlap=True, num_generations=8)
    ev, co = ex.arm_params(ps, 'evolve'), ex.arm_params(ps, 'contrastive')
    assert ev == dict(learning_rate=2e-5, overlap=True, num_generations=8, mode='evolve', arm='contrastive')
    assert co == dict(ps, mode='grpo', arm='contrastive') and ex.arm_params(ps, 'plain')['arm'] == 'plain'
    with pytest.raises(ValueError, match='lora_r is for'): RLConfig.from_params(dict(ps, mode='evolve'))   # why evolve leaves them out


def test_rl_experiment_places_each_seed_on_its_device():
    "Seed i's arms train on the i-th listed device and are judged on the i-th listed eval device, both cycled."
    ex = _rl_experiment()
    got = [ex.placement('cuda:0,cuda:1,cuda:2', 'cuda:3', [0, 1, 2, 7], s) for s in (0, 1, 2, 7)]
    assert [g['device'] for g in got] == ['cuda:0', 'cuda:1', 'cuda:2', 'cuda:0'] and {g['eval_device'] for g in got} == {'cuda:3'}
    assert ex.placement('cuda', 'cpu', [0], 0) == dict(device='cuda', eval_device='cpu')


def test_engine_sampler_writes_with_the_trained_weights(tmp_path):
    "sampler='engine': TRL's completions come from an inference copy whose weights are overwritten from the trained ones after an update."
    import torch
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from cudal1_nb.generate import make_tiny_lm
    from cudal1_nb.rl import RLConfig, grpo_args, engine_grpo_trainer
    p = make_tiny_lm(tmp_path/'tiny')
    tok, model = AutoTokenizer.from_pretrained(p), AutoModelForCausalLM.from_pretrained(p, dtype=torch.float32)
    ds = Dataset.from_list([dict(prompt=[{'role': 'user', 'content': f'write program {i}'}]) for i in range(8)])
    cfg = RLConfig(device='cpu', sampler='engine', steps=2, prompts_per_step=2, num_generations=4, max_completion_length=16,
                   learning_rate=1e-2, save_steps=100)
    reward = lambda completions, **kw: [float(len(str(c)) % 5) for c in completions]   # rewards that differ: a gradient
    tr = engine_grpo_trainer()(model=model, reward_funcs=[reward], args=grpo_args(cfg, tmp_path/'rl'), train_dataset=ds, processing_class=tok)
    w0 = {k: v.detach().clone() for k, v in model.named_parameters()}
    tr.train()
    assert tr._engine_calls == 2 and tr._engine is not None   # both steps' completions came from the copy
    eng = tr._engine.model
    assert any(not torch.equal(w0[k], v) for k, v in model.named_parameters()), "no update to copy"
    assert any(not torch.equal(a, b) for a, b in zip(eng.parameters(), model.parameters())), "the copy holds the last update before any sync"
    assert tr.rollout_engine().model is eng   # the same copy, its weights overwritten in place
    assert all(torch.equal(a, b) for a, b in zip(eng.parameters(), model.parameters()))
    x = torch.tensor([[1, 2, 3, 4]])
    with torch.no_grad():   # the copy computes with its own weights: wrappers TRL put on the trained model's forward are not carried over
        for q in eng.parameters(): q.mul_(0.5)
        assert not torch.allclose(eng(input_ids=x).logits, model(input_ids=x).logits)
    assert not eng.training and 'forward' not in vars(eng)


def test_rl_rollouts_pools_each_arm_and_finds_repeated_exemplars(tmp_path):
    "benchmarks/rl_rollouts.py: all training rollouts per arm-seed; a faster program that is a shown exemplar again (layout aside) is counted."
    import importlib.util, sqlite3
    from pathlib import Path
    from cudal1_nb.rl import Rollout
    spec = importlib.util.spec_from_file_location('rl_rollouts', Path(__file__).resolve().parents[1]/'benchmarks'/'rl_rollouts.py')
    rr = importlib.util.module_from_spec(spec); spec.loader.exec_module(rr)
    shown = "class ModelNew:\n    pass\n"
    with sqlite3.connect(tmp_path/'s.sqlite') as db:
        db.execute('CREATE TABLE candidates(id TEXT, code TEXT)'); db.execute('INSERT INTO candidates VALUES (?, ?)', ('e1', shown))
    def ro(arm, step, verdict, counted, code, ex=(), split='train'):
        return Rollout(run=arm, step=step, task_id='t/L1/1', arm=arm, template_id='x', exemplar_ids=list(ex), completion=f"```python\n{code}```\n",
                       candidate_id=f'c{step}{verdict}{counted}', verdict=verdict, speedup=counted, counted=counted, reward=0.0, split=split)
    runs = {'contrastive-s0': [ro('c', 0, 'ok', 2.0, "class ModelNew:  # same\n\n    pass\n", ['e1']), ro('c', 1, 'ok', 1.0, shown, ['e1']),
                               ro('c', 1, 'error', None, 'x = 1\n', ['e1']), ro('c', 1, 'ok', 3.0, shown, ['e1'], split='held-out')],
            'plain-s0': [ro('p', 0, 'ok', 1.0, shown), ro('p', 0, 'ok', 1.5, "y = 2\n")]}
    for name, rows in runs.items():
        (tmp_path/'exp'/name).mkdir(parents=True)
        (tmp_path/'exp'/name/'rollouts.jsonl').write_text(''.join(r.to_json() + '\n' for r in rows))
    got = rr.experiment(tmp_path/'exp', tmp_path/'s.sqlite')
    c, p = got['runs']['contrastive-s0'], got['runs']['plain-s0']
    assert (c['n'], c['steps'], c['fast'], c['repeats']) == (3, 2, 1, 1) and abs(c['correct'] - 2 / 3) < 1e-9   # held-out rows left out
    assert (p['fast'], p['repeats'], p['fast_closest']) == (1, 0, [None])   # no exemplar shown: nothing to repeat
    assert got['arms']['contrastive']['gmean'] == c['gmean'] and got['arms']['contrastive']['gmean_ci'] == [None, None]


def test_rl_experiment_keeps_the_evaluations_a_run_added(tmp_path):
    "benchmarks/rl_experiment.py: before an arm-seed's store copy is deleted, the evaluations it added (their job timelines) go to evals.jsonl.gz."
    from cudal1_nb.core import EvalResult, Task, Candidate
    from cudal1_nb.store import Store, read_evals
    ex = _rl_experiment()
    t = Task('demo', 1, 1, 'x', 'import torch\n')
    with Store(tmp_path/'start.sqlite') as s:
        s.add_task(t); c = Candidate(t.id, 'a = 1\n'); s.add_candidate(c)
        s.add_eval(EvalResult(c.id, t.id, 'ok', True, {'eager': 1.0}))
    assert ex.last_eval_id(tmp_path/'start.sqlite') == 1
    import shutil; shutil.copy(tmp_path/'start.sqlite', tmp_path/'run.sqlite')
    with Store(tmp_path/'run.sqlite') as s:
        d = Candidate(t.id, 'b = 2\n'); s.add_candidate(d)
        s.add_eval(EvalResult(d.id, t.id, 'error', False, reason='candidate error', meta={'job_s': 5.1, 'holds': [['sh', 0.0, 2.0]]}))
    assert ex.keep_evals(tmp_path/'run.sqlite', ex.last_eval_id(tmp_path/'start.sqlite'), tmp_path/'evals.jsonl.gz') == 1
    rows = read_evals(tmp_path/'evals.jsonl.gz')
    assert [r['candidate_id'] for r in rows] == [d.id] and rows[0]['meta']['job_s'] == 5.1
    assert ex.last_eval_id(tmp_path/'start.sqlite') == 1   # the starting store is read, never written


def test_an_update_with_non_finite_gradients_is_skipped_in_a_real_trainer(tmp_path):
    "One backward pass with a NaN gradient (step 2 of 3): that update is skipped, the weights stay finite, the log names the step."
    import torch
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer, TrainerCallback
    from cudal1_nb.generate import make_tiny_lm
    from cudal1_nb.rl import RLConfig, grpo_args
    from cudal1_nb.grpo import finite_updates, skipped_updates
    from trl import GRPOTrainer
    p = make_tiny_lm(tmp_path/'tiny')
    tok, model = AutoTokenizer.from_pretrained(p), AutoModelForCausalLM.from_pretrained(p, dtype=torch.float32)
    ds = Dataset.from_list([dict(prompt=[{'role': 'user', 'content': f'write program {i}'}]) for i in range(12)])
    cfg = RLConfig(device='cpu', steps=3, prompts_per_step=2, num_generations=4, max_completion_length=16, learning_rate=1e-2, save_steps=100)
    reward = lambda completions, **kw: [float(len(str(c)) % 5) for c in completions]
    snaps = []
    class Snap(TrainerCallback):
        def on_step_end(self, args, state, control, model=None, **kw): snaps.append({k: v.detach().clone() for k, v in model.named_parameters()})
    w = next(model.parameters())
    def poison(g):   # every micro-batch of the second optimizer step
        return torch.full_like(g, float('nan')) if len(snaps) == 1 else g
    w.register_hook(poison)
    guard = finite_updates()
    tr = GRPOTrainer(model=model, reward_funcs=[reward], args=grpo_args(cfg, tmp_path/'rl'), train_dataset=ds, processing_class=tok,
                     callbacks=[guard, Snap()])
    tr.train()
    assert len(snaps) == 3 and guard.skipped == [2]
    assert skipped_updates(tr.state.log_history) == [2]
    assert all(torch.equal(snaps[0][k], snaps[1][k]) for k in snaps[0])   # step 2 changed nothing
    assert any(not torch.equal(snaps[1][k], snaps[2][k]) for k in snaps[0])   # step 3 trained again
    assert all(v.isfinite().all() for v in snaps[2].values())


def test_kl_from_the_base_is_logged_for_a_lora_policy_without_a_kl_term(tmp_path):
    "beta 0: TRL logs no KL; `kl_logged_trainer` logs the LoRA policy's KL from its adapters-off self: 0 at the first step, > 0 after updates."
    import torch
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from cudal1_nb.generate import make_tiny_lm
    from cudal1_nb.rl import RLConfig, grpo_args
    from cudal1_nb.grpo import kl_logged_trainer
    from cudal1_nb.lora import add_lora, LORA_ATTENTION
    from trl import GRPOTrainer
    p = make_tiny_lm(tmp_path/'tiny')
    tok = AutoTokenizer.from_pretrained(p)
    ds = Dataset.from_list([dict(prompt=[{'role': 'user', 'content': f'write program {i}'}]) for i in range(12)])
    cfg = RLConfig(device='cpu', steps=3, prompts_per_step=2, num_generations=4, max_completion_length=16, learning_rate=5e-2, save_steps=100)
    reward = lambda completions, **kw: [float(len(str(c)) % 5) for c in completions]
    model = add_lora(AutoModelForCausalLM.from_pretrained(p, dtype=torch.float32), 8, 16, targets=LORA_ATTENTION)
    tr = kl_logged_trainer(GRPOTrainer)(model=model, reward_funcs=[reward], args=grpo_args(cfg, tmp_path/'rl'), train_dataset=ds, processing_class=tok)
    tr.train()
    kl = [h['kl'] for h in tr.state.log_history if 'kl' in h]
    assert len(kl) == 3 and abs(kl[0]) < 1e-6 and kl[-1] > 1e-6, kl   # fresh adapters (B = 0) are the base; updates move the policy
    whole = AutoModelForCausalLM.from_pretrained(p, dtype=torch.float32)   # a whole model: nothing to switch off, no `kl`
    tr = kl_logged_trainer(GRPOTrainer)(model=whole, reward_funcs=[reward], args=grpo_args(cfg, tmp_path/'rl2'), train_dataset=ds, processing_class=tok)
    tr.train()
    assert not any('kl' in h for h in tr.state.log_history)


def test_rl_experiment_step_split_counts_sampled_tokens_and_judged_programs(tmp_path):
    "step_split: sampled tokens per second of generation (trainer log lengths x completions a step); judged_programs: rollouts run by the judge."
    from cudal1_nb.reward import Rollout
    ex = _rl_experiment()
    rd = tmp_path/'contrastive-s0'; rd.mkdir()
    (rd/'config.json').write_text(json.dumps(dict(config=dict(prompts_per_step=2, num_generations=4))))
    (rd/'curves.json').write_text(json.dumps(dict(
        step_times=[dict(step=0, seconds=10, generate_s=4, reward_s=5, update_s=1), dict(step=1, seconds=8, generate_s=2, reward_s=4, update_s=2)],
        trainer_log=[{'step': 1, 'completions/mean_length': 100.0, 'step_time': 9.5}, {'step': 2, 'completions/mean_length': 200.0, 'step_time': 7.25}, {'train_loss': 1.0}])))
    sp = ex.step_split(rd)
    assert sp['trained_s'] == 16.8 and sp['tokens_per_s'] == round((100 * 8 + 200 * 8) / 6, 1) and sp['seconds'] == 9 and sp['reward_share'] == round(9 / 18, 3)
    ros = [Rollout(run='r', step=0, task_id='t', arm='a', completion='x', candidate_id=c, cached=k, split='train')
           for c, k in (('c1', False), ('c2', True), (None, False), ('c3', False))]
    (rd/'rollouts.jsonl').write_text(''.join(r.to_json() + '\n' for r in ros))
    assert ex.judged_programs(rd) == 2   # a cached result and an answer with no program were not judged
