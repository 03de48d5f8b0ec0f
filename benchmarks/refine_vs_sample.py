"""k-turn refinement against k independent samples, for the same number of judged programs: a model's correct fraction,
fast_1 and best counted speedup after each budget j = 1..k, on the mini-suite's training and held-out tasks.

    python benchmarks/refine_vs_sample.py --model hf:qwen2.5-coder-1.5b --device cuda:0 --eval-device cuda:1 \\
        --k 3 --episodes 4 --max-new-tokens 768 --out DIR

Per split, `--episodes` slots per task: a refined slot is one `KernelEnv` episode of up to k turns (the model sees its
verdict and revises; a win ends it early, so it may judge fewer than k programs), a sampled slot is k one-turn
episodes on the same first prompt (`cudal1_nb.refine.refine` / `sample`). Every program is judged by the harness on
`--eval-device` under the reward's settings, each turn index under its own secret seeds. A speedup that counts is the
reward's (`Turn.counted`); a slot with no correct program counts 1.0x in `best_gmean`. Writes, as each split and arm
ends (a cut run keeps what it measured): DIR/table.jsonl (one row per split, arm and budget), DIR/turns.jsonl.gz
(every judged turn), DIR/meta.json (model, devices, sampling settings, generated tokens and seconds per arm,
`harness_version`, `git_sha`). `--model tiny` is a tiny random model (a CPU smoke test: every answer unparsed)."""
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
import gzip, json, tempfile, time
from pathlib import Path
from benchmarks.common import parser, print_table


class Counted:
    "A backend that adds up what its `generate` calls produced: completions, generated tokens (where the backend counts them), seconds."
    def __init__(self, inner): self.inner, self.name, self.calls, self.completions, self.tokens, self.seconds = inner, inner.name, 0, 0, 0, 0.0
    def generate(self, prompts, cfg=None, progress=False):
        t0 = time.time(); out = self.inner.generate(prompts, cfg, progress)
        self.seconds += time.time() - t0; self.calls += 1; self.completions += len(out)
        self.tokens += (getattr(self.inner, 'stats', None) or {}).get('tokens', 0)
        return out
    def take(self)->dict:
        "What was counted since the last `take`, and reset."
        d = dict(calls=self.calls, completions=self.completions, tokens=self.tokens, gen_s=round(self.seconds, 1),
                 tok_s=round(self.tokens / self.seconds, 1) if self.seconds else None)
        self.calls, self.completions, self.tokens, self.seconds = 0, 0, 0, 0.0
        return d


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('--model', default='hf:qwen2.5-coder-1.5b', help="a backend spec ('hf:PATH', 'hf:qwen2.5-coder-1.5b', ...) or 'tiny'")
    ap.add_argument('--device', default='auto', help="where the model samples ('auto', 'cpu', 'cuda', 'cuda:N')")
    ap.add_argument('--eval-device', default='cpu', help="where the judged programs run ('cpu', 'cuda', 'cuda:N')")
    ap.add_argument('--k', type=int, default=3, help='turns of refinement, samples per sampled slot')
    ap.add_argument('--episodes', type=int, default=2, help='slots per task and arm')
    ap.add_argument('--splits', default='train,held-out'); ap.add_argument('--tasks', type=int, default=0, help='tasks per split at most (0: all)')
    ap.add_argument('--max-new-tokens', type=int, default=768); ap.add_argument('--temperature', type=float, default=0.7)
    ap.add_argument('--seed', type=int, default=0); ap.add_argument('--batch-size', type=int, default=None)
    ap.add_argument('--cache', default='auto', choices=['auto', 'static', 'dynamic'], help="the HF backend's KV cache ('auto': static and compiled on a GPU)")
    ap.add_argument('--budget', type=float, default=None, help="seconds of timed calls per side (default: the reward's)")
    ap.add_argument('--out', required=True)
    a = ap.parse_args(argv)
    if a.k < 1 or a.episodes < 1: ap.error(f"--k and --episodes must be positive, got {a.k} and {a.episodes}")
    from cudal1_nb.env import KernelEnv, EnvConfig
    from cudal1_nb.generate import make_backend, GenConfig
    from cudal1_nb.eval import harness_version
    from cudal1_nb.core import git_info
    from cudal1_nb.refine import refine, sample, budget_rows, slot_turns, turns_of
    from cudal1_nb.tasks import load_tasks, split_tasks
    out = Path(a.out); out.mkdir(parents=True, exist_ok=True)
    for f in ('table.jsonl', 'turns.jsonl.gz'): (out/f).unlink(missing_ok=True)
    spec = a.model
    if spec == 'tiny':
        from cudal1_nb.tiny import make_tiny_lm
        spec = f"hf:{make_tiny_lm(Path(tempfile.mkdtemp())/'tiny')}"
    t0 = time.time()
    be = Counted(make_backend(spec, device=a.device, batch_size=a.batch_size, cache=a.cache) if spec.startswith('hf:') else make_backend(spec))
    suite = load_tasks('minibench', validate=False)
    work = Path(tempfile.mkdtemp(prefix='refine-'))
    ev = {'budget_s': a.budget} if a.budget is not None else {}
    env = KernelEnv(suite, EnvConfig(max_turns=a.k, device=a.eval_device, db=str(work/'store.sqlite'), episodes=str(work/'episodes.sqlite'),
                                     run='refine-vs-sample', eval=ev))
    gen = GenConfig(max_new_tokens=a.max_new_tokens, temperature=a.temperature, seed=a.seed)
    meta = dict(model=a.model, device=a.device, cache=a.cache, eval_device=a.eval_device, k=a.k, episodes=a.episodes, gen=gen.__dict__,
                harness_version=harness_version(), **git_info(), started=time.strftime('%Y-%m-%d %H:%M:%S'), arms={})
    rows = []
    with env:
        for split in a.splits.split(','):
            tasks = split_tasks(suite, split)[:a.tasks or None]
            for arm in ('refine', 'sample'):
                t1 = time.time()
                if arm == 'refine': eps = refine(be, env, tasks, a.episodes, gen, split=split); slots = slot_turns(eps, 1)
                else: eps = sample(be, env, tasks, a.k, a.episodes, gen, split=split); slots = slot_turns(eps, a.k)
                got = [dict(split=split, **r) for r in budget_rows(slots, a.k, arm)]
                rows += got
                with open(out/'table.jsonl', 'a') as f: f.write(''.join(json.dumps(r) + '\n' for r in got))
                with gzip.open(out/'turns.jsonl.gz', 'at') as f: f.write(''.join(t.to_json() + '\n' for t in turns_of(eps)))
                meta['arms'][f"{split}/{arm}"] = dict(tasks=len(tasks), seconds=round(time.time() - t1, 1), **be.take())
                meta['seconds'] = round(time.time() - t0, 1)
                (out/'meta.json').write_text(json.dumps(meta, indent=1))
                print(json.dumps(dict(split=split, arm=arm, **meta['arms'][f"{split}/{arm}"])), flush=True)
    print_table([{k: (round(v, 3) if isinstance(v, float) else v) for k, v in r.items()} for r in rows],
                ['split', 'arm', 'budget', 'slots', 'correct', 'fast_1', 'best_gmean', 'programs', 'unparsed'])
    return rows


if __name__ == '__main__': main()
