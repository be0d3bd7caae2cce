#!/usr/bin/env bash
# A single-node Slurm cluster on localhost, for `adacloth farm` (docs/farm.md) and its test (ctest label farm).
#   tools/slurm-local.sh start    write /etc/slurm/slurm.conf, start munged, slurmctld and slurmd; wait until the
#                                 node is idle (idempotent: a running cluster is left as it is)
#   tools/slurm-local.sh stop     stop the daemons this script started (jobs still running are killed)
#   tools/slurm-local.sh status   print the daemons' state and `sinfo`; exit 0 when the node answers, 1 otherwise
# Needs root (slurmd runs jobs as their user) and the Debian packages slurmctld, slurmd, slurm-client and munge
# (tools/install-deps.sh). No systemd: the daemons are started directly, which also works in a CI container.
#
# The node offers every core ($(nproc)) and the memory of /proc/meminfo; nothing else here is machine-specific. A farm
# of many machines uses the same job scripts: only slurm.conf changes (more NodeName lines, a shared filesystem).
# Accounting: Debian 12's Slurm 22.05 has no file-based accounting storage (only slurmdbd, which needs a database),
# so completed jobs are logged by jobcomp/filetxt, which `sacct --completion` reads; `adacloth farm status` uses that
# when `sacct` says accounting is disabled.
set -euo pipefail

conf=/etc/slurm/slurm.conf
marker="# Written by adacloth tools/slurm-local.sh"
state=/var/lib/slurm-local          # StateSaveLocation, SlurmdSpoolDir, which daemons this script started
logs=/var/log/slurm-local           # daemon logs and the job completion log
run=/run/slurm-local                # pid files
munge_socket=/run/munge/munge.socket.2

die() { echo "slurm-local.sh: $*" >&2; exit 1; }

need_root() {
  [[ $(id -u) -eq 0 ]] || die "run as root (slurmd must start jobs as their user)"
  for tool in munged slurmctld slurmd sinfo; do
    command -v "$tool" >/dev/null || die "$tool not found; install the Debian packages: bash tools/install-deps.sh"
  done
}

# pid from a pid file, if that process is alive.
alive_pid() {
  local file=$1 pid
  [[ -s $file ]] || return 1
  pid=$(<"$file")
  kill -0 "$pid" 2>/dev/null && echo "$pid"
}

write_conf() {
  if [[ -f $conf ]] && ! grep -qF "$marker" "$conf"; then
    die "$conf exists and was not written by this script; not touching a real cluster's configuration"
  fi
  local cpus memory_mb
  cpus=$(nproc)
  memory_mb=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
  mkdir -p /etc/slurm "$state/ctld" "$state/d" "$logs" "$run"
  cat >"$conf.tmp" <<EOF
$marker: a one-node cluster on localhost.
# For a farm of many machines, replace the NodeName and PartitionName lines (and SlurmctldHost) with the farm's.
ClusterName=adacloth-local
SlurmctldHost=localhost
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
SwitchType=switch/none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
# Start a job as soon as resources or its dependency allow (the default delays batch jobs by up to 3 s each: a farm's
# stages and its tasks beyond the free CPUs would wait that long for each start).
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$run/slurmctld.pid
SlurmdPidFile=$run/slurmd.pid
SlurmctldLogFile=$logs/slurmctld.log
SlurmdLogFile=$logs/slurmd.log
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$logs/jobcomp.txt
MinJobAge=3600
MaxArraySize=100001
NodeName=localhost CPUs=$cpus RealMemory=$memory_mb State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
  mv -f "$conf.tmp" "$conf"
}

start_munge() {
  if munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then return 0; fi
  if [[ ! -s /etc/munge/munge.key ]]; then
    mungekey --create --keyfile=/etc/munge/munge.key
    chown munge:munge /etc/munge/munge.key
    chmod 600 /etc/munge/munge.key
  fi
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge
  runuser -u munge -- munged
  touch "$state/started-munged"
  for _ in $(seq 50); do
    [[ -S $munge_socket ]] && munge -n </dev/null | unmunge >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  die "munged did not come up (see /var/log/munge/munged.log)"
}

node_state() { sinfo -h -N -n localhost -o %T 2>/dev/null | head -n1; }

wait_idle() {
  local s=""
  for _ in $(seq 150); do
    s=$(node_state)
    case "$s" in
      idle|mixed|allocated) return 0 ;;
      down*|drain*) scontrol update NodeName=localhost State=RESUME >/dev/null 2>&1 || true ;;
    esac
    sleep 0.2
  done
  die "the node did not become idle (state '${s:-no answer}'; see $logs/slurmctld.log and $logs/slurmd.log)"
}

start() {
  need_root
  write_conf
  start_munge
  if ! alive_pid "$run/slurmctld.pid" >/dev/null; then slurmctld; fi
  if ! alive_pid "$run/slurmd.pid" >/dev/null; then slurmd -N localhost; fi
  wait_idle
  echo "slurm-local.sh: cluster up: node localhost, $(nproc) CPUs, partition local (logs in $logs)"
}

stop_pid_file() {
  local name=$1 file=$2 pid
  pid=$(alive_pid "$file") || return 0
  kill "$pid"
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  die "$name (pid $pid) did not stop"
}

stop() {
  need_root
  stop_pid_file slurmd "$run/slurmd.pid"
  stop_pid_file slurmctld "$run/slurmctld.pid"
  if [[ -f $state/started-munged ]]; then
    stop_pid_file munged /run/munge/munged.pid
    rm -f "$state/started-munged"
  fi
  echo "slurm-local.sh: cluster stopped"
}

status() {
  local ok=0 name
  for name in slurmctld slurmd; do
    if pid=$(alive_pid "$run/$name.pid"); then echo "$name: running (pid $pid)"; else echo "$name: stopped"; ok=1; fi
  done
  [[ $ok -eq 0 ]] && sinfo -N -n localhost 2>/dev/null || ok=1
  return $ok
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
