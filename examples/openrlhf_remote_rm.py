"""OpenRLHF with the reward of a running `cudal1 serve`: no code, one flag.

    cudal1 serve &
    # the dataset's label column holds the task id
    ... --remote_rm_url "http://127.0.0.1:8421/openrlhf?token=$CUDAL1_SERVE_TOKEN" --label_key task_id

OpenRLHF's client cannot send headers, so the token goes in the URL. This script sends what that client sends --
`{"query": [prompt + answer], "prompts": [prompt], "labels": [task id]}`, one sample a request, a 180-s timeout, 5
tries a second apart -- and prints one JSON line: the rewards (and the verdict counts under `extra_logs`). A sample
not judged within the server's wait is a 503 the client retries: the retry joins the same job."""
import json, time
import httpx
from _common import URL, TOKEN, TASK, PROMPT, ANSWERS

def post(data, tries=5):
    for i in range(tries):
        try:
            r = httpx.post(f"{URL}/openrlhf", params={'token': TOKEN}, json=data, headers={'Content-Type': 'application/json'}, timeout=180)
            r.raise_for_status()
            return r.json()
        except httpx.HTTPError as e:
            if i == tries - 1: raise
            time.sleep(1)

out = [post(dict(query=[PROMPT + a], prompts=[PROMPT], labels=[TASK])) for a in ANSWERS]
print(json.dumps(dict(rewards=[o['rewards'][0] for o in out], extra_logs=[o['extra_logs'] for o in out])))
