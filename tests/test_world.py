"""One task world per chain: the suite set once reaches every stage, one device vocabulary, earlier names as deprecated
aliases, and bad input (an unknown suite, a held-out task named for training, a missing model) refused at plan time."""
import json, warnings
from pathlib import Path
import pytest
from conftest import cudal1, ROOT
from cudal1_nb.pipeline import plan_chain, plan_world, CHAINS, WORLD, DEMO_TASKS

pytest.importorskip('trl')


def tutorial_gpu_config()->dict:
    "The GPU configuration of the tutorial notebook, read from its config cell (one definition: the notebook's)."
    nb = json.loads((ROOT/'nbs'/'17_tutorial.ipynb').read_text())
    src = next(''.join(c['source']) for c in nb['cells'] if c['cell_type'] == 'code' and 'gpu_config = {' in ''.join(c['source']))
    ns = {}
    exec(src.split('cfg_file =')[0], ns)   # the imports, MODEL, TEACHER and gpu_config; nothing is written or run
    return ns['gpu_config']


def _world(plan): return {w['stage']: w for w in plan_world(plan)}


def test_tutorial_gpu_config_plans_kernelbench_on_the_gpu():
    plan = plan_chain(CHAINS['all'], tutorial_gpu_config(), profile='stage-defaults')
    w = _world(plan)
    for st in ('collect', 'selftrain', 'rl'): assert (w[st]['suite'], w[st]['split']) == ('kernelbench', 'train'), w[st]
    for st in ('collect', 'sft', 'selftrain', 'rl'): assert w[st]['device'] == 'cuda', w[st]
    for st in ('collect', 'augment', 'sft', 'selftrain', 'rl'): assert w[st]['eval_device'] == 'cuda', w[st]
    # KernelBench answers run ~2,000 tokens at the median:
    limits = plan['sft']['eval_max_new_tokens'], plan['selftrain']['max_new_tokens'], plan['rl']['max_completion_length']
    assert min(int(x) for x in limits) >= 3072, limits                                  # samples cut shorter never parse


def test_suite_is_carried_forward_unless_a_stage_sets_its_own():
    plan = plan_chain(CHAINS['train'], {'collect': {'suite': 'kernelbench'}, 'rl': {'suite': 'minibench'}}, profile='cpu-demo')
    assert [plan[s]['suite'] for s in ('collect', 'selftrain', 'rl')] == ['kernelbench', 'kernelbench', 'minibench']
    assert 'ids' not in plan['selftrain'] and tuple(plan['rl']['ids']) == DEMO_TASKS   # the CPU demo's tasks apply in the mini-suite only
    plan = plan_chain(CHAINS['train'], {}, {'suite': 'cuda-l1:h100'})      # a flat -p suite: every stage with the field
    assert {plan[s]['suite'] for s in ('collect', 'selftrain', 'rl')} == {'cuda-l1:h100'}
    plan = plan_chain(CHAINS['train'], {}, profile='cpu-demo')              # nothing set: the first stage's default, shown
    assert {plan[s]['suite'] for s in ('collect', 'selftrain', 'rl')} == {'minibench'}
    assert set(WORLD) <= set(plan_world(plan)[0])


def test_earlier_names_still_work_with_a_warning():
    with pytest.warns(FutureWarning, match="'lr' is deprecated, use 'learning_rate'"):
        plan = plan_chain(CHAINS['train'], {}, {'lr': '1e-3'})            # a flat earlier name reaches the stages that had it
    assert plan['sft']['learning_rate'] == plan['selftrain']['learning_rate'] == '1e-3' and 'lr' not in plan['sft']
    with pytest.warns(FutureWarning, match="'device' is deprecated, use 'eval_device'"):
        assert plan_chain(('augment',), {'augment': {'device': 'cuda'}})['augment']['eval_device'] == 'cuda'
    with pytest.warns(FutureWarning, match="'device' no longer sets 'eval_device'"):   # an old collect config: device meant judging
        assert plan_chain(('collect',), {'collect': {'device': 'cuda'}})['collect']['eval_device'] == 'cuda'
    with warnings.catch_warnings():
        warnings.simplefilter('error')                                      # the current names: no warning
        plan = plan_chain(CHAINS['train'], {}, {'device': 'cuda', 'eval_device': 'cuda:1', 'learning_rate': '1e-4'})
    assert {plan[s]['eval_device'] for s in CHAINS['train']} == {'cuda:1'}
    assert 'device' not in plan['augment']                                 # augment trains nothing: a flat device is not its
    with pytest.raises(ValueError, match="give only 'learning_rate'"): plan_chain(('sft',), {'sft': {'lr': 1, 'learning_rate': 2}})


@pytest.mark.parametrize('config, msg', [
    ({'collect': {'suite': 'kernelbnech'}}, "stage collect: unknown suite 'kernelbnech'"),
    ({'rl': {'suite': 'cuda-l1:tpu'}}, "stage rl: unknown suite 'cuda-l1:tpu'"),
    ({'selftrain': {'suite': '/no/such/tasks'}}, "stage selftrain: unknown suite '/no/such/tasks'"),
    ({'rl': {'ids': ['minibench/L1/2']}}, "stage rl: task(s) ['minibench/L1/2'] are not in the 'train' split"),
    ({'selftrain': {'ids': ['minibench/L3/8']}}, "stage selftrain: task(s) ['minibench/L3/8'] are not in the 'train' split"),
    ({'sft': {'model': '/no/such/model'}}, "stage sft: model '/no/such/model': no such file or directory"),
    ({'rl': {'mode': 'evolve', 'backend': 'hf:./no/such/model'}}, "stage rl: model './no/such/model': no such file or directory"),
])
def test_bad_input_refused_at_plan_time(config, msg):
    with pytest.raises(ValueError) as e: plan_chain(CHAINS['train'], config)
    assert msg in str(e.value), str(e.value)


def test_missing_init_refused_at_plan_time():
    with pytest.raises(ValueError) as e: plan_chain(('selftrain', 'rl'), {'selftrain': {'init': '/no/such/run'}})
    assert 'stage selftrain:' in str(e.value) and '/no/such/run' in str(e.value)


def test_cli_refuses_an_unknown_suite_before_anything_runs(tmp_path):
    p = cudal1('run', '-p', 'suite', 'kernelbnech', env=dict(CUDAL1_BASE_DIR=str(tmp_path/'base')))
    assert p.returncode == 2 and "unknown suite 'kernelbnech'" in p.stderr, p.stderr[-2000:]
    assert not (tmp_path/'base'/'runs').exists()


def test_one_config_file_run_stage_by_stage():
    "A whole pipeline's config file drives a run of later stages alone: their world is the earlier section's suite; a misspelt section is refused."
    from cudal1_nb.pipeline import plan_chain, plan_world
    cfg = {'collect': {'suite': 'cuda-l1:h100', 'eval_device': 'cuda'}, 'sft': {'eval_device': 'cuda'},
           'selftrain': {'eval_device': 'cuda'}, 'rl': {'eval_device': 'cuda'}}
    for chain in (('sft',), ('selftrain', 'rl'), ('rl',)):
        world = plan_world(plan_chain(chain, cfg, {}, 'stage-defaults'))
        assert [r['suite'] for r in world] == ['cuda-l1:h100'] * len(chain), (chain, world)
    with pytest.raises(ValueError, match=r"\['colect'\] are not stages"):
        plan_chain(('sft',), dict(cfg, colect={}), {}, 'stage-defaults')


def test_training_device_may_name_a_gpu():
    "`device` (where the model trains) takes 'cuda:N' in every training stage, as `eval_device` does; a malformed one is refused at plan time."
    plan = plan_chain(CHAINS['train'], {}, {'device': 'cuda:1', 'eval_device': 'cuda:0'}, profile='cpu-demo')
    assert [(plan[s]['device'], plan[s]['eval_device']) for s in ('sft', 'selftrain', 'rl')] == [('cuda:1', 'cuda:0')] * 3
    with pytest.raises(ValueError, match="'auto', 'cpu', 'cuda' or 'cuda:N'"): plan_chain(('sft',), {'sft': {'device': 'cuda:one'}})


TRAINING_ON = """
import json, os
from cudal1_nb.gpus import training_on
out = [training_on('cpu'), training_on('auto'), os.environ.get('CUDA_VISIBLE_DEVICES'), os.environ.get('CUDAL1_GPUS')]
try: training_on('cuda:1')
except ValueError as e: out.append(str(e))
print(json.dumps(out + [os.environ.get('CUDA_VISIBLE_DEVICES')]))
"""

def test_training_on_a_machine_without_a_gpu():
    "On a CPU machine: 'cpu' and 'auto' train on the CPU and leave the environment alone; a named GPU is a clear error, nothing changed."
    import subprocess, sys, os
    env = {k: v for k, v in os.environ.items() if k not in ('CUDA_VISIBLE_DEVICES', 'CUDAL1_GPUS')}
    p = subprocess.run([sys.executable, '-c', TRAINING_ON], capture_output=True, text=True, timeout=300, env=env)
    assert p.returncode == 0, p.stderr[-2000:]
    cpu, auto, vis, host, err, vis_after = json.loads(p.stdout.strip().splitlines()[-1])
    try:
        import torch
        if torch.cuda.is_available(): pytest.skip('this machine has a GPU')
    except ImportError: pass
    assert (cpu, auto, vis, host, vis_after) == ('cpu', 'cpu', None, None, None)
    assert "device 'cuda:1': torch sees no GPU" in err, err
