#!/usr/bin/env bash
# The RL reward's pace before and after a change, on the same machine (used on the device machine, from a checkout):
#   [N=128] [LIMIT=300] [ARGS='--gap 8 --workers 16'] bash benchmarks/device_replay.sh OLD_ROOT OUT_DIR ROLLOUTS...
# OLD_ROOT holds the earlier version of the package (e.g. `git archive OLD cudal1_nb data/minibench pyproject.toml | tar -x -C OLD_ROOT`);
# a package from before `cudal1_nb.jsonl` gets this checkout's copy, with which the benchmarks read rollouts and results.
# Runs benchmarks/reward_replay.py on the same rollouts with the earlier package ("before") and this checkout's
# ("after"), each with an empty base directory, on the first visible GPU; results in OUT_DIR/replay_{before,after}.json,
# every result in OUT_DIR/replay_evals_{before,after}.jsonl, the logs beside them.
set -o pipefail
old=$(realpath "$1"); out=$(realpath -m "$2"); shift 2; mkdir -p "$out"; here=$PWD
rolls=(); for r in "$@"; do rolls+=("$(realpath "$r")"); done
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
[ -f "$old/cudal1_nb/jsonl.py" ] || cp cudal1_nb/jsonl.py "$old/cudal1_nb/"
for side in before after; do
  root=$PWD; [ "$side" = before ] && root=$old
  rm -rf "/tmp/replay_$side"; mkdir -p "/tmp/replay_$side"
  t=$(date +%s)
  # run from the package's root: `python -m` puts the working directory first on the path of the sandbox workers it starts
  (cd "$root" && CUDAL1_BASE_DIR=/tmp/replay_$side CUDAL1_PACKAGE_ROOT=$root timeout "${LIMIT:-300}" python3 "$here/benchmarks/reward_replay.py" "${rolls[@]}" \
    --n "${N:-128}" ${ARGS:-} --device cuda --json "$out/replay_$side.json" --evals "$out/replay_evals_$side.jsonl") > "$out/replay_$side.log" 2>&1
  echo "$side: exit $?, $(( $(date +%s) - t )) s"; tail -n 1 "$out/replay_$side.log"
done
