"""`cudal1 stage`: an unknown stage refused. (A stage run through papermill in a run directory of its own, its summary printed:
`test_cli.py::test_run_evaluate_then_stage_resumes_it`; the stages' contents are checked once, on the whole
chain of `cudal1 run`: `test_pipeline.py`.) Stages run in the process, without notebooks (`runner='inline'`)."""
import json
import pytest
from conftest import cudal1

pytest.importorskip('papermill'); pytest.importorskip('trl')


def test_stage_bad_input(tmp_path):
    "An unknown stage is refused (exit 2) before anything runs. (A stage that fails exits 1 naming its cell: `cudal1 stage` is `cudal1 run --stages`, `test_pipeline.py::test_failed_stage_names_the_cell`.)"
    p = cudal1('stage', 'nosuch', env=dict(CUDAL1_BASE_DIR=str(tmp_path/'base')))
    assert p.returncode == 2 and 'unknown stage' in p.stderr


def stage_for_test(cfg, rd):
    "A stand-in stage function: a complete run of `cfg` in `rd`, or an error when `cfg.limit` is 99."
    from cudal1_nb.core import start_run, finish_run
    if cfg.limit == 99: raise ValueError("limit 99 is refused\nsecond line")
    start_run('evaluate', cfg, rd)
    finish_run(rd, dict(limit=cfg.limit))


def test_stage_runs_in_process_without_notebooks(tmp_path, monkeypatch):
    "runner='inline' calls the stage's `entry` with its config and run directory: a complete run without an executed notebook; a failure writes failed.json naming the function."
    from dataclasses import replace
    from cudal1_nb import pipeline
    monkeypatch.setitem(pipeline.REGISTRY, 'evaluate', replace(pipeline.REGISTRY['evaluate'], entry='test_stage.stage_for_test'))
    rd = pipeline.run_stage('evaluate', dict(limit=2), tmp_path/'ok', runner='inline')
    assert json.loads((rd/'summary.json').read_text()) == dict(limit=2) and not (rd/'notebook.ipynb').exists()
    assert json.loads((rd/'config.json').read_text())['config']['limit'] == 2
    with pytest.raises(RuntimeError, match=r"stage evaluate failed in test_stage.stage_for_test: ValueError: limit 99 is refused$"):
        pipeline.run_stage('evaluate', dict(limit=99), tmp_path/'bad', runner='inline')
    assert json.loads((tmp_path/'bad'/'failed.json').read_text())['error'] == 'ValueError'
    with pytest.raises(ValueError, match="runner must be"): pipeline.run_stage('evaluate', {}, tmp_path/'x', runner='papermill')


def test_auto_runner_falls_back_without_papermill(monkeypatch):
    "Without papermill (or without the checkout's stage runners) 'auto' runs stages in the process."
    import importlib.util
    from cudal1_nb import pipeline
    assert pipeline.notebooks_runnable()   # this checkout, with the dev extra
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, 'find_spec', lambda name, *a, **k: None if name == 'papermill' else real(name, *a, **k))
    assert not pipeline.notebooks_runnable()


def test_chain_runs_inline_and_says_so(tmp_path, monkeypatch):
    "`run_chain(runner='inline')` (`cudal1 run --runner inline`) runs each stage in the process and says so in its log; a bad runner is refused."
    import io
    from dataclasses import replace
    from cudal1_nb import pipeline
    monkeypatch.setitem(pipeline.REGISTRY, 'evaluate', replace(pipeline.REGISTRY['evaluate'], entry='test_stage.stage_for_test'))
    plan = pipeline.plan_chain(('evaluate',), {}, {'limit': 3}, profile='stage-defaults')
    log = io.StringIO()
    res = pipeline.run_chain(('evaluate',), plan, tmp_path/'p', progress=False, out=log, runner='inline')
    assert [r['status'] for r in res['stages']] == ['done'] and res['stages'][0]['summary'] == dict(limit=3)
    assert 'stages run in this process' in log.getvalue() and not (tmp_path/'p'/'1-evaluate'/'notebook.ipynb').exists()
    with pytest.raises(ValueError, match="runner must be"): pipeline.run_chain(('evaluate',), plan, tmp_path/'q', runner='kernel')
    assert not (tmp_path/'base'/'runs').exists()
