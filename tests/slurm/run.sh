#!/usr/bin/env bash
# The Slurm recipe for real: a one-node cluster on this machine (munged, slurmctld, slurmd from the Debian
# packages slurm-wlm and munge, configured here for localhost), deploy/slurm/submit.sh grading a class of Python
# hand-ins as a 3-task job array plus the dependent merge, and the merged gradebook, report and Gradescope files
# compared with an unsharded run's. Skips (exit 0, with a message) when Slurm or munge is not installed.
# Usage: tests/slurm/run.sh [REFEREE-BINARY]   (default: target/release/referee, else target/debug/referee)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
for tool in munged slurmctld slurmd sbatch squeue scontrol; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "tests/slurm/run.sh: skipped: $tool is not installed (apt-get install slurm-wlm munge)"
    exit 0
  fi
done
referee="${1:-}"
if [ -z "$referee" ]; then
  referee="$repo/target/release/referee"
  [ -x "$referee" ] || referee="$repo/target/debug/referee"
fi
[ -x "$referee" ] || { echo "tests/slurm/run.sh: no referee binary (cargo build first)" >&2; exit 1; }
work="$(mktemp -d /tmp/referee-slurm-XXXXXX)"
chmod 0755 "$work"
pids=()
cleanup() {
  # Only the daemons this script started, by their process ids.
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 1
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "tests/slurm/run.sh: FAILED: $*" >&2; for f in "$work"/*.log "$work"/out/logs/*; do [ -f "$f" ] && { echo "== $f" >&2; tail -20 "$f" >&2; }; done; exit 1; }

# A class: two correct, one off by one in the depth, one CRLF, one that does not parse.
class="$work/class"
fixture="$repo/tests/fixtures/submissions/python-stats/takestones.py"
for id in ann ben cat dan eve; do mkdir -p "$class/$id"; cp "$fixture" "$class/$id/takestones.py"; done
sed -i 's/depth == self.depth_limit:/depth == self.depth_limit - 1:/' "$class/ben/takestones.py"
sed -i 's/sys.stdout.write("\\n".join(lines) + "\\n")/sys.stdout.write("\\r\\n".join(lines) + "\\r\\n")/' "$class/cat/takestones.py"
echo 'def broken(:' >> "$class/dan/takestones.py"
grade=(grade --suite builtin:takestones-stats-2019 --submissions "$class" --cmd "/usr/bin/python3 {dir}/takestones.py {args}")

code=0
"$referee" "${grade[@]}" --out "$work/whole" >/dev/null || code=$?
[ "$code" -le 1 ] || fail "the unsharded run exited $code"

# The cluster: munge for authentication, one controller and one node, all state under $work.
host="$(hostname -s)"
mkdir -p "$work/state" "$work/spool" "$work/munge"
cat > "$work/slurm.conf" <<CONF
ClusterName=referee-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CryptoType=crypto/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
socket="$work/munge/munge.socket"
chown munge:munge "$work/munge" 2>/dev/null || true
munged --force --socket="$socket" --pid-file="$work/munge/munged.pid" --log-file="$work/munged.log" \
  --seed-file="$work/munge/seed" || fail "munged did not start"
pids+=("$(cat "$work/munge/munged.pid")")
# Slurm's munge plugin finds the socket through this option.
sed -i "s|^AuthType=auth/munge|AuthType=auth/munge\nAuthInfo=socket=$socket|" "$SLURM_CONF"
slurmctld -f "$SLURM_CONF" -i || fail "slurmctld did not start"
for _ in $(seq 50); do [ -s "$work/slurmctld.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$work/slurmctld.pid")")
slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
for _ in $(seq 50); do [ -s "$work/slurmd.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$work/slurmd.pid")")
for _ in $(seq 60); do
  scontrol show node "$host" 2>/dev/null | grep -q "State=IDLE" && break
  sleep 0.5
done
scontrol show node "$host" | grep -q "State=IDLE" || fail "the node never became idle"

# The recipe, exactly as the README gives it.
ids=$(REFEREE="$referee" "$repo/deploy/slurm/submit.sh" 3 "$work/out" -- "${grade[@]}") || fail "submit.sh"
read -r array merge <<<"$ids"
echo "submitted array job $array and merge job $merge"
deadline=$((SECONDS + 150))
while squeue -h -j "$array,$merge" 2>/dev/null | grep -q .; do
  [ "$SECONDS" -lt "$deadline" ] || fail "the jobs did not finish within 150 s"
  sleep 1
done
state=$(scontrol show job "$merge" 2>/dev/null | grep -o 'JobState=[A-Z_]*' || echo "JobState=unknown")
[ "$state" = "JobState=COMPLETED" ] || fail "merge job $merge: $state"
for k in 1 2 3; do [ -f "$work/out/shard-$k/shard.json" ] || fail "shard $k wrote no shard.json"; done
cmp "$work/whole/gradebook.csv" "$work/out/final/gradebook.csv" || fail "the merged gradebook differs"
# Timings, run ids and each run's scratch folder (in a traceback's paths) differ between any two runs.
norm() { sed -E -e 's#/referee-[A-Za-z0-9]{6}#/referee-X#g' -e '/"(elapsed_ms|run|execution_time)":/d' "$1"; }
for id in ann ben cat dan eve; do
  for file in "feedback/$id.md" "gradescope/$id/results.json"; do
    diff <(norm "$work/whole/$file") <(norm "$work/out/final/$file") >/dev/null || fail "$file differs"
  done
done
diff <(norm "$work/whole/report.json") <(norm "$work/out/final/report.json") >/dev/null || fail "report.json differs"
echo "tests/slurm/run.sh: the 3-shard Slurm run merged into the unsharded gradebook ($(($(wc -l < "$work/whole/gradebook.csv") - 1)) students)"
