"""Training rate of the SFT stage's tiny default on the CPU, on the mini-suite's written variants in the terse prompt
form (the rows `collect` writes for the embedded default), with the stage's own trainer (`train_sft`).

    python benchmarks/sft_cpu_rate.py [STEPS] [PRECISION]   (default 30 fp32; PRECISION: fp32 or bf16)

Prints the trainer's actual settings and steps/s (the rate check is off here). The figures are in
`nbs/13_sft.ipynb` ("Precision on the CPU")."""
import sys, json, tempfile
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from cudal1_nb.core import EvalResult
from cudal1_nb.minibench import minibench_tasks, minibench_variants
from cudal1_nb.collect import sft_rows
from cudal1_nb.sft import SFTStageConfig, train_sft


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    steps, prec = (int(argv[0]) if argv else 30), (argv[1] if len(argv) > 1 else 'fp32')
    ts = minibench_tasks()
    rows = sft_rows([(v, EvalResult(v.id, v.task_id, 'ok', True)) for v in minibench_variants()], {t.id: t for t in ts}, forms=('optimize-terse/v1',))
    cfg = SFTStageConfig(steps=steps, cpu_precision=prec, device='cpu', time_budget_s=0, expected_steps_per_s=-1)
    _, _, m = train_sft(cfg, rows, tempfile.mkdtemp())
    print(json.dumps(dict(steps=m['steps'], seconds=m['seconds'], rows_used=m['rows_used'], trainer=m['trainer'])))


if __name__ == '__main__': main()
