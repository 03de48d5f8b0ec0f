"""TRL's `GRPOTrainer` in its environment mode on `KernelEnv`: each rollout is an episode, the model submits programs
through a tool and reads the harness's feedback, and the episode's reward trains it.

    python examples/trl_environment.py                       # a tiny random model, an in-process environment, 2 steps on a CPU
    CUDAL1_ENV_URL=http://127.0.0.1:8422 CUDAL1_SERVE_TOKEN=... python examples/trl_environment.py   # the episodes on a server

In a training script the environment is one argument; the dataset's rows name the task (`task_id`):

    from cudal1_nb.envclient import KernelToolEnv, EnvClient
    trainer = GRPOTrainer(model=MODEL, args=GRPOConfig(..., max_tool_calling_iterations=3), train_dataset=ds,
                          environment_factory=lambda: KernelToolEnv(EnvClient()))

TRL needs a chat template that can render tool calls, and a response parser for it (`trl.chat_template_utils`
knows Qwen's, Llama 3.1's, Gemma's...): a real code model has one. The tiny model here is given Qwen3's template so
the loop runs on a CPU in a minute; being random, it never calls the tool, so every episode is paid the floor of an
episode without a submission, and the steps only show the wiring. Prints one JSON line: the steps' logged rewards."""
import json, os, sys, tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault('TRL_EXPERIMENTAL_SILENCE', '1')
import torch
from datasets import Dataset
from transformers import AutoModelForCausalLM, AutoTokenizer
from trl import GRPOConfig, GRPOTrainer
from trl.chat_template_utils import qwen3_chat_template
from cudal1_nb.generate import make_tiny_lm
from cudal1_nb.envclient import KernelToolEnv, EnvClient

TASKS = ['minibench/L1/1', 'minibench/L1/8']
work = Path(tempfile.mkdtemp(prefix='trl-env-'))
if os.environ.get('CUDAL1_ENV_URL'): factory = lambda: KernelToolEnv(EnvClient())
else:
    from cudal1_nb.env import KernelEnv, EnvConfig
    from cudal1_nb.minibench import minibench_tasks
    env = KernelEnv([t for t in minibench_tasks() if t.id in TASKS],
                    EnvConfig(max_turns=2, db=str(work/'store.sqlite'), episodes=str(work/'episodes.sqlite')))
    factory = lambda: KernelToolEnv(env)

p = make_tiny_lm(work/'tiny')
tok = AutoTokenizer.from_pretrained(p)
tok.chat_template = qwen3_chat_template   # a template TRL can render and parse tool calls with
model = AutoModelForCausalLM.from_pretrained(p, dtype=torch.float32, max_position_embeddings=8192)   # a task's prompt is long in its 300 tokens
ds = Dataset.from_list([dict(prompt=[dict(role='user', content='Speed up this program. Submit your ModelNew with the submit tool.')], task_id=t)
                        for t in TASKS * 2])
args = GRPOConfig(output_dir=str(work/'out'), max_steps=2, per_device_train_batch_size=2, num_generations=2, max_completion_length=24,
                  max_tool_calling_iterations=2, learning_rate=1e-3, logging_steps=1, report_to='none', save_strategy='no',
                  use_cpu=True, bf16=False, disable_tqdm=True, seed=0)
trainer = GRPOTrainer(model=model, args=args, train_dataset=ds, processing_class=tok, environment_factory=factory)
trainer.train()
logs = [h for h in trainer.state.log_history if 'reward' in h]
print(json.dumps(dict(steps=trainer.state.global_step, rewards=[h['reward'] for h in logs],
                      env_reward=[h.get('rewards/KernelToolEnv/mean') for h in logs])))
