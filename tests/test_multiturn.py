"""Multi-turn GRPO (`cudal1_nb.multiturn`): one step of a tiny policy on the CPU whose answers are scripted -- in a
group of two episodes one writes no program and then the task's reference as `ModelNew`, the other never writes one --
so the wiring is checked end to end: the episodes' turns, the masks of the feedback tokens, the credit rule, the update."""
import pytest

pytest.importorskip('trl')


def test_one_multiturn_step_credits_the_episode_that_fixed_its_answer(tmp_path):
    import torch
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from cudal1_nb.env import KernelEnv, EnvConfig
    from cudal1_nb.generate import make_tiny_lm
    from cudal1_nb.minibench import minibench_tasks
    from cudal1_nb.multiturn import EpisodeReturn, multiturn_grpo_trainer, as_rollout
    from cudal1_nb.rl import RLConfig, grpo_args
    task = next(t for t in minibench_tasks() if t.id == 'minibench/L1/1')
    good = '```python\n' + task.code.replace('class Model(', 'class ModelNew(') + '\n```'
    p = make_tiny_lm(tmp_path/'tiny')
    tok, model = AutoTokenizer.from_pretrained(p), AutoModelForCausalLM.from_pretrained(p, dtype=torch.float32)

    class Scripted:
        "Episode 0 writes the reference at its second turn; every other answer holds no program."
        calls = 0
        def generate_ids(self, ids, cfg):
            self.calls += 1
            say = lambda i: good if self.calls == 2 and i == 0 else 'no program here'
            return [tok(say(i), add_special_tokens=False)['input_ids'] + [tok.eos_token_id] for i in range(len(ids))]

    env = KernelEnv([task], EnvConfig(max_turns=2, db=str(tmp_path/'s.sqlite'), episodes=str(tmp_path/'e.sqlite'), eval=dict(budget_s=0.05)))
    cfg = RLConfig(device='cpu', steps=1, prompts_per_step=1, num_generations=2, max_completion_length=16, learning_rate=1e-2, save_steps=100,
                   turns=2, loss_type='dapo')
    ds = Dataset.from_list([dict(prompt=[{'role': 'user', 'content': 'x'}], task_id=task.id, exemplar_ids='')] * 4)
    logged = []
    tr = multiturn_grpo_trainer(__import__('trl').GRPOTrainer)(
        model=model, reward_funcs=[EpisodeReturn(env, 0.5)], args=grpo_args(cfg, tmp_path/'rl'), train_dataset=ds,
        processing_class=tok, env=env, on_turns=lambda ts: logged.extend(as_rollout(t, 'grpo-plain') for t in ts))
    tr._be = Scripted()
    w0 = {k: v.detach().clone() for k, v in model.named_parameters()}
    tr.train()

    assert [(r.turn, r.verdict) for r in logged] == [(1, 'unparsed'), (2, 'ok'), (1, 'unparsed'), (2, 'unparsed')]   # by episode
    assert {r.arm for r in logged} == {'grpo-plain'} and len({r.episode_id for r in logged}) == 2
    from cudal1_nb.rl_metrics import curves
    (row,) = curves(logged)
    assert (row['episodes'], row['turns'], row['turn1_correct'], row['episode_correct'], row['correct']) == (2, 2.0, 0.0, 0.5, 0.25)
    eps = [env.state(e) for e in dict.fromkeys(r.episode_id for r in logged)]
    g = EpisodeReturn(env, 0.5)([''] * 2, [''] * 2, episode_id=[e.id for e in eps])
    assert g[0] == pytest.approx(eps[0].turns[0].reward + 0.5 * eps[0].turns[1].reward) and g[0] > g[1]
    batch = tr._buffered_inputs[0]
    m, c = batch['tool_mask'] * batch['completion_mask'], batch['completion_ids']
    for row in range(2):   # the trained tokens are the answers; the feedback between them is masked
        trained = tok.decode(c[row][m[row].bool()]); masked = tok.decode(c[row][(batch['completion_mask'][row] - m[row]).bool()])
        assert 'Result of attempt 1 of 2' in masked and 'Result of attempt' not in trained
        # the group's two returns, normalised: the episode that fixed its answer is pushed up, the other down
        assert batch['advantages'][row].item() == pytest.approx(0.7071 if 'class ModelNew' in trained else -0.7071, abs=1e-3)
    assert any(not torch.equal(w0[k], v) for k, v in model.named_parameters())
    assert tr.reward_wait_s > 0


def test_multiturn_needs_a_template_that_keeps_the_conversation(tmp_path):
    from transformers import AutoTokenizer
    from cudal1_nb.generate import make_tiny_lm
    from cudal1_nb.multiturn import turn_joint
    tok = AutoTokenizer.from_pretrained(make_tiny_lm(tmp_path/'tiny'))
    tok.chat_template = "{% for m in messages %}{% if m.role == 'user' %}{{ m.content }}{% endif %}{% endfor %}"   # drops the answers
    with pytest.raises(ValueError, match='keeps the conversation'): turn_joint(tok)
    tok.chat_template = None
    with pytest.raises(ValueError, match='need a tokenizer with a chat template'): turn_joint(tok)


def test_the_rl_stage_wires_its_environment_and_logs_the_turns(tmp_path, monkeypatch):
    "`multiturn_parts`: the run's env judges first turns on the reward's judge, with the stage's templates and settings; turns logged as rollouts."
    monkeypatch.setenv('CUDAL1_BASE_DIR', str(tmp_path/'base'))
    from cudal1_nb.episodes import Turn
    from cudal1_nb.minibench import minibench_tasks
    from cudal1_nb.multiturn import EpisodeReturn, multiturn_grpo_trainer
    from cudal1_nb.rl import RLConfig, KernelReward
    from cudal1_nb.rl_metrics import read_rollouts
    from cudal1_nb.multiturn import multiturn_parts
    tasks = minibench_tasks()[:2]
    cfg = RLConfig(turns=3, turn_gamma=0.25, arm='plain', eval_device='cpu', budget_s=0.2, db=str(tmp_path/'s.sqlite'))
    log = tmp_path/'rl'/'rollouts.jsonl'; log.parent.mkdir()
    reward = KernelReward(tasks, cfg.reward_config(), cfg.eval_config(), 'cpu', cfg.db, run='rl', arm='grpo-plain', log_path=log)
    fn, kw = multiturn_parts(cfg, tasks, reward, cfg.plan(), tmp_path/'rl')
    env = kw['env']
    assert isinstance(fn, EpisodeReturn) and fn.gamma == 0.25 and kw['wrap'] is multiturn_grpo_trainer
    assert env.cfg.max_turns == 3 and env.cfg.form == cfg.stage1_form and env.cfg.db == cfg.db and env.cfg.episodes == str(tmp_path/'rl'/'episodes.sqlite')
    assert env.reward_for(1).judge is reward.judge and env.reward_for(2).judge is not reward.judge   # later turns: seeds of their own
    assert env.ecfg.budget_s == 0.2 and env.rcfg == cfg.reward_config()
    t = Turn('rl', 0, tasks[0].id, 'plain', '', [], 'no program', None, 'unparsed', reward=-2.5, episode_id='e1', turn=2, feedback='...', win=False)
    kw['on_turns']([t])
    (r,) = read_rollouts(log)
    assert (r.episode_id, r.turn, r.arm, r.reward) == ('e1', 2, 'grpo-plain', -2.5) and reward.rollouts == [r]
    env.close()
