"""Who changes torch's `sdp_priority_order`, and whether the attention backend it picks changes a result's precision.

    python benchmarks/sdp_order.py [--device cuda] [--json OUT.json]

1. In fresh processes: the order before any attention call, and after one `F.scaled_dot_product_attention` call in
   float32, in float16, and in float32 under autocast (as CUDA-L1's L3/31 and L3/44 programs call it, which change no
   switch in their code). A change here is torch's own doing on the first call, not the program's.
2. The same attention (the shapes of L3/31 and L3/44, float16 inputs) under each backend alone
   (`torch.nn.attention.sdpa_kernel`) and under the default and the changed orders: the largest error against a
   float64 computation, over the output's scale. Backends this device or dtype cannot run are named as such."""
import json, subprocess, sys
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser

# (name, batch, heads, sequence, head dim, causal): L3/31 (a 128x128 image's pixels, 128 channels over 4 heads) and
# L3/44 (minGPT's causal attention, 768 wide over 8 heads, 512 tokens)
SHAPES = (('L3/31', 2, 4, 16384, 32, False), ('L3/44', 128, 8, 512, 96, True))

_PROBE = """
import torch, torch.nn.functional as F, json, sys
dev, how = sys.argv[1], sys.argv[2]
before = [int(b) for b in torch._C._get_sdp_priority_order()]
dt = torch.float16 if how == 'float16' else torch.float32
q = torch.randn(2, 4, 256, 32, device=dev, dtype=dt)
if how == 'autocast':
    with torch.autocast(dev, dtype=torch.float16 if dev == 'cuda' else torch.bfloat16): F.scaled_dot_product_attention(q, q, q)
else: F.scaled_dot_product_attention(q, q, q)
print(json.dumps(dict(before=before, after=[int(b) for b in torch._C._get_sdp_priority_order()])))
"""


def probe(device:str, # 'cpu' or 'cuda'
          how:str, # 'float32', 'float16' or 'autocast': the one attention call made in a fresh process
         )->dict:
    "The priority order before and after one attention call made `how`, in a fresh process."
    if how == 'float16' and device == 'cpu': how = 'float32'   # float16 attention on the CPU is no program's case
    p = subprocess.run([sys.executable, '-c', _PROBE, device, how], capture_output=True, text=True, timeout=300)
    if p.returncode: raise RuntimeError(f"probe {how} failed: {p.stderr.strip().splitlines()[-1:]}")
    return dict(how=how, **json.loads(p.stdout.strip().splitlines()[-1]))


def errors(device:str, # 'cpu' or 'cuda'
           shape:tuple, # one of `SHAPES`
           orders:list, # priority orders to run under, besides each backend alone
           scale_n:int=1, # a divisor of the sequence length on the CPU (smaller problems)
          )->dict:
    "Largest |error| over the output's scale against float64, per backend alone and per priority order ('n/a: why' where it cannot run)."
    import torch, torch.nn.functional as F
    from torch.nn.attention import sdpa_kernel, SDPBackend
    name, b, h, s, d, causal = shape
    s //= scale_n
    g = torch.Generator(device='cpu').manual_seed(0)
    q, k, v = (torch.randn(b, h, s, d, generator=g).to(device) for _ in range(3))
    with sdpa_kernel([SDPBackend.MATH]): ref = F.scaled_dot_product_attention(q.double(), k.double(), v.double(), is_causal=causal)
    scale = ref.abs().max().item()
    dt = torch.float16 if device == 'cuda' else torch.float32
    q16, k16, v16 = (t.to(device, dt) for t in (q, k, v))
    def err(ctx):
        try:
            with ctx, torch.no_grad(): y = F.scaled_dot_product_attention(q16, k16, v16, is_causal=causal)
        except RuntimeError as e: return f"n/a: {str(e).splitlines()[0][:80]}"
        return float(f"{(y.double() - ref).abs().max().item() / scale:.3g}")
    out = {f"alone:{be.name}": err(sdpa_kernel([be])) for be in (SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION,
                                                                 SDPBackend.CUDNN_ATTENTION, SDPBackend.MATH)}
    for o in orders:
        prev = torch._C._get_sdp_priority_order()
        torch._C._set_sdp_priority_order([int(x) for x in o])
        try: out[f"order:{list(o)}"] = err(torch.no_grad())
        finally: torch._C._set_sdp_priority_order(prev)
    return dict(task=name, dtype=str(dt), shape=[b, h, s, d], causal=causal, **out)


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('--device', default='cuda', choices=['cpu', 'cuda'])
    ap.add_argument('--json', help='write the figures here')
    a = ap.parse_args(argv)
    import torch
    if a.device == 'cuda' and not torch.cuda.is_available(): raise SystemExit("--device cuda: no GPU here (use --device cpu)")
    probes = [probe(a.device, how) for how in ('float32', 'float16', 'autocast')]
    for p in probes: print(f"one {p['how']:8} attention call in a fresh process: order {p['before']} -> {p['after']}")
    orders = list(dict.fromkeys(tuple(x) for p in probes for x in (p['before'], p['after'])))
    errs = [errors(a.device, s, orders, scale_n=1 if a.device == 'cuda' else 16) for s in SHAPES]
    for e in errs:
        print(f"{e['task']} {e['shape']} {e['dtype']}, |error| / scale against float64:")
        for k, v in e.items():
            if k.startswith(('alone:', 'order:')): print(f"  {k:32} {v}")
    if a.json:
        with open(a.json, 'w') as f: json.dump(dict(device=a.device, torch=torch.__version__, probes=probes, errors=errs), f, indent=1)


if __name__ == '__main__': main()
