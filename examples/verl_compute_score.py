"""verl with the reward of a running `cudal1 serve`: `compute_score` as verl's custom reward function.

    cudal1 serve &
    export CUDAL1_SERVE_URL=http://127.0.0.1:8421 CUDAL1_SERVE_TOKEN=...
    python examples/verl_compute_score.py

In verl's config (the rows' `reward_model.ground_truth` is the task id; the function is async, so verl awaits many
at once):

    custom_reward_function.path=$(python -c 'import cudal1_nb.client as c; print(c.__file__)')
    custom_reward_function.name=compute_score

This script calls `compute_score` as verl's reward loop does, for one answer with a program and one without, and
prints one JSON line: verl's score dicts (`score` is the reward; `ok`, `cheat` and `speedup` are logged beside it)."""
import asyncio, json
from _common import TASK, ANSWERS
from cudal1_nb.client import compute_score

async def main():
    return await asyncio.gather(*[compute_score('minibench', a, TASK, extra_info={'index': i}) for i, a in enumerate(ANSWERS)])
print(json.dumps(dict(scores=asyncio.run(main()))))
