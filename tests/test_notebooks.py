"Notebooks: the papermill `parameters` tag survives nbdev-clean, and a stage notebook runs under papermill."
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


def test_pipeline_notebook_runs_under_papermill(tmp_path, base_dir):
    pm = pytest.importorskip('papermill')
    out = tmp_path/'out.ipynb'
    pm.execute_notebook(str(ROOT/'nbs'/'stages'/'evaluate.ipynb'), str(out), parameters=dict(params=dict(levels=[3], limit=1, db=str(tmp_path/'s.sqlite'))),
                        cwd=str(ROOT/'nbs'/'stages'), progress_bar=False, kernel_name='python3')
    nb = json.loads(out.read_text())
    assert [c for c in nb['cells'] if 'injected-parameters' in c['metadata'].get('tags', [])]
    runs = list((base_dir/'runs'/'evaluate').iterdir())
    assert len(runs) == 1 and json.loads((runs[0]/'config.json').read_text())['config']['levels'] == [3]
