"""A LoRA policy's RL checkpoint -- its adapter and the optimizer's state, nothing of the base -- resumed in a fresh
trainer gives the same next step as the run that was not interrupted; and a checkpoint whose adapter belongs to
another base is refused before anything runs."""
import json, shutil
from pathlib import Path
import pytest

pytest.importorskip('trl'); pytest.importorskip('peft')


def _policy(tmp:Path, name:str='base')->Path:
    "A tiny Llama saved as a base model, and a LoRA policy on it (rank 4, the attention projections) saved beside it."
    from cudal1_nb.sft import train_tokenizer, tiny_llama
    from cudal1_nb.lora import add_lora
    texts = ['def forward(self, x):\n    return torch.relu(x) * 2\n', 'class ModelNew(nn.Module):\n    pass\n'] * 20
    tok = train_tokenizer(texts, 300)
    base = tiny_llama(tok, hidden=64, layers=1, max_positions=256, seed=0 if name == 'base' else 1)
    bdir, pdir = tmp/name, tmp/f'{name}-lora'
    base.save_pretrained(bdir); tok.save_pretrained(bdir)
    from transformers import AutoModelForCausalLM
    pm = add_lora(AutoModelForCausalLM.from_pretrained(bdir), r=4, alpha=8, targets=('q_proj', 'k_proj', 'v_proj', 'o_proj'))   # the adapter names its base's folder
    pm.save_pretrained(pdir); tok.save_pretrained(pdir)
    return pdir


def _trainer(policy:Path, out:Path, steps:int=2):
    "TRL's GRPO on the policy with the stage's settings (`grpo_args`) and a reward that is a fixed function of the text."
    import datasets
    from trl import GRPOTrainer
    from cudal1_nb.checkpoint import load_policy
    from cudal1_nb.grpo import grpo_args
    from cudal1_nb.rl import RLConfig
    model, tok, kind = load_policy(policy)
    assert kind == 'lora'
    cfg = RLConfig(device='cpu', steps=steps, num_generations=4, prompts_per_step=1, max_completion_length=24, save_steps=1,
                   learning_rate=5e-2, temperature=1.0)
    ds = datasets.Dataset.from_list([{'prompt': [{'role': 'user', 'content': f'task {i}: write ModelNew'}]} for i in range(8)])
    def reward(completions, **kw): return [float(len(c[-1]['content']) % 7) for c in completions]   # varies: GRPO has a gradient
    return GRPOTrainer(model=model, reward_funcs=[reward], args=grpo_args(cfg, out), train_dataset=ds, processing_class=tok)


def _adapter(ckpt:Path)->dict:
    from safetensors.torch import load_file
    return load_file(str(ckpt/'adapter_model.safetensors'))


def test_lora_checkpoint_resumes_to_the_same_next_step(tmp_path):
    import torch
    pol = _policy(tmp_path)
    _trainer(pol, tmp_path/'a').train()   # two steps, a checkpoint after each
    a1, a2 = tmp_path/'a'/'trainer'/'checkpoint-1', tmp_path/'a'/'trainer'/'checkpoint-2'
    assert (a1/'adapter_model.safetensors').exists() and (a1/'optimizer.pt').exists()
    assert not list(a1.glob('model*.safetensors')), "the checkpoint holds the base's weights, not only the adapter"
    w1, w2 = _adapter(a1), _adapter(a2)
    assert any(not torch.equal(w1[k], w2[k]) for k in w1), "step 2 changed nothing: the test would show nothing"
    b = tmp_path/'b'/'trainer'
    b.mkdir(parents=True); shutil.copytree(a1, b/'checkpoint-1')   # the run stopped after step 1; a new process resumes it
    _trainer(pol, tmp_path/'b').train(resume_from_checkpoint=str(b/'checkpoint-1'))
    v2 = _adapter(b/'checkpoint-2')
    assert v2.keys() == w2.keys()
    worst = max((v2[k] - w2[k]).abs().max().item() for k in w2)
    assert worst <= 1e-6, f"the resumed step differs from the uninterrupted one by {worst}"


def test_checkpoint_of_another_base_is_refused(tmp_path):
    from cudal1_nb.rl import RLConfig, run_rl
    pol, other = _policy(tmp_path, 'base'), _policy(tmp_path, 'other')
    rd = tmp_path/'rl'
    ck = rd/'trainer'/'checkpoint-3'; ck.mkdir(parents=True)
    shutil.copy(other/'adapter_config.json', ck/'adapter_config.json')   # a checkpoint left by a run of another base
    cfg = RLConfig(init=str(pol), ids=('minibench/L1/1',), steps=4, device='cpu', held_out_samples=0, db=str(tmp_path/'s.sqlite'))
    with pytest.raises(ValueError, match='another base'):
        run_rl(cfg, rd, progress=False)
    assert not (rd/'rollouts.jsonl').exists() and not (rd/'config.json').exists(), "something was written before the refusal"


def test_fresh_adapters_on_a_whole_model(tmp_path):
    "`RLConfig.lora_r` on a whole-model init: only fresh adapters train, and a checkpoint is an adapter of that model."
    from cudal1_nb.checkpoint import load_policy
    from cudal1_nb.grpo import check_checkpoint
    from cudal1_nb.rl import RLConfig
    base, other = _policy(tmp_path, 'base').parent/'base', _policy(tmp_path, 'other').parent/'other'
    model, tok, kind = load_policy(base, 'cpu', lora_r=4)
    trains = [n for n, p in model.named_parameters() if p.requires_grad]
    assert kind == 'lora' and trains and all('lora_' in n for n in trains), trains
    assert load_policy(base, 'cpu')[2] == 'full'   # without lora_r the whole model trains, as before
    ck = tmp_path/'ck'; model.save_pretrained(ck)   # what such a run's checkpoint holds: the adapter, naming the whole model
    assert not list(ck.glob('model*.safetensors'))
    check_checkpoint(ck, base, lora=True)
    with pytest.raises(ValueError, match='another base'): check_checkpoint(ck, other, lora=True)
    with pytest.raises(ValueError, match='another base'): check_checkpoint(ck, base)   # the run now trains the whole model
    with pytest.raises(ValueError, match='whole model'): check_checkpoint(other, base, lora=True)   # a whole-model checkpoint
    with pytest.raises(ValueError, match='lora_r'): RLConfig(lora_r=-1)
    with pytest.raises(ValueError, match='lora_r'): RLConfig(mode='evolve', lora_r=8)
