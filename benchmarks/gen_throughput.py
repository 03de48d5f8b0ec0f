"""Generation throughput of `HFBackend`: completions of real stage-1 prompts (the mini-suite's tasks, in turn) per second,
the plain path (dynamic KV cache, eager) against the fast one (static KV cache, compiled decoding), on the same model.

    python benchmarks/gen_throughput.py [--model smollm2] [--n 64,128,256,512] [--max-new-tokens 512] [--batch-size 256]
                                        [--modes plain-b8,plain,fast] [--plain-b8-max 64] [--out FILE.jsonl]
    python benchmarks/gen_throughput.py --model tiny --n 4,8 --max-new-tokens 16     # CPU smoke test

Modes: `plain-b8` is the former default on a GPU (8 prompts per `generate` call, dynamic cache); `plain` is the same path
with `--batch-size` prompts per call; `fast` adds a static cache and `torch.compile` (on a GPU). Figures: `tok/s` counts
the tokens each completion generated up to and including its end-of-sequence token; `slot/s` counts token slots (rows x
decoding steps, including a finished row's padding while the rest of its batch goes on). A `fast` run is made twice: the
first (`first_s`, its first batch `first_batch_s`) includes compilation, the figures come from the second."""
import argparse, json, platform, sys, tempfile, time
from pathlib import Path
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser


def run_once(be, prompts, cfg):
    import torch
    cuda = torch.cuda.is_available() and next(be.model.parameters()).is_cuda
    if cuda: torch.cuda.synchronize(); torch.cuda.reset_peak_memory_stats()
    t0 = time.perf_counter()
    outs = be.generate(prompts, cfg)
    dt = time.perf_counter() - t0
    assert len(outs) == len(prompts) and all(isinstance(o, str) for o in outs)
    st = be.stats
    return dict(seconds=dt, tokens=st['tokens'], slots=st['slots'], first_batch_s=st['batches'][0]['seconds'],
                batches=len(st['batches']), peak_gib=torch.cuda.max_memory_allocated() / 2**30 if cuda else None,
                distinct=len(set(outs)))


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('--model', default='smollm2', help="a model path, a .gguf file, 'smollm2', or 'tiny' (a tiny random model, CPU smoke test)")
    ap.add_argument('--n', default='64,128,256,512', help='completions per measurement, comma-separated')
    ap.add_argument('--max-new-tokens', type=int, default=512)
    ap.add_argument('--batch-size', type=int, default=256, help='prompts per generate call of the plain and fast modes')
    ap.add_argument('--modes', default='plain-b8,plain,fast')
    ap.add_argument('--plain-b8-max', type=int, default=64, help='largest N measured in mode plain-b8 (it is slow)')
    ap.add_argument('--temperature', type=float, default=0.8); ap.add_argument('--top-p', type=float, default=0.95)
    ap.add_argument('--device', default='auto'); ap.add_argument('--out', default=None, help='append one JSON line per measurement')
    a = ap.parse_args(argv)
    import torch, transformers
    from cudal1_nb.generate import HFBackend, GenConfig, make_tiny_lm
    from cudal1_nb.minibench import minibench_tasks
    from cudal1_nb.prompts import optimize_prompt
    ns, modes = [int(x) for x in a.n.split(',')], a.modes.split(',')
    model = str(make_tiny_lm(Path(tempfile.mkdtemp())/'tiny')) if a.model == 'tiny' else a.model
    t0 = time.perf_counter()
    base = HFBackend(model, device=a.device); base._load()
    load_s = time.perf_counter() - t0
    dev = next(base.model.parameters()).device
    name = torch.cuda.get_device_name(dev) if dev.type == 'cuda' else platform.processor() or 'cpu'
    tasks = minibench_tasks()
    texts = [str(optimize_prompt(t)) for t in tasks]
    lens = [len(base.tokenizer(base.format_prompt(p))['input_ids']) for p in texts]
    cfg = GenConfig(max_new_tokens=a.max_new_tokens, temperature=a.temperature, top_p=a.top_p, seed=0)
    print(f"device: {name} ({dev.type}); torch {torch.__version__}; transformers {transformers.__version__}; python {platform.python_version()}")
    print(f"model: {a.model} ({base.model.dtype}, {sum(p.numel() for p in base.model.parameters()) / 1e6:.0f}M parameters), loaded in {load_s:.1f} s")
    print(f"prompts: stage-1 optimize/v1 prompts of the {len(tasks)} mini-suite tasks in turn, {min(lens)}-{max(lens)} tokens; {cfg}")
    base.generate(texts[:1], GenConfig(max_new_tokens=4, temperature=0))          # kernels' first-use costs, outside the figures
    rows = []
    for mode in modes:
        if mode not in ('plain-b8', 'plain', 'fast'): raise SystemExit(f"unknown mode {mode!r}: use plain-b8, plain, fast")
        for n in ns:
            if mode == 'plain-b8' and n > a.plain_b8_max: continue
            bs = 8 if mode == 'plain-b8' else min(n, a.batch_size)
            be = HFBackend.from_objects(base.model, base.tokenizer, name=f"hf:{a.model}", batch_size=bs,
                                        cache='static' if mode == 'fast' else 'dynamic')
            prompts = [texts[i % len(texts)] for i in range(n)]
            cold = run_once(be, prompts, cfg) if mode == 'fast' else None
            r = run_once(be, prompts, cfg)
            s = be.settings()
            first = cold or r
            row = dict(mode=mode, n=n, batch_size=bs, cache=s['cache'], compile=s['compile'], device=name, **r,
                       tok_s=r['tokens'] / r['seconds'], slot_s=r['slots'] / r['seconds'],
                       first_s=first['seconds'], max_new_tokens=a.max_new_tokens,
                       torch=torch.__version__, transformers=transformers.__version__)
            row['first_batch_s'] = first['first_batch_s']    # the cold run's first batch (compilation included)
            rows.append(row)
            print(json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in row.items()}), flush=True)
            if a.out:
                with open(a.out, 'a') as f: f.write(json.dumps(row) + '\n')
    print(f"\n{'mode':<9} {'N':>4} {'batch':>5} {'cache':>7} {'compile':>7} {'first_s':>7} {'1st_batch_s':>11} {'seconds':>7} "
          f"{'tokens':>7} {'slots':>7} {'tok/s':>7} {'slot/s':>7} {'peak_GiB':>8}")
    for r in rows:
        pk = f"{r['peak_gib']:.1f}" if r['peak_gib'] is not None else '-'
        print(f"{r['mode']:<9} {r['n']:>4} {r['batch_size']:>5} {r['cache']:>7} {str(r['compile']):>7} {r['first_s']:>7.1f} "
              f"{r['first_batch_s']:>11.1f} {r['seconds']:>7.1f} {r['tokens']:>7} {r['slots']:>7} {r['tok_s']:>7.0f} {r['slot_s']:>7.0f} {pk:>8}")


if __name__ == '__main__': main()
