"""`cudal1 stage`: bad input refused. (A stage run through papermill in a run directory of its own, its summary printed:
`test_cli.py::test_run_evaluate_then_stage_resumes_it`; the stages' contents are checked once, on the whole
chain of `cudal1 run`: `test_pipeline.py`.)"""
import pytest
from conftest import cudal1

pytest.importorskip('papermill'); pytest.importorskip('trl')


def test_stage_bad_input(tmp_path):
    env = dict(CUDAL1_BASE_DIR=str(tmp_path/'base'))
    p = cudal1('stage', 'sft', '-p', 'dataset', str(tmp_path/'nothing'), env=env, timeout=300)
    assert p.returncode == 1 and 'no saved dataset' in p.stderr and 'failed in cell' in p.stderr, p.stderr[-2000:]   # a stage that fails: 1
    p = cudal1('stage', 'nosuch', env=env)
    assert p.returncode == 2 and 'unknown stage' in p.stderr
