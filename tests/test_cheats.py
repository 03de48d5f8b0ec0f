"""The cheat suite (data/cheats) on CPU: every cheat is rejected or flagged as each policy says, and no honest control
is called a cheat. The CUDA programs of the suite run in tests/test_gpu.py."""
from cudal1_nb.cheats import run_cheat_suite


def check_suite_rows(rows):
    "What both the CPU and the CUDA suite must show: each program as its header expects, no control called a cheat, each cheat's id leading its reason."
    wrong = [(r['program'], r['expect'], (r['strict'], r['strict_flags']), r['audit'], r['reason']) for r in rows if not (r['strict_ok'] and r['audit_ok'])]
    assert not wrong, '\n'.join(map(str, wrong))
    assert all(r['strict'] == 'ok' for r in rows if r['id'] == 'control')
    for r in rows:
        if r['strict'] == 'cheat': assert r['cheat_ids'] and r['reason'].split()[0] in r['cheat_ids'], r   # the id leads the reason
    assert len({r['id'] for r in rows} - {'control'}) >= 20


def test_cheat_suite_on_cpu(base_dir):
    """Every CPU program of the suite, in one batch, with 0.1 s of timed calls per side (the suite's default, 0.3 s, is the
    GPU run's): no check of these programs needs a longer timing (the Ray executor's tests judge 11 of them at 0.1 s)."""
    check_suite_rows(run_cheat_suite('cpu', budget_s=0.1))


def test_each_classified_switch_is_one_torch_has_and_strict_follows_its_kind():
    "`SWITCH_KINDS` names switches torch has; under `strict` a precision or unclassified switch rejects, an algorithm one flags."
    from cudal1_nb.policy import SWITCH_KINDS, get_policy
    from cudal1_nb.job.switches import switches
    names, strict = {s.name for s in switches()}, get_policy('strict')
    assert set(SWITCH_KINDS) <= names, set(SWITCH_KINDS) - names
    for k, (kind, why) in SWITCH_KINDS.items():
        assert kind in ('precision', 'algorithm') and why
        assert strict.action(f'changed:{k}') == ('flag' if kind == 'algorithm' else 'cheat'), k
    assert {k for k in names if strict.action(f'changed:{k}') == 'flag'} == {'cudnn_benchmark', 'sdp_priority_order'}
