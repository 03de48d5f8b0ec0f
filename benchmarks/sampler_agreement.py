"""Does `HFBackend`'s fast path write what its plain path writes? Greedy completions of the same stage-1 prompts from the
same weights, by path: `plain` (dynamic KV cache, eager), `static` (static cache, eager), `fast` (static cache, compiled
decoding step) and `fast-solo` (the fast path one prompt per call: no padding, no filler rows).

    python benchmarks/sampler_agreement.py [--model smollm2] [--n 24] [--max-new-tokens 256] [--dtype bfloat16]
        [--modes plain,static,fast,fast-solo] [--json OUT]
    python benchmarks/sampler_agreement.py --model tiny --n 4 --max-new-tokens 16 --modes plain,static    # CPU smoke test

Greedy decoding has one right answer per prompt, so a path that differs from `plain` beyond the rounding of its dtype
is wrong: in float32 the paths should agree token for token; in bfloat16 they may part late, after a near tie. Per
path: completions identical to plain's, the median and minimum tokens in common with plain's before they part,
degenerate completions (one line written 12 times in a row, or one token 48 times: what a broken cache writes), and
tokens per second (a compiled path runs twice and the second call is timed: the first compiles for its shapes). The prompts are
the mini-suite's training and held-out tasks in the terse stage-1 form, whose lengths differ, so the batched paths
left-pad."""
import argparse, json, re, statistics, sys, time
from pathlib import Path
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser

MODES = ('plain', 'static', 'fast', 'fast-solo')


def degenerate(text:str, tok=None)->bool:
    "One line written 12 times in a row, or (with `tok`) one token 48 times in a row."
    if re.search(r'(^[^\n]*\S[^\n]*\n)\1{11}', text, re.M): return True
    if tok is not None:
        ids, run = tok(text, add_special_tokens=False)['input_ids'], 1
        for a, b in zip(ids, ids[1:]):
            run = run + 1 if a == b else 1
            if run >= 48: return True
    return False


def common_prefix(a:list, b:list)->int:
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('--model', default='smollm2', help="a model path, a .gguf file, 'smollm2', or 'tiny' (a tiny random model, CPU smoke test)")
    ap.add_argument('--n', type=int, default=24, help='prompts (the mini-suite tasks in turn)')
    ap.add_argument('--max-new-tokens', type=int, default=256)
    ap.add_argument('--dtype', default=None, help="'float32' or 'bfloat16' (default: bfloat16 on a GPU, float32 on a CPU)")
    ap.add_argument('--modes', default=','.join(MODES))
    ap.add_argument('--device', default='auto')
    ap.add_argument('--json')
    a = ap.parse_args(argv)
    modes = a.modes.split(',')
    if bad := [m for m in modes if m not in MODES]: sys.exit(f"unknown mode(s) {bad}: use {MODES}")
    import tempfile, torch
    from cudal1_nb.generate import GenConfig, HFBackend, make_tiny_lm
    from cudal1_nb.prompts import optimize_prompt
    from cudal1_nb.tasks import load_tasks
    model = a.model
    if model == 'tiny': model = str(make_tiny_lm(Path(tempfile.mkdtemp())/'tiny'))
    tasks = load_tasks('minibench')
    prompts = [optimize_prompt(tasks[i % len(tasks)], 'cuda', 'optimize-terse/v1').text for i in range(a.n)]
    cfg = GenConfig(max_new_tokens=a.max_new_tokens, temperature=0.0)
    be = HFBackend(model, device=a.device, dtype=a.dtype, cache='dynamic')
    be._load()
    tok = be.tokenizer
    lens = [len(tok(be.format_prompt(p, cfg))['input_ids']) for p in prompts]
    kinds = {'plain': dict(cache='dynamic'), 'static': dict(cache='static', compile=False), 'fast': dict(cache='static', compile=True),
             'fast-solo': dict(cache='static', compile=True, batch_size=1)}
    res, ref = [], None
    for m in modes:
        b = HFBackend.from_objects(be.model, tok, name=be.name, **kinds[m])
        if kinds[m].get('compile'): b.generate(prompts, cfg)   # compile for these very shapes before timing
        t0 = time.perf_counter(); outs = b.generate(prompts, cfg); dt = time.perf_counter() - t0
        ids = [tok(o, add_special_tokens=False)['input_ids'] for o in outs]
        if ref is None: ref = ids
        pre = [common_prefix(x, y) for x, y in zip(ids, ref)]
        r = dict(mode=m, settings=b.settings(), n=len(prompts), identical=sum(x == y for x, y in zip(ids, ref)),
                 prefix_median=statistics.median(pre), prefix_min=min(pre), degenerate=sum(degenerate(o, tok) for o in outs),
                 tokens=b.stats['tokens'], seconds=round(dt, 2), tokens_per_s=round(b.stats['tokens'] / dt),
                 sample=outs[0][:300])
        res.append(r)
        print(json.dumps(r), flush=True)
    dev = next(be.model.parameters())
    print(f"\n{a.model} on {torch.cuda.get_device_name(dev.device) if dev.is_cuda else 'cpu'}, {dev.dtype}, {a.n} prompts of "
          f"{min(lens)}-{max(lens)} tokens, greedy, {a.max_new_tokens} new tokens at most")
    print(f"{'mode':10} {'identical':>10} {'prefix med':>11} {'prefix min':>11} {'degenerate':>11} {'tok/s':>8}")
    for r in res: print(f"{r['mode']:10} {r['identical']:>6}/{r['n']:<3} {r['prefix_median']:>11} {r['prefix_min']:>11} {r['degenerate']:>11} {r['tokens_per_s']:>8}")
    if a.json: Path(a.json).write_text(json.dumps(dict(model=a.model, dtype=str(dev.dtype), lengths=lens, results=res), indent=1) + '\n')


if __name__ == '__main__': main()
