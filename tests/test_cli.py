"The `cudal1` command end to end: store import/export/stats and `cudal1 run` on part of the mini-suite."
import json, os, sqlite3
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


def test_run_evaluate_then_stage_resumes_it(base_dir):
    """The mini-suite evaluation alone (`cudal1 run --stages evaluate`, what `cudal1 run` was before the training stages) in a
    new pipeline directory, its notebook executed by papermill with the parameters injected; then `cudal1 stage evaluate
    --run-dir` on that directory is the same run: the complete stage is skipped; then `cudal1 stage report` without
    --run-dir runs one stage in a fresh run directory of its own (not the pipeline's) and prints its summary."""
    r = cudal1('run', '--stages', 'evaluate', '-p', 'limit', '1')
    assert r.returncode == 0, r.stdout + r.stderr
    pipes = list((base_dir/'runs'/'pipeline').iterdir()); assert len(pipes) == 1
    rd = pipes[0]/'1-evaluate'
    cfg = json.loads((rd/'config.json').read_text())
    assert cfg['config_class'] == 'SuiteConfig' and cfg['config']['limit'] == 1 and 'git_sha' in cfg
    nb = json.loads((rd/'notebook.ipynb').read_text())
    assert [c for c in nb['cells'] if 'injected-parameters' in c['metadata'].get('tags', [])]   # papermill's parameters cell
    summ = json.loads((rd/'summary.json').read_text()); assert (summ['tasks_ok'], summ['tasks']) == (1, 1)
    vs = [json.loads(l) for l in (rd/'results.jsonl').read_text().splitlines()]
    assert len(vs) >= 3 and all(v['verdict'] == 'ok' and v['speedups']['eager'] > 0 for v in vs)
    con = sqlite3.connect(pipes[0]/'store.sqlite')   # the pipeline directory's shared store
    assert con.execute('select count(*) from tasks').fetchone()[0] == 1
    assert con.execute("select count(*) from candidates where stage='minibench'").fetchone()[0] == len(vs)
    assert con.execute("select count(*) from evaluations where kind='measured' and verdict='ok'").fetchone()[0] == len(vs)
    r = cudal1('stage', 'evaluate', '--run-dir', str(pipes[0]), '-p', 'limit', '1'); assert r.returncode == 0, r.stderr[-2000:]
    assert '[1/1] evaluate: complete in an earlier run' in r.stderr
    assert json.loads(r.stdout.split('evaluate: ', 1)[1].splitlines()[0]) == summ
    r = cudal1('stage', 'report'); assert r.returncode == 0, r.stderr[-2000:]   # the report of the newest pipeline: this one
    rep = json.loads(r.stdout.split('report: ', 1)[1].splitlines()[0])
    rd = Path(rep['run_dir'])
    assert rd.parent == base_dir/'runs'/'report' and rep['headline']['train']['tasks'] == 1   # under the base directory's runs, not a pipeline's
    assert {'notebook.ipynb', 'config.json', 'summary.json'} <= set(os.listdir(rd))
    cfg = json.loads((rd/'config.json').read_text())
    assert cfg['git_sha'] and cfg['config']['pipeline_dir'] == '' and rep['report'] == str(pipes[0]/'report.html')


def test_stage_and_run_plan_a_stage_alike():
    "`cudal1 stage NAME` is `cudal1 run --stages NAME`: the same profile by default (cpu-demo), so the same settings."
    from cudal1_nb.cli import build_parser
    from cudal1_nb.pipeline import plan_chain, chain_of, EMBEDDED
    def plan(*argv):
        a = build_parser().parse_args(list(argv))
        return plan_chain(chain_of(a.name if a.cmd == 'stage' else a.stages), {}, {}, profile=a.profile)
    for st in ('sft', 'selftrain', 'rl', 'stage1'):
        assert plan('stage', st) == plan('run', '--stages', st), st
    assert all(plan('stage', 'rl')['rl'][k] == v for k, v in EMBEDDED['rl'].items())
    assert plan('stage', 'rl', '--profile', 'stage-defaults') == plan('run', '--stages', 'rl', '--profile', 'stage-defaults') != plan('stage', 'rl')


def test_run_rejects_unknown_parameter(base_dir):
    r = cudal1('run', '-p', 'lmit', '2')
    assert r.returncode == 2 and "no stage of this run has a field 'lmit'" in r.stderr


def _help_gaps(p, path='cudal1'):
    "Options, positionals and subcommands of parser `p` and of its subparsers, at any depth, without help text."
    import argparse
    gaps = []
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            helped = {x.dest for x in a._choices_actions if x.help}
            gaps += [f"{path} {n}" for n in a.choices if n not in helped]
            for n, q in a.choices.items(): gaps += _help_gaps(q, f"{path} {n}")
        elif not a.help: gaps.append(f"{path} {'/'.join(a.option_strings) or a.dest}")
    return gaps


def test_every_option_has_help():
    from cudal1_nb.cli import build_parser
    p = build_parser()
    assert _help_gaps(p) == []
    subs = [a for a in p._actions if a.__class__.__name__ == '_SubParsersAction'][0].choices
    assert {'tasks', 'download', 'store', 'eval', 'audit', 'report', 'stage', 'run'} <= set(subs)
    assert 'import' in [a for a in subs['store']._actions if a.__class__.__name__ == '_SubParsersAction'][0].choices   # the walk goes deeper


def test_help_gaps_finds_a_missing_help():
    "The walk above can fail: an option without help deep in a subcommand is found."
    from cudal1_nb.cli import build_parser
    p = build_parser()
    store = [a for a in p._actions if a.__class__.__name__ == '_SubParsersAction'][0].choices['store']
    [a for a in store._actions if a.__class__.__name__ == '_SubParsersAction'][0].choices['import'].add_argument('--nohelp')
    assert _help_gaps(p) == ['cudal1 store import --nohelp']


def test_version():
    from cudal1_nb import __version__
    from cudal1_nb.eval import harness_version
    r = cudal1('--version')
    assert r.returncode == 0 and r.stdout.strip() == f"cudal1_nb {__version__} (harness {harness_version()})", r.stdout + r.stderr


def test_run_and_stage_help_name_the_stages():
    from cudal1_nb.pipeline import REGISTRY, CHAINS
    for sub in ('run', 'stage'):
        r = cudal1(sub, '--help'); assert r.returncode == 0, r.stderr
        for n, s in REGISTRY.items(): assert s.doc[:40] in ' '.join(r.stdout.split()), (sub, n)
        assert all(f"{n} " in r.stdout for n in CHAINS) and 'cpu-demo' in r.stdout and 'stage-defaults' in r.stdout


def test_stage_fields():
    from cudal1_nb.rl import RLConfig
    r = cudal1('stage', 'rl', '--fields'); assert r.returncode == 0, r.stderr
    rows = {l.split()[0]: l.split(None, 3) for l in r.stdout.splitlines() if l.strip()}
    assert rows['learning_rate'][1:3] == ['float', repr(RLConfig.learning_rate)] and rows['learning_rate'][3] == 'optimizer learning rate'
    assert rows['steps'][1:3] == ['int', repr(RLConfig.steps)]


def test_deprecated_spellings_still_work(tmp_path):
    r = cudal1('report', str(FIXTURES/'release_small.jsonl'), '--baseline', 'default', '--html', str(tmp_path/'r.html'), '--json')
    assert r.returncode == 0, r.stderr
    assert '--baseline is deprecated, use --baselines' in r.stderr and '--html is deprecated, use --out' in r.stderr
    assert {json.loads(l)['baseline'] for l in r.stdout.splitlines()} == {'eager'} and (tmp_path/'r.html').exists()


def test_env_command_builds_the_servers_config():
    "`cudal1 env`'s options become the server's config: its own options win over --env, --set reaches EnvServeConfig; bad values are refused."
    from cudal1_nb.cli import build_parser, env_serve_config, main
    a = build_parser().parse_args(['env', '--device', 'cpu', '--max-turns', '2', '--port', '9000', '--db', '/tmp/s.sqlite', '-p', 'budget_s', '0.2',
                                   '--env', 'win_speedup', '1.2', '--env', 'max_turns', '5', '--set', 'max_open', '7'])
    cfg = env_serve_config(a)
    e = cfg.env_config()
    assert (cfg.port, cfg.max_open, e.device, e.max_turns, e.win_speedup, e.db, e.eval) == (9000, 7, 'cpu', 5, 1.2, '/tmp/s.sqlite', {'budget_s': 0.2})
    assert main(['env', '--host', '0.0.0.0', '--no-auth']) == 2   # refused before it serves: a server off loopback needs tokens
