"The results' rule: small tracked files, a small tree, READMEs that open with the required fields, no development vocabulary in user docs."
import ast, io, json, re, subprocess, tokenize
from pathlib import Path
import pytest
from conftest import ROOT, RESULTS, H100_ON_H100, H100_ON_H200, A100_ON_H100

MB = 1 << 20
FIELDS = ('question', 'command', 'commit', 'harness version', 'device', 'answer')
VOCAB = [re.compile(p, re.I) for p in (
    r'\bs1[0-9][a-d]?\b',                               # run labels: s13, s17a, s18b
    r'\blease\s*\d*\b', r'\bleases\b', r'\bsessions?[ -]\d+', r'\bsession-\d+', r'\bissue \d+', r"\bissue's\b",
    r"\bhelpers'", r'\bhelpers? (?:ran|run|session|engineer)', r'\.cudal1/', r'\.dv/')]


def tracked():
    "(path, size) of every tracked file that exists in the work tree."
    try: out = subprocess.run(['git', 'ls-files', '-z'], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError): pytest.skip('not a git checkout')
    return [(p, (ROOT/p).stat().st_size) for p in out.decode().split('\0') if p and (ROOT/p).is_file()]


def vocab(text:str)->list: return [m.group(0) for p in VOCAB for m in p.finditer(text)]


def test_vocab_patterns():
    assert vocab('audited in session 17 (s17a, lease 2; issue 14)') == ['s17a', 'lease 2', 'session 17', 'issue 14']
    assert vocab('harness 0.1.0+2f106fdfc11f on sm_90, s1 seeds, 18 tasks, the helper function') == []


def test_no_large_results_file():
    big = [f"{p} ({n / MB:.1f} MB)" for p, n in tracked() if p.startswith('results/') and n > 2 * MB]
    assert not big, f"results files over 2 MB (gzip or summarise them): {big}"


def test_tracked_tree_is_small():
    total = sum(n for _, n in tracked())
    assert total <= 12 * MB, f"the tracked tree is {total / MB:.1f} MB (limit 12 MB)"


def test_every_result_folder_opens_with_the_required_fields():
    folders = [d for d in sorted(RESULTS.iterdir()) if d.is_dir()]
    assert folders and all(re.fullmatch(r'\d{4}-\d{2}-\d{2}-[a-z0-9][a-z0-9.-]*', d.name) for d in folders), [d.name for d in folders]
    for d in folders:
        head = '\n'.join((d/'README.md').read_text().splitlines()[:15]).lower()
        miss = [f for f in FIELDS if f not in head]
        assert not miss, f"{d.name}/README.md does not open with {miss}"
    index = (RESULTS/'README.md').read_text()
    log = (RESULTS/'LOG.md').read_text()
    assert all(f"{d.name}/" in index and f"{d.name}/" in log for d in folders), 'every folder in the index and the log'


def _comments_and_docstrings(src:str)->str:
    out = [t.string for t in tokenize.generate_tokens(io.StringIO(src).readline) if t.type == tokenize.COMMENT]
    for n in ast.walk(ast.parse(src)):
        if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and (d := ast.get_docstring(n)): out.append(d)
    return '\n'.join(out)


def _user_docs():
    "(name, text) of the user-facing prose: README, results' markdown, notebooks' markdown cells, the package's comments and docstrings."
    yield 'README.md', (ROOT/'README.md').read_text()
    for p in sorted(RESULTS.rglob('*.md')): yield str(p.relative_to(ROOT)), p.read_text()
    for p in sorted((ROOT/'nbs').glob('*.ipynb')):
        cells = json.loads(p.read_text())['cells']
        yield str(p.relative_to(ROOT)), '\n'.join(''.join(c['source']) for c in cells if c['cell_type'] == 'markdown')
    for p in sorted((ROOT/'cudal1_nb').glob('*.py')): yield str(p.relative_to(ROOT)), _comments_and_docstrings(p.read_text())


@pytest.mark.parametrize('name,text', list(_user_docs()), ids=lambda x: x if isinstance(x, str) and len(x) < 60 else '')
def test_no_development_vocabulary(name, text):
    assert not (v := vocab(text)), f"{name}: development vocabulary {sorted(set(v))}"


def test_committed_evaluations_read_gzipped():
    from cudal1_nb.store import read_evals
    for p, n in ((H100_ON_H100, 210), (H100_ON_H200, 210), (A100_ON_H100, 112)):
        rows = read_evals(p)
        assert p.suffix == '.gz' and len(rows) == n and all('verdict' in r for r in rows)
