"Shared pytest fixtures: an isolated base directory, the repository and shared/ paths."
import os, sys, subprocess
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent/'shared'
FIXTURES = ROOT/'tests'/'fixtures'
RESULTS = ROOT/'results'
H100_ON_H100 = RESULTS/'2026-11-26-h100-release-audit-on-h100'/'evals.jsonl.gz'   # the committed audits' evaluations
H100_ON_H200 = RESULTS/'2026-11-25-h100-release-audit-on-h200'/'evals.jsonl.gz'
A100_ON_H100 = RESULTS/'2026-11-21-a100-release-audit-on-h100'/'evals.jsonl.gz'
os.environ.setdefault('HF_HUB_OFFLINE', '1')
# Under pytest-xdist each worker judges on a CPU lock of its own: the harness holds the host-wide CPU lock (`device.LOCK_DIR`)
# from a job's first check to its exit, so with one lock for both workers every evaluation of one worker waited for the
# other's, and one of the two cores sat idle. A test's own campaign still serializes its jobs on its worker's lock, as on
# any host; the other worker's tests load the second core as they did before (a timing beside a training test, say).
# An explicit $CUDAL1_LOCK_DIR is kept.
if os.environ.get('PYTEST_XDIST_WORKER') and not os.environ.get('CUDAL1_LOCK_DIR'):
    os.environ['CUDAL1_LOCK_DIR'] = f"/tmp/cudal1-locks-pytest-{os.getppid()}-{os.environ['PYTEST_XDIST_WORKER']}"


@pytest.fixture
def base_dir(tmp_path, monkeypatch):
    "Point CUDAL1_BASE_DIR at a fresh temporary directory."
    d = tmp_path/'base'
    monkeypatch.setenv('CUDAL1_BASE_DIR', str(d))
    return d


def cudal1(*args, env=None, timeout=600, module=False):
    "Run the installed `cudal1` command (or `python -m cudal1_nb`) and return the CompletedProcess."
    cmd = [sys.executable, '-m', 'cudal1_nb', *args] if module else [str(Path(sys.executable).parent/'cudal1'), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})}, cwd=ROOT)


def shared_file(*parts):
    "A path under ../shared, or skip the test when shared/ is absent."
    p = SHARED.joinpath(*parts)
    if not p.exists(): pytest.skip(f"{p} not present (../shared is optional)")
    return p


@pytest.hookimpl(tryfirst=True)   # before pytest-xdist reads the marks (`-n 2 --dist loadgroup`)
def pytest_collection_modifyitems(config, items):
    "A test that uses a module-scoped fixture of its own module joins that module's xdist group: one worker makes the fixture, once."
    for item in items:
        if item.get_closest_marker('xdist_group') or not hasattr(item, '_fixtureinfo'): continue
        defs = [d for ds in item._fixtureinfo.name2fixturedefs.values() for d in ds]
        if any(d.scope == 'module' and getattr(d.func, '__module__', None) == item.module.__name__ for d in defs):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))


@pytest.hookimpl(trylast=True)    # after pytest-xdist has put each group's name into its tests' ids
def pytest_collection_finish(session):
    "Refuse to run when `--dist loadgroup` would silently ignore the groups (pytest 9.2 with pytest-xdist 3.8, pytest-xdist#1386)."
    if getattr(session.config.option, 'loadgroup', False) and hasattr(session.config, 'workerinput'):
        lost = [i.nodeid for i in session.items if i.get_closest_marker('xdist_group') and '@' not in i.nodeid]
        if lost:
            msg = (f"--dist loadgroup ignores the xdist_group marks with pytest {pytest.__version__} (e.g. {lost[0]}): "
                   "every module fixture would run on each worker; install pytest<9.2")
            print(msg, file=sys.__stderr__, flush=True); pytest.exit(msg, returncode=3)
