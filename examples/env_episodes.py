"""Multi-turn episodes of `KernelEnv` over HTTP: a running environment server, a model's answers, the harness's feedback.

    cudal1 env &                                   # beside `cudal1 serve`, with its tokens; prints where they are
    export CUDAL1_ENV_URL=http://127.0.0.1:8422 CUDAL1_SERVE_TOKEN=...
    python examples/env_episodes.py

A trainer's loop is the same: `reset` gives the task's prompt, each answer goes to `step`, whose observation holds the
feedback, the next prompt (the conversation so far) and the turn's reward, until `done`. Each step carries its turn
number, so a step retried across a lost connection or a server restart is answered from the record, never judged
twice. This script plays two turns with canned answers -- one without a program, then the task's honest variant --
and prints one JSON line: the verdicts, the rewards, the feedback, how the episode ended."""
import json, os
from _common import TASK, PROGRAM
from cudal1_nb.envclient import EnvClient

with EnvClient(os.environ.get('CUDAL1_ENV_URL', 'http://127.0.0.1:8422')) as env:
    o = env.reset(TASK)
    answers = ["I would broadcast the scale instead of building diag(s), but I have not written it yet.",
               f"Broadcast the per-column scale.\n```python\n{PROGRAM}```"]
    obs = []
    for a in answers:
        if o.done: break
        o = env.step(o.episode_id, a)
        obs.append(o)
    ep = env.state(o.episode_id)
print(json.dumps(dict(episode=ep.id, verdicts=[t.verdict for t in ep.turns], rewards=[t.reward for t in ep.turns],
                      feedback=[x.feedback for x in obs], done=ep.done, end=ep.end)))
