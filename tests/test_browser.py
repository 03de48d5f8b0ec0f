"""A real browser drives the variant browser in JupyterLab: JupyterLab headless, Debian's chromium through Playwright.

It runs a notebook that loads the fixture release into a store and shows the browser and a plotly chart, then picks
another task in the task dropdown and waits for the diff and the speedups to follow (a browser -> kernel -> HTML round
trip). A screenshot is saved next to the notebook (and copied to $CUDAL1_SCREENSHOT if set). Skipped when chromium,
playwright or jupyterlab is missing."""
import json, os, shutil, socket, subprocess, sys, time, urllib.request
from pathlib import Path
import pytest
from conftest import FIXTURES, ROOT

CHROMIUM = shutil.which('chromium') or shutil.which('chromium-browser')
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason='no chromium (apt-get install -y chromium)')

CELLS = [
    "import os\nos.environ['HF_HUB_OFFLINE'] = '1'\nfrom pathlib import Path\nfrom cudal1_nb.store import Store\nfrom cudal1_nb.widgets import VariantBrowser\n"
    "from cudal1_nb.analysis import release_results, plot_distributions",
    f"st = Store(Path('store.sqlite'))\nst.import_release({str(FIXTURES/'release_small.jsonl')!r})\nb = VariantBrowser(st, 'kernelbench/L1/1')\nb",
    f"plot_distributions(dict([release_results({str(FIXTURES/'release_small.jsonl')!r})]))",
]


def _free_port():
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); return s.getsockname()[1]


def test_variant_browser_in_jupyterlab(tmp_path):
    sync_api = pytest.importorskip('playwright.sync_api')
    pytest.importorskip('jupyterlab')
    nb = dict(nbformat=4, nbformat_minor=5, metadata=dict(kernelspec=dict(name='python3', display_name='python3', language='python')),
              cells=[dict(cell_type='code', id=f"c{i}", metadata={}, source=src, outputs=[], execution_count=None) for i, src in enumerate(CELLS)])
    (tmp_path/'browser.ipynb').write_text(json.dumps(nb))
    port = _free_port()
    env = {**os.environ, 'PYTHONPATH': os.pathsep.join([str(ROOT), os.environ.get('PYTHONPATH', '')]), 'CUDAL1_BASE_DIR': str(tmp_path/'base')}
    lab = subprocess.Popen([sys.executable, '-m', 'jupyterlab', '--no-browser', f'--port={port}', '--ip=127.0.0.1', '--allow-root',
                            "--IdentityProvider.token=", "--ServerApp.password=", f'--ServerApp.root_dir={tmp_path}'],
                           stdout=subprocess.DEVNULL, stderr=open(tmp_path/'lab.log', 'w'), env=env)
    t0 = time.time()
    try:
        while True:
            try: urllib.request.urlopen(f'http://127.0.0.1:{port}/lab', timeout=2); break
            except OSError:
                if time.time() - t0 > 60 or lab.poll() is not None: pytest.fail('JupyterLab did not start:\n' + (tmp_path/'lab.log').read_text()[-2000:])
                time.sleep(0.5)
        args = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
                '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage']
        with sync_api.sync_playwright() as p:
            br = p.chromium.launch(executable_path=CHROMIUM, args=args)
            page = br.new_page(viewport=dict(width=1400, height=1000))
            errors = []
            page.on('pageerror', lambda e: errors.append(str(e)))
            page.goto(f'http://127.0.0.1:{port}/lab/tree/browser.ipynb')
            page.wait_for_selector('.jp-Notebook', timeout=60000)
            try:   # the kernel must be up before Run All does anything
                page.wait_for_function("() => /\\bIdle\\b/.test(document.querySelector('#jp-main-statusbar')?.innerText || '')", timeout=60000)
                for attempt in range(3):
                    page.get_by_text('Run', exact=True).first.click()
                    page.get_by_text('Run All Cells', exact=True).first.click()
                    try: page.wait_for_selector('.jp-OutputArea-output', timeout=20000); break
                    except sync_api.TimeoutError: page.keyboard.press('Escape')
                page.wait_for_selector('.widget-html table.diff', timeout=90000)
                page.wait_for_selector('.js-plotly-plot', timeout=60000)
            except sync_api.TimeoutError:
                page.screenshot(path=str(tmp_path/'failed.png'), full_page=True)
                outs = page.locator('.jp-OutputArea-output').all_inner_texts()
                pytest.fail(f"widgets did not render; outputs: {[o[:300] for o in outs]}; screenshot {tmp_path/'failed.png'}; lab log:\n" + (tmp_path/'lab.log').read_text()[-1500:])
            results = page.locator('.widget-html').filter(has_text='all baselines').first
            assert '1.06' in results.inner_text()   # L1/1: published 1.0625x
            page.locator('.widget-dropdown select').first.select_option(value=None, label=next(
                o for o in page.locator('.widget-dropdown select').first.locator('option').all_inner_texts() if o.startswith('kernelbench/L2/7')))
            page.wait_for_function("() => [...document.querySelectorAll('.widget-html')].some(e => e.innerText.includes('all baselines') && e.innerText.includes('3×'))", timeout=30000)
            assert page.locator('.widget-html table.diff').count() >= 1
            # the browser's own chart follows the task (its title names it) and has bars
            page.wait_for_function("() => [...document.querySelectorAll('.js-plotly-plot .gtitle')].some(e => e.textContent.includes('L2/7: speedup'))", timeout=30000)
            assert page.locator('.js-plotly-plot .bars .point').count() >= 1
            page.locator('.js-plotly-plot').first.scroll_into_view_if_needed()   # the screenshot shows the results table and the chart
            shot = tmp_path/'variant_browser.png'
            page.screenshot(path=str(shot), full_page=True)
            br.close()
        assert shot.stat().st_size > 10000 and not errors, errors
        if os.environ.get('CUDAL1_SCREENSHOT'): shutil.copy(shot, os.environ['CUDAL1_SCREENSHOT'])
        print(f"browser test {time.time() - t0:.1f} s; screenshot {shot}")
    finally:
        lab.terminate()
        try: lab.wait(10)
        except subprocess.TimeoutExpired: lab.kill()
