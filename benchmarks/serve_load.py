"""What the reward service costs over the harness itself: requests per second for answers the store already has, and
the latency a judged program gains through `cudal1 serve` over a direct `evaluate` call.

    python benchmarks/serve_load.py [--requests 2000] [--clients 16] [--n 6] [--device cpu] [--budget 0.02] [--json OUT]

Starts `cudal1 serve` on a free loopback port (a fresh base directory, a token), then:

1. **cached answers**: one mini-suite program judged once, then `--requests` submissions of it from `--clients`
   concurrent clients (`POST /v1/jobs`, each answered from the store at once): requests per second over the whole
   run, and the latency percentiles of one request;
2. **judged programs**: `--n` programs never seen before (the same program with a numbered comment, so each is
   really judged), one at a time, alternating between `evaluate(task, [program])` in this process -- with a warm
   sandbox pool kept across calls (`pool=`), and with a new one per call as `evaluate` makes by default -- and the
   service (submit, then long polls until the answer). The added latency is the median of (service - direct, warm
   pool) over the pairs.

Both sides use the same harness settings (`--budget` s of timing per side, 1 check seed, 3-5 trials: the service's
overhead is what is measured, not the timing). Prints one line per figure and, with `--json`, writes them."""
import argparse, asyncio, json, os, platform, signal, socket, statistics, subprocess, sys, tempfile, time, uuid
from pathlib import Path
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser


def _port():
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); return s.getsockname()[1]

def pct(xs, q): return statistics.quantiles(xs, n=100)[q - 1] if len(xs) > 1 else xs[0]


async def cached_load(url, hdr, body, requests, clients):
    "Submissions answered from the store: (seconds, per-request latencies)."
    import httpx
    lat, left = [], list(range(requests))
    async def worker(c):
        while left:
            left.pop()
            t = time.perf_counter(); r = await c.post('/v1/jobs', json=body)
            assert r.status_code == 200 and r.json()['status'] == 'done', r.text
            lat.append(time.perf_counter() - t)
    t0 = time.perf_counter()
    async with httpx.AsyncClient(base_url=url, headers=hdr, timeout=60, limits=httpx.Limits(max_connections=clients)) as c:
        await asyncio.gather(*[worker(c) for _ in range(clients)])
    return time.perf_counter() - t0, lat


def through_service(url, hdr, body):
    "Submit one new program and long-poll until its answer: (seconds, answer)."
    import httpx
    with httpx.Client(base_url=url, headers=hdr, timeout=120) as c:
        t = time.perf_counter()
        j = c.post('/v1/jobs', json=body).json()
        while j['status'] != 'done': j = c.get(f"/v1/jobs/{j['id']}", params={'wait': 30}).json()
        return time.perf_counter() - t, j['answer']


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('--requests', type=int, default=2000); ap.add_argument('--clients', type=int, default=16)
    ap.add_argument('--n', type=int, default=6, help='new programs judged per side')
    ap.add_argument('--device', default='cpu'); ap.add_argument('--budget', type=float, default=0.02)
    ap.add_argument('--json', default='')
    a = ap.parse_args(argv)
    base = Path(tempfile.mkdtemp(prefix='cudal1-serve-bench-'))
    os.environ['CUDAL1_BASE_DIR'] = str(base / 'direct')
    import httpx
    from cudal1_nb.eval import EvalConfig, evaluate, harness_version
    from cudal1_nb.executor import LocalExecutor
    from cudal1_nb.minibench import minibench_tasks, minibench_variants
    harness = dict(budget_s=a.budget, warmup=1, min_trials=3, max_trials=5, n_seeds=1, ci_target=0.5, workers=2)
    task = minibench_tasks()[0]
    prog = minibench_variants(task)[0].code
    port, tok = _port(), uuid.uuid4().hex
    env = {**os.environ, 'CUDAL1_BASE_DIR': str(base / 'served'), 'CUDAL1_SERVE_TOKEN': tok}
    ps = [x for k, v in harness.items() for x in ('-p', k, str(v))]
    srv = subprocess.Popen([sys.executable, '-m', 'cudal1_nb', 'serve', '--device', a.device, '--port', str(port), *ps, '--set', 'max_per_client', str(10 * a.requests),
                            '--set', 'max_queue', str(10 * a.requests)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    url, hdr, out = f'http://127.0.0.1:{port}', {'Authorization': f'Bearer {tok}'}, {}
    try:
        for _ in range(600):
            try:
                if httpx.get(url + '/v1/health', timeout=2).status_code == 200: break
            except httpx.HTTPError: assert srv.poll() is None, srv.stderr.read()[-2000:]
            time.sleep(0.1)
        first, ans = through_service(url, hdr, dict(task_id=task.id, program=prog))
        assert ans['verdict'] == 'ok', ans['reason']
        secs, lat = asyncio.run(cached_load(url, hdr, dict(task_id=task.id, program=prog), a.requests, a.clients))
        out['cached'] = dict(requests=a.requests, clients=a.clients, seconds=round(secs, 2), rps=round(a.requests / secs, 1),
                             p50_ms=round(1e3 * pct(lat, 50), 1), p90_ms=round(1e3 * pct(lat, 90), 1), p99_ms=round(1e3 * pct(lat, 99), 1))
        print(f"cached answers: {a.requests} submissions from {a.clients} concurrent clients in {secs:.1f} s: {a.requests / secs:.0f} requests/s; "
              f"latency p50 {1e3 * pct(lat, 50):.0f} ms, p90 {1e3 * pct(lat, 90):.0f} ms, p99 {1e3 * pct(lat, 99):.0f} ms", flush=True)
        cfg = EvalConfig(**harness)
        warm, pairs = LocalExecutor(2), []
        evaluate(task, [prog + '# warm-up\n'], device=a.device, cfg=cfg, pool=warm)   # the warm pool's workers started
        for i in range(a.n):
            t = time.perf_counter(); d, = evaluate(task, [prog + f'# direct warm {i}\n'], device=a.device, cfg=cfg, pool=warm); dw = time.perf_counter() - t
            t = time.perf_counter(); e, = evaluate(task, [prog + f'# direct cold {i}\n'], device=a.device, cfg=cfg); dc = time.perf_counter() - t
            sv, s = through_service(url, hdr, dict(task_id=task.id, program=prog + f'# served {i}\n'))
            assert d.verdict == e.verdict == s['verdict'] == 'ok' and not s['cached'], (d.reason, e.reason, s['reason'])
            pairs.append((dw, dc, sv))
            print(f"  program {i}: direct (warm pool) {dw:.2f} s, direct (new pool) {dc:.2f} s, service {sv:.2f} s", flush=True)
        warm.close()
        med = lambda xs: statistics.median(xs)
        add = [sv - dw for dw, _, sv in pairs]
        out['judged'] = dict(n=a.n, direct_warm_s=round(med([p[0] for p in pairs]), 3), direct_new_pool_s=round(med([p[1] for p in pairs]), 3),
                             service_s=round(med([p[2] for p in pairs]), 3), added_s=round(med(add), 3), added_min_s=round(min(add), 3), added_max_s=round(max(add), 3),
                             first_program_s=round(first, 3))
        j = out['judged']
        print(f"judged programs (n={a.n} each, one at a time): direct evaluate with a warm pool median {j['direct_warm_s']:.2f} s, with a new pool "
              f"{j['direct_new_pool_s']:.2f} s; through the service {j['service_s']:.2f} s; added over the warm direct call: median "
              f"{j['added_s']:+.2f} s (range {j['added_min_s']:+.2f} to {j['added_max_s']:+.2f} s)")
        out.update(harness_version=harness_version(), device=a.device, host=platform.node(), cpus=os.cpu_count(), harness=harness,
                   load_avg=os.getloadavg()[0])
        if a.json: Path(a.json).write_text(json.dumps(out, indent=1) + '\n')
    finally:
        os.killpg(srv.pid, signal.SIGTERM); srv.wait(30)


if __name__ == '__main__': main()
