#!/usr/bin/env bash
# Move an RL experiment (the OUT of `benchmarks/rl_experiment.py`) between machines in pieces a transfer allows, e.g. off
# a GPU machine that returns files of at most 16 MB, and back to resume it:
#   bash benchmarks/run_parts.sh pack OUT PARTS [SIZE]    # OUT's resumable state as PARTS/run.tgz.00, .01 ... (SIZE each, as
#                                                         # `split -b` reads it; default 15m) and PARTS/run.sha256
#   bash benchmarks/run_parts.sh unpack PARTS DEST        # every piece checked against run.sha256, then unpacked into DEST
# A pack holds every file of OUT except TRL's checkpoints, and of each arm-seed with no final model (`model/`: a run cut
# before its end) its last checkpoint, the adapter and optimizer state it resumes from. Exit status 2: bad input, a
# missing or altered piece (then nothing is unpacked).
set -euo pipefail
die() { echo "run_parts: $*" >&2; exit 2; }
[ $# -ge 3 ] || { sed -n 2,9p "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
case $1 in
pack)
  src=$2 dst=$3 size=${4:-15m}
  [ -d "$src" ] || die "no directory $src"
  mkdir -p "$dst"; rm -f "$dst"/run.tgz.* "$dst"/run.sha256
  list=$(mktemp); trap 'rm -f "$list"' EXIT
  (cd "$src" && find . -path '*/trainer/checkpoint-*' -prune -o -type f -print) > "$list"
  for d in "$src"/*/; do
    [ -d "${d}model" ] && continue   # finished: its final model is in the pack already
    n=$(ls -d "${d}"trainer/checkpoint-* 2>/dev/null | sed "s/.*checkpoint-//" | sort -n | tail -1 || true)
    [ -n "$n" ] && (cd "$src" && find "./${d#"$src"/}trainer/checkpoint-$n" -type f) >> "$list"
  done
  tar czf - -C "$src" -T "$list" | split -b "$size" -d - "$dst/run.tgz."
  (cd "$dst" && sha256sum run.tgz.* > run.sha256)
  echo "packed $(wc -l < "$list") files of $src into $(ls "$dst"/run.tgz.* | wc -l) pieces ($(du -cb "$dst"/run.tgz.* | tail -1 | cut -f1) bytes) in $dst"
  ;;
unpack)
  src=$2 dst=$3
  [ -f "$src/run.sha256" ] || die "no $src/run.sha256: not a pack, or its checksums did not come"
  (cd "$src" && sha256sum --quiet -c run.sha256) || die "a piece in $src is missing or altered; nothing unpacked"
  extra=$(cd "$src" && ls run.tgz.* | grep -vxF -f <(awk '{print $2}' run.sha256) || true)
  [ -z "$extra" ] || die "pieces not in run.sha256 (from another pack?): $extra"
  mkdir -p "$dst"
  cat $(awk '{print "'"$src"'/"$2}' "$src/run.sha256") | tar xzf - -C "$dst"
  echo "unpacked $(awk 'END{print NR}' "$src/run.sha256") pieces into $dst"
  ;;
*) die "unknown mode '$1' (pack or unpack)" ;;
esac
