"""LoRA SFT step throughput and MFU of a Qwen2.5-1.5B-shaped model, for a grid of training-step configurations.

The model is built from a `Qwen2Config` (hidden 1536, MLP 8960, 28 layers, 12 query / 2 KV heads, vocabulary 151,936,
tied embeddings, rope theta 1e6; random weights, bf16, SDPA) and wrapped by `cudal1_nb.lora.add_lora` (r=16, alpha 32,
dropout 0, on q,k,v,o,gate,up,down). Batches are random tokens [batch, 2048], every position labelled (or the first
`--prompt-frac` of each row masked as a prompt). One step is what the SFT stage's trainer does per step: the forward
under bf16 autocast (the trainer's `bf16=True`), the loss, backward, gradient clipping at 1.0, fused AdamW on the LoRA
parameters, `zero_grad`, and the trainer's per-step host sync (its NaN filter, and TRL's token metrics).

Losses: `hf` = the model's own forward with `labels` (full logits, the reference); `torch` = `causal_lm_loss` with the
chunked head of `cudal1_nb.lora`; `liger` = the same with Liger-Kernel's fused linear cross-entropy; `trl` = TRL 1.16's
fused LM head kernel (`trl.kernels.ChunkedLogProbFunction`), which is what an unmodified `SFTTrainer` runs.
MFU = 6 x (all model parameters, LoRA included) x tokens/s / (measured bf16 matmul peak, 8192^3 after warm-up);
`mfu4` uses 4 x P, nearer the FLOPs LoRA really executes (no weight gradients for the frozen base).

Each configuration runs in its own process (an OOM, a crash or a monkey-patch cannot touch the next), steady-state:
warm-up steps (including any compile) excluded, each timed step between CUDA events. Results are printed as a table
and, with --json, written after every configuration.

`stage` is not an emulation: it is the SFT stage's own trainer (`cudal1_nb.sft.build_model` loading the saved random
model as it loads a user's model path, then `make_trainer`: TRL's `SFTTrainer` with the stage's CUDA settings), timed
by wall clock between synchronised step ends. Its figure is the one that answers "how fast does the stage train".

On the GPU machine (H100; torch 2.11+cu130, transformers, peft, triton, pyarrow there; carry `.cudal1` with the wheels
of TRL, datasets, dill, multiprocess and liger-kernel, all pure Python, installed without dependencies), from the
repository root, each call under 10 minutes:

    python3 -m pip install -q --no-deps --target /tmp/site wheels/*.whl; export PYTHONPATH=/tmp/site
    PYTHONUNBUFFERED=1 python3 benchmarks/lora_sft_throughput.py --configs stage,hf-b4,compile-nocast-b8,trl-b8,chunk-b8 --json $OUT/lora.json
    PYTHONUNBUFFERED=1 python3 benchmarks/lora_sft_throughput.py --configs base --json $OUT/lora_base.json   # the rest of the grid
    PYTHONUNBUFFERED=1 python3 benchmarks/lora_sft_throughput.py --configs compile --json $OUT/lora_compile.json

(each call re-installs the wheels first on a fresh machine). Results: `results/2026-11-21-lora-sft-throughput-h100/`. Smoke test on CPU, tiny model, in-process:

    python benchmarks/lora_sft_throughput.py --tiny
"""
from __future__ import annotations
import argparse, contextlib, json, os, subprocess, sys, tempfile, time, platform, traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))

FULL = dict(vocab_size=151936, hidden_size=1536, intermediate_size=8960, num_hidden_layers=28, num_attention_heads=12,
            num_key_value_heads=2, tie_word_embeddings=True, rope_theta=1e6, max_position_embeddings=32768, rms_norm_eps=1e-6)
TINY = dict(vocab_size=512, hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
            num_key_value_heads=2, tie_word_embeddings=True, rope_theta=1e6, max_position_embeddings=512, rms_norm_eps=1e-6)
TRL_CHUNK = 32768   # trl.trainer.utils._CHUNKED_LOGPROB_CHUNK_SIZE in TRL 1.16 (that module needs `datasets` to import)


def C(name, loss, batch, group='base', compile=False, gc=False, cast=True, liger_kernels=False):
    return dict(name=name, loss=loss, batch=batch, group=group, compile=compile, gc=gc, cast=cast, liger_kernels=liger_kernels)

# In run order: the most informative first, so a budget cut loses the least.
GRID = [
    C('stage', 'stage', 0, 'stage'),                       # the SFT stage's own trainer and settings (batch: the stage's default)
    C('hf-b4', 'hf', 4),                                   # the reference point: plain transformers + peft
    C('chunk-b4', 'torch', 4),
    C('chunk-b8', 'torch', 8),
    C('chunk-nocast-b8', 'torch', 8, cast=False),          # adapters fed bf16 inputs under autocast
    C('trl-b8', 'trl', 8),                                 # what an unmodified TRL 1.16 SFTTrainer runs
    C('liger-b8', 'liger', 8),
    C('ligerk-nocast-b8', 'liger', 8, cast=False, liger_kernels=True),   # + Liger RMSNorm, RoPE, SwiGLU
    C('chunk-b16', 'torch', 16),
    C('chunk-gc-b16', 'torch', 16, gc=True),
    C('hf-b8', 'hf', 8),                                   # expected OOM on 80 GB
    C('compile-b8', 'torch', 8, 'compile', compile=True),
    C('compile-nocast-b8', 'torch', 8, 'compile', compile=True, cast=False),
    C('compile-nocast-b16', 'torch', 16, 'compile', compile=True, cast=False),
    C('compile-nocast-gc-b16', 'torch', 16, 'compile', compile=True, cast=False, gc=True),
]
TINY_DEFAULT = ['stage', 'hf-b4', 'chunk-b4', 'chunk-b8', 'chunk-nocast-b8', 'trl-b8', 'liger-b8', 'chunk-gc-b16']


def select(spec:str, tiny:bool)->list[dict]:
    "The configurations named by `spec`: 'all', a group ('base', 'compile') or comma-separated names."
    if not spec: return [c for c in GRID if c['name'] in TINY_DEFAULT] if tiny else list(GRID)
    out = []
    for s in spec.split(','):
        s = s.strip()
        hit = [c for c in GRID if s in ('all', c['group'], c['name'])]
        if not hit: raise SystemExit(f"unknown configuration or group {s!r}; known: all, stage, base, compile, {', '.join(c['name'] for c in GRID)}")
        out += [c for c in hit if c not in out]
    return out


# ---- the worker: one job in one process ----

def env_info(tiny:bool)->dict:
    import torch, importlib.metadata as md
    def ver(p):
        try: return md.version(p)
        except Exception: return None
    d = dict(python=platform.python_version(), torch=torch.__version__, cuda=torch.version.cuda,
             transformers=ver('transformers'), peft=ver('peft'), triton=ver('triton'), liger_kernel=ver('liger-kernel'),
             trl=ver('trl'), flash_attn=ver('flash-attn'))
    if not tiny and torch.cuda.is_available():
        p = torch.cuda.get_device_properties(0)
        d.update(device=p.name, device_mem_gib=round(p.total_memory / 2**30, 1), sms=p.multi_processor_count)
    else: d.update(device=f"cpu ({platform.processor() or platform.machine()}, {os.cpu_count()} cores)")
    return d


def peak_job(a)->dict:
    import torch
    from cudal1_nb.lora import matmul_peak_tflops
    if a.tiny: pk = matmul_peak_tflops('cpu', n=512, dtype=torch.bfloat16, reps=3, warmup=1)
    else: pk = matmul_peak_tflops('cuda', n=8192, dtype=torch.bfloat16, reps=20, warmup=5)
    return dict(env_info(a.tiny), peak_tflops=pk)


def trl_kernel():
    """TRL 1.16's chunked log-prob kernel. Its backward imports `trl.trainer.utils` for `maybe_gather_lm_head_ctx` (a
    DeepSpeed ZeRO-3 gather, a null context otherwise), and that module needs `datasets`, which the GPU machine lacks:
    without it, the helper is stubbed with the null context it returns without ZeRO-3."""
    import types, contextlib
    try: import trl.trainer.utils  # noqa: F401
    except ImportError:
        stub = types.ModuleType('trl.trainer.utils')
        stub.maybe_gather_lm_head_ctx = lambda *params: contextlib.nullcontext()
        sys.modules['trl.trainer.utils'] = stub
    from trl.kernels import ChunkedLogProbFunction
    return ChunkedLogProbFunction


def trl_loss(model, ids, am, labels):
    "The loss an unmodified TRL 1.16 SFTTrainer computes: backbone, then its fused LM head on the labelled positions."
    ChunkedLogProbFunction = trl_kernel()
    from cudal1_nb.lora import causal_lm, decoder_body
    lm = causal_lm(model)
    h = decoder_body(lm)(input_ids=ids, attention_mask=am, use_cache=False).last_hidden_state[:, :-1]
    y = labels[:, 1:]
    mask = y != -100
    w = lm.get_output_embeddings().weight
    compact = h.is_cuda   # TRL scores only valid positions on Triton devices, every position elsewhere
    hh, yy = (h[mask], y[mask]) if compact else (h.reshape(-1, h.size(-1)), y.clamp(min=0).reshape(-1))
    lp, ent, _, _, top1 = ChunkedLogProbFunction.apply(hh, w, None, yy, 1.0, TRL_CHUNK, None, 1.0, ('log_probs', 'entropy', 'is_top1'))
    if compact: lp, ent, top1 = (x.new_zeros(mask.shape).masked_scatter(mask, x) for x in (lp, ent, top1))
    else: lp, ent, top1 = (x.view(mask.shape).masked_fill(~mask, 0) for x in (lp, ent, top1))
    n = mask.sum()
    return -lp.sum() / n.clamp(min=1), dict(num_tokens=n, num_correct=top1.sum(), entropy_sum=ent.detach().sum())


def build(cfg:dict, a, dev):
    "The LoRA-wrapped Qwen2.5-1.5B-shaped model (tiny with --tiny) on `dev`, in bf16, set up as `cfg` says."
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM
    from cudal1_nb.lora import add_lora, compile_decoder_layers
    mc = Qwen2Config(**(TINY if a.tiny else FULL), attn_implementation=a.attn, use_cache=False)
    torch.manual_seed(0)
    with torch.device(dev): base = Qwen2ForCausalLM(mc)
    base.to(torch.bfloat16)
    if cfg['liger_kernels']:
        from liger_kernel.transformers import apply_liger_kernel_to_qwen2
        apply_liger_kernel_to_qwen2(rope=True, rms_norm=True, swiglu=True, cross_entropy=False, fused_linear_cross_entropy=False, model=base)
    if cfg['gc']: base.gradient_checkpointing_enable(gradient_checkpointing_kwargs=dict(use_reentrant=False))
    model = add_lora(base, r=16, alpha=32, dropout=0.0, cast_inputs=cfg['cast'])
    for n, p in model.named_parameters():   # B = 0 at init; give the adapters values so every path does real work
        if 'lora_B' in n: torch.nn.init.normal_(p, std=1e-3)
    if cfg['compile']: compile_decoder_layers(model)
    model.train()
    return model


def step_stats(ms:list, tokens:int)->dict:
    "Mean, sd and min of the timed steps (ms), and the tokens per second at the mean."
    mean = sum(ms) / len(ms)
    return dict(step_ms=mean, step_ms_sd=(sum((x - mean) ** 2 for x in ms) / max(len(ms) - 1, 1)) ** 0.5, step_ms_min=min(ms),
                tokens_per_s=tokens / (mean / 1e3), n_steps=len(ms))


@contextlib.contextmanager
def recorded(res:dict, cuda:bool):
    "Turn a failure of the job inside into `res['status']` ('OOM', 'unavailable', 'ERR') and add the peak memory to `res`."
    import torch
    try: yield
    except torch.OutOfMemoryError as e:
        res.update(status='OOM', error=str(e).strip().splitlines()[0][:240])
    except ImportError as e:
        res.update(status='unavailable', error=f"{type(e).__name__}: {e}"[:240])
        tb = traceback.extract_tb(e.__traceback__)
        print(f"{res['name']}: {type(e).__name__}: {e} (at " + ' <- '.join(f"{f.filename.split('site-packages/')[-1]}:{f.lineno}" for f in tb[::-1][:6]) + ')', file=sys.stderr)
    except Exception as e:
        res.update(status='ERR', error=f"{type(e).__name__}: {e}"[:400])
        traceback.print_exc()
    finally:
        if cuda:
            res['peak_gib'] = torch.cuda.max_memory_allocated() / 2**30
            res['reserved_gib'] = torch.cuda.max_memory_reserved() / 2**30


def config_job(cfg:dict, a)->dict:
    "Build, warm up and time one configuration; returns its measurements (status 'OOM'/'ERR' on failure)."
    import torch
    from cudal1_nb.lora import causal_lm_loss
    dev = torch.device('cpu' if a.tiny else 'cuda')
    cuda = dev.type == 'cuda'
    torch.backends.cuda.matmul.allow_tf32 = True; torch.backends.cudnn.allow_tf32 = True   # SFTConfig(tf32=True)
    res = dict(cfg, status='ok')
    model = opt = None
    with recorded(res, cuda):
        if cfg['loss'] == 'liger' or cfg['liger_kernels']:
            import liger_kernel  # noqa: F401  (ImportError -> 'unavailable')
        if cfg['loss'] == 'trl': trl_kernel()
        if cuda: torch.cuda.reset_peak_memory_stats()
        t0 = time.perf_counter()
        model = build(cfg, a, dev)
        res['build_s'] = time.perf_counter() - t0
        params = [p for p in model.parameters() if p.requires_grad]
        res['n_params'] = sum(p.numel() for p in model.parameters())
        res['n_trainable'] = sum(p.numel() for p in params)
        opt = torch.optim.AdamW(params, lr=1e-4, fused=cuda)   # optim='adamw_torch_fused'
        B, T = cfg['batch'], a.seq
        g = torch.Generator(device=dev).manual_seed(1)
        ids = torch.randint(0, model.config.vocab_size, (B, T), device=dev, generator=g)
        am = torch.ones_like(ids)
        lab = ids.clone(); lab[:, :int(a.prompt_frac * T)] = -100
        sync = torch.cuda.synchronize if cuda else (lambda: None)

        def step():
            with torch.autocast(dev.type, dtype=torch.bfloat16):   # the trainer's bf16=True (accelerate's autocast)
                if cfg['loss'] == 'hf': loss, st = model(input_ids=ids, attention_mask=am, labels=lab).loss, None
                elif cfg['loss'] == 'trl': loss, st = trl_loss(model, ids, am, lab)
                else: loss, st = causal_lm_loss(model, ids, am, lab, impl=cfg['loss'], chunk_tokens=a.chunk_tokens, return_stats=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            opt.step(); opt.zero_grad(set_to_none=True)
            if not torch.isfinite(loss): raise FloatingPointError(f"loss is {loss.item()}")   # the trainer's NaN filter syncs too
            if st is not None:   # TRL's metrics: token accuracy and entropy, .item() each step
                n = st['num_tokens'].item()
                _ = (st['num_correct'] / max(n, 1)).item()
                if st['entropy_sum'] is not None: _ = (st['entropy_sum'] / max(n, 1)).item()
            return loss.detach().float()

        t0 = time.perf_counter()
        res['loss0'] = float(step())   # the same model, weights and batch in every configuration: the losses must agree
        for _ in range(a.warmup - 1): step()
        sync()
        res['warmup_s'] = time.perf_counter() - t0
        if cuda: torch.cuda.reset_peak_memory_stats()
        times = []
        t0 = time.perf_counter()
        for _ in range(a.steps):
            if cuda:
                e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                e0.record(); step(); e1.record(); times.append((e0, e1))
            else:
                s0 = time.perf_counter(); step(); times.append(time.perf_counter() - s0)
        sync()
        wall = (time.perf_counter() - t0) / a.steps
        ms = [e0.elapsed_time(e1) for e0, e1 in times] if cuda else [t * 1e3 for t in times]
        res.update(step_stats(ms, B * T), wall_step_ms=wall * 1e3)
    del model, opt
    if cuda: torch.cuda.empty_cache()
    return res


def stage_job(cfg:dict, a)->dict:
    """Time the SFT stage's own training loop: `cudal1_nb.sft.build_model` loads the model from a directory (the random
    Qwen2.5-1.5B-shaped weights saved there first) exactly as it loads a user's model path, and `make_trainer` builds the
    TRL `SFTTrainer` with the stage's CUDA settings (bf16, SDPA, LoRA r=16, fused AdamW, compiled decoder layers, the
    chunked loss, the default batch). The rows are pre-tokenised random sequences of `--seq` tokens with a completion mask.
    Throughput is wall clock between synchronised step ends: data loading, logging and the trainer's own syncs included."""
    import torch, datasets
    from transformers import Qwen2Config, Qwen2ForCausalLM, TrainerCallback
    from cudal1_nb.sft import SFTStageConfig, build_model, make_trainer, train_tokenizer
    cuda = not a.tiny
    res = dict(cfg, status='ok')
    sync = torch.cuda.synchronize if cuda else (lambda: None)
    with recorded(res, cuda), tempfile.TemporaryDirectory() as tmp:
        with tempfile.TemporaryDirectory() as mdir:
            mc = Qwen2Config(**(TINY if a.tiny else FULL), attn_implementation=a.attn, use_cache=False)
            torch.manual_seed(0)
            Qwen2ForCausalLM(mc).to(torch.bfloat16).save_pretrained(mdir)
            train_tokenizer(['def forward(self, x): return x'] * 4, 300).save_pretrained(mdir)   # pad/EOS ids only: the rows are token ids
            total = a.warmup + a.steps
            scfg = SFTStageConfig(model=mdir, lora_r=16, qlora=False, steps=1000, max_length=a.seq, time_budget_s=0,
                                  device='cpu' if a.tiny else 'cuda', eval_samples=0)
            if cuda: torch.cuda.reset_peak_memory_stats()
            t0 = time.perf_counter()
            model, tok, kind = build_model(scfg, [])
            res['build_s'] = time.perf_counter() - t0
        B, T = scfg.resolved_batch_size(), a.seq
        res.update(batch=B, kind=kind, n_params=sum(p.numel() for p in model.parameters()),
                   n_trainable=sum(p.numel() for p in model.parameters() if p.requires_grad))
        g = torch.Generator().manual_seed(1)
        n_prompt = int(a.prompt_frac * T)
        rows = [dict(input_ids=torch.randint(0, mc.vocab_size, (T,), generator=g).tolist(), completion_mask=[0] * n_prompt + [1] * (T - n_prompt))
                for _ in range(B * (total + 2))]
        ends = []
        class Clock(TrainerCallback):
            def on_step_end(self, args, state, control, **kw):
                sync(); ends.append(time.perf_counter())
                if state.global_step == a.warmup and cuda: torch.cuda.reset_peak_memory_stats()
                if state.global_step >= total: control.should_training_stop = True
        tr = make_trainer(scfg, model, tok, kind, datasets.Dataset.from_list(rows), tmp, callbacks=(Clock(),))
        res['trainer'] = type(tr).__name__
        t0 = time.perf_counter()
        tr.train()
        if len(ends) < total: raise RuntimeError(f"the trainer stopped after {len(ends)} of {total} steps")
        res['warmup_s'] = ends[a.warmup - 1] - t0
        ms = [(b - e) * 1e3 for e, b in zip(ends[a.warmup - 1:], ends[a.warmup:])]
        logs = [h for h in tr.state.log_history if 'loss' in h]
        res.update(step_stats(ms, B * T), loss0=logs[0]['loss'] if logs else None)
        res['wall_step_ms'] = res['step_ms']
    return res


def run_job(job:dict, a)->dict:
    if job['kind'] == 'peak': return peak_job(a)
    return stage_job(job['cfg'], a) if job['cfg']['loss'] == 'stage' else config_job(job['cfg'], a)


# ---- the driver ----

def spawn(job:dict, a, timeout:float)->dict:
    "Run `job` in a fresh process of this script; its result comes back through a temporary file."
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / 'result.json'
        cmd = [sys.executable, __file__, '--_job', json.dumps(job), '--_out', str(out), '--_args', json.dumps(vars(a))]
        env = dict(os.environ)
        if a.expandable: env.setdefault('PYTORCH_CUDA_ALLOC_CONF', 'expandable_segments:True')
        try: p = subprocess.run(cmd, env=env, timeout=max(timeout, 1))
        except subprocess.TimeoutExpired: return dict(job.get('cfg', {}), status='TIMEOUT', error=f"over {timeout:.0f} s")
        if out.exists(): return json.loads(out.read_text())
        return dict(job.get('cfg', {}), status='CRASH', error=f"exit code {p.returncode}")


def fmt_table(rows:list[dict], peak:float)->str:
    head = ['config', 'batch', 'status', 'step ms', '±sd', 'tokens/s', 'MFU %', 'mfu4 %', 'peak GiB', 'loss0', 'note']
    lines = []
    for r in rows:
        ok = r['status'] == 'ok'
        p6 = 6 * r['n_params'] * r['tokens_per_s'] / (peak * 1e12) * 100 if ok and peak else None
        lines.append([r['name'], str(r['batch']), r['status'],
                      f"{r['step_ms']:.1f}" if ok else '', f"{r['step_ms_sd']:.1f}" if ok else '',
                      f"{r['tokens_per_s']:,.0f}" if ok else '', f"{p6:.1f}" if p6 is not None else '',
                      f"{p6 * 4 / 6:.1f}" if p6 is not None else '',
                      f"{r['peak_gib']:.1f}" if r.get('peak_gib') is not None else '',
                      f"{r['loss0']:.4f}" if r.get('loss0') is not None else '',
                      (r.get('error') or (f"warm-up {r['warmup_s']:.0f} s" if ok else ''))[:70]])
    w = [max(len(h), *(len(l[i]) for l in lines)) if lines else len(h) for i, h in enumerate(head)]
    out = ['  '.join(h.ljust(w[i]) for i, h in enumerate(head)), '  '.join('-' * x for x in w)]
    out += ['  '.join(c.ljust(w[i]) for i, c in enumerate(l)) for l in lines]
    return '\n'.join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--tiny', action='store_true', help='tiny model on CPU (smoke test), in-process unless --isolate')
    ap.add_argument('--configs', default='', help="'all', 'base', 'compile' or comma-separated names (default: all; tiny: a CPU subset)")
    ap.add_argument('--list', action='store_true', help='list the configurations and exit')
    ap.add_argument('--steps', type=int, default=None, help='timed steps per configuration (default 10; tiny 4)')
    ap.add_argument('--warmup', type=int, default=None, help='untimed steps first, compile included (default 3; tiny 2)')
    ap.add_argument('--seq', type=int, default=None, help='sequence length (default 2048; tiny 64)')
    ap.add_argument('--prompt-frac', type=float, default=0.0, help='fraction of each row masked as prompt (-100 labels)')
    ap.add_argument('--chunk-tokens', type=int, default=2048, help='labelled positions per head chunk (torch loss)')
    ap.add_argument('--attn', default='sdpa', help="attn_implementation ('sdpa', 'flash_attention_2', 'eager')")
    ap.add_argument('--isolate', action=argparse.BooleanOptionalAction, default=None, help='one process per configuration (default: on, off with --tiny)')
    ap.add_argument('--expandable', action=argparse.BooleanOptionalAction, default=True, help='PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True in the workers')
    ap.add_argument('--budget', type=float, default=570, help='seconds: start no configuration after this; each gets at most what is left')
    ap.add_argument('--json', metavar='OUT', default=None, help='write the results here (after every configuration)')
    ap.add_argument('--_job'); ap.add_argument('--_out'); ap.add_argument('--_args')
    a = ap.parse_args()

    if a._job:   # a worker: one job, its result into a file
        job, wa = json.loads(a._job), argparse.Namespace(**json.loads(a._args))
        res = run_job(job, wa)
        Path(a._out).write_text(json.dumps(res))
        return

    if a.list:
        for c in GRID: print(f"{c['name']:24s} group={c['group']:8s} loss={c['loss']:6s} batch={c['batch']:<3d} compile={c['compile']} gc={c['gc']} cast_inputs={c['cast']} liger_kernels={c['liger_kernels']}")
        return
    if a.seq is None: a.seq = 64 if a.tiny else 2048
    if a.steps is None: a.steps = 4 if a.tiny else 10
    if a.warmup is None: a.warmup = 2 if a.tiny else 3
    if a.steps < 1 or a.warmup < 1: raise SystemExit(f"--steps and --warmup must be >= 1, got {a.steps} and {a.warmup}")
    if a.isolate is None: a.isolate = not a.tiny
    if not a.tiny:
        import torch
        if not torch.cuda.is_available(): raise SystemExit("no CUDA device: run on the GPU machine, or use --tiny for the CPU smoke test")
    cfgs = select(a.configs, a.tiny)
    t_start = time.perf_counter()
    left = lambda: a.budget - (time.perf_counter() - t_start)
    for k in ('_job', '_out', '_args'): delattr(a, k)
    call = (lambda job, timeout: spawn(job, a, timeout)) if a.isolate else (lambda job, timeout: run_job(job, a))

    info = call(dict(kind='peak'), left())
    peak = info.get('peak_tflops')
    print(f"device: {info.get('device')}  torch {info.get('torch')} (CUDA {info.get('cuda')})  transformers {info.get('transformers')}  "
          f"peft {info.get('peft')}  triton {info.get('triton')}  liger-kernel {info.get('liger_kernel')}  trl {info.get('trl')}", flush=True)
    print(f"measured bf16 matmul peak: {peak:.4g} TFLOP/s" if peak else f"peak measurement failed: {info}", flush=True)
    print(f"model: {'tiny' if a.tiny else 'Qwen2.5-1.5B-shaped'}, seq {a.seq}, LoRA r=16 on q,k,v,o,gate,up,down; "
          f"{a.warmup} warm-up + {a.steps} timed steps; {'one process per configuration' if a.isolate else 'in-process'}", flush=True)

    rows = []
    def save():
        if a.json:
            Path(a.json).parent.mkdir(parents=True, exist_ok=True)
            Path(a.json).write_text(json.dumps(dict(env=info, args=vars(a), results=rows), indent=1))
    for c in cfgs:
        if left() < 20:
            rows.append(dict(c, status='SKIPPED', error=f"--budget {a.budget:.0f} s spent")); save(); continue
        t0 = time.perf_counter()
        r = call(dict(kind='config', cfg=c), left())
        rows.append(r); save()
        ok = r['status'] == 'ok'
        msg = (f"{r['tokens_per_s']:,.0f} tokens/s, step {r['step_ms']:.1f} ms, MFU {6 * r['n_params'] * r['tokens_per_s'] / (peak * 1e12) * 100:.1f} %"
               if ok and peak else r.get('error', ''))
        print(f"[{time.perf_counter() - t0:5.0f} s] {c['name']}: {r['status']} {msg}", flush=True)

    n_params = next((r['n_params'] for r in rows if r.get('n_params')), None)
    n_tr = next((r['n_trainable'] for r in rows if r.get('n_trainable')), None)
    print()
    print(f"parameters: {n_params:,} (LoRA trainable {n_tr:,})" if n_params else 'parameters: (no configuration built)')
    print(f"MFU = 6 x {n_params or 0:,} x tokens/s / {peak or 0:.4g} TFLOP/s; mfu4 = the same with 4 x P (LoRA skips frozen weight gradients)")
    print(fmt_table(rows, peak))
    good = [r for r in rows if r['status'] == 'ok']
    if good and peak:
        b = max(good, key=lambda r: r['tokens_per_s'])
        ref = next((r for r in good if r['name'] == 'hf-b4'), None)
        print(f"\nbest: {b['name']} at {b['tokens_per_s']:,.0f} tokens/s = {6 * b['n_params'] * b['tokens_per_s'] / (peak * 1e12) * 100:.1f} % MFU (goal 35 %)"
              + (f", {b['tokens_per_s'] / ref['tokens_per_s']:.2f}x the hf-b4 reference" if ref else ''))
    losses = [r['loss0'] for r in rows if r.get('loss0') is not None and r['batch'] == 8]
    if len(losses) > 1: print(f"first-step losses at batch 8 agree within {max(losses) - min(losses):.4f} (same model and batch in every configuration)")
    save()


if __name__ == '__main__':
    main()
