"The host sampler the GPU benchmarks run under: a run stopped at its limit keeps its samples and leaves no process behind."
import json, subprocess, sys, time
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLER = ROOT/'benchmarks'/'proc_sampler.py'
pytestmark = pytest.mark.skipif(not Path('/proc/stat').exists(), reason='the sampler reads /proc (Linux)')


def _alive(pid:int)->bool:
    "Whether `pid` runs (a zombie waiting for its parent does not)."
    try: state = Path(f'/proc/{pid}/status').read_text()
    except OSError: return False
    return '\nState:\tZ' not in state


def test_limit_stops_the_whole_group_and_keeps_the_samples(tmp_path):
    pidf, js = tmp_path/'child.pid', tmp_path/'procs.jsonl'
    t0 = time.time()
    p = subprocess.run([sys.executable, str(SAMPLER), '--every', '0.2', '--limit', '2', '--json', str(js), '--',
                        'bash', '-c', f'sleep 60 & echo $! > {pidf}; wait'], capture_output=True, text=True, timeout=60)
    assert p.returncode == 124, p.stderr
    assert time.time() - t0 < 30
    assert 'stopped after 2 s' in p.stdout and 'busy cores' in p.stdout
    rows = [json.loads(l) for l in js.read_text().splitlines()]
    assert len(rows) >= 3 and all({'t', 'busy_cores', 'python'} <= set(r) for r in rows)
    time.sleep(0.5)
    assert not _alive(int(pidf.read_text())), 'the command\'s background child outlived the limit'


def test_without_limit_the_command_exit_code_passes_through(tmp_path):
    js = tmp_path/'procs.jsonl'
    p = subprocess.run([sys.executable, str(SAMPLER), '--every', '0.1', '--json', str(js), '--', sys.executable, '-c',
                        'import time, sys; time.sleep(0.5); sys.exit(3)'], capture_output=True, text=True, timeout=60)
    assert p.returncode == 3, p.stderr
    assert js.exists() and all('busy_cores' in json.loads(l) for l in js.read_text().splitlines())


def test_bad_limit_is_refused():
    p = subprocess.run([sys.executable, str(SAMPLER), '--limit', '-1', '--', 'true'], capture_output=True, text=True, timeout=60)
    assert p.returncode != 0 and '--limit must be >= 0' in p.stderr


def test_reward_batch_fill_adds_copies_that_build_anew():
    "`reward_throughput.py --fill`: past the releases' distinct programs, copies of the extension programs, each a new source."
    from conftest import shared_file
    from cudal1_nb.core import code_hash
    sys.path.insert(0, str(ROOT/'benchmarks'))
    from reward_throughput import pick_programs
    rels = [str(shared_file('data', 'cuda-l1', f'{g}.jsonl')) for g in ('h100', 'a100')]
    distinct = pick_programs(rels, 10_000, all_programs=True)
    ext = [code for _, code in distinct if 'load_inline' in code]
    assert 0 < len(ext) < len(distinct) and len({code for _, code in distinct}) == len(distinct)
    assert [code for _, code in distinct[:len(ext)]] == ext   # extension builders first
    n = len(distinct) + len(ext) + 3                            # a second copy of each, and a third of the first three
    picked = pick_programs(rels, n, all_programs=True, fill=True)
    assert len(picked) == n and picked[:len(distinct)] == distinct
    assert len({code_hash(code) for _, code in picked}) == n     # every copy is a new source, so a new build directory
    extra = picked[len(distinct):]
    assert all('load_inline' in code for _, code in extra)
    assert [code.split('\n# copy ')[0] for _, code in extra] == ext + ext[:3]
    assert extra[-1][1].rstrip().endswith('# copy 2 of this program: a new source, built anew')
    assert [t.id for t, _ in extra[:len(ext)]] == [t.id for t, code in distinct if 'load_inline' in code]
    assert len(pick_programs(rels, n, all_programs=True)) == len(distinct)   # without --fill: only the distinct ones


def test_timeline_counts_gpus_from_overlapping_exclusive_holds():
    "`audit_timeline.most_at_once`: handovers and a reference hold shared by several results do not count as another GPU."
    sys.path.insert(0, str(ROOT/'benchmarks'))
    from audit_timeline import most_at_once
    one_gpu = [(0.0, 1.0, 'a'), (0.99, 1.0, 'b'), (1.98, 0.5, 'c'), (1.98, 0.5, 'c again')]   # handovers 10 ms early, a shared reference
    assert most_at_once(one_gpu) == 1
    two_gpus = one_gpu + [(0.5, 1.0, 'd'), (1.6, 0.6, 'e')]
    assert most_at_once(two_gpus) == 2
    assert most_at_once([(0.0, 2.0, 'x'), (0.5, 1.0, 'y'), (0.6, 0.2, 'z')]) == 3
    assert most_at_once([]) == 0


def _coverage_line(out:str)->tuple:
    "(B in A, A in B, half-width) of the 'every task' coverage line of `audit_agreement.py`'s output."
    line = out.split('\ncoverage:')[1].split('every task')[1].splitlines()[0].split()
    return tuple(float(x.rstrip('%')) for x in line[1:4])


def test_agreement_rescores_with_other_floors():
    "`audit_agreement.py --rescore --floors`: wider floors, wider intervals and no less coverage; bad floors are refused."
    d = ROOT/'results'/'2026-11-27-interval-coverage-h200'
    a, b = d/'machine1_one_gpu.evals.jsonl.gz', d/'machine2_one_gpu.evals.jsonl.gz'
    if not (a.exists() and b.exists()): pytest.skip('the committed coverage results are not in this checkout')
    run = lambda *x: subprocess.run([sys.executable, str(ROOT/'benchmarks'/'audit_agreement.py'), str(a), str(b), '--top', '0', *x],
                                    capture_output=True, text=True, timeout=300)
    base, wide = run('--rescore'), run('--rescore', '--floors', '0.1,0.08,0.08')
    assert base.returncode == 0 and wide.returncode == 0, base.stderr + wide.stderr
    (ba0, ab0, hw0), (ba1, ab1, hw1) = _coverage_line(base.stdout), _coverage_line(wide.stdout)
    assert hw1 > hw0 + 2 and ba1 >= ba0 and ab1 >= ab0
    assert 'floors 0.1,0.08,0.08' in wide.stdout
    for bad in (('--floors', '0.1,0.1,0.1'), ('--rescore', '--floors', '0.1,0.1'), ('--rescore', '--floors', '0.1,x,0.1')):
        r = run(*bad)
        assert r.returncode == 2 and '--floors' in r.stderr


def test_timeline_counts_jobs_in_their_device_work():
    "`audit_timeline.jobs_at_once`: each job from its first hold to its last release, a reference shared by two results once."
    sys.path.insert(0, str(ROOT/'benchmarks'))
    from audit_timeline import jobs_at_once
    ref = [['sh', 100.0, 5.0], ['ex', 105.0, 5.0]]                                  # one reference job, 100-110 s
    rows = [dict(meta=dict(holds=[['sh', 100.0, 10.0], ['ex', 112.0, 8.0]], ref_holds=ref)),   # a candidate job 100-120 s
            dict(meta=dict(holds=[['sh', 120.0, 20.0]], ref_holds=ref))]                 # another 120-140 s; the same reference
    assert jobs_at_once(rows, window=10) == [(0.0, 2.0), (10.0, 1.0), (20.0, 1.0), (30.0, 1.0), (40.0, 0.0)]
    assert jobs_at_once([dict(meta={})]) == []


def test_timeline_counts_handovers_between_timings():
    "`audit_timeline.handovers`: an exclusive hold to the next one its job waited for, none when shared work runs between or nobody waited."
    sys.path.insert(0, str(ROOT/'benchmarks'))
    from audit_timeline import handovers
    rows = [dict(meta=dict(holds=[['sh', 100.0, 1.0], ['ex', 102.0, 1.0]])),    # times 102-103
            dict(meta=dict(holds=[['sh', 100.0, 1.5], ['ex', 103.25, 1.0]])),   # waited since 101.5: handed over after 0.25 s
            dict(meta=dict(holds=[['sh', 104.5, 0.5], ['ex', 105.5, 1.0]])),    # asked at 105.0, after the last timing ended
            dict(meta=dict(holds=[['sh', 105.0, 1.6], ['ex', 107.0, 1.0]])),    # its own shared work ran past the last timing's end
            dict(meta=dict(holds=[['sh', 100.0, 0.5], ['ex', 108.5, 1.0]]))]    # waited, while another job's shared hold ran between
    rows[4]['meta']['ref_holds'] = [['sh', 108.1, 0.2]]
    assert [round(x, 3) for x in handovers(rows)] == [0.25]
    assert handovers([dict(meta={})]) == []


def test_agreement_tells_the_hosts_relative_speed_per_bucket():
    "`audit_agreement.host_speed`: the median B/A reference and candidate times per bucket; a slower launch shows in the fastest bucket alone."
    sys.path.insert(0, str(ROOT/'benchmarks'))
    import audit_agreement as ag
    res = lambda ref, cand: dict(timings=dict(eager_paired=dict(median_ms=ref), candidate=dict(median_ms=cand)))
    a, b, rows = {}, {}, []
    for i, (ms, slow) in enumerate([(0.05, 1.2), (0.1, 1.25), (0.2, 1.15), (1.0, 1.0), (10.0, 1.01)]):
        t = f"t{i}"
        a[t], b[t] = res(ms, ms / 2), res(ms * slow, ms / 2 * slow)
        rows.append(dict(t=t, bucket=ag.ref_bucket(ms)))
    got = {name: (n, round(r, 3), round(c, 3)) for name, n, r, c in ag.host_speed(rows, a, b)}
    fast, mid, slow_ = (n for n, _, _ in ag.REF_BUCKETS)
    assert got[fast] == (3, 1.2, 1.2) and got[mid] == (1, 1.0, 1.0) and got[slow_] == (1, 1.01, 1.01)
    assert got['every task'][0] == 5 and got['every task'][1] == 1.15
    b['t0'] = res(float('nan'), 0.0)   # a result without times is left out, not counted as a ratio
    assert dict((x[0], x[1]) for x in ag.host_speed(rows, a, b))[fast] == 2
    assert 'took 1.20x as long in B as in A (n=2) -- the hosts launched work differently' in ag.load_line(rows, a, b)
    alike = {t: res(r['timings']['eager_paired']['median_ms'] * 1.05, 1.0) for t, r in a.items()}
    assert ag.load_line(rows, a, alike).endswith('(n=3) -- alike')   # 5 % apart: within `evalstats.HOST_TOL`
    assert ag.load_line([r for r in rows if r['bucket'] != fast], a, b) == f"under load: no task {fast} ok in both"


def test_reward_replay_batches_and_holds(tmp_path):
    "`reward_replay`: the training rollouts in the batches they were scored in, up to n; a result's exclusive holds over every process."
    sys.path.insert(0, str(ROOT/'benchmarks'))
    from reward_replay import read_batches, ex_holds
    from cudal1_nb.core import EvalResult
    rows = [dict(run=r, step=s, split=sp, task_id='t', completion=f'{r}{s}{i}') for r, s, sp in [('a', 0, 'train'), ('a', 1, 'train'), ('a', 1, 'held-out'), ('b', 0, 'train')] for i in range(3)]
    import gzip
    with gzip.open(tmp_path/'r.jsonl.gz', 'wt') as f: f.write(''.join(json.dumps(r) + '\n' for r in rows))
    bs = read_batches([tmp_path/'r.jsonl.gz'], 8)
    assert [[r['completion'] for r in b] for b in bs] == [['a00', 'a01', 'a02'], ['a10', 'a11', 'a12'], ['b00', 'b01']]   # no held-out, cut at 8
    r = EvalResult('c', 't', 'ok', True, meta=dict(holds=[['sh', 0, 1.0], ['ex', 1, 0.5]], ref_holds=[['ex', 2, 0.25]],
                                                  processes=[dict(holds=[['ex', 1, 0.5]]), dict(holds=[['sh', 3, 1.0], ['ex', 4, 0.125]])]))
    assert ex_holds(r) == 0.875   # the first process's, its reference job's and the second process's exclusive holds
