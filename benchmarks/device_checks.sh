#!/usr/bin/env bash
# The harness's GPU checks in one command of under 10 minutes (used on the device machine, from a checkout):
#   bash benchmarks/device_checks.sh RELEASE.jsonl OUT_DIR
# 1. the cheat suite on CUDA (data/cheats), 2. the known-ratio benchmark on 28 short L1/L2 tasks of the release,
# 3. the GPU tests (tests/test_gpu.py -m gpu). CHEATS=0, KNOWN=0, GPU_TESTS=0 leave a part out. Each part has its own time limit;
# results and logs go to OUT_DIR.
rel=$(realpath "$1"); out=$2; T0=$(date +%s); mkdir -p "$out"
export CUDAL1_BASE_DIR=${CUDAL1_BASE_DIR:-/tmp/cudal1_checks} PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1 CUDAL1_RELEASE=$rel
python3 -c "from cudal1_nb.eval import harness_version; print('harness', harness_version())"
IDS=kernelbench/L1/19,kernelbench/L1/20,kernelbench/L1/21,kernelbench/L1/22,kernelbench/L1/23,kernelbench/L1/24,kernelbench/L1/25,kernelbench/L1/26,kernelbench/L1/27,kernelbench/L1/28,kernelbench/L1/29,kernelbench/L1/30,kernelbench/L1/31,kernelbench/L1/32,kernelbench/L1/33,kernelbench/L1/34,kernelbench/L2/1,kernelbench/L2/2,kernelbench/L2/3,kernelbench/L2/4,kernelbench/L2/5,kernelbench/L2/6,kernelbench/L2/7,kernelbench/L2/8,kernelbench/L2/9,kernelbench/L2/10,kernelbench/L2/18,kernelbench/L2/84
if [ "${CHEATS:-1}" != 0 ]; then
  t=$(date +%s)
  timeout 200 python3 benchmarks/cheat_detections.py --device cuda --budget 0.5 --json "$out/cheats.jsonl" > "$out/cheat_detections.txt" 2>&1
  echo "cheat suite: exit $?, $(( $(date +%s) - t )) s"; tail -n 4 "$out/cheat_detections.txt"
fi
if [ "${KNOWN:-1}" != 0 ]; then
  t=$(date +%s)
  timeout 150 python3 benchmarks/known_ratio.py --source "$rel" --device cuda --budget 0.5 --ids $IDS --json "$out/known_ratio.jsonl" > "$out/known_ratio.log" 2>&1
  echo "known ratio: exit $?, $(( $(date +%s) - t )) s"; python3 benchmarks/known_ratio.py --table "$out/known_ratio.jsonl"
fi
[ "${GPU_TESTS:-1}" = 0 ] && exit 0
t=$(date +%s)
timeout $(( 590 - ($(date +%s) - T0) )) python3 -m pytest -m gpu tests/test_gpu.py -q -p no:cacheprovider > "$out/test_gpu.log" 2>&1
echo "GPU tests: exit $?, $(( $(date +%s) - t )) s"; tail -n 3 "$out/test_gpu.log"
