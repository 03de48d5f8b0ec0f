"""OpenEnv's own client (`pip install openenv-core`) driving `KernelEnv`: nothing of cudal1_nb is needed on this side.

    cudal1 env &
    export CUDAL1_ENV_URL=http://127.0.0.1:8422 CUDAL1_SERVE_TOKEN=...
    python examples/openenv_client.py

`GenericEnvClient` speaks OpenEnv's WebSocket protocol (`/ws`: reset, step, state) and sets no headers, so the token
goes in the base URL: `.../t/TOKEN`. An action is `{"completion": answer}`; the observation carries the feedback, the
next prompt and the turn; the reward and `done` sit beside it, as OpenEnv's results do. Prints one JSON line."""
import json, os
from pathlib import Path
from openenv.core.generic_client import GenericEnvClient

url, token = os.environ.get('CUDAL1_ENV_URL', 'http://127.0.0.1:8422'), os.environ['CUDAL1_SERVE_TOKEN']
program = (Path(__file__).resolve().parents[1]/'data'/'minibench'/'variants'/'level1'/'1_Diag_Matmul_Column_Scale'/'broadcast.py').read_text()
with GenericEnvClient(base_url=f"{url}/t/{token}", message_timeout_s=600).sync() as env:
    r = env.reset(task_id='minibench/L1/1')
    rewards, verdicts = [], []
    for answer in ["No code yet.", f"```python\n{program}```"]:
        r = env.step({'completion': answer})
        rewards.append(r.reward); verdicts.append(r.observation['verdict'])
        if r.done: break
    state = env.state()
print(json.dumps(dict(rewards=rewards, verdicts=verdicts, done=r.done, feedback=r.observation['feedback'],
                      state={k: state[k] for k in ('episode_id', 'step_count', 'end')})))
