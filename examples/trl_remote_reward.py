"""TRL's `GRPOTrainer` with the reward of a running `cudal1 serve`.

    cudal1 serve &                                  # prints where its token is
    export CUDAL1_SERVE_URL=http://127.0.0.1:8421 CUDAL1_SERVE_TOKEN=...
    python examples/trl_remote_reward.py

In a training script the reward is one more reward function; the dataset needs a `task_id` column (a task id of the
server's suite):

    from cudal1_nb.client import RemoteKernelReward
    trainer = GRPOTrainer(model=MODEL, reward_funcs=[RemoteKernelReward()], train_dataset=ds, args=GRPOConfig(...))

This script calls the reward the way the trainer does (awaited, with the batch's columns as keyword arguments) on one
answer with a program and one without, and prints one JSON line: the rewards and the verdicts TRL would log."""
import asyncio, json
from _common import URL, TOKEN, TASK, PROMPT, ANSWERS
from cudal1_nb.client import RemoteKernelReward

reward = RemoteKernelReward(URL, TOKEN)
logged = {}
rewards = asyncio.run(reward(prompts=[PROMPT] * len(ANSWERS), completions=[[{'role': 'assistant', 'content': a}] for a in ANSWERS],
                             completion_ids=None, task_id=[TASK] * len(ANSWERS), trainer_state=None,
                             log_extra=lambda column, values: logged.update({column: values}), log_metric=lambda name, value: None))
print(json.dumps(dict(rewards=rewards, verdicts=logged['verdict'])))
