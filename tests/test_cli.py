"The `cudal1` command end to end: store import/export/stats and `cudal1 run` on part of the mini-suite."
import json, sqlite3
from pathlib import Path
from conftest import cudal1, FIXTURES


def test_store_cli_round_trip(tmp_path, base_dir):
    src = FIXTURES/'release_small.jsonl'
    db = tmp_path/'s.sqlite'
    r = cudal1('store', '--db', str(db), 'import', str(src)); assert r.returncode == 0, r.stderr
    r = cudal1('store', '--db', str(db), 'export', 'cuda-l1:release_small', str(tmp_path/'out.jsonl')); assert r.returncode == 0, r.stderr
    assert (tmp_path/'out.jsonl').read_bytes() == src.read_bytes()
    r = cudal1('store', '--db', str(db), 'stats', '--json'); assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert s['releases'] == {'cuda-l1:release_small': 6} and s['n_evals'] == 6


def test_store_cli_rejects_bad_file_cleanly(tmp_path, base_dir):
    bad = tmp_path/'bad.jsonl'
    bad.write_text((FIXTURES/'release_small.jsonl').read_text() + '{"level_id": 1}\n')
    db = tmp_path/'s.sqlite'
    r = cudal1('store', '--db', str(db), 'import', str(bad))
    assert r.returncode == 2 and 'bad.jsonl:7' in r.stderr, r.stderr
    if db.exists():                                     # nothing half-written (the file is checked before any write)
        con = sqlite3.connect(db)
        has = con.execute("select count(*) from sqlite_master where name='tasks'").fetchone()[0]
        assert not has or con.execute('select count(*) from tasks').fetchone()[0] == 0


def test_run_on_two_tasks(tmp_path, base_dir):
    "The mini-suite evaluation alone (`--stages evaluate`, what `cudal1 run` was before the training stages)."
    db = tmp_path/'run.sqlite'
    r = cudal1('run', '--stages', 'evaluate', '-p', 'limit', '2', '-p', 'db', str(db))
    assert r.returncode == 0, r.stdout + r.stderr
    pipes = list((base_dir/'runs'/'pipeline').iterdir()); assert len(pipes) == 1
    rd = pipes[0]/'1-evaluate'
    cfg = json.loads((rd/'config.json').read_text())
    assert cfg['config_class'] == 'SuiteConfig' and cfg['config']['limit'] == 2 and 'git_sha' in cfg
    summ = json.loads((rd/'summary.json').read_text()); assert (summ['tasks_ok'], summ['tasks']) == (2, 2)
    vs = [json.loads(l) for l in (rd/'results.jsonl').read_text().splitlines()]
    assert len(vs) >= 6 and all(v['verdict'] == 'ok' and v['speedups']['eager'] > 0 for v in vs)
    con = sqlite3.connect(db)
    assert con.execute('select count(*) from tasks').fetchone()[0] == 2
    assert con.execute("select count(*) from candidates where stage='minibench'").fetchone()[0] == len(vs)
    assert con.execute("select count(*) from evaluations where kind='measured' and verdict='ok'").fetchone()[0] == len(vs)


def test_run_rejects_unknown_parameter(base_dir):
    r = cudal1('run', '-p', 'lmit', '2')
    assert r.returncode == 2 and "no stage of this run has a field 'lmit'" in r.stderr
