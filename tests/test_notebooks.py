"""Notebooks: the papermill `parameters` tag survives nbdev-clean. (A stage notebook run under papermill with its parameters
injected: `test_cli.py::test_run_evaluate_then_stage_resumes_it`, and every stage in `test_pipeline.py`.)"""
import json, shutil, subprocess, sys
from pathlib import Path
import pytest
from conftest import ROOT


def _param_cells(nb):
    return [c for c in nb['cells'] if 'parameters' in c.get('metadata', {}).get('tags', [])]


def test_parameters_tag_survives_nbdev_clean(tmp_path):
    src = ROOT/'nbs'/'stages'/'evaluate.ipynb'
    assert len(_param_cells(json.loads(src.read_text()))) == 1
    cp = ROOT/'nbs'/'_clean_probe.ipynb'            # '_' prefix: nbdev ignores it for export and tests
    try:
        nb = json.loads(src.read_text())
        for c in nb['cells']: c.setdefault('metadata', {})['scrollable'] = True   # junk that nbdev-clean must strip
        cp.write_text(json.dumps(nb))
        subprocess.run([str(Path(sys.executable).parent/'nbdev-clean'), '--fname', str(cp)], cwd=ROOT, check=True)
        out = json.loads(cp.read_text())
        assert len(_param_cells(out)) == 1
        assert not any('scrollable' in c.get('metadata', {}) for c in out['cells'])
    finally: cp.unlink(missing_ok=True)
