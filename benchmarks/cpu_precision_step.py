"""One optimizer step of the stage-1 tiny model on the CPU, plain fp32 against CPU bf16 autocast (what TRL's
`SFTConfig`/`GRPOConfig` default `bf16=True` gives on a CPU), each with and without gradient checkpointing.

    python benchmarks/cpu_precision_step.py [REPS]   (default 3)

The model is the SFT stage's tiny default (2 layers, width 128, 4 heads of 32, 2 KV heads, vocabulary 2048); the
batch is 8 x 1024 random tokens. Prints the median, min and max seconds per step after one warm-up step; the figures
are in `nbs/13_sft.ipynb` ("Precision on the CPU")."""
import sys, time, torch
from transformers import LlamaConfig, LlamaForCausalLM


def model(checkpointing:bool):
    cfg = LlamaConfig(vocab_size=2048, hidden_size=128, intermediate_size=384, num_hidden_layers=2, num_attention_heads=4,
                      num_key_value_heads=2, max_position_embeddings=4096, tie_word_embeddings=True, use_cache=False)
    m = LlamaForCausalLM(cfg); m.train()
    if checkpointing: m.gradient_checkpointing_enable(gradient_checkpointing_kwargs=dict(use_reentrant=False))
    return m


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    reps = int(argv[0]) if argv else 3
    torch.manual_seed(0)
    x = torch.randint(0, 2048, (8, 1024))
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, CPU capability {torch.backends.cpu.get_cpu_capability()}")
    for prec in ('fp32', 'bf16'):
        for gc in (False, True):
            m = model(gc); opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
            def step():
                with torch.autocast('cpu', dtype=torch.bfloat16, enabled=prec == 'bf16'):
                    loss = m(input_ids=x, labels=x).loss
                loss.backward(); opt.step(); opt.zero_grad()
            step()   # warm-up
            ts = []
            for _ in range(reps):
                t0 = time.perf_counter(); step(); ts.append(time.perf_counter() - t0)
            ts.sort()
            print(f"{prec:5} gradient_checkpointing={gc!s:5}: median {ts[len(ts) // 2]:.2f} s/step (min {ts[0]:.2f}, max {ts[-1]:.2f}, n={reps})", flush=True)


if __name__ == '__main__': main()
