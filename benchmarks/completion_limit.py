"""How much of a policy's answers fit in the completion limit, per prompt arm and limit, and what that does to the
reward: the measurement behind `max_completion_length` and behind the hypothesis that "most contrastive answers die unfinished".

    python benchmarks/completion_limit.py --init RUN --store STORE.sqlite [--limits 768,1536] [--arms plain,contrastive,plain@1500]
        [--samples 2] [--seed 0] [--json OUT.jsonl] [-p KEY VALUE ...]   # KEY: RLConfig fields (temperature, tau...)

RUN is a selftrain (or sft) run or a model directory; STORE is the variant store the contrastive prompts draw their
exemplars from (copied first, once per setting, so every setting sees the same exemplars and nothing is written to it).
Per (arm, limit): every training task gets `--samples` completions from one `evolve` step, judged by the stages' own
reward (`cudal1_nb.rl.KernelReward`, strict policy, the harness in its sandbox). Printed: the prompt's length in tokens
(median over the tasks, of prompts built again after the step: for the contrastive arm a second draw of exemplars), the share of answers that hit the limit (`cut`: at least 98 % of the limit in tokens, counted by re-encoding the answer), the share that hold no program
(`unparsed`, and why, in the JSON rows), the answers' median length in tokens, correct, fast_1, the gmean sampled speedup (failures count 1.0x), generated tokens per second, seconds."""
import argparse, collections, json, shutil, statistics, sys, tempfile, time
from pathlib import Path
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser


def padded(src, tok, target:int):
    """`src` (a `PromptSource`) with every prompt lengthened to about `target` tokens by repeating the task's reference
    program before it, under a line saying so: the stage-1 prompt's content at a contrastive prompt's length."""
    row = src.row
    def longer(task):
        r = row(task); text = r['prompt'][0]['content']
        block = f"Context (the reference program, repeated):\n```python\n{task.code.strip()}\n```\n\n"
        n, k = len(tok(text, add_special_tokens=False)['input_ids']), len(tok(block, add_special_tokens=False)['input_ids'])
        r['prompt'][0]['content'] = block * max(0, round((target - n) / k)) + text
        return r
    src.row = longer
    return src


def measure(init, store, arm:str, limit:int, samples:int, seed:int, params:dict)->dict:
    """One setting: a fresh copy of the store, one evolve step over the training tasks, the step's metrics and token counts.
    `arm` is 'plain', 'contrastive', or 'plain@N': the stage-1 prompt lengthened to about N tokens (`padded`)."""
    arm, _, pad = arm.partition('@')
    from cudal1_nb.rl import RLConfig, KernelReward, evolve
    from cudal1_nb.rl_prompts import PromptSource
    from cudal1_nb.rl_metrics import step_metrics
    from cudal1_nb.checkpoint import load_policy, find_policy, trained_form
    from cudal1_nb.tasks import load_tasks, split_tasks
    from cudal1_nb.generate import HFBackend, GenConfig
    db = Path(tempfile.mkdtemp())/'store.sqlite'; shutil.copy(store, db)
    cfg = RLConfig.from_params(dict(params, init=str(init), arm=arm, db=str(db), seed=seed, max_completion_length=limit))
    tasks = load_tasks(cfg.suite, validate=False); ts = split_tasks(tasks, 'train')
    model, tok, _ = load_policy(find_policy(init), 'cpu')
    kr = KernelReward(tasks, cfg.reward_config(), cfg.eval_config(), 'cpu', str(db), run=f"{arm}-{limit}", arm=arm)
    src = PromptSource(ts, cfg.plan(cfg.form or trained_form(init)), str(db), 'cpu', seed)
    if pad: src = padded(src, tok, int(pad))
    times, t0 = [], time.time()
    ros = evolve(HFBackend.from_objects(model, tok, name='policy', batch_size=16), src, kr, steps=1, num_generations=samples,
                 prompts_per_step=len(ts), gen=GenConfig(max_new_tokens=limit, temperature=cfg.temperature, top_p=cfg.top_p, seed=seed),
                 progress=False, times=times)
    secs = time.time() - t0
    ntok = [len(tok(r.completion, add_special_tokens=False)['input_ids']) for r in ros]
    ptok = [len(tok(src.row(t)['prompt'][0]['content'], add_special_tokens=False)['input_ids']) for t in ts]
    gen_s = sum(t.get('generate_s', 0.0) for t in times) or secs
    fails = collections.Counter(r.reason.split(':')[0][:60] for r in ros if r.verdict == 'unparsed')
    return dict(arm=arm + (f'@{pad}' if pad else ''), limit=limit, samples=samples, seed=seed, prompt_tokens=statistics.median(ptok), answer_tokens=statistics.median(ntok),
                answer_tokens_max=max(ntok), unparsed_reasons=dict(fails.most_common()),
                cut=sum(n >= 0.98 * limit for n in ntok) / len(ntok), tokens_per_s=round(sum(ntok) / gen_s, 1), seconds=round(secs),
                **step_metrics(ros))


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('--init', required=True); ap.add_argument('--store', required=True)
    ap.add_argument('--limits', default='768,1536'); ap.add_argument('--arms', default='plain,contrastive')
    ap.add_argument('--samples', type=int, default=2); ap.add_argument('--seed', type=int, default=0); ap.add_argument('--json')
    ap.add_argument('-p', '--param', nargs=2, action='append', default=[], metavar=('KEY', 'VALUE'))
    a = ap.parse_args(argv)
    if not Path(a.store).is_file(): ap.error(f"--store {a.store}: no such file")
    from cudal1_nb.commands import param_pairs as _params
    params = _params(a.param, None)   # each VALUE as JSON where it parses, else the string (as `cudal1 -p`)
    rows = []
    for arm in a.arms.split(','):
        for limit in (int(x) for x in a.limits.split(',')):
            rows.append(measure(a.init, a.store, arm, limit, a.samples, a.seed, params))
            print(json.dumps(rows[-1]), flush=True)
            if a.json:
                with open(a.json, 'a') as f: f.write(json.dumps(rows[-1]) + '\n')
    print(f"\n{'arm':12} {'limit':>5} {'seed':>4} {'prompt':>6} {'answer':>6} {'n':>3} {'cut':>5} {'unparsed':>8} {'correct':>7} {'fast_1':>6} {'gmean':>6} {'tok/s':>6} {'s':>5}")
    for r in rows:
        print(f"{r['arm']:12} {r['limit']:>5} {r['seed']:>4} {r['prompt_tokens']:>6.0f} {r['answer_tokens']:>6.0f} {r['n']:>3} {r['cut']:>5.2f} {r['unparsed']:>8.2f} {r['correct']:>7.2f} "
              f"{r['fast_1']:>6.2f} {r['gmean'] or 0:>6.3f} {r['tokens_per_s']:>6} {r['seconds']:>5}")


if __name__ == '__main__': main()
