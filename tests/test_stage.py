"""`cudal1 stage`: a stage notebook run through papermill in a run directory of its own; bad input refused (the stages'
contents are checked once, on the whole chain of `cudal1 run`: `test_pipeline.py`)."""
import json, os
import pytest
from conftest import cudal1

pytest.importorskip('papermill'); pytest.importorskip('trl')


def test_stage_command_runs_one_stage(tmp_path):
    "`cudal1 stage NAME` runs a stage notebook in a run directory of its own and prints its summary (what the stages make is checked on the whole chain: `test_pipeline.py`)."
    env = dict(CUDAL1_BASE_DIR=str(tmp_path/'base'))
    p = cudal1('stage', 'collect', '-p', 'limit', '1', env=env, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    summ = {l.split(':', 1)[0]: json.loads(l.split(':', 1)[1]) for l in p.stdout.splitlines() if l.startswith('collect:')}
    c = summ['collect']
    assert c['tasks'] == 1 and c['tasks_with_success'] == 1 and c['rows'] == 3 * c['successes'], c
    assert {'notebook.ipynb', 'config.json', 'summary.json'} <= set(os.listdir(c['run_dir']))
    assert json.loads(open(os.path.join(c['run_dir'], 'config.json')).read())['git_sha']
    assert str(tmp_path/'base') in c['run_dir']   # under the base directory's runs, not a pipeline's


def test_stage_bad_input(tmp_path):
    env = dict(CUDAL1_BASE_DIR=str(tmp_path/'base'))
    p = cudal1('stage', 'sft', '-p', 'dataset', str(tmp_path/'nothing'), env=env, timeout=300)
    assert p.returncode == 1 and 'no saved dataset' in p.stderr and 'failed in cell' in p.stderr, p.stderr[-2000:]   # a stage that fails: 1
    p = cudal1('stage', 'nosuch', env=env)
    assert p.returncode == 2 and 'unknown stage' in p.stderr
