"""Where an RL step's time goes: a short real GRPO run of the stage, and the per-step split the stage records into
generation, update (the trainer's own time) and reward (the harness judging the step's completions, while the trainer waits).

    python benchmarks/rl_step_timing.py [--device cuda] [--eval-device cuda] [--steps 6] [--sft-steps 300] [--overlap] [--out DIR]

The policy is the tiny model of stage 1, trained here on the mini-suite's training-task variants (so that it writes
programs the harness can judge), then trained by `cudal1_nb.rl.run_rl` (TRL's GRPO, contrastive prompts, the
KernelReward on `--eval-device`). With one GPU the trainer and the reward share it; the harness's device lock keeps
the reward's timings apart from the trainer's work (the trainer is idle while the reward runs: GRPO waits for it). On a
host with two GPUs, `--device cuda:0 --eval-device cuda:1` puts the reward on a GPU of its own (the process keeps only
the trainer's GPU for torch: `cudal1_nb.core.training_on`). `--overlap` judges each step's completions while the next
step's are generated (`RLConfig.overlap`): the reward column is then the trainer's wait for it, not the judging time.
Prints one row per step and the totals; writes the run directory under --out."""
import argparse, json, os, sys, tempfile, time
from pathlib import Path
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('--device', default='cuda'); ap.add_argument('--eval-device', default='cuda')
    ap.add_argument('--steps', type=int, default=6); ap.add_argument('--sft-steps', type=int, default=300)
    ap.add_argument('--generations', type=int, default=8); ap.add_argument('--prompts', type=int, default=4)
    ap.add_argument('--overlap', action='store_true', help='judge one batch ahead (RLConfig.overlap)')
    ap.add_argument('--out', default='')
    a = ap.parse_args(argv)
    out = Path(a.out or tempfile.mkdtemp(prefix='rl-timing-'))
    os.environ.setdefault('CUDAL1_BASE_DIR', str(out/'base'))
    from cudal1_nb.core import EvalResult, training_on
    training_on(a.device)   # before CUDA starts: TRL's trainers take one visible GPU
    from cudal1_nb.minibench import minibench_tasks, minibench_variants
    from cudal1_nb.tasks import split_tasks
    from cudal1_nb.collect import sft_rows
    from cudal1_nb.sft import SFTStageConfig, train_sft
    from cudal1_nb.rl import RLConfig, run_rl
    from cudal1_nb.rl_metrics import read_rollouts
    tasks = split_tasks(minibench_tasks(), 'train')
    rows = sft_rows([(v, EvalResult(v.id, v.task_id, 'ok', True)) for t in tasks for v in minibench_variants(t)], {t.id: t for t in tasks},
                    forms=('optimize-terse/v1',), device=a.eval_device)
    t0 = time.time()
    _, _, m = train_sft(SFTStageConfig(steps=a.sft_steps, device=a.device, eval_samples=0, time_budget_s=0), rows, out/'sft')
    print(f"policy: tiny model, {m['steps']} SFT steps in {time.time() - t0:.0f} s, loss {m['final_loss']:.3f}", flush=True)
    cfg = RLConfig(init=str(out/'sft'), steps=a.steps, num_generations=a.generations, prompts_per_step=a.prompts, device=a.device,
                   eval_device=a.eval_device, held_out_samples=0, temperature=0.5, db=str(out/'store.sqlite'), save_steps=1000,
                   overlap=a.overlap)
    s = run_rl(cfg, out/'rl', progress=False)
    ros = read_rollouts(out/'rl'/'rollouts.jsonl')
    steps = json.loads((out/'rl'/'curves.json').read_text()).get('step_times', [])
    print(f"{'step':>4} {'wall_s':>7} {'reward_s':>8} {'generate_s':>10} {'update_s':>8} {'rollouts':>8} {'judged':>6} {'ok':>4}")
    tot = dict(wall=0.0, reward=0.0, judged=0)
    for st in steps:   # the split the RL stage records per step (`curves.json`)
        rs = [r for r in ros if r.split == 'train' and r.step == st['step']]
        judged = len({r.candidate_id for r in rs if r.candidate_id and not r.cached and r.verdict not in ('unparsed', 'infra')})
        print(f"{st['step']:>4} {st['seconds']:>7.2f} {st['reward_s']:>8.2f} {st['generate_s']:>10.2f} {st['update_s']:>8.2f} {len(rs):>8} {judged:>6} "
              f"{sum(r.verdict == 'ok' for r in rs):>4}")
        tot['wall'] += st['seconds']; tot['reward'] += st['reward_s']; tot['judged'] += judged
    if tot['wall']:
        print(f"total {tot['wall']:.1f} s: reward {tot['reward']:.1f} s ({tot['reward'] / tot['wall']:.0%}; the trainer waits for it), "
              f"{tot['judged']} programs judged, {60 * tot['judged'] / max(tot['reward'], 1e-9):.1f} per reward-minute")
    if tot['wall'] and len(steps) > 1:   # the first step builds the reward's workers and each task's reference work
        rest = steps[1:]; w, r = sum(x['seconds'] for x in rest), sum(x['reward_s'] for x in rest)
        print(f"steps 1-{rest[-1]['step']}: {w:.1f} s, reward {r:.1f} s ({r / w:.0%})")
    print(json.dumps(dict(summary=s), default=str)[:2000])


if __name__ == '__main__': main()
