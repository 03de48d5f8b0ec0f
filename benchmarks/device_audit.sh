#!/usr/bin/env bash
# Audit a CUDA-L1 release on the local GPU from a checkout (used on the device machine):
#   [LIMIT=585] bash benchmarks/device_audit.sh RELEASE.jsonl OUT_DIR [cudal1 audit options...]
# LIMIT (seconds, optional) kills the audit when it runs past it (what it measured stays in OUT_DIR/evals.partial.jsonl
# and in the store OUT_DIR.store.sqlite). The same command again resumes: the programs the store holds a result for
# (this GPU's name, this harness version) are not measured again, and OUT_DIR/evals.jsonl is written once all are in.
# Prints the GPU, the harness version, the wall time, the time split of the lock (benchmarks/audit_timeline.py, with
# the time before the first lock) and the host's busy cores per 20 s (benchmarks/proc_sampler.py, saved in OUT_DIR.procs.jsonl;
# a run stopped at LIMIT keeps them, and its jobs and builds are stopped with it).
set -o pipefail
rel=$1; out=$2; shift 2
export CUDAL1_BASE_DIR=${CUDAL1_BASE_DIR:-/tmp/cudal1_base} PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,uuid,compute_cap,driver_version,clocks.sm,temperature.gpu --format=csv,noheader
python3 -c "import torch, sys; from cudal1_nb.eval import harness_version; print('python', sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.version.cuda, 'harness', harness_version())"
db=${out%/}.store.sqlite resume=
[ -f "$db" ] && resume=--resume && echo "resuming from $db: $(python3 -c "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from evaluations').fetchone()[0])" "$db" 2>/dev/null || echo '?') results stored"
start=$(date +%s.%N)
python3 benchmarks/proc_sampler.py --window 20 --json "$out.procs.jsonl" ${LIMIT:+--limit $LIMIT} -- \
  python3 -m cudal1_nb audit "$rel" --device cuda --out "$out" --db "$db" $resume "$@" >> "$out.log" 2>&1
rc=$?
echo "audit exit $rc, wall $(( $(date +%s) - ${start%.*} )) s"
grep -v "busy cores\|^ *[0-9]\+ \+[0-9.]\+ \|samples over" "$out.log" | tail -n 3
ev=$(ls "$out"/evals.jsonl "$out"/evals.partial.jsonl 2>/dev/null | head -1)
[ -n "$ev" ] && echo "$(wc -l < "$ev") results in $ev" && python3 benchmarks/audit_timeline.py "$ev" --start "$start" | sed -n 1,26p
[ -s "$out.procs.jsonl" ] && python3 benchmarks/proc_sampler.py --from "$out.procs.jsonl" --window 20
