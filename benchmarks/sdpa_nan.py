"""Does attention's backward return NaN gradients on this GPU, and does training's setting (`lora.training_attention`:
no cuDNN attention) avoid it?

    python benchmarks/sdpa_nan.py [--json OUT.json]

One head of bfloat16 attention whose every score is strongly negative (a query row's log-sum-exp below ln of the
largest float32, as Qwen2.5's large-activation heads produce), under a causal boolean mask as a padded batch passes
it, for sequence lengths around multiples of 128. For each length, the non-finite elements of the query, key and value
gradients: with torch's default backend choice, with `training_attention('cuda')` applied, and with each backend
alone (`torch.nn.attention.sdpa_kernel`). A backend this build cannot run for the inputs is named as such."""
import json, math
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
from benchmarks.common import parser

LENGTHS = (576, 640, 704, 768, 832, 1088)


def probe(L:int, backend=None, D:int=64, seed:int=0)->dict:
    "Non-finite counts of (dq, dk, dv) for one head of length `L` (backend None: torch's own choice)."
    import torch, torch.nn.functional as F
    from torch.nn.attention import sdpa_kernel
    g = torch.Generator(device='cuda').manual_seed(seed)
    q = torch.randn(1, 1, L, D, device='cuda', dtype=torch.bfloat16, generator=g) * 0.1
    k = torch.randn(1, 1, L, D, device='cuda', dtype=torch.bfloat16, generator=g) * 0.1
    v = torch.randn(1, 1, L, D, device='cuda', dtype=torch.bfloat16, generator=g)
    q[..., 0], k[..., 0] = 1.0, -120 * math.sqrt(D)   # every score near -120: each row's log-sum-exp below -88.7
    for t in (q, k, v): t.requires_grad_()
    mask = torch.ones(L, L, dtype=torch.bool, device='cuda').tril()[None, None]
    dout = torch.randn(1, 1, L, D, device='cuda', dtype=torch.bfloat16, generator=g)
    try:
        if backend is None: out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        else:
            with sdpa_kernel(backend): out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        out.backward(dout)
        torch.cuda.synchronize()
    except RuntimeError as e: return dict(error=str(e).splitlines()[0][:120])
    return {n: int((~torch.isfinite(t.grad)).sum()) for n, t in (('dq', q), ('dk', k), ('dv', v))}


def main(argv=None):
    ap = parser(__doc__); ap.add_argument('--json', default='')
    a = ap.parse_args(argv)
    import torch
    from torch.nn.attention import SDPBackend
    from cudal1_nb.lora import training_attention
    if not torch.cuda.is_available(): raise SystemExit("sdpa_nan: needs a CUDA GPU")
    res = dict(device=torch.cuda.get_device_name(), torch=torch.__version__, cudnn=torch.backends.cudnn.version(), rows=[])
    backends = dict(cudnn=SDPBackend.CUDNN_ATTENTION, efficient=SDPBackend.EFFICIENT_ATTENTION, flash=SDPBackend.FLASH_ATTENTION,
                    math=SDPBackend.MATH)
    default = {L: probe(L) for L in LENGTHS}   # before training_attention: torch's defaults
    alone = {L: {n: probe(L, b) for n, b in backends.items()} for L in LENGTHS}
    training_attention('cuda')
    trained = {L: probe(L) for L in LENGTHS}
    cell = lambda r: r['error'] if 'error' in r else f"{r['dq']}/{r['dk']}/{r['dv']}"
    print(f"{res['device']}, torch {res['torch']}, cuDNN {res['cudnn']}: non-finite gradient elements dq/dk/dv (of {64 * max(LENGTHS)} at most each)")
    print('| length | default | training_attention | ' + ' | '.join(backends) + ' |')
    print('|---|---|---|' + '---|' * len(backends))
    for L in LENGTHS:
        res['rows'].append(dict(length=L, default=default[L], training=trained[L], **{n: alone[L][n] for n in backends}))
        print(f"| {L} | {cell(default[L])} | {cell(trained[L])} | " + ' | '.join(cell(alone[L][n]) for n in backends) + ' |')
    if a.json:
        with open(a.json, 'w') as f: json.dump(res, f, indent=1)


if __name__ == '__main__': main()
