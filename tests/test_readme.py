"The README is a user's document: small, its links alive, its code runnable as written."
import re, json, subprocess, sys, textwrap
from pathlib import Path
import pytest
from conftest import ROOT

README = ROOT/'README.md'

def _blocks(lang):
    return re.findall(rf'```{lang}\n(.*?)```', README.read_text(), re.S)

def test_readme_is_small_and_keeps_the_two_commands():
    text = README.read_text()
    assert len(text.encode()) <= 15 * 1024, f"README.md is {len(text.encode())} bytes; keep it <= 15 KB (history goes to results/LOG.md and CHANGELOG.md)"
    cmds = [l for l in re.search(r'## Two commands.*?```bash\n(.*?)```', text, re.S)[1].splitlines() if l.strip() and not l.lstrip().startswith('#')]
    assert len(cmds) == 2, cmds

def test_every_path_the_readme_names_exists():
    text = README.read_text()
    paths = set(re.findall(r'\((results/[^)\s#]+)', text)) | set(re.findall(r'`((?:results|nbs|data|benchmarks|tests)/[\w./-]+)`', text))
    paths |= set(re.findall(r'\b(nbs/\d\w*\.ipynb)', text))
    missing = sorted(p for p in paths if not any(ROOT.glob(p.rstrip('/'))))
    assert not missing, f"README.md names paths that do not exist: {missing}"
    for f in ('LICENSE', 'CITATION.cff', 'CHANGELOG.md', 'CONTRIBUTING.md'): assert (ROOT/f).exists(), f

def test_every_notebook_is_in_the_readme_table():
    text = README.read_text()
    nbs = sorted(p.stem for p in (ROOT/'nbs').glob('[0-9]*.ipynb'))
    ranges = re.findall(r'`(\w+)` \.\.\. `(\w+)`', text)   # a row may name a run of notebooks: `03d_contract` ... `03i_verdict`
    assert [n for n in nbs if f'`{n}' not in text and not any(a <= n <= b for a, b in ranges)] == []

def test_the_readme_evaluate_snippet_runs(tmp_path):
    "The plain `evaluate` call, as the README writes it, on the mini-suite (CPU, in a subprocess)."
    snip = next(b for b in _blocks('python') if 'evaluate(' in b and 'KernelReward' not in b)
    prog = ROOT/'data'/'minibench'/'variants'/'level1'/'1_Diag_Matmul_Column_Scale'/'broadcast.py'
    (tmp_path/'cand.py').write_text(prog.read_text())   # the snippet reads the user's program from cand.py
    code = snip + "\nprint(json.dumps([r.verdict, r.speedups['eager'] > 1]))"
    p = subprocess.run([sys.executable, '-c', 'import json\n' + code], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-2000:]
    assert json.loads(p.stdout.strip().splitlines()[-1]) == ['ok', True]

def test_the_readme_trl_snippet_runs(tmp_path):
    "The TRL snippet with `KernelReward`, as written, for one GRPO step of a tiny model on the CPU."
    pytest.importorskip('trl')
    snip = next(b for b in _blocks('python') if 'KernelReward' in b)
    assert 'GRPOConfig(...)' in snip and "device='cuda:1'" in snip and "training_on('cuda:0')" in snip
    snip = snip.replace("device='cuda:1'", "device='cpu'").replace("training_on('cuda:0')", "training_on('cpu')").replace('optimize_prompt(t)', "optimize_prompt(t, device='cpu')")
    snip = snip.replace('GRPOConfig(...)', "GRPOConfig(output_dir='out', max_steps=1, per_device_train_batch_size=2, num_generations=2, "
                        "max_completion_length=16, report_to='none', use_cpu=True, save_strategy='no', disable_tqdm=True)")
    code = textwrap.dedent(f"""
        import json
        from cudal1_nb.tasks import load_tasks
        from cudal1_nb.generate import make_tiny_lm
        MODEL_PATH = str(make_tiny_lm('tiny'))
        tasks = {{t.id: t for t in load_tasks('minibench', validate=False, ids=['minibench/L1/1'])}}
    """) + snip + "\ntrainer.train()\nprint(json.dumps([len(reward.rollouts), sorted({r.verdict for r in reward.rollouts})]))\n"
    p = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-3000:]
    n, verdicts = json.loads(p.stdout.strip().splitlines()[-1])
    assert n == 2 and verdicts, (n, verdicts)
