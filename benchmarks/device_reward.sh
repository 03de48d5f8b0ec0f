#!/usr/bin/env bash
# The reward's throughput on never-compiled programs, in one or more modes (used on the device machine, from a checkout):
#   [N=64] [LIMIT=300] bash benchmarks/device_reward.sh RELEASE.jsonl OUT_DIR MODE...
# MODE: `nopch` (builds without the precompiled header), `pch_cold` (an empty build cache: the campaign makes the
# header first), `pch_warm` (an empty build cache except the header `pch_cold` made: an RL run's later steps).
# Each mode: benchmarks/reward_throughput.py under benchmarks/proc_sampler.py (cores busy per 20 s), its own base
# directory /tmp/rw_MODE, results in OUT_DIR/rt_MODE.json, evals_MODE.jsonl, procs_MODE.jsonl, MODE.log.
set -o pipefail
rel=$(realpath "$1"); out=$2; shift 2; mkdir -p "$out"
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
python3 -c "import torch; from cudal1_nb.eval import harness_version; print('torch', torch.__version__, 'harness', harness_version())"
for mode in "$@"; do
  base=/tmp/rw_$mode; rm -rf "$base"; mkdir -p "$base/ext_cache"
  flag=""
  case $mode in
    nopch) flag=--no-pch ;;
    pch_cold) ;;
    pch_warm) [ -d /tmp/rw_pch_cold/ext_cache/_pch ] || { echo "pch_warm needs a pch_cold run first"; continue; }
              cp -a /tmp/rw_pch_cold/ext_cache/_pch "$base/ext_cache/" && rm -rf "$base/ext_cache/_pch/uses" ;;
    *) echo "unknown mode $mode"; continue ;;
  esac
  echo "== $mode"
  t=$(date +%s.%N)
  CUDAL1_BASE_DIR=$base python3 benchmarks/proc_sampler.py --window 20 --limit ${LIMIT:-300} --json "$out/procs_$mode.jsonl" -- \
    python3 benchmarks/reward_throughput.py "$rel" --n ${N:-64} --batch ${N:-64} --device cuda --warm $flag \
    --json "$out/rt_$mode.json" --evals "$out/evals_$mode.jsonl" > "$out/$mode.log" 2>&1
  echo "$mode: exit $?, $(( $(date +%s) - ${t%.*} )) s"
  grep -E 'never-compiled|samples over|"batch"|Error' "$out/$mode.log" | tail -n 5
  grep -E '^ +[0-9]+ +[0-9.]+ ' "$out/$mode.log" | awk 'NR % 2 == 1'
  [ -s "$out/evals_$mode.jsonl" ] && python3 benchmarks/audit_timeline.py "$out/evals_$mode.jsonl" --start "$t" | sed -n '1,2p;7p'
done
