"Task sources: malformed tasks get clear statuses through the CLI; nothing stops at the first bad task."
import json
from conftest import cudal1, FIXTURES, shared_file


def _rows(out): return [json.loads(l) for l in out.splitlines() if l.strip()]


def test_malformed_directory_reports_every_task():
    r = cudal1('tasks', str(FIXTURES/'bad_tasks'), '--json', '--timeout', '10')
    assert r.returncode == 1, r.stderr          # some tasks are invalid
    rows = {x['name']: x for x in _rows(r.stdout)}
    assert set(rows) == {'Good_Scale', 'Syntax_Error', 'Missing_Init_Inputs', 'Inputs_Not_Tensors', 'Constructor_Fails',
                         'Hangs', 'No_Model_Class', 'Init_Not_List', 'Exits_At_Import', 'not_a_task_name'}
    assert rows['Good_Scale']['status'] == 'ok' and rows['Good_Scale']['inputs'] == ['float32[32, 32]']
    want = {'Syntax_Error': 'syntax error at line 5', 'Missing_Init_Inputs': 'missing get_init_inputs',
            'Inputs_Not_Tensors': 'get_inputs() must return tensors (or Python numbers); item 2: str',
            'Constructor_Fails': 'Model(*get_init_inputs()) raised TypeError', 'Hangs': 'hangs: no result within 10 s',
            'No_Model_Class': 'missing Model', 'Init_Not_List': 'get_init_inputs() must return a list, got float',
            'Exits_At_Import': 'exited with status 3 without a result', 'not_a_task_name': 'file name is not N_Name.py'}
    for name, why in want.items():
        row = rows[name]
        assert row['status'] == 'invalid', row
        assert why in row['reason'], (name, row['reason'])
        assert row['source'] in row['reason'] or name == 'not_a_task_name'   # the reason names the file
    assert all(set(x) >= {'id', 'level', 'name', 'source', 'status', 'reason'} for x in rows.values())


def test_minibench_listing_and_module_entry_point_agree():
    a = cudal1('tasks', 'minibench', '--json', '--levels', '2')
    b = cudal1('tasks', 'minibench', '--json', '--levels', '2', module=True)
    assert a.returncode == b.returncode == 0, a.stderr + b.stderr
    ra, rb = _rows(a.stdout), _rows(b.stdout)
    assert [x['id'] for x in ra] == [x['id'] for x in rb] and len(ra) >= 8
    assert all(x['status'] == 'ok' and x['level'] == 2 for x in ra)


def test_release_rows_with_bad_json_are_named(tmp_path):
    good = (FIXTURES/'download'/'optimized_cuda_code'/'h100.json').read_text().splitlines()
    p = tmp_path/'broken.jsonl'
    p.write_text('\n'.join([good[0], '{"level_id": 1}', 'not json', good[1]]) + '\n')
    r = cudal1('tasks', str(p), '--json')
    rows = _rows(r.stdout)
    assert r.returncode == 1
    assert [x['status'] for x in rows].count('ok') == 2
    bad = sorted(x['reason'] for x in rows if x['status'] == 'invalid')
    assert any('broken.jsonl:2: task_id must be a non-negative integer' in b for b in bad), bad
    assert any('broken.jsonl:3: not JSON' in b for b in bad), bad


def test_cuda_l1_release_tasks_validate():
    "The first 20 H100 release tasks build on the meta device (no GPU, no big allocations)."
    p = shared_file('data', 'cuda-l1', 'h100.jsonl')
    r = cudal1('tasks', str(p), '--json', '--limit', '20')
    rows = _rows(r.stdout)
    assert len(rows) == 20 and all(x['status'] == 'ok' for x in rows), [x for x in rows if x['status'] != 'ok']
    assert rows[0]['name'] == 'Square_matrix_multiplication_' and rows[0]['inputs'] == ['float32[2048, 2048]'] * 2


def test_release_tasks_have_the_kernelbench_held_out_split():
    "Every CUDA-L1 release holds KernelBench's 250 tasks under KernelBench's ids, so the frozen held-out split applies to them: 20 % of each level."
    from collections import Counter
    from cudal1_nb.tasks import read_source, split_tasks
    for gpu in ('h100', 'a100'):
        ts, bad = read_source(shared_file('data', 'cuda-l1', f'{gpu}.jsonl'))
        assert len(ts) == 250 and not bad
        ho = split_tasks(ts, 'held-out')
        assert Counter(t.level for t in ho) == {1: 20, 2: 20, 3: 10}, gpu
        assert len(split_tasks(ts, 'train')) == 200
        try: split_tasks(ts, 'train', [ho[0].id])
        except ValueError as e: assert "not in the 'train' split" in str(e)
        else: raise AssertionError('a held-out task was accepted for training')


def test_minibench_programs_make_their_tensors_on_their_inputs_device():
    """Every mini-suite reference and Python variant runs with its weights and inputs on the 'meta' device: a tensor made
    on the CPU inside forward (a mask, an output buffer) would fail there as it fails on a GPU, where the harness judges."""
    import torch
    from cudal1_nb.minibench import minibench_tasks, minibench_variants
    def run(*codes, cls):
        ns = {}
        for c in codes: exec(compile(c, 'program', 'exec'), ns)
        m = ns[cls](*ns['get_init_inputs']()).to('meta')
        with torch.no_grad(): m(*[x.to('meta') if torch.is_tensor(x) else x for x in ns['get_inputs']()])
    bad, n = [], 0
    for t in minibench_tasks():
        for name, codes, cls in [('reference', (t.code,), 'Model')] + [(v.name, (t.code, v.code), 'ModelNew') for v in minibench_variants(t)
                                                                        if 'load_inline' not in v.code]:   # C++ variants are CPU programs
            n += 1
            try: run(*codes, cls=cls)
            except Exception as e: bad.append(f"{t.id} {name}: {str(e)[:80]}")
    assert n > 60 and not bad, bad
