#!/usr/bin/env bash
# slurm_test.sh HOUSERULES SOURCE-DIR — docs/simulation.md's Slurm array job on a real Slurm (issue 38):
# starts Debian's munged, slurmctld and slurmd as root on this machine, each with its own socket, ports and
# state in a temporary folder (a one-node cluster: slurm.conf below, ProctrackType=proctrack/linuxproc,
# TaskPlugin=task/none, no systemd or cgroups needed), submits docs/simulation/slurm-submit.sh as written,
# scaled down (3 shards of 24 games), waits for the merge job and checks that the merged summary equals the
# unsharded one byte for byte. The daemons are stopped by their PIDs on every exit (trap).
# Skipped (exit 77, with the reason) where Slurm or munge is not installed or not run as root.
set -uo pipefail
hr=$1
src=$2
for tool in munged slurmctld slurmd sbatch scontrol; do
  if ! command -v "$tool" >/dev/null && [ ! -x "/usr/sbin/$tool" ]; then
    echo "SKIP: $tool is not installed (apt-get install slurmctld slurmd munge; setup.sh --deps-only does)"; exit 77
  fi
done
if [ "$(id -u)" -ne 0 ]; then echo "SKIP: a one-node Slurm is started as root only (run as root)"; exit 77; fi
export PATH="$PATH:/usr/sbin"
tmp=$(mktemp -d)
pids=()
stop() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  rm -rf "$tmp"
}
trap stop EXIT
fail() {
  echo "FAIL: $*"
  for log in "$tmp"/*.log; do [ -f "$log" ] && { echo "--- $log"; tail -15 "$log"; }; done
  exit 1
}

# munge: its own key, socket, pid and seed files.
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/bin" "$tmp/slurm"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
socket=$tmp/munge/munge.socket
munged --foreground --force --socket="$socket" --key-file="$tmp/munge/munge.key" --pid-file="$tmp/munge/munged.pid" \
  --seed-file="$tmp/munge/munged.seed" --log-file="$tmp/munged.log" 2>>"$tmp/munged.log" &
pids+=($!)

# Ports: two free TCP ports on this machine (asked of the kernel).
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
host=$(hostname -s)
# The node offers 4 CPUs and 8 GB whatever the machine has (config_overrides), so that slurm-array.sh's
# --cpus-per-task=4 --mem=2G fit; the tasks then run one after the other.
export SLURM_CONF=$tmp/slurm.conf
cat > "$SLURM_CONF" <<CONF
ClusterName=houserules-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=4 RealMemory=8192 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || fail "munged did not start"
slurmctld -D -c -f "$SLURM_CONF" >/dev/null 2>&1 &  # it logs to $tmp/slurmctld.log
pids+=($!)
slurmd -D -f "$SLURM_CONF" >/dev/null 2>&1 &  # it logs to $tmp/slurmd.log
pids+=($!)
# The node is up when sinfo says idle.
up=""
for _ in $(seq 100); do
  if sinfo -h -o %t 2>/dev/null | grep idle > /dev/null; then up=1; break; fi
  sleep 0.2
done
[ -n "$up" ] || fail "the one-node Slurm did not come up: $(sinfo 2>&1)"

ln -s "$hr" "$tmp/bin/houserules"
export PATH="$tmp/bin:$PATH"
games=24 seed=2024 players=greedy,random
houserules simulate lost-cities --games "$games" --players "$players" --seed "$seed" --no-progress \
  > "$tmp/expected.txt" || fail "the unsharded simulation failed"
cp "$src"/docs/simulation/slurm-*.sh "$tmp/slurm/"
submitted=$(cd "$tmp/slurm" && SHARDS=3 GAMES=$games SEED=$seed PLAYERS=$players OUT="$tmp/slurm/results" ./slurm-submit.sh) ||
  fail "slurm-submit.sh failed: $submitted"
echo "$submitted"
merge=$(sed -n 's/.*merge job \([0-9]*\).*/\1/p' <<<"$submitted")
[ -n "$merge" ] || fail "no merge job id in: $submitted"
state=""
for _ in $(seq 600); do  # at most 2 minutes
  state=$(scontrol show job "$merge" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  case $state in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;; esac
  sleep 0.2
done
[ "$state" = COMPLETED ] || fail "the merge job $merge ended $state: $(squeue 2>&1; cat "$tmp"/slurm/logs/* 2>&1)"
for i in 0 1 2; do [ -s "$tmp/slurm/results/out-$i.jsonl" ] || fail "shard $i wrote no out-$i.jsonl"; done
cmp "$tmp/expected.txt" "$tmp/slurm/results/summary.txt" || {
  diff "$tmp/expected.txt" "$tmp/slurm/results/summary.txt"; fail "the merged summary differs from the unsharded one"; }
[ -s "$tmp/slurm/results/report.html" ] || fail "no report.html"
echo "OK: slurm-submit.sh on a real Slurm (slurmctld $(slurmctld -V | cut -d' ' -f2)): 3 array tasks and the merge give the unsharded summary"
