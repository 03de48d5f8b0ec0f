#!/usr/bin/env bash
# Audit a CUDA-L1 release on the local GPU from a checkout (used on the device machine):
#   bash benchmarks/device_audit.sh RELEASE.jsonl OUT_DIR [cudal1 audit options...]
set -o pipefail
rel=$1; out=$2; shift 2
export CUDAL1_BASE_DIR=${CUDAL1_BASE_DIR:-/tmp/cudal1_base} PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.sm,temperature.gpu --format=csv,noheader
python3 -c "import torch, sys; print('python', sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.version.cuda)"
start=$(date +%s)
python3 -m cudal1_nb audit "$rel" --device cuda --out "$out" "$@" > "$out.log" 2>&1
rc=$?
echo "audit exit $rc, wall $(( $(date +%s) - start )) s"
tail -n 3 "$out.log"
