"Download helpers, tried for real against the shipped fixture served from 127.0.0.1."
import json, shutil
from pathlib import Path
import pytest
from conftest import cudal1, FIXTURES
from cudal1_nb.download import serve_dir, make_fixture_tarball, download_cudal1, download_kernelbench, DownloadError


@pytest.fixture
def server(tmp_path):
    d = tmp_path/'srv'; shutil.copytree(FIXTURES/'download', d)
    make_fixture_tarball(FIXTURES/'download', d/'kb.tar.gz')
    url, srv = serve_dir(d)
    yield url
    srv.shutdown()


def test_cudal1_download_is_cached(server, base_dir):
    got = download_cudal1(['h100'], base_url=server)
    p = got['h100']
    assert p == base_dir/'downloads'/'cuda-l1'/'h100.jsonl'
    assert p.read_bytes() == (FIXTURES/'download'/'optimized_cuda_code'/'h100.json').read_bytes()
    mtime = p.stat().st_mtime_ns
    assert download_cudal1(['h100'], base_url='http://127.0.0.1:9/unreachable')['h100'] == p   # cache hit, no network
    assert p.stat().st_mtime_ns == mtime
    with pytest.raises(DownloadError, match='404'): download_cudal1(['a100'], base_url=server)
    assert not (base_dir/'downloads'/'cuda-l1'/'a100.jsonl').exists()       # nothing half-written
    with pytest.raises(ValueError, match='unknown CUDA-L1 file'): download_cudal1(['v100'], base_url=server)


def test_json_array_release_is_converted(tmp_path, server):
    rows = [json.loads(l) for l in (FIXTURES/'download'/'optimized_cuda_code'/'h100.json').read_text().splitlines()]
    srv = tmp_path/'srv'; (srv/'optimized_cuda_code'/'l40.json').write_text(json.dumps(rows))
    p = download_cudal1(['l40'], base_url=server, dest=tmp_path/'dl')['l40']
    assert [json.loads(l) for l in p.read_text().splitlines()] == rows


def test_kernelbench_download_extracts_only_levels(server, tmp_path):
    d = download_kernelbench(server + '/kb.tar.gz', dest=tmp_path/'kb')
    assert sorted(str(p.relative_to(d)) for p in d.rglob('*') if p.is_file()) == \
        ['.complete', 'level1/1_Fixture_Scale.py', 'level2/1_Fixture_Linear_Relu.py']


def test_cli_download_then_list(server, base_dir):
    env = {'CUDAL1_KERNELBENCH_URL': server + '/kb.tar.gz', 'CUDAL1_CUDAL1_URL': server}
    r = cudal1('download', 'kernelbench', env=env); assert r.returncode == 0, r.stderr
    r = cudal1('tasks', 'kernelbench', '--json', env=env); assert r.returncode == 0, r.stderr
    rows = [json.loads(l) for l in r.stdout.splitlines()]
    assert [x['id'] for x in rows] == ['kernelbench/L1/1', 'kernelbench/L2/1'] and all(x['status'] == 'ok' for x in rows)
    r = cudal1('tasks', 'cuda-l1:h100', '--json', env=env); assert r.returncode == 0, r.stderr
    assert len(r.stdout.splitlines()) == 2
