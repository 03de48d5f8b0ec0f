"""Stage 1's SFT on the CPU: what the trained model is handed on as (the GPU paths are in test_sft_gpu.py)."""
import pytest


def test_trained_model_has_no_autocast_wrapper(tmp_path):
    """Mixed-precision training wraps the model's `forward` in autocast in place; `train_sft` hands the model on without
    it (on a GPU the wrapper made the SFT check's generation write bf16 keys into a float32 cache)."""
    pytest.importorskip('trl')
    import torch
    from cudal1_nb.sft import SFTStageConfig, train_sft
    from cudal1_nb.minibench import minibench_tasks
    from cudal1_nb.prompts import optimize_prompt, fence
    rows = [dict(task_id=t.id, prompt=optimize_prompt(t, device='cpu').text, completion=fence(t.code.replace('class Model(', 'class ModelNew(')))
            for t in minibench_tasks()[:4]]
    cfg = SFTStageConfig(steps=2, max_length=2048, device='cpu', cpu_precision='bf16', eval_samples=0, time_budget_s=0, expected_steps_per_s=-1)
    model, tok, m = train_sft(cfg, rows, tmp_path)
    assert m['trainer']['bf16'] and m['steps'] == 2
    assert '_original_forward' not in model.__dict__ and not hasattr(model.forward, '__wrapped__')
    with torch.no_grad(): out = model(**tok('def forward', return_tensors='pt'))
    assert out.logits.dtype == next(model.parameters()).dtype == torch.float32
