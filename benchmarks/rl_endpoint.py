"""The RL endpoint: the base and the trained policies answer one fixed set of prompts, judged alike; printed per split
and prompt kind, each arm's correct fraction and geometric-mean score, and the paired effects (each arm against the
base, contrastive against plain) with their 95 % intervals over tasks and the smallest ratio the set can detect.

    python benchmarks/rl_endpoint.py --store FROZEN.sqlite --out OUT base=INIT contrastive=RL_RUN plain=RL_RUN \\
        [contrastive=RL_RUN_SEED1 ...] [--draws 4] [--device cuda:0] [--eval-device cuda:1] [-p KEY VALUE ...]

ARM=POLICY names a policy: an RL, selftrain or sft run directory, a model directory, or a model name `hf:` knows
(e.g. qwen2.5-coder-1.5b); an arm given several times pools its policies' answers (seeds). Every policy answers the
prompts of `cudal1_nb.endpoint.fixed_prompts` (per task `--draws` contrastive prompts, exemplars drawn from FROZEN with
a fixed seed, and `--draws` plain prompts), sampled and judged with the RL stage's settings (`-p`: RLConfig fields:
form, temperature, max_completion_length, budget_s...). Judged programs go to a copy of FROZEN in OUT, never to
FROZEN. Writes OUT/prompts.jsonl, OUT/answers/LABEL.jsonl.gz per policy (a policy already answered is not sampled
again: run again with the same OUT to add policies or go on after a cut), OUT/rows.jsonl, OUT/effects.jsonl,
OUT/repeats.jsonl (per split and arm, the correct and faster answers to contrastive prompts that repeat a program the
prompt showed: `cudal1_nb.endpoint.exemplar_repeats`), OUT/effects_own.jsonl (the effects with those answers scored
1.0x: what each policy wrote itself) and OUT/table.md. A failure, or any answer that is not a correct program, counts
1.0x. Beside each ratio, the paired difference in correct fraction with its interval over tasks. Once every policy
has answered, the tables need no model and no judge: the command runs on any machine.

On several GPUs, split the policies: the same command on each GPU with its own --out, --device and --eval-device and
`--only LABELS` (a policy's label is its arm and its count among that arm's policies in the command: base-1,
contrastive-2...), then the answers files of every OUT in one OUT and the command once more there without --only:
it samples nothing and writes the tables."""
if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
import gzip, json, shutil, sys, time
from pathlib import Path
from benchmarks.common import parser, load_jsonl, print_table


def policy_path(spec:str)->str:
    "A policy's model directory: a run or model directory as it is, or a model name `hf:` knows (its local copy)."
    if Path(spec).exists(): return spec
    from cudal1_nb.models import local_model
    p = local_model(spec)
    if not Path(p).exists(): raise SystemExit(f"rl_endpoint: policy {spec!r} is neither a directory nor a model name known offline")
    return p


def answer(label:str, spec:str, prompts:list, cfg, reward, device:str)->list:
    "One completion per fixed prompt from the policy `spec`, judged by `reward`: one row per prompt (its fields and the rollout's)."
    import torch
    from cudal1_nb.checkpoint import load_policy
    from cudal1_nb.generate import GenConfig
    from cudal1_nb.grpo import policy_backend
    model, tok, _ = load_policy(policy_path(spec), device)
    model.eval()
    be = policy_backend(model, tok, f"policy:{label}", 'auto')
    gen = GenConfig(max_new_tokens=cfg.max_completion_length, temperature=cfg.temperature, top_p=cfg.top_p, seed=cfg.seed)
    texts = be.generate([p.prompt for p in prompts], gen)
    rows = [None] * len(prompts)
    for split in dict.fromkeys(p.split for p in prompts):
        idx = [i for i, p in enumerate(prompts) if p.split == split]
        ros = reward.score([prompts[i].prompt for i in idx], [texts[i] for i in idx], [prompts[i].task_id for i in idx],
                           [prompts[i].exemplar_ids for i in idx], [prompts[i].template_id for i in idx], split=split)
        for i, ro in zip(idx, ros):
            rows[i] = dict(prompts[i].to_dict(), policy=label, verdict=ro.verdict, counted=ro.counted, speedup=ro.speedup,
                           reward=ro.reward, candidate_id=ro.candidate_id, completion=ro.completion)
    del model, be
    if torch.cuda.is_available(): torch.cuda.empty_cache()
    return rows


def answers_file(out:Path, label:str)->Path:
    "Where the policy labelled `label` keeps its answers in OUT."
    return out/'answers'/f"{label}.jsonl.gz"


def effects_markdown(effects:list, repeats:list=(), own:list=())->str:
    "The paired effects (and the answers that repeat an exemplar, and the effects with those scored 1.0x) as Markdown tables."
    f = lambda x: '-' if x is None else f"{x:.3f}"
    head = ['| split | kind | arm | against | tasks | ratio | 95 % interval | detectable | correct fraction, difference | 95 % interval |',
            '|---|---|---|---|---|---|---|---|---|---|']
    out = '\n'.join(head + [f"| {e['split']} | {e['kind']} | {e['arm']} | {e['against']} | {e['tasks']} | {f(e['ratio'])} | "
                             f"[{f(e['lo'])}, {f(e['hi'])}] | {f(e['detectable'])} | {f(e.get('correct_diff'))} | "
                             f"[{f(e.get('correct_lo'))}, {f(e.get('correct_hi'))}] |" for e in effects]) + '\n'
    if repeats:
        out += ('\n| split | arm | contrastive answers | correct | repeat an exemplar | faster | repeat an exemplar |\n|---|---|---|---|---|---|---|\n' +
                ''.join(f"| {r['split']} | {r['arm']} | {r['answers']} | {r['correct']} | {r['correct_repeats']} | {r['faster']} | {r['faster_repeats']} |\n"
                        for r in repeats))
    if own:
        out += '\nAnswers that repeat an exemplar scored 1.0x:\n\n' + effects_markdown(own)
    return out


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument('policies', nargs='+', metavar='ARM=POLICY')
    ap.add_argument('--store', required=True, help='the frozen variant store the contrastive exemplars are drawn from (read only)')
    ap.add_argument('--out', required=True); ap.add_argument('--draws', type=int, default=4, help='prompts per task and kind')
    ap.add_argument('--splits', default='train,held-out'); ap.add_argument('--tasks', type=int, default=0, help='tasks per split at most (0: all)')
    ap.add_argument('--device', default='auto', help='where the policies sample'); ap.add_argument('--eval-device', default='cpu', help='where programs run')
    ap.add_argument('--base', default='base', help='the arm the others are compared with')
    ap.add_argument('--only', default='', help="sample only these policies (labels, e.g. 'base-1,contrastive-1'), the tables once every policy has answered")
    ap.add_argument('-p', nargs=2, action='append', default=[], metavar=('KEY', 'VALUE'), help='RLConfig field (form, temperature, ...)')
    a = ap.parse_args(argv)
    specs = [x.split('=', 1) for x in a.policies]
    if bad := [x for x, s in zip(a.policies, specs) if len(s) != 2 or not all(s)]: ap.error(f"give ARM=POLICY, not {bad}")
    if a.base not in {arm for arm, _ in specs}: ap.error(f"no policy of the base arm {a.base!r} (give {a.base}=POLICY)")
    if not Path(a.store).is_file(): ap.error(f"no store file {a.store}")
    labels = [f"{arm}-{[x for x, _ in specs[:i + 1]].count(arm)}" for i, (arm, _) in enumerate(specs)]
    only = [x for x in a.only.split(',') if x]
    if bad := [x for x in only if x not in labels]: ap.error(f"--only names no policy of the command: {bad} (its labels: {labels})")
    out = Path(a.out); (out/'answers').mkdir(parents=True, exist_ok=True)
    answers = {label: load_jsonl(answers_file(out, label)) for label in labels if answers_file(out, label).exists()}
    if todo := [x for x in labels if x not in answers and (not only or x in only)]: answers.update(sample(a, specs, labels, todo, out))
    if missing := [x for x in labels if x not in answers]:
        return print(f"answered {sorted(answers)}; the tables wait for {missing} (their answers files in {out/'answers'})")
    return tables(a, specs, labels, answers, out)


def sample(a, specs:list, labels:list, todo:list, out:Path)->dict:
    "The answers of the policies labelled `todo` to the fixed prompts (written to OUT/prompts.jsonl, checked against one there)."
    from cudal1_nb.core import training_on
    dev = training_on(a.device)   # torch keeps only the policies' GPU, which it then calls 'cuda'; the judge still sees --eval-device
    from cudal1_nb.endpoint import fixed_prompts, FixedPrompt
    from cudal1_nb.rl import RLConfig, KernelReward
    from cudal1_nb.store import Store
    from cudal1_nb.tasks import load_tasks, split_tasks
    cfg = RLConfig.from_params(dict(dict(a.p), eval_device=a.eval_device, device=a.device))   # the config coerces each value to its field's type
    judged = out/'judged.sqlite'
    if not judged.exists(): shutil.copy(a.store, judged)
    suite = load_tasks(cfg.suite, validate=False)
    tasks = [(t, s) for s in a.splits.split(',') for t in split_tasks(suite, s)[:a.tasks or None]]
    reward = KernelReward(suite, cfg.reward_config(), cfg.eval_config(), cfg.eval_device, str(judged), run='endpoint', arm='endpoint')
    with Store(a.store) as st: pools = {t.id: st.programs(t.id, reward.judge.device_name()) for t, _ in tasks}
    prompts = fixed_prompts(tasks, pools, cfg.plan(), a.draws, cfg.seed)
    pf = out/'prompts.jsonl'
    if pf.exists() and [FixedPrompt.from_dict(d) for d in load_jsonl(pf)] != prompts:
        raise SystemExit(f"rl_endpoint: {pf} holds other prompts (another store, seed, draw count or template): use a new --out")
    pf.write_text(''.join(p.to_json() + '\n' for p in prompts))
    answers = {}
    for (arm, spec), label in zip(specs, labels):
        if label not in todo: continue
        t0, f = time.time(), answers_file(out, label)
        rows = answer(label, spec, prompts, cfg, reward, dev)
        tmp = f.with_suffix('.tmp')
        with gzip.open(tmp, 'wt') as g: g.write(''.join(json.dumps(r) + '\n' for r in rows))
        tmp.rename(f)
        answers[label] = rows
        print(json.dumps(dict(policy=label, spec=spec, answers=len(rows), seconds=round(time.time() - t0, 1))), flush=True)
    reward.close()
    return answers


def tables(a, specs:list, labels:list, answers:dict, out:Path)->tuple:
    """The tables once every policy has answered (no model, no judge: any machine): the effects with every answer as
    scored, and with answers that repeat an exemplar scored 1.0x (`effects_own.jsonl`). Refused when the policies
    answered different prompts (answers files from OUTs built otherwise)."""
    from cudal1_nb.endpoint import endpoint_table, exemplar_repeats, mark_repeats, without_repeats
    from cudal1_nb.store import Store
    seen = {label: sorted((r['id'], r['prompt']) for r in rs) for label, rs in answers.items()}
    if bad := [x for x in labels if seen[x] != seen[labels[0]]]:
        raise SystemExit(f"rl_endpoint: {bad} answered other prompts than {labels[0]} (another store, seed, draw count or template)")
    arms = {}
    for (arm, _), label in zip(specs, labels): arms.setdefault(arm, []).append(label)
    with Store(a.store) as st: programs = {c.id: c.code for c in st.candidates()}   # the exemplars the prompts showed
    marked = mark_repeats(answers, programs)
    pairs = (('contrastive', 'plain'),) if {'contrastive', 'plain'} <= set(arms) else ()
    rows, effects = endpoint_table(marked, arms, a.base, pairs)
    _, own = endpoint_table(without_repeats(marked), arms, a.base, pairs)
    r3 = lambda d: {k: round(v, 3) if isinstance(v, float) else v for k, v in d.items()}
    for name, xs in (('rows', rows), ('effects', effects), ('effects_own', own)):
        (out/f'{name}.jsonl').write_text(''.join(json.dumps(x) + '\n' for x in xs))
    cols = ['split', 'kind', 'arm', 'against', 'tasks', 'ratio', 'lo', 'hi', 'excludes_1', 'noise_sd', 'detectable', 'correct_diff', 'correct_lo', 'correct_hi']
    print_table([r3(r) for r in rows], ['split', 'kind', 'arm', 'answers', 'tasks', 'correct', 'gmean'])
    print(); print_table([r3(e) for e in effects], cols)
    print('\nanswers that repeat an exemplar scored 1.0x:'); print_table([r3(e) for e in own], cols)
    reps = exemplar_repeats(marked, arms)
    (out/'repeats.jsonl').write_text(''.join(json.dumps(r) + '\n' for r in reps))
    print(); print_table(reps, ['split', 'arm', 'answers', 'correct', 'correct_repeats', 'faster', 'faster_repeats'])
    (out/'table.md').write_text(effects_markdown(effects, reps, own))
    return rows, effects


if __name__ == '__main__': main()
