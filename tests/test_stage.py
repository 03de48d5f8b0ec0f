"""`cudal1 stage`: the stage-1 notebooks (collect, augment, sft) run through papermill in run directories, chained by
one command, on two mini-suite tasks with a tiny model and a few steps (the real sizes are the notebooks' defaults)."""
import json, os
import pytest
from conftest import cudal1

pytest.importorskip('papermill'); pytest.importorskip('trl')


def test_stage1_chain(tmp_path):
    env = dict(CUDAL1_BASE_DIR=str(tmp_path/'base'))
    p = cudal1('stage', 'stage1', '-p', 'limit', '2', '-p', 'augment.n', '1', '-p', 'sft.steps', '4', '-p', 'eval_samples', '1',
               '-p', 'eval_max_new_tokens', '24', '-p', 'tiny_hidden', '64', env=env, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    summ = {l.split(':', 1)[0]: json.loads(l.split(':', 1)[1]) for l in p.stdout.splitlines() if l.split(':', 1)[0] in ('collect', 'augment', 'sft')}
    c, a, s = summ['collect'], summ['augment'], summ['sft']
    assert c['tasks'] == 2 and c['tasks_with_success'] == 2 and c['verdicts'].get('ok', 0) >= 4 and c['rows'] == 3 * c['successes']
    assert a['collect_run'] == c['run_dir'] and a['rewrites_ok'] == a['rewrites'] > 0 and a['rows'] == 3 * a['programs']
    from cudal1_nb.tasks import load_tasks, split_tasks
    held = len(split_tasks(load_tasks('minibench', validate=False), 'held-out'))   # the check samples the world's held-out tasks too
    assert s['kind'] == 'tiny' and s['steps'] == 4 and s['by_split']['train']['tasks'] == 2 and s['by_split']['held-out']['tasks'] == held
    # the check samples 24 tokens, far fewer than the programs it was taught: the stage says so before it samples
    assert s['answer_tokens']['limit'] == 24 and s['answer_tokens']['over'] == 1.0 and s['answer_tokens']['p50'] > 24, s['answer_tokens']
    assert 'longer than eval_max_new_tokens=24 tokens' in open(os.path.join(s['run_dir'], 'notebook.ipynb')).read()   # the warning, in the run's notebook
    for d in (c['run_dir'], a['run_dir'], s['run_dir']):
        files = set(os.listdir(d))
        assert {'notebook.ipynb', 'config.json', 'summary.json'} <= files, files
        assert json.loads(open(os.path.join(d, 'config.json')).read())['git_sha']
    import datasets
    ds = datasets.load_from_disk(os.path.join(a['run_dir'], 'dataset'))
    rows = ds.to_list()
    assert {'prompt', 'completion', 'task_id', 'candidate_id', 'parent_ids', 'stage', 'origin', 'template_id', 'augmentation'} <= set(ds.column_names)
    aug = [r for r in rows if r['stage'] == 'augment']
    assert aug and all(r['parent_ids'] and r['augmentation'] for r in aug)
    assert len({r['template_id'] for r in rows}) == 3           # every prompt form
    assert os.path.isdir(os.path.join(s['run_dir'], 'model'))
    per = json.loads(open(os.path.join(s['run_dir'], 'per_task.json')).read())
    assert [r['samples'] for r in per] == [1] * (2 + held)   # one sample per training task, then per held-out task


def test_stage_bad_input(tmp_path):
    env = dict(CUDAL1_BASE_DIR=str(tmp_path/'base'))
    p = cudal1('stage', 'sft', '-p', 'dataset', str(tmp_path/'nothing'), env=env, timeout=300)
    assert p.returncode == 1 and 'no saved dataset' in p.stderr and 'failed in cell' in p.stderr, p.stderr[-2000:]   # a stage that fails: 1
    p = cudal1('stage', 'nosuch', env=env)
    assert p.returncode == 2 and 'unknown stage' in p.stderr
