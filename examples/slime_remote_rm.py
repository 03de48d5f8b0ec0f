"""slime with the reward of a running `cudal1 serve`: no code, its remote reward flags.

    cudal1 serve &
    # the samples' label is the task id
    ... --rm-type remote_rm --rm-url "http://127.0.0.1:8421/slime?token=$CUDAL1_SERVE_TOKEN" --reward-key reward

This script sends what slime's `remote_rm` sends -- `{"prompt", "response", "label"}`, a 120-s timeout, up to 10
tries with backoff -- and prints one JSON line: the reward slime takes (`--reward-key reward`) and the verdicts."""
import asyncio, json, random
import httpx
from _common import URL, TOKEN, TASK, PROMPT, ANSWERS

async def remote_rm(client, sample, tries=10):
    for i in range(tries):
        try:
            r = await client.post(f"{URL}/slime", params={'token': TOKEN}, json=sample)
            r.raise_for_status()
            return r.json()
        except httpx.HTTPError:
            if i == tries - 1: raise
            await asyncio.sleep(min(2 ** i, 30) + random.random())

async def main():
    async with httpx.AsyncClient(timeout=120) as c:
        return await asyncio.gather(*[remote_rm(c, dict(prompt=PROMPT, response=a, label=TASK)) for a in ANSWERS])
out = asyncio.run(main())
print(json.dumps(dict(rewards=[o['reward'] for o in out], verdicts=[o['verdict'] for o in out])))
