"""torch's global switches: every one a program can set is in the harness's snapshot (`job.switches.switches`), which
sees a change to it and puts it back. The walks here are the test's own, not the harness's discovery: when a torch
upgrade adds a switch the snapshot misses, they fail, naming it; whatever they find that is no switch is listed below
with the reason."""
import importlib, inspect, pkgutil, re, sys, types, warnings
import pytest
import torch
from cudal1_nb.job import switches as T

SKIP_MODULES = {'torch.backends.xeon.run_cpu': 'a launcher script (`python -m`): no state of the process that imports it'}

# setters of torch and torch._C that set no global switch of how ops run (or one read under another name)
NOT_SETTERS = {
    'torch._C._set_conj': "a flag of one tensor", 'torch._C._set_neg': "a flag of one tensor",
    'torch._C._set_tensor_metadata': "metadata of one tensor",
    'torch._C._set_throw_on_mutable_data_ptr': "a flag of one tensor",
    'torch._C._set_warn_deprecated_on_mutable_data_ptr': "a flag of one tensor",
    'torch._C._set_cached_tensors_enabled': "CUDA-graph trees' bookkeeping of their cached tensors (no getter)",
    'torch._C._set_default_mobile_cpu_allocator': "the allocator of the mobile (lite) interpreter",
    'torch._C._set_default_tensor_type': "deprecated: sets the default dtype (read as default_dtype) and a legacy tensor type",
    'torch.set_default_tensor_type': "deprecated: sets the default dtype (read as default_dtype) and a legacy tensor type",
    'torch._C._set_fp32_precision_setter': "the setter behind every `fp32_precision` of torch.backends (each read per backend and op)",
    'torch._C._set_generator_metaclass': "Python's generator class, set once at import",
    'torch._C._set_graph_exec_group': "TorchScript's graph executor group",
    'torch._C._set_print_stack_traces_on_fatal_signal': "crash reporting",
    'torch._C._set_should_use_format_with_string_table': "the pickling format of saved programs",
    'torch._C._set_skip_next_torch_function': "a one-shot flag of the dispatcher's current call",
    'torch._C._set_thread_name': "the name of the calling thread",
    'torch._C._set_tracing_state': "TorchScript's tracer, set and cleared around `torch.jit.trace`",
    'torch._C._set_value_trace': "TorchScript's tracer",
    'torch._C._set_worker_pids': "DataLoader's worker processes", 'torch._C._set_worker_signal_handlers': "DataLoader's worker processes",
    'torch.set_rng_state': "the random generator's state (the harness seeds every call itself)",
    'torch.set_printoptions': "how tensors print",
    'torch.set_warn_always': "warnings only (read as warnAlways)",
    'torch.set_deterministic_debug_mode': "a view of deterministic_algorithms (read with it)",
    **{f'{m}.set_autocast_{d}_{k}': "a deprecated name of the per-device autocast state (read per device)"
       for m in ('torch', 'torch._C') for d in ('cpu', 'gpu', 'ipu', 'xla') for k in ('enabled', 'dtype')},
}
# what the walk of torch.backends finds settable that it cannot change in this build (or that is read by another name)
NOT_CHANGED = {
    'torch.backends.set_flags': "sets the generic fp32_precision (read as fp32_precision), with a value the walk does not try",
}

STRINGS = ('ieee', 'tf32', 'bf16', 'none', 'greedy', 'optimal', 'auto', 'default', 'cusolver', 'magma', 'cublas', 'cublaslt',
           'hipblaslt', 'ck', 'aotriton', 'x86', 'fbgemm', 'qnnpack', 'onednn', 'high', 'medium', 'highest', 'scaled_mm')


def _alternatives(v):
    "Values to try instead of `v` (of the same kind)."
    if isinstance(v, bool): return [not v]
    if isinstance(v, int): return [v + 1]
    if isinstance(v, str) or v is None: return [s for s in STRINGS if s != v] + ([True, False] if v is None else [])
    return []


def _modules():
    out = {'torch.backends': sys.modules['torch.backends']}
    for i in pkgutil.walk_packages(torch.backends.__path__, 'torch.backends.', onerror=lambda n: None):
        if i.name in SKIP_MODULES: continue
        try: out[i.name] = importlib.import_module(i.name)
        except ImportError: pass
    return out


def _getattr_names(obj):
    "The attribute names a settings object's `__getattr__` source compares `name` with."
    try: src = inspect.getsource(type(obj).__getattr__)
    except (TypeError, OSError): return []
    return sorted(set(re.findall(r'name\s*==\s*["\'](\w+)["\']', src)) | {n for t in re.findall(r'name in \(([^)]*)\)', src) for n in re.findall(r'["\'](\w+)["\']', t)})


def _settable():
    "(qualified name, get, set) of every attribute of torch.backends a program can assign, found by walking it."
    out = []
    for mn, m in _modules().items():
        orig = m.m if isinstance(getattr(m, 'm', None), types.ModuleType) else m
        for c in type(m).__mro__:
            if c in (types.ModuleType, object): break
            for k, d in vars(c).items():
                if not k.startswith('__') and hasattr(type(d), '__set__') and not (isinstance(d, property) and d.fset is None):
                    out.append((f'{mn}.{k}', lambda m=m, k=k: getattr(m, k), lambda v, m=m, k=k: setattr(m, k, v)))
        for k, v in vars(orig).items():
            if not k.startswith('_') and not k.isupper() and (v is None or isinstance(v, (bool, int, float, str))):
                out.append((f'{mn}.{k}', lambda m=m, k=k: getattr(m, k), lambda v, m=m, k=k: setattr(m, k, v)))
        for k, v in list(vars(orig).items()) + list(vars(type(m)).items()):
            if k.startswith('__') or isinstance(v, (types.ModuleType, type)) or callable(v) or type(v).__setattr__ is object.__setattr__: continue
            for a in _getattr_names(v):
                out.append((f'{mn}.{k}.{a}', lambda v=v, a=a: getattr(v, a), lambda x, v=v, a=a: setattr(v, a, x)))
    return out


def _setter_functions():
    "(qualified name, function) of every function of torch.backends whose name says it sets something."
    out = []
    for mn, m in _modules().items():
        orig = m.m if isinstance(getattr(m, 'm', None), types.ModuleType) else m
        fns = [(k, f) for k, f in vars(orig).items() if inspect.isfunction(f)] + [(k, getattr(m, k)) for k, f in vars(type(m)).items() if inspect.isfunction(f)]
        out += [(f'{mn}.{k}', f) for k, f in fns if re.match(r'(set|enable|disable|allow|use|preferred)_', k)]
    return out


def _change(change, moved=None)->str:
    """Run `change()`: 'raised', 'no-op' (`moved()` false; without `moved`, the snapshot saw no change), '' when the
    snapshot saw the change and `put_switches` undid it, else what went wrong."""
    before = T.read_switches()
    try:
        with warnings.catch_warnings(): warnings.simplefilter('ignore'); change()
    except Exception: T.put_switches(before); return 'raised'
    seen = T.read_switches() != before
    if not (moved() if moved else seen): T.put_switches(before); return 'no-op'
    if not seen: T.put_switches(before); return 'the snapshot did not see the change'
    left = T.put_switches(before)
    return f"not put back: {left}" if left or T.read_switches() != before else ''


def _wrong(results:list)->str|None:
    """What went wrong in the results of `_change` for one setter function: a change not put back, or a function that
    accepted both True and False (its first two tries) without the snapshot seeing a change (a switch it does not read)."""
    if (err := [r for r in results if r not in ('', 'raised', 'no-op')]): return err[0]
    if results[:2] == ['no-op', 'no-op'] or results == ['no-op']: return 'the snapshot saw no change with True nor False'
    return None


def test_every_assignable_backends_setting_is_watched_and_put_back():
    found, bad = _settable(), {}
    assert len(found) > 20 and {'torch.backends.mkldnn.enabled', 'torch.backends.cudnn.benchmark', 'torch.backends.cuda.matmul.allow_tf32', 'torch.backends.opt_einsum.enabled'} <= {n for n, *_ in found}
    for name, get, put in found:
        if name in NOT_CHANGED: continue
        try: v = get()
        except Exception: continue   # not readable in this build or state
        res = [_change(lambda x=x: put(x), lambda: get() != v) for x in _alternatives(v)]
        if (r := [x for x in res if x not in ('', 'raised', 'no-op')]): bad[name] = r[0]   # a value it accepted but did not keep is no change
        assert get() == v, name
    assert not bad, bad


def test_every_backends_setter_function_is_watched_and_put_back():
    "Each function that sets something changes what the snapshot reads with one of the values tried, and the change is put back."
    found, bad = _setter_functions(), {}
    assert {'torch.backends.mha.set_fastpath_enabled', 'torch.backends.cuda.enable_flash_sdp', 'torch.backends.cuda.preferred_linalg_library'} <= {n for n, _ in found}
    pn = torch.backends.python_native
    for name, f in found:
        if name in NOT_CHANGED: continue
        if name.endswith(('.enable_operations', '.enable_dispatch_keys')):   # re-enabling changes something once it was disabled
            off = getattr(pn, name.rsplit('.', 1)[1].replace('enable', 'disable'))
            off('scaled_mm')
            try: res = [_change(lambda: f('scaled_mm'))]
            finally: f('scaled_mm')
        else:
            takes = any(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) for p in inspect.signature(f).parameters.values())
            res = [_change(lambda x=x: f(x)) for x in (True, False, *STRINGS)] if takes else [_change(f)]
        if (w := _wrong(res)): bad[name] = w
    assert not bad, bad


def test_every_setter_of_torch_is_a_switch_or_listed():
    "A setter torch or torch._C gains in an upgrade fails here until it is a switch (`job.switches._paired`) or listed in NOT_SETTERS with a reason."
    where = {w for s in T.switches() for w in s.where}
    found = {f'{mod.__name__}.{k}' for mod in (torch, torch._C) for k, f in vars(mod).items()
             if re.fullmatch(r'_?(set|use)_\w+', k) and callable(f) and not isinstance(f, type) and not k.startswith('_use_')}
    assert not found - where - set(NOT_SETTERS), sorted(found - where - set(NOT_SETTERS))
    assert not set(NOT_SETTERS) & where, 'listed as no switch, but read as one: ' + str(sorted(set(NOT_SETTERS) & where))


def test_function_set_switches_are_read_and_put_back():
    "The switches torch sets by functions: one change of each kind, all seen, all put back."
    before, names = T.read_switches(), [s.name for s in T.switches()]
    torch.set_num_threads(torch.get_num_threads() + 1); torch.set_default_dtype(torch.float64); torch.set_grad_enabled(False)
    torch.use_deterministic_algorithms(True, warn_only=True); torch.set_float32_matmul_precision('medium'); torch.set_default_device('meta')
    torch.set_autocast_enabled('cpu', True); torch.autograd.set_detect_anomaly(True); torch.set_flush_denormal(True)
    torch.backends.python_native.disable_operations('scaled_mm')
    try:
        changed = {n for n, a, b in zip(names, before, T.read_switches()) if a != b}
        want = {'threads', 'default_dtype', 'grad_enabled', 'deterministic_algorithms', 'matmul_precision', 'default_device', 'autocast_cpu',
                'anomaly_enabled', 'python_native_disabled', 'torch_function_modes'} | ({'flush_denormal'} if T._denormals_flushed() else set())
        assert want <= changed, want - changed
    finally: left = T.put_switches(before)
    assert not left and T.read_switches() == before, left
    assert (torch.get_default_dtype(), torch.is_grad_enabled(), torch.are_deterministic_algorithms_enabled(), torch.get_default_device().type) == (torch.float32, True, False, 'cpu')


def test_read_only_state_is_seen():
    "Inference mode entered and never left cannot be put back, but it is seen."
    w = T.SwitchWatch()
    g = torch.inference_mode(); g.__enter__()
    try: w.check()
    finally: g.__exit__(None, None, None)
    assert 'inference_mode' in w.changed and T.read_switches() == w.before, w.changed


def test_a_torch_release_without_a_switch_module_still_snapshots(monkeypatch):
    "A switch that reads a module this torch release lacks (torch._native on torch 2.11) is left out; the rest are still found."
    import sys, torch
    from cudal1_nb.job import switches as tripwires
    names = {s.name for s in tripwires._other()}
    monkeypatch.setitem(sys.modules, 'torch._native', None)   # importing it now raises ImportError, as on a release without it
    left = {s.name for s in tripwires._other()}
    assert 'python_native_disabled' not in left
    assert names - left <= {'python_native_disabled'} and {'deterministic_algorithms', 'default_device', 'inference_mode'} <= left
