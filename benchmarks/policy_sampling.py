"""What a policy writes at several sampling temperatures: parse failures, correct fraction, fast_1 and the geometric-mean
sampled speedup on the training (or held-out) tasks -- the measurement behind the stages' temperature defaults.

    python benchmarks/policy_sampling.py RUN_DIR [--temps 0.3,0.5,0.8] [--samples 4] [--split train] [--form optimize-terse/v1]

RUN_DIR is an sft, selftrain or rl run (or a model directory). Every sample is judged by the harness, exactly as the
stages' reward does (`cudal1_nb.rl.KernelReward` over the stage-1 prompt), in a throw-away store."""
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser
import argparse, json, sys, tempfile, time
from pathlib import Path


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('run'); ap.add_argument('--temps', default='0.3,0.5,0.8'); ap.add_argument('--samples', type=int, default=4)
    ap.add_argument('--split', default='train'); ap.add_argument('--form', default='optimize-terse/v1'); ap.add_argument('--max-new-tokens', type=int, default=768)
    a = ap.parse_args(argv)
    from cudal1_nb.rl import KernelReward, evolve
    from cudal1_nb.rl_prompts import PromptSource, PromptPlan
    from cudal1_nb.rl_metrics import step_metrics
    from cudal1_nb.checkpoint import load_policy
    from cudal1_nb.tasks import load_tasks, split_tasks
    from cudal1_nb.generate import HFBackend, GenConfig
    tasks = split_tasks(load_tasks('minibench', validate=False), a.split)
    model, tok, _ = load_policy(a.run, 'cpu')
    be = HFBackend.from_objects(model, tok, name='policy', batch_size=16)
    rows = []
    for temp in [float(x) for x in a.temps.split(',')]:
        db = str(Path(tempfile.mkdtemp())/'s.sqlite')
        kr = KernelReward(tasks, db=db, run=f"t{temp}", arm='sample')
        t0 = time.time()
        ros = evolve(be, PromptSource(tasks, PromptPlan(arm='plain', stage1_form=a.form), db), kr, 1, a.samples, len(tasks),
                     GenConfig(max_new_tokens=a.max_new_tokens, temperature=temp, seed=0), split=a.split, progress=False)
        m = step_metrics(ros)
        rows.append(dict(temperature=temp, seconds=round(time.time() - t0), **m))
        print(json.dumps(rows[-1]), flush=True)
    print(f"{'temp':>5} {'n':>4} {'unparsed':>8} {'correct':>7} {'fast_1':>6} {'gmean':>6} {'tasks_ok':>8}")
    for r in rows:
        print(f"{r['temperature']:>5} {r['n']:>4} {r['unparsed']:>8.2f} {r['correct']:>7.2f} {r['fast_1']:>6.2f} {r['gmean'] or 0:>6.3f} {r['tasks_correct']:>8}")


if __name__ == '__main__': main()
