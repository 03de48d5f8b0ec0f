"""GPU tests of the SFT stage's training paths (run on a CUDA machine: `PYTHONPATH=. python3 -m pytest -m gpu tests/test_sft_gpu.py`;
TRL and `datasets` must be importable, bitsandbytes for the QLoRA test)."""
import os
import pytest
from cudal1_nb.minibench import minibench_tasks

pytestmark = pytest.mark.gpu
os.environ.setdefault('HF_HUB_OFFLINE', '1')


@pytest.fixture(scope='module')
def cuda():
    torch = pytest.importorskip('torch')
    if not torch.cuda.is_available(): pytest.skip('no CUDA GPU')
    pytest.importorskip('trl'); pytest.importorskip('datasets')
    return torch


@pytest.fixture(scope='module')
def rows():
    "Prompt/completion rows of the stage's shape: the mini-suite's references restated as `ModelNew` (a copy the model can learn)."
    from cudal1_nb.prompts import optimize_prompt, fence
    out = []
    for t in minibench_tasks()[:6]:
        code = t.code.replace('class Model(', 'class ModelNew(')
        out.append(dict(task_id=t.id, prompt=optimize_prompt(t, device='cuda').text, completion=fence(code)))
    return out


@pytest.fixture(scope='module')
def model_dir(cuda, rows, tmp_path_factory):
    "A small random Qwen2 and a tokenizer trained on the rows, saved as a model path (what a user passes as `model`)."
    from transformers import Qwen2Config, Qwen2ForCausalLM
    from cudal1_nb.sft import train_tokenizer
    d = tmp_path_factory.mktemp('qwen_small')
    tok = train_tokenizer([r['prompt'] + r['completion'] for r in rows], 1024)
    cuda.manual_seed(0)
    mc = Qwen2Config(vocab_size=len(tok), hidden_size=256, intermediate_size=768, num_hidden_layers=2, num_attention_heads=4,
                     num_key_value_heads=2, tie_word_embeddings=True, max_position_embeddings=4096,
                     bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id)
    Qwen2ForCausalLM(mc).save_pretrained(d); tok.save_pretrained(d)
    return str(d)


def _train(cfg, rows, out):
    from cudal1_nb.sft import train_sft
    model, tok, m = train_sft(cfg, rows, out)
    assert m['steps'] == cfg.steps and not m['stopped_by_budget'], m
    curve = [l for _, l in m['loss_curve']]
    assert all(l == l for l in curve) and curve[-1] < curve[0], curve   # finite, and it learns
    return model, tok, m


def test_lora_on_cuda_uses_the_fast_trainer(cuda, rows, model_dir, tmp_path):
    from cudal1_nb.sft import SFTStageConfig, build_model, make_trainer, to_training
    cfg = SFTStageConfig(model=model_dir, lora_r=8, steps=12, max_length=2048, learning_rate=1e-3, device='cuda', eval_samples=0, time_budget_s=0)
    m0, tok, kind = build_model(cfg, rows)
    assert kind == 'lora' and next(m0.parameters()).dtype == cuda.bfloat16
    tr = make_trainer(cfg, m0, tok, kind, to_training(rows, tok, cfg.max_length)[0], tmp_path/'probe')
    assert type(tr).__name__ == 'ChunkedSFTTrainer' and tr.args.bf16 and tr.args.per_device_train_batch_size == 8
    model, tok, m = _train(cfg, rows, tmp_path)
    assert m['kind'] == 'lora' and 0 < m['trainable'] < m['params'] / 10
    assert (tmp_path/'model'/'adapter_config.json').exists()


def test_qlora_on_cuda(cuda, rows, model_dir, tmp_path):
    bnb = pytest.importorskip('bitsandbytes')
    from cudal1_nb.sft import SFTStageConfig
    cfg = SFTStageConfig(model=model_dir, lora_r=8, qlora=True, steps=12, max_length=2048, learning_rate=1e-3, batch_size=4, device='cuda',
                         eval_samples=0, time_budget_s=0)
    model, tok, m = _train(cfg, rows, tmp_path)
    assert m['kind'] == 'qlora'
    assert any(isinstance(x, bnb.nn.Linear4bit) for x in model.modules())


def test_tiny_model_trains_and_samples_on_cuda(cuda, rows, tmp_path):
    from cudal1_nb.sft import SFTStageConfig, sample_and_judge
    cfg = SFTStageConfig(steps=30, max_length=2048, device='cuda', eval_samples=2, eval_max_new_tokens=64, time_budget_s=0)
    model, tok, m = _train(cfg, rows, tmp_path)
    assert m['kind'] == 'tiny' and next(model.parameters()).is_cuda
    tasks = minibench_tasks()[:2]
    per, samples = sample_and_judge(model, tok, tasks, cfg, progress=False)
    assert [r['task'] for r in per] == [t.id for t in tasks] and all(r['samples'] == 2 for r in per)
    assert len(samples) == 4 and all(s[3] or s[2] is not None for s in samples)   # each sample: a reason, or a verdict


NAMED_GPU = """
import json, os, sys, torch
from cudal1_nb.sft import SFTStageConfig, run_sft
rows, n = json.loads(sys.argv[1]), torch.cuda.device_count()   # NVML's count: CUDA has not started
cfg = SFTStageConfig(steps=8, max_length=2048, device=f'cuda:{n - 1}', eval_device='cuda:0', eval_samples=1, eval_max_new_tokens=32, time_budget_s=0, db=sys.argv[2])
s = run_sft(cfg, sys.argv[3], rows=rows)
print(json.dumps(dict(gpus=n, visible=os.environ['CUDA_VISIBLE_DEVICES'], seen=torch.cuda.device_count(), host=os.environ['CUDAL1_GPUS'], tasks=s['tasks'])))
"""

def test_sft_stage_trains_on_a_named_gpu_and_judges_on_another(cuda, rows, tmp_path):
    "`device='cuda:N'` (the host's last GPU): the stage's process keeps that GPU alone (TRL refuses several), and judges on 'cuda:0'."
    import json, subprocess, sys
    env = {k: v for k, v in os.environ.items() if k not in ('CUDA_VISIBLE_DEVICES', 'CUDAL1_GPUS')}
    p = subprocess.run([sys.executable, '-c', NAMED_GPU, json.dumps(rows), str(tmp_path/'s.sqlite'), str(tmp_path/'run')],
                       capture_output=True, text=True, timeout=600, env=dict(env, CUDAL1_BASE_DIR=str(tmp_path/'base')))
    assert p.returncode == 0, p.stderr[-3000:]
    r = json.loads(p.stdout.strip().splitlines()[-1])
    assert r['seen'] == 1 and r['visible'] == str(r['gpus'] - 1) and r['host'] == ','.join(map(str, range(r['gpus']))), r
    assert r['tasks'] > 0, r


def test_training_attention_gives_finite_gradients_where_cudnn_attention_can_fail(cuda):
    "After `training_attention('cuda')`, a masked bfloat16 head of 704 or 832 tokens with very negative scores has finite gradients."
    import subprocess, sys
    from conftest import ROOT
    code = ("from cudal1_nb.lora import training_attention; from benchmarks.sdpa_nan import probe; import torch\n"
            "assert training_attention('cuda') and not torch.backends.cuda.cudnn_sdp_enabled()\n"
            "for L in (704, 832): r = probe(L); assert r == dict(dq=0, dk=0, dv=0), (L, r)\n")
    p = subprocess.run([sys.executable, '-c', code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                       env={**os.environ, 'PYTHONPATH': str(ROOT) + os.pathsep + os.environ.get('PYTHONPATH', '')})   # a fresh process: the switch is process-wide
    assert p.returncode == 0, p.stderr[-2000:]
