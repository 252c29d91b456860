#!/usr/bin/env bash
# Grades a class (or plays a tournament) as a Slurm job array of N shards, then merges them in a dependent job.
#
#   deploy/slurm/submit.sh N OUT -- grade --suite S --submissions CLASS --cmd C ...
#   deploy/slurm/submit.sh N OUT -- tournament othello --submissions CLASS --seed 7 ...
#
# OUT must be on a file system every node sees. Set REFEREE to the binary's path when it is not on PATH, and
# SBATCH_PARTITION / SBATCH_TIMELIMIT etc. as your cluster needs. Prints the two job ids (array, merge).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ $# -lt 3 ]; then
  echo "usage: $0 N OUT -- REFEREE-ARGS..." >&2
  exit 2
fi
n="$1" out="$2"
shift 2
[ "${1:-}" = "--" ] && shift
case "$n" in '' | *[!0-9]* | 0) echo "$0: N must be a number of shards >= 1, not '$n'" >&2; exit 2 ;; esac
mkdir -p "$out/logs"
out="$(cd "$out" && pwd)"
export SHARDS="$n" OUT="$out" REFEREE="${REFEREE:-referee}"
array=$(sbatch --parsable --array="0-$((n - 1))" --export=ALL --output="$out/logs/grade-%A_%a.log" \
  "$here/grade.sbatch" "$@")
array="${array%%;*}"
merge=$(sbatch --parsable --dependency="afterok:$array" --export=ALL --output="$out/logs/merge-%j.log" \
  "$here/merge.sbatch")
echo "$array ${merge%%;*}"
