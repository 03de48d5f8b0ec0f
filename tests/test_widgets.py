"""Headless tests of the variant browser: set widget values as a user would, assert on what is shown."""
import pytest
from conftest import FIXTURES, shared_file

pytest.importorskip('ipywidgets')
from cudal1_nb.store import Store
from cudal1_nb.widgets import VariantBrowser


def test_browser_on_fixture_release(tmp_path):
    st = Store(tmp_path/'s.sqlite')
    st.import_release(FIXTURES/'release_small.jsonl')
    b = VariantBrowser(st, suite='kernelbench')
    with_code = [tid for _, tid in b.task.options if st.candidates(tid)]
    b.task.value = with_code[0]
    assert b.variants.options and b.variants.value == (b.variants.options[0][1],)
    assert 'reference' in b.diff.value and 'diff_' in b.diff.value            # a side-by-side diff against the reference
    assert 'published' in b.results.value and '×' in b.results.value          # published speedups per baseline
    b.baseline.value = 'cudnn'
    assert '<th>cudnn</th>' in b.results.value
    b.variants.value = ()
    assert 'Reference' in b.diff.value and 'no evaluations' in b.results.value
    assert b.plot.to_dict()['data'] == () or not b.plot.to_dict()['data']
    assert 'no evaluations' in b.plot.layout.title.text


def test_browser_with_the_whole_release(tmp_path):
    rel = shared_file('data', 'cuda-l1')
    st = Store(tmp_path/'s.sqlite')
    for g in ('a100', 'h100', 'l40', '3090', 'h20'): st.import_release(rel/f'{g}.jsonl')
    b = VariantBrowser(st, 'kernelbench/L2/96')
    labels = [lab for lab, _ in b.variants.options]
    h100 = next(v for lab, v in b.variants.options if 'h100' in lab.split(' · ')[-1].split())   # the program released for the H100
    b.variants.value = (h100,)
    assert '<td>h100</td>' in b.results.value and '368' in b.results.value      # the published 368.2x of L2/96 on the H100
    bars = {t['name']: list(t['y']) for t in b.plot.to_dict()['data']}
    assert bars.get('h100 (published)') == [pytest.approx(368.2, abs=0.1)], bars   # the chart shows the same figure
    assert '<th>h100</th>' in b.board.value and '<th>a100</th>' in b.board.value, labels
    two = tuple(v for _, v in b.variants.options[:2])
    b.variants.value = two
    assert b.diff.value.count('<table class="diff"') == 1                     # the second variant against the first
