"""`cudal1 run`: the chain of stage notebooks in one pipeline run directory -- layout, the report, validation before
anything runs, and resume (skip what is complete and intact, redo what is not, continue after a kill -9).
The whole chain runs once, in the `chain` fixture: killed with kill -9 (the run and every process under it) while its
second stage runs, then resumed by the same command to the end. The tests below read that run; the resume test, last,
goes on from it."""
import json, os, signal, subprocess, sys, time
from pathlib import Path
import pytest
from conftest import cudal1, ROOT

pytest.importorskip('papermill'); pytest.importorskip('trl')
pytestmark = pytest.mark.xdist_group('pipeline')   # one worker: the chain runs once for every test of this file

TINY = ['-p', 'limit', '2', '-p', 'augment.n', '1', '-p', 'sft.steps', '4', '-p', 'sft.eval_samples', '1', '-p', 'sft.eval_max_new_tokens', '24',
        '-p', 'tiny_hidden', '64', '-p', 'sft.time_budget_s', '0', '-p', 'selftrain.samples', '1', '-p', 'selftrain.max_new_tokens', '24',
        '-p', 'selftrain.steps', '2', '-p', 'rl.steps', '1', '-p', 'rl.num_generations', '2', '-p', 'rl.prompts_per_step', '1',
        '-p', 'rl.max_completion_length', '32', '-p', 'rl.held_out_samples', '1', '-p', 'rl.time_budget_s', '0',
        '-p', 'rl.arm', 'contrastive']   # the RL stage's own arm (the CPU demo's is plain): its exemplar prompts built from the run's store


def _stderr_lines(p, word): return [l for l in p.stderr.splitlines() if word in l]


def _tree(pid:int)->list:
    "`pid` and every process descended from it (from /proc)."
    kids = {}
    for d in Path('/proc').iterdir():
        try: kids.setdefault(int((d/'stat').read_text().rsplit(')', 1)[1].split()[1]), []).append(int(d.name))
        except (OSError, IndexError, ValueError): pass
    out, todo = [], [pid]
    while todo: out.append(todo.pop()); todo += kids.get(out[-1], [])
    return out

def _gone(pid:int)->bool:
    try: return (Path('/proc')/str(pid)/'stat').read_text().rsplit(')', 1)[1].split()[0] in 'ZX'
    except OSError: return True

def _kill_tree(proc):
    """kill -9 of the run and everything under it, as a lost machine would: the stage's Jupyter kernel runs in a session of its
    own (jupyter_client starts it so), so killing the run's process group alone leaves the kernel running for up to the second
    it takes to notice its parent is gone, still writing into the stage's directory and the store."""
    def sig(pids, s):
        for pid in pids:
            try: os.kill(pid, s)
            except ProcessLookupError: pass
    sig(pids := _tree(proc.pid), signal.SIGSTOP)   # freeze the tree first: nothing starts or exits between the snapshot and the kill
    sig(pids := sorted(set(pids) | set(_tree(proc.pid))), signal.SIGKILL)
    proc.wait(); t0 = time.time()
    while not all(_gone(p) for p in pids):
        assert time.time() - t0 < 30, [p for p in pids if not _gone(p)]
        time.sleep(0.1)


@pytest.fixture(scope='module')
def chain(tmp_path_factory):
    """The whole chain at tiny sizes in one pipeline directory, killed with kill -9 once the second stage has started, then
    resumed by the same command. Returns what each test reads: the directory, the environment, the state and log at the kill
    and at the end, and the resumed run's CompletedProcess."""
    tmp = tmp_path_factory.mktemp('chain')
    env = {**os.environ, 'CUDAL1_BASE_DIR': str(tmp/'base')}
    pdir = tmp/'pipe'
    args = [str(Path(sys.executable).parent/'cudal1'), 'run', '--run-dir', str(pdir), *TINY]
    proc = subprocess.Popen(args, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    t0 = time.time()
    try:
        while not (pdir/'2-augment'/'config.json').exists():
            assert proc.poll() is None and time.time() - t0 < 600, 'the run ended before the second stage started'
            time.sleep(0.2)
    finally: _kill_tree(proc)
    from cudal1_nb.core import run_problem
    killed = dict(state=json.loads((pdir/'pipeline.json').read_text()), problem=run_problem(pdir/'1-collect'),
                  collect_done=(pdir/'1-collect'/'done.json').exists(), augment_done=(pdir/'2-augment'/'done.json').exists())
    p = subprocess.run(args, env=env, cwd=ROOT, capture_output=True, text=True, timeout=1200)
    return dict(pdir=pdir, env={'CUDAL1_BASE_DIR': env['CUDAL1_BASE_DIR']}, killed=killed, resumed=p,
                state=json.loads((pdir/'pipeline.json').read_text()) if p.returncode == 0 else None,
                log=(pdir/'pipeline.log').read_text())


def test_killed_run_resumes_and_nothing_half_written_counts(chain):
    "kill -9 of the run and every process under it while the second stage runs; the same command then finishes the run."
    k, p = chain['killed'], chain['resumed']
    assert k['collect_done'] and not k['augment_done']
    assert k['state']['stages']['collect']['status'] == 'done' and k['state']['stages']['augment']['status'] == 'running'
    assert p.returncode == 0, p.stderr[-4000:]
    assert _stderr_lines(p, '[1/6] collect: complete') and _stderr_lines(p, '[2/6] augment: running') and _stderr_lines(p, '[3/6] sft: done'), \
        ''.join(l + '\n' for l in p.stderr.splitlines() if l.startswith('[')) + f"\nbefore the resume: {k['problem']!r}"


def test_whole_chain_writes_the_report(chain):
    "Every stage, tiny sizes: one directory with the plan, the shared store, every stage's complete run and the report."
    pdir, p, state = chain['pdir'], chain['resumed'], chain['state']
    assert p.returncode == 0, p.stderr[-4000:]
    assert state['chain'] == ['collect', 'augment', 'sft', 'selftrain', 'rl', 'report'] and state['git_sha']
    assert state['stages']['collect']['status'] == 'skipped', state['stages']   # complete before the kill: verified, not run again
    assert all(state['stages'][s]['status'] == 'done' for s in state['chain'][1:]), state['stages']
    for i, s in enumerate(state['chain'], 1):
        assert (pdir/f"{i}-{s}"/'done.json').exists() and (pdir/f"{i}-{s}"/'notebook.ipynb').exists()
    assert json.loads((pdir/'4-selftrain'/'config.json').read_text())['config']['init'] == str(pdir/'3-sft')
    assert json.loads((pdir/'6-report'/'config.json').read_text())['config']['pipeline_dir'] == str(pdir)
    assert chain['log'].count(': done in') == 6   # collect before the kill, the five others after it
    html = (pdir/'report.html').read_text()
    assert 'Best program per task' in html and 'plotly' in html
    rep = json.loads((pdir/'6-report'/'report.json').read_text())
    assert {r['stage'] for r in rep['programs']} >= {'minibench', 'augment'} and rep['headline']['train']['tasks'] >= 2
    assert 'report: ' + str(pdir/'report.html') in p.stdout
    import sqlite3
    stages = dict(sqlite3.connect(pdir/'store.sqlite').execute('select stage, count(*) from candidates group by stage').fetchall())
    assert stages.get('minibench', 0) >= 2 and stages.get('augment', 0) >= 1, stages
    _check_stage1(pdir)


def _check_stage1(pdir):
    "What stage 1 (collect, augment, sft) made in the run: two tasks collected, rewrites checked, the dataset, the check's samples."
    c, a, s = (json.loads((pdir/d/'summary.json').read_text()) for d in ('1-collect', '2-augment', '3-sft'))
    assert c['tasks'] == 2 and c['tasks_with_success'] == 2 and c['verdicts'].get('ok', 0) >= 4 and c['rows'] == 3 * c['successes']
    assert a['collect_run'] == c['run_dir'] and a['rewrites_ok'] == a['rewrites'] > 0 and a['rows'] == 3 * a['programs']
    from cudal1_nb.verify import read_pairs
    assert len(read_pairs(Path(c['run_dir'])/'collected.jsonl')) == c['successes'] == a['verified_in'] and (Path(c['run_dir'])/'dataset').is_dir()
    assert a['programs'] == a['verified_in'] + a['rewrites_ok']   # the collected programs, re-verified, and their checked rewrites
    from cudal1_nb.tasks import load_tasks, split_tasks
    held = len(split_tasks(load_tasks('minibench', validate=False), 'held-out'))   # the check samples the world's held-out tasks too
    assert s['kind'] == 'tiny' and s['steps'] == 4 and s['by_split']['train']['tasks'] == 2 and s['by_split']['held-out']['tasks'] == held
    # the check samples 24 tokens, far fewer than the programs it was taught: the stage says so before it samples
    assert s['answer_tokens']['limit'] == 24 and s['answer_tokens']['over'] == 1.0 and s['answer_tokens']['p50'] > 24, s['answer_tokens']
    assert 'longer than eval_max_new_tokens=24 tokens' in (Path(s['run_dir'])/'notebook.ipynb').read_text()   # the warning, in the run's notebook
    for d in (c['run_dir'], a['run_dir'], s['run_dir']):
        assert {'notebook.ipynb', 'config.json', 'summary.json'} <= set(os.listdir(d))
        assert json.loads((Path(d)/'config.json').read_text())['git_sha']
    import datasets
    rows = datasets.load_from_disk(str(Path(a['run_dir'])/'dataset')).to_list()
    assert {'prompt', 'completion', 'task_id', 'candidate_id', 'parent_ids', 'stage', 'origin', 'template_id', 'augmentation'} <= set(rows[0])
    aug = [r for r in rows if r['stage'] == 'augment']
    assert aug and all(r['parent_ids'] and r['augmentation'] for r in aug)
    assert len({r['template_id'] for r in rows}) == 3           # every prompt form
    assert (Path(s['run_dir'])/'model').is_dir()
    per = json.loads((Path(s['run_dir'])/'per_task.json').read_text())
    assert [r['samples'] for r in per] == [1] * (2 + held)   # one sample per training task, then per held-out task


def test_bad_value_is_refused_before_anything_runs(tmp_path):
    env = dict(CUDAL1_BASE_DIR=str(tmp_path/'base'))
    for args, msg in ((['-p', 'rl.tau', '-1'], 'stage rl:'), (['-p', 'sft.lmit', '2'], "no stage of this run has a field 'lmit'"),
                      (['--stages', 'collect,nosuch'], 'unknown stage(s)')):
        p = cudal1('run', *args, env=env)
        assert p.returncode == 2 and msg in p.stderr, (args, p.stderr[-2000:])
    assert not (tmp_path/'base'/'runs').exists()      # nothing was started, no directory left behind


def test_failed_stage_names_the_cell(tmp_path):
    env = dict(CUDAL1_BASE_DIR=str(tmp_path/'base'))
    pdir = tmp_path/'pipe'
    p = cudal1('run', '--stages', 'sft', '--run-dir', str(pdir), '-p', 'dataset', str(tmp_path/'nothing'), env=env, timeout=300)
    assert p.returncode == 1 and 'failed in cell' in p.stderr and 'no saved dataset' in p.stderr, p.stderr[-2000:]
    f = json.loads((pdir/'1-sft'/'failed.json').read_text())
    assert f['stage'] == 'sft' and f['cell'] and 'no saved dataset' in f['message']
    assert not (pdir/'1-sft'/'done.json').exists() and json.loads((pdir/'pipeline.json').read_text())['stages']['sft']['status'] == 'failed'


def test_resume_skips_what_is_intact_and_redoes_the_rest(chain):
    """On the finished chain: the same command skips every stage whose outputs are intact and redoes one whose output changed
    after its run; a changed config is redone. The stage changed is the report, the chain's cheapest (the rule is the
    pipeline's, the same for every stage; that a stage's later outputs are then remade is the kill -9 test's resume)."""
    pdir, env = chain['pdir'], chain['env']
    assert chain['resumed'].returncode == 0, chain['resumed'].stderr[-3000:]
    first = json.loads((pdir/'6-report'/'summary.json').read_text())
    with open(pdir/'6-report'/'report.json', 'a') as f: f.write('\n')          # an output changed after the run finished
    p = cudal1('run', '--run-dir', str(pdir), *TINY, env=env); assert p.returncode == 0, p.stderr[-3000:]
    assert len(_stderr_lines(p, 'complete in an earlier run (outputs verified), skipped')) == 5, p.stderr[-2000:]
    assert _stderr_lines(p, '[6/6] report: running again (output report.json changed'), p.stderr[-2000:]
    assert json.loads((pdir/'6-report'/'summary.json').read_text())['headline'] == first['headline']   # the same store, the same report
    p = cudal1('run', '--run-dir', str(pdir), *TINY, '-p', 'report.top', '2', env=env)   # a changed config: redone
    assert p.returncode == 0, p.stderr[-3000:]
    assert len(_stderr_lines(p, 'complete in an earlier run (outputs verified), skipped')) == 5, p.stderr[-2000:]
    assert _stderr_lines(p, '[6/6] report: running again (its config changed)'), p.stderr[-2000:]
    assert json.loads((pdir/'6-report'/'config.json').read_text())['config']['top'] == 2
