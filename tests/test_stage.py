"""`cudal1 stage`: an unknown stage refused. (A stage run through papermill in a run directory of its own, its summary printed:
`test_cli.py::test_run_evaluate_then_stage_resumes_it`; the stages' contents are checked once, on the whole
chain of `cudal1 run`: `test_pipeline.py`.)"""
import pytest
from conftest import cudal1

pytest.importorskip('papermill'); pytest.importorskip('trl')


def test_stage_bad_input(tmp_path):
    "An unknown stage is refused (exit 2) before anything runs. (A stage that fails exits 1 naming its cell: `cudal1 stage` is `cudal1 run --stages`, `test_pipeline.py::test_failed_stage_names_the_cell`.)"
    p = cudal1('stage', 'nosuch', env=dict(CUDAL1_BASE_DIR=str(tmp_path/'base')))
    assert p.returncode == 2 and 'unknown stage' in p.stderr
    assert not (tmp_path/'base'/'runs').exists()
