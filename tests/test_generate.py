"""Tests of the generation backends (`cudal1_nb.generate` and the modules it gathers): the HF backend on a tiny model,
the OpenAI-compatible backend against a scripted local server, replay and specs."""
import json, os, socket, threading, time, multiprocessing as mp
from contextlib import contextmanager
from dataclasses import asdict
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
from pathlib import Path
import pytest
import asyncio
import cudal1_nb.generate as G
from cudal1_nb.backend import GenConfig, Backend
from cudal1_nb.replay import ReplayBackend, replay_key
from cudal1_nb.tiny import make_tiny_lm
from cudal1_nb.hf_backend import HFBackend
from cudal1_nb.openai_backend import OpenAIBackend, run_coro
from cudal1_nb.models import local_model, smollm2_gguf
from cudal1_nb.generate import make_backend

HOT = GenConfig(max_new_tokens=10, temperature=1.0, seed=0)
GREEDY = GenConfig(max_new_tokens=10, temperature=0)
# the longest prompt comes last, so a length-sorted batch holds prompts in reverse input order
PROMPTS = ['What is 2 + 3?', 'hi', 'What is 2 + 3?', 'a longer prompt than hi', 'import torch\nclass ModelNew(torch.nn.Module):']

# --- HF backend on a tiny model ---------------------------------------------------------------------------------------

@pytest.fixture(scope='module')
def tiny(tmp_path_factory):
    "A tiny Llama model with a chat-template tokenizer, and the same tokenizer without a template."
    d = tmp_path_factory.mktemp('tiny')
    return make_tiny_lm(d/'chat'), make_tiny_lm(d/'raw', chat_template=False)

@pytest.fixture(scope='module')
def hf(tiny):
    import torch
    n = torch.get_num_threads(); torch.set_num_threads(1)    # a tiny model: one thread is fastest, and immune to a busy machine
    yield HFBackend(tiny[0], device='cpu', batch_size=2)
    torch.set_num_threads(n)

def test_hf_order_and_batching(hf):
    out = hf.generate(PROMPTS, GREEDY)
    assert len(out) == len(PROMPTS) and all(isinstance(o, str) for o in out)
    # left padding + mask + restored order: each prompt's greedy completion is the same alone as in a padded batch
    assert [hf.generate([p], GREEDY)[0] for p in PROMPTS] == out
    assert out[0] == out[2]                                    # greedy: the same prompt gives the same completion
    assert len(set(out)) > 1                                    # different prompts are not all answered alike
    assert hf.generate([], GREEDY) == []

def test_hf_seeded_sampling(hf):
    import torch
    a = hf.generate(PROMPTS, HOT)
    assert hf.generate(PROMPTS, HOT) == a                       # same call, same samples
    b = hf.generate(PROMPTS, GenConfig(max_new_tokens=10, temperature=1.0, seed=1))
    assert sum(x != y for x, y in zip(a, b)) >= 4               # another seed, other samples
    assert a[0] != a[2]                                         # two samples of one prompt differ
    torch.manual_seed(123); want = torch.rand(3)
    torch.manual_seed(123); hf.generate(PROMPTS[:2], HOT)
    assert torch.equal(torch.rand(3), want)                     # the caller's random state is untouched

def test_hf_greedy_ignores_seed(hf):
    assert hf.generate(PROMPTS, GREEDY) == hf.generate(PROMPTS, GenConfig(max_new_tokens=10, temperature=0, seed=7))

def test_hf_chat_template_applied(hf, tiny):
    assert hf.format_prompt('What is 2 + 3?') == '<|user|>What is 2 + 3?<|end|><|assistant|>'
    assert hf.format_prompt('q', GenConfig(system='Be brief.')) == '<|system|>Be brief.<|end|><|user|>q<|end|><|assistant|>'
    raw = HFBackend(tiny[0], device='cpu', batch_size=2, tokenizer_path=tiny[1])
    assert raw.format_prompt('What is 2 + 3?') == 'What is 2 + 3?'
    assert raw.format_prompt('q', GenConfig(system='Be brief.')) == 'Be brief.\n\nq'
    # the templated backend generates exactly what the template-less one generates from the rendered text
    assert raw.generate([hf.format_prompt(p) for p in PROMPTS], GREEDY) == hf.generate(PROMPTS, GREEDY)
    sys_cfg = GenConfig(max_new_tokens=10, temperature=0, system='Be brief.')
    assert raw.generate([hf.format_prompt(p, sys_cfg) for p in PROMPTS], GREEDY) == hf.generate(PROMPTS, sys_cfg)

def test_hf_from_objects(hf):
    tok = hf.tokenizer
    before = (tok.padding_side, tok.pad_token, tok.chat_template)
    b = HFBackend.from_objects(hf.model, tok, name='hf:just-trained', batch_size=2)
    assert b.name == 'hf:just-trained' and repr(b) == "HFBackend('hf:just-trained')"
    assert b.generate(PROMPTS, HOT) == hf.generate(PROMPTS, HOT)
    assert (tok.padding_side, tok.pad_token, tok.chat_template) == before

def test_hf_lazy_and_bad_args(tmp_path):
    b = HFBackend(tmp_path/'missing', device='cpu')             # nothing is loaded yet
    assert b.model is None and b.name == f"hf:{tmp_path/'missing'}"
    with pytest.raises(OSError): b.generate(['x'])
    with pytest.raises(ValueError, match="device must be"): HFBackend('m', device='gpu')
    with pytest.raises(ValueError, match="batch_size must be"): HFBackend('m', batch_size=0)
    with pytest.raises(ValueError, match="dtype must be"): HFBackend(tmp_path, dtype='float33')._load()
    with pytest.raises(ValueError, match='got one string'): b.generate('write a kernel')
    with pytest.raises(FileNotFoundError, match='no GGUF file at'): HFBackend(tmp_path/'model.gguf').generate(['x'])

# --- the names of `cudal1_nb.generate`: each backend in a module of its own, every name still importable from generate ---

GENERATE_NAMES = {   # defining module -> the names `cudal1_nb.generate` exported before its backends had modules of their own
    'backend': ['GenConfig', 'Backend', 'check_prompts', 'chat_messages'], 'replay': ['replay_key', 'ReplayBackend'],
    'tiny': ['TINY_CHAT_TEMPLATE', 'TINY_SPECIALS', 'bpe_tokenizer', 'make_tiny_lm'],
    'hf_backend': ['GPU_BATCH_SIZE', 'STATIC_LEN_STEP', 'GPU_BATCH_TOKENS', 'HFBackend', 'plan_batches'],
    'openai_backend': ['run_coro', 'OpenAIBackend'], 'models': ['GGUF_MODELS', 'smollm2_gguf', 'gguf_to_hf', 'local_model', 'check_model']}

def test_generate_names_still_import_from_generate():
    import importlib
    for mod, names in GENERATE_NAMES.items():
        m = importlib.import_module(f'cudal1_nb.{mod}')
        for n in names: assert getattr(G, n) is getattr(m, n), (mod, n)
    assert set(G.__all__) == {'make_backend'} | {n for ns in GENERATE_NAMES.values() for n in ns}

# --- replay -----------------------------------------------------------------------------------------------------------

class Counter(Backend):
    "A backend that numbers its answers and remembers each call's prompts."
    name = 'counter'
    def __init__(self): self.calls = []
    def generate(self, prompts, cfg=None, progress=False):
        self.calls.append(list(prompts)); return [f"{p}|{len(self.calls)}.{i}" for i, p in enumerate(prompts)]

def test_replay_records_then_replays_hf(hf, tmp_path):
    f = tmp_path/'rec.jsonl'
    ps = ['p', 'p', 'p', 'q']
    a = ReplayBackend(f, hf).generate(ps, HOT)
    assert a == hf.generate(ps, HOT) and len(set(a[:3])) == 3    # three distinct recorded samples of 'p'
    assert ReplayBackend(f).generate(ps, HOT) == a               # replayed without the model
    rows = [json.loads(l) for l in f.read_text().splitlines()]
    assert len(rows) == 4 and set(rows[0]) == {'key', 'prompt', 'completion', 'backend', 'cfg', 'created'}
    assert rows[2]['key'] == replay_key('p', HOT, 2) and rows[0]['backend'] == hf.name and rows[0]['cfg'] == asdict(HOT)

def test_replay_only_misses_reach_inner(tmp_path):
    f, inner = tmp_path/'r.jsonl', Counter()
    rb = ReplayBackend(f, inner)
    assert rb.generate(['a', 'b', 'a'], HOT) == ['a|1.0', 'b|1.1', 'a|1.2']
    assert rb.generate(['a'] * 4 + ['b'], HOT) == ['a|1.0', 'a|1.2', 'a|2.0', 'a|2.1', 'b|1.1']
    assert inner.calls == [['a', 'b', 'a'], ['a', 'a']]          # occurrences 2 and 3 of 'a', in one batched call
    assert rb.generate(['a', 'b'], GenConfig(max_new_tokens=10, temperature=1.0, seed=1)) == ['a|3.0', 'b|3.1']  # settings are in the key
    assert len(f.read_text().splitlines()) == 7

def test_replay_miss_raises(tmp_path):
    f = tmp_path/'r.jsonl'
    ReplayBackend.record(f, ['a', 'b'], ['A', 'B'], HOT)
    rb = ReplayBackend(f)
    assert rb.generate(['b', 'a'], HOT) == ['B', 'A']
    with pytest.raises(KeyError, match=r"2 of 3 prompts are not recorded.*starts 'write a CUDA kernel for"):
        rb.generate(['a', 'write a CUDA kernel for softmax', 'a'], HOT)
    with pytest.raises(KeyError, match='1 of 1'): ReplayBackend(tmp_path/'absent.jsonl').generate(['a'], HOT)

@pytest.mark.parametrize('line,msg', [('{"key": "k", "completion": ', 'corrupt recording line'),
                                      ('[1, 2]', "a recording line must be a JSON object with string 'key' and 'completion'"),
                                      ('{"key": "k"}', "a recording line must be a JSON object"),
                                      ('{"key": "k", "completion": null}', "a recording line must be a JSON object")])
def test_replay_corrupt_line_raises(tmp_path, line, msg):
    f = tmp_path/'r.jsonl'
    ReplayBackend.record(f, ['a', 'b'], ['A', 'B'], HOT)
    f.write_text(f.read_text() + '\n' + line + '\n')            # line 4, after a blank line 3
    with pytest.raises(ValueError, match=f"{f}:4: {msg}"): ReplayBackend(f).generate(['a'], HOT)

def test_replay_half_line_raises_and_newline_added(tmp_path):
    f = tmp_path/'r.jsonl'
    ReplayBackend.record(f, ['a'], ['A'], HOT)
    good = f.read_text()
    f.write_text(good + good[:40])                               # a writer killed half way through line 2
    with pytest.raises(ValueError, match=f"{f}:2: corrupt"): ReplayBackend(f).generate(['a'], HOT)
    f.write_text(good.rstrip('\n'))                              # a hand-edited file without a final newline
    assert ReplayBackend.record(f, ['b'], ['B'], HOT) == 1
    assert f.read_text().count('\n') == 2 and ReplayBackend(f).generate(['b', 'a'], HOT) == ['B', 'A']

def test_replay_sees_other_writers(tmp_path):
    f = tmp_path/'r.jsonl'
    rb = ReplayBackend(f)
    ReplayBackend.record(f, ['a'], ['A'], HOT)
    assert rb.generate(['a'], HOT) == ['A']
    ReplayBackend.record(f, ['b'], ['B'], HOT)                   # appended by someone else: read incrementally
    assert rb.generate(['b'], HOT) == ['B']
    f.unlink(); ReplayBackend.record(f, ['c'], ['C'], HOT)       # the file replaced: read again from the start
    assert rb.generate(['c'], HOT) == ['C']
    with pytest.raises(KeyError): rb.generate(['a'], HOT)

def test_record_keeps_existing_keys(tmp_path):
    f = tmp_path/'r.jsonl'
    assert ReplayBackend.record(f, ['a', 'a'], ['A0', 'A1'], HOT, backend='openai:x@http://h/v1') == 2
    assert ReplayBackend.record(f, ['a', 'a', 'a'], ['no', 'no', 'A2'], HOT) == 1
    assert ReplayBackend(f).generate(['a'] * 3, HOT) == ['A0', 'A1', 'A2']
    with open(f, 'a') as o: o.write(json.dumps(dict(key=replay_key('a', HOT, 0), completion='later')) + '\n')   # a second writer's copy
    assert ReplayBackend(f).generate(['a'], HOT) == ['A0']                                                     # the first line wins
    with pytest.raises(ValueError, match='2 prompts but 1 completions'): ReplayBackend.record(f, ['a', 'b'], ['A'], HOT)
    with pytest.raises(ValueError, match=r'completions\[1\] must be a str'): ReplayBackend.record(f, ['a', 'b'], ['A', None], HOT)

def _append_many(path, start):
    for i in range(start, start + 40): ReplayBackend.record(path, [f"prompt {i}"], [f"completion {i} " + 'x' * 5000], HOT)

def test_record_concurrent_writers(tmp_path):
    f = tmp_path/'r.jsonl'
    ps = [mp.get_context('fork').Process(target=_append_many, args=(f, 40 * k)) for k in range(4)]
    for p in ps: p.start()
    for p in ps: p.join(30)
    assert [p.exitcode for p in ps] == [0] * 4
    out = ReplayBackend(f).generate([f"prompt {i}" for i in range(160)], HOT)   # every line whole and parseable
    assert out == [f"completion {i} " + 'x' * 5000 for i in range(160)]

# --- specs ------------------------------------------------------------------------------------------------------------

def test_make_backend(tmp_path, monkeypatch):
    assert isinstance(make_backend('hf:/m', device='cpu'), HFBackend)
    b = make_backend('openai:Qwen/Qwen2.5-Coder@https://api.example.com/v1', concurrency=8)
    assert (b.model, b.base_url, b.concurrency, b.name) == ('Qwen/Qwen2.5-Coder', 'https://api.example.com/v1', 8,
                                                            'openai:Qwen/Qwen2.5-Coder@https://api.example.com/v1')
    monkeypatch.delenv('OPENAI_BASE_URL', raising=False)
    with pytest.raises(ValueError, match=r'OPENAI_BASE_URL is not set'): make_backend('openai:gpt-4o')
    monkeypatch.setenv('OPENAI_BASE_URL', 'http://localhost:8000/v1')
    assert make_backend('openai:gpt-4o').name == 'openai:gpt-4o@http://localhost:8000/v1'
    r = make_backend(f"replay:{tmp_path}/x+y.jsonl+replay:{tmp_path}/z.jsonl+hf:/m", batch_size=3)
    assert (str(r.path), str(r.inner.path), r.inner.inner.batch_size) == (f"{tmp_path}/x+y.jsonl", f"{tmp_path}/z.jsonl", 3)
    assert make_backend(r.name).name == r.name
    for bad, msg in [('gpt-4o', 'bad backend spec'), ('vllm:x', "unknown backend scheme 'vllm'"), ('openai:', "nothing after"),
                     ('hf:', "nothing after")]:
        with pytest.raises(ValueError, match=msg): make_backend(bad)

def test_genconfig_validation():
    assert GenConfig(temperature=1) == GenConfig(temperature=1.0) and replay_key('p', GenConfig(top_p=1)) == replay_key('p', GenConfig(top_p=1.0))
    for kw in [dict(temperature=-1), dict(top_p=1.5), dict(max_new_tokens=0), dict(max_new_tokens=True), dict(seed='0'), dict(system=None)]:
        with pytest.raises(ValueError, match=f"GenConfig.{next(iter(kw))} must be"): GenConfig(**kw)

# --- OpenAI-compatible backend (the `openai` client) against a scripted local server -----------------------------------

class Script:
    "What the server does, call by call, and what it saw."
    def __init__(self, n429=0, retry_after='0', n500=0, always=None, delay=0.0, slow_first=0.0, null=False, by_prompt={}):
        self.n429, self.retry_after, self.n500, self.always = n429, retry_after, n500, always
        self.delay, self.slow_first, self.null = delay, slow_first, null
        self.by_prompt = by_prompt     # prompt -> (delay, status, message)
        self.calls, self.lock, self.inflight, self.max_inflight = [], threading.Lock(), 0, 0

class Handler(BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'      # keep-alive, as real servers do (the client pools connections)
    def do_POST(self):
        s = self.server.script
        body = json.loads(self.rfile.read(int(self.headers['Content-Length'])))
        with s.lock:
            s.calls.append(dict(t=time.monotonic(), path=self.path, headers={k.lower(): v for k, v in self.headers.items()}, body=body))
            n = len(s.calls); s.inflight += 1; s.max_inflight = max(s.max_inflight, s.inflight)
        try:
            if n == 1 and s.slow_first: time.sleep(s.slow_first)
            if n <= s.n429: return self.reply(429, dict(error=dict(message='slow down')), {'Retry-After': s.retry_after})
            if n <= s.n429 + s.n500: return self.reply(500, dict(error=dict(message='internal error')))
            if s.always: return self.reply(s.always[0], dict(error=dict(message=s.always[1].format(auth=self.headers.get('Authorization')))),
                                           {'Retry-After': s.retry_after})
            prompt = body['messages'][-1]['content']
            if prompt in s.by_prompt:
                d, code, msg = s.by_prompt[prompt]; time.sleep(d)
                return self.reply(code, dict(error=dict(message=msg)), {'Retry-After': s.retry_after})
            time.sleep(s.delay * (len(prompt) % 4))               # uneven delays: requests finish out of order
            self.reply(200, dict(id='c1', object='chat.completion', created=0, model=body['model'],
                                 choices=[dict(index=0, finish_reason='stop',
                                               message=dict(role='assistant', content=None if s.null else prompt[::-1]))]))
        finally:
            with s.lock: s.inflight -= 1

    def reply(self, code, obj, headers={}):
        data = json.dumps(obj).encode()
        try:
            self.send_response(code)
            for k, v in {'Content-Type': 'application/json', 'Content-Length': str(len(data)), **headers}.items(): self.send_header(k, v)
            self.end_headers(); self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError): pass   # the client gave up (timeout or cancelled)

    def log_message(self, *a): pass

class Server(ThreadingHTTPServer):
    daemon_threads = True
    def handle_error(self, request, client_address): pass      # a client that timed out and left is expected here

@contextmanager
def serve(**script):
    srv = Server(('127.0.0.1', 0), Handler); srv.script = Script(**script)
    th = threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True); th.start()
    try: yield srv.script, f"http://127.0.0.1:{srv.server_address[1]}/v1"
    finally: srv.shutdown(); srv.server_close()

KEY_ENV = 'CUDAL1_TEST_OPENAI_KEY'

@pytest.fixture(autouse=True)
def _no_key(monkeypatch):
    "Tests start without a key (a test sets one where it needs it); the client never reads the real $OPENAI_* variables."
    for k in (KEY_ENV, 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_ORG_ID', 'OPENAI_PROJECT_ID'): monkeypatch.delenv(k, raising=False)

def contents(calls): return [c['body']['messages'][-1]['content'] for c in calls]

def timed_backend(*a, **kw):
    "An `OpenAIBackend` with `openai` already imported: the first import takes 3-10 s on a busy machine, and these tests time calls."
    import openai
    return OpenAIBackend(*a, **kw)

def test_openai_answers_in_order_with_concurrency():
    ps = [f"prompt number {i}" + '!' * i for i in range(12)]
    cfg = GenConfig(max_new_tokens=77, temperature=0.5, top_p=0.9, seed=10, system='You write CUDA.')
    with serve(delay=0.03) as (s, url):
        b = OpenAIBackend('tiny-model', url + '/', api_key_env=KEY_ENV, concurrency=3)
        assert b.generate(ps, cfg, progress=True) == [p[::-1] for p in ps]
    assert len(s.calls) == 12 and 2 <= s.max_inflight <= 3
    assert {c['path'] for c in s.calls} == {'/v1/chat/completions'}
    bodies = sorted((c['body'] for c in s.calls), key=lambda d: d['seed'])
    assert bodies[0] == dict(model='tiny-model', messages=[dict(role='system', content='You write CUDA.'), dict(role='user', content=ps[0])],
                             max_tokens=77, temperature=0.5, top_p=0.9, seed=10)
    assert [d['seed'] for d in bodies] == list(range(10, 22))      # prompt i is sent seed cfg.seed + i
    assert all(d['messages'][-1]['content'] == ps[d['seed'] - 10] for d in bodies)
    assert b.generate([], cfg) == []

def test_openai_inside_a_running_event_loop():
    "Called from a coroutine (as in a Jupyter cell) `generate` runs on a worker thread's loop; `agenerate` is awaited directly."
    with serve(delay=0.02) as (s, url):
        b = OpenAIBackend('m', url, api_key_env=KEY_ENV, concurrency=2, rate_limit=10)
        async def main():
            here = threading.get_ident()
            sync = b.generate(['ab', 'cd'], GREEDY)                      # the sync API while a loop runs in this thread
            both = await asyncio.gather(b.agenerate(['ef', 'gh', 'kl'], GREEDY), b.agenerate(['ij', 'mn', 'op'], GREEDY))
            return sync, both, here
        sync, both, here = asyncio.run(main())
    assert sync == ['ba', 'dc'] and both == [['fe', 'hg', 'lk'], ['ji', 'nm', 'po']]
    t = sorted(c['t'] for c in s.calls)
    # one rate limit (starts 0.1 s apart) across both awaited calls (two limiters would take 0.2 s); arrival times: slack for a busy machine
    assert len(t) == 8 and t[7] - t[2] >= 5 * 0.1 - 0.1
    assert run_coro(b.agenerate([], GREEDY)) == []

def test_openai_authorization_header(monkeypatch):
    with serve() as (s, url):
        b = OpenAIBackend('m', url, api_key_env=KEY_ENV)
        assert b.generate(['a'], GREEDY) == ['a']
        monkeypatch.setenv(KEY_ENV, 'sk-test-123')                  # read at call time
        assert b.generate(['b'], GREEDY) == ['b']
    assert 'authorization' not in s.calls[0]['headers']
    assert s.calls[1]['headers']['authorization'] == 'Bearer sk-test-123'

def test_openai_auth_failure_fails_fast_naming_the_server(monkeypatch):
    monkeypatch.setenv(KEY_ENV, 'sk-secret-9')
    with serve(always=(401, "Incorrect API key provided: {auth}"), delay=0.0) as (s, url):
        b = timed_backend('m', url, api_key_env=KEY_ENV, concurrency=2, max_retries=5)
        t0 = time.monotonic()
        with pytest.raises(RuntimeError, match=rf"{url} refused the API key \(\${KEY_ENV} is set\): HTTP 401: Incorrect API key") as e:
            b.generate(['a', 'b', 'c', 'd'], GREEDY)
    assert len(s.calls) <= 2 and time.monotonic() - t0 < 3           # not retried (5 retries would back off ~15 s); the queued prompts never sent
    assert 'sk-secret-9' not in str(e.value) and 'Bearer ***' in str(e.value)

def test_openai_retries_429_and_500():
    with serve(n429=2, retry_after='0.3', n500=1) as (s, url):
        b = OpenAIBackend('m', url, api_key_env=KEY_ENV, concurrency=1)
        assert b.generate(['retry me'], GREEDY) == ['em yrter']
    t = [c['t'] for c in s.calls]
    assert len(t) == 4                                             # 429, 429, 500, then the answer
    assert t[1] - t[0] >= 0.28 and t[2] - t[1] >= 0.28             # Retry-After honoured
    assert 1.45 <= t[3] - t[2] < 3            # 500 without Retry-After, third attempt: the client's backoff, 0.5 s * 2**2 less <= 25 %
    assert [c['headers']['x-stainless-retry-count'] for c in s.calls] == ['0', '1', '2', '3']

def test_openai_400_fails_at_once_without_the_key(monkeypatch):
    monkeypatch.setenv(KEY_ENV, 'sk-secret-9')
    with serve(always=(400, "max_tokens is too large (auth: {auth})")) as (s, url):
        b = timed_backend('m', url, api_key_env=KEY_ENV, concurrency=1, max_retries=5)
        t0 = time.monotonic()
        with pytest.raises(RuntimeError, match=r"prompt 0 \('a'\): http://.* refused the request: HTTP 400: max_tokens is too large") as e:
            b.generate(['a', 'b', 'c'], GREEDY)
    assert len(s.calls) == 1 and time.monotonic() - t0 < 3           # not retried (5 retries would back off ~15 s)
    assert 'sk-secret-9' not in str(e.value) and 'Bearer ***' in str(e.value)

def test_openai_first_failure_stops_the_others():
    script = {'x': (0, 503, 'busy'), 'y': (0, 503, 'busy'), 'bad': (0.15, 400, 'unknown model')}
    with serve(by_prompt=script) as (s, url):
        b = timed_backend('m', url, api_key_env=KEY_ENV, concurrency=3, max_retries=5)
        t0 = time.monotonic()
        with pytest.raises(RuntimeError, match=r"prompt 2 \('bad'\): .*HTTP 400: unknown model"): b.generate(['x', 'y', 'bad', 'z'], GREEDY)
        assert time.monotonic() - t0 < 3                            # the retrying requests were cancelled, not waited for (~15 s)
        time.sleep(0.8); n = len(s.calls)
    assert n <= 5 and 'z' not in contents(s.calls)                  # x, y (maybe once more each), bad; z never sent

def test_openai_failing_prompt_named_after_retries():
    long = 'write a fused softmax kernel for a (4096, 4096) float16 input ' * 3
    with serve(by_prompt={long: (0, 503, 'overloaded')}, retry_after='0.01') as (s, url):
        b = OpenAIBackend('m', url, api_key_env=KEY_ENV, concurrency=1, max_retries=2)
        with pytest.raises(RuntimeError, match=r"openai:m@.*: prompt 1 \('write a fused softmax kernel.*'\.\.\.\): no answer from "
                                               r"http://127.0.0.1:\d+/v1 after 3 attempts; last error: HTTP 503: overloaded"):
            b.generate(['ok', long, 'never'], GREEDY)
    assert contents(s.calls) == ['ok', long, long, long]             # 1 + max_retries attempts, then stop

def test_openai_connection_error_retried():
    with socket.socket() as sk: sk.bind(('127.0.0.1', 0)); port = sk.getsockname()[1]   # a port nobody listens on
    b = OpenAIBackend('m', f"http://127.0.0.1:{port}/v1", api_key_env=KEY_ENV, max_retries=1)
    with pytest.raises(RuntimeError, match=r"prompt 0 \('a'\): no answer .* after 2 attempts; last error: APIConnectionError: Connection error"):
        b.generate(['a'], GREEDY)

def test_openai_timeout_retried():
    with serve(slow_first=1.0) as (s, url):
        b = OpenAIBackend('m', url, api_key_env=KEY_ENV, max_retries=1, timeout=0.3)
        assert b.generate(['abc'], GREEDY) == ['cba']
    assert len(s.calls) == 2
    with serve(slow_first=1.0) as (s, url):
        b = OpenAIBackend('m', url, api_key_env=KEY_ENV, max_retries=0, timeout=0.3)
        with pytest.raises(RuntimeError, match=r"after 1 attempts; last error: APITimeoutError"): b.generate(['abc'], GREEDY)

def test_openai_rate_limit():
    with serve() as (s, url):
        b = OpenAIBackend('m', url, api_key_env=KEY_ENV, concurrency=4, rate_limit=20)
        assert b.generate([str(i) for i in range(6)], GREEDY) == [str(i) for i in range(6)]
    t = sorted(c['t'] for c in s.calls)
    assert t[-1] - t[0] >= 5 * 0.05 - 0.05, t                      # starts 1/20 s apart (arrivals: slack for a busy machine)

def test_openai_rate_limit_covers_retries():
    with serve(n429=3, retry_after='0.01') as (s, url):
        b = OpenAIBackend('m', url, api_key_env=KEY_ENV, concurrency=1, rate_limit=5)
        assert b.generate(['a'], GREEDY) == ['a']
    t = [c['t'] for c in s.calls]
    assert len(t) == 4 and t[3] - t[0] >= 3 * 0.2 - 0.1           # the client's retries (Retry-After 0.01 s) wait for the limiter too

def test_openai_null_content():
    with serve(null=True) as (s, url):
        b = OpenAIBackend('m', url, api_key_env=KEY_ENV, concurrency=1)
        with pytest.raises(RuntimeError, match=r'prompt 0: the answer has no choices\[0\].message.content'): b.generate(['a', 'b'], GREEDY)
    assert len(s.calls) == 1

def test_openai_bad_args():
    for kw, msg in [(dict(concurrency=0), 'concurrency'), (dict(max_retries=-1), 'max_retries'), (dict(rate_limit=-1), 'rate_limit'),
                    (dict(rate_limit=float('nan')), 'rate_limit'), (dict(timeout=0), 'timeout')]:
        with pytest.raises(ValueError, match=msg): OpenAIBackend('m', 'http://h/v1', **kw)
    with pytest.raises(ValueError, match='base_url must start'): OpenAIBackend('m', 'h:8000/v1')
