"""kill -9 of a GRPO run at a moment between checkpoints, then the same run again: it resumes from the last
checkpoint, every step's rollouts (and time split) are there exactly once, and every judged rollout's program and evaluation are in
the store."""
import collections, json, os, signal, subprocess, sys, time
from pathlib import Path
import pytest
from conftest import ROOT

pytest.importorskip('trl')

SETUP = """
import sys, json
from pathlib import Path
from cudal1_nb.core import EvalResult
from cudal1_nb.minibench import minibench_tasks, minibench_variants
from cudal1_nb.sft import SFTStageConfig, train_sft
from cudal1_nb.collect import sft_rows
ts = [t for t in minibench_tasks() if t.id == 'minibench/L1/1']
rows = sft_rows([(v, EvalResult(v.id, v.task_id, 'ok', True)) for t in ts for v in minibench_variants(t)], {t.id: t for t in ts}, forms=('optimize-terse/v1',))
train_sft(SFTStageConfig(steps=60, batch_size=3, learning_rate=1e-2, tiny_hidden=64, tiny_layers=1, vocab_size=512, max_length=2048, eval_samples=0, device='cpu'), rows, Path(sys.argv[1]))
"""
RUN = """
import sys, json
from cudal1_nb.rl import RLConfig, run_rl
cfg = RLConfig(init=sys.argv[1], ids=('minibench/L1/1',), steps=8, num_generations=4, prompts_per_step=1, max_completion_length=160,
               temperature=0.5, form='contrastive-terse/v1', save_steps=1, held_out_samples=0, device='cpu', db=sys.argv[3], learning_rate=1e-3)
print(json.dumps(run_rl(cfg, sys.argv[2], progress=False)))
"""


def test_killed_grpo_run_resumes_with_nothing_lost_or_twice(tmp_path):
    env = {**os.environ, 'CUDAL1_BASE_DIR': str(tmp_path/'base'), 'PYTHONPATH': str(ROOT) + os.pathsep + os.environ.get('PYTHONPATH', '')}
    init, rd, db = tmp_path/'init', tmp_path/'rl', tmp_path/'store.sqlite'
    subprocess.run([sys.executable, '-c', SETUP, str(init)], env=env, check=True, capture_output=True, timeout=600)
    proc = subprocess.Popen([sys.executable, '-c', RUN, str(init), str(rd), str(db)], env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t0 = time.time()
    while not (rd/'trainer'/'checkpoint-2').is_dir():       # two steps done and saved; step 2 under way
        assert proc.poll() is None and time.time() - t0 < 900, 'the run ended before its second checkpoint'
        time.sleep(0.2)
    time.sleep(1.0)    # the checkpoint written, step 2 under way; six steps remain, so even a fast machine is not done
    os.killpg(proc.pid, signal.SIGKILL); proc.wait()
    assert not (rd/'done.json').exists()
    p = subprocess.run([sys.executable, '-c', RUN, str(init), str(rd), str(db)], env=env, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr[-3000:]
    summ = json.loads(p.stdout.strip().splitlines()[-1])
    assert summ['steps'] == 8 and (rd/'done.json').exists()
    from cudal1_nb.rl_metrics import read_rollouts
    ros = read_rollouts(rd/'rollouts.jsonl')
    assert sorted(collections.Counter(r.step for r in ros).items()) == [(i, 4) for i in range(8)]
    assert [t['step'] for t in json.loads((rd/'curves.json').read_text())['step_times']] == list(range(8))   # each step's split once, the killed run's kept
    from cudal1_nb.store import Store
    with Store(db) as st:
        for r in ros:
            if r.candidate_id is None: continue
            assert st.get_candidate(r.candidate_id) is not None, r.candidate_id
            assert st.evals(candidate_id=r.candidate_id, kind='measured'), r.candidate_id
