"""The device lock between jobs: shared work lets a waiting timing pass, and nothing changes where none waits."""
import multiprocessing as mp, time
from cudal1_nb.device import device_lock, flock, timing_waits
from cudal1_nb.job.setup import DeviceLock


def _timing(path, q, hold_s):
    "A timing in its own process: the lock exclusive for `hold_s`; puts (got, released) on `q`."
    with flock(path, 'ex'):
        got = time.time(); time.sleep(hold_s)
    q.put((got, time.time()))


def test_shared_work_lets_a_waiting_timing_pass(tmp_path):
    path = device_lock('cuda', '0', root=tmp_path)
    lock = DeviceLock(path, 'cuda')
    try:
        lock.acquire('sh')
        lock.let_timing_pass()   # no timing waits: the hold goes on
        assert len(lock.holds) == 1 and lock.passed_s == 0.0 and not timing_waits(path)
        # spawned, not forked: a forked child would share (and so keep) this process's shared hold
        q = mp.get_context('spawn').Queue()
        t = mp.get_context('spawn').Process(target=_timing, args=(path, q, 0.3)); t.start()
        for _ in range(200):   # the timing holds the gate while it waits for our shared hold to end
            if timing_waits(path): break
            time.sleep(0.01)
        else: raise AssertionError("the timing never waited")
        lock.let_timing_pass()
        back = time.time()
        got, released = q.get(timeout=10); t.join(10)
        assert got < back and released <= back + 0.05, "the timing ran while this job was away, and the job came back after it"
        assert [k for k, *_ in lock.holds] == ['sh', 'sh'] and lock.holds[0][2] is not None
        assert lock.holds[1][1] >= released - 0.05 and lock.passed_s >= 0.25
    finally: lock.release()


def test_cpu_lock_never_lets_go(tmp_path):
    "On the CPU the lock is exclusive from the start and stays so: a timing passes nowhere."
    lock = DeviceLock(device_lock('cpu', root=tmp_path), 'cpu')
    try:
        lock.let_timing_pass()
        assert len(lock.holds) == 1 and lock.holds[0][0] == 'ex' and lock.passed_s == 0.0
    finally: lock.release()
