#!/usr/bin/env bash
# start_slurm.sh DIR [TIMEOUT_SECONDS]
#
# Starts a private single-node Slurm "cluster" (munged + slurmctld + slurmd)
# whose every file (key, sockets, config, state, spool, pid and log files)
# lives under DIR.  No systemd is used: the daemons are started directly.
# Needs root (SlurmUser=root, slurmd must run as root) and the Debian
# packages slurmctld slurmd slurm-client munge.
#
# On success prints "export SLURM_CONF=DIR/slurm.conf" on stdout and exits 0.
# On failure prints the daemons' logs on stderr, stops what it started and
# exits non-zero.
#
# Environment overrides:
#   WORMCAST_SLURM_CTLD_PORT (default 16817)  WORMCAST_SLURM_SLURMD_PORT (default 16818)
set -euo pipefail

if [ $# -lt 1 ]; then
    echo "usage: $0 DIR [TIMEOUT_SECONDS]" >&2
    exit 2
fi
mkdir -p "$1"
DIR=$(cd "$1" && pwd -P)
TIMEOUT=${2:-60}
CTLD_PORT=${WORMCAST_SLURM_CTLD_PORT:-16817}
SLURMD_PORT=${WORMCAST_SLURM_SLURMD_PORT:-16818}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)

if [ "$(id -u)" -ne 0 ]; then
    echo "start_slurm.sh: must run as root" >&2
    exit 2
fi
for b in munged mungekey munge unmunge slurmctld slurmd sinfo; do
    command -v "$b" >/dev/null 2>&1 || {
        echo "start_slurm.sh: '$b' not found (apt-get install -y slurmctld slurmd slurm-client munge)" >&2
        exit 2
    }
done

NODE=$(hostname -s)
if command -v ss >/dev/null 2>&1; then
    for port in "$CTLD_PORT" "$SLURMD_PORT"; do
        if [ -n "$(ss -Hltn "sport = :$port" 2>/dev/null)" ]; then
            echo "start_slurm.sh: TCP port $port already in use (another cluster running? set WORMCAST_SLURM_CTLD_PORT / WORMCAST_SLURM_SLURMD_PORT)" >&2
            exit 1
        fi
    done
fi
NCPU=$(nproc)

# munged refuses directories that are group/other writable (unless sticky),
# so nothing here is.  DIR and DIR/munge are 0711 so that the socket can be
# reached by every uid (otherwise munged warns "Socket is inaccessible");
# the key stays 0400.
chmod 0711 "$DIR"
mkdir -p "$DIR/munge" "$DIR/state" "$DIR/spool" "$DIR/log" "$DIR/run"
chmod 0711 "$DIR/munge"
chmod 0700 "$DIR/state" "$DIR/spool" "$DIR/log" "$DIR/run"

dump_logs() {
    for f in "$DIR"/log/*.log "$DIR"/log/*.err; do
        [ -s "$f" ] || continue
        echo "----- $f (last 40 lines) -----" >&2
        tail -n 40 "$f" >&2
    done
}
fail() {
    echo "start_slurm.sh: $*" >&2
    dump_logs
    "$HERE/stop_slurm.sh" "$DIR" >/dev/null 2>&1 || true
    exit 1
}

# ---------------------------------------------------------------- munge --
KEY="$DIR/munge/munge.key"
SOCK="$DIR/munge/munge.socket"
if [ ! -s "$KEY" ]; then
    if ! mungekey --create --keyfile="$KEY" 2>"$DIR/log/mungekey.err"; then
        dd if=/dev/urandom of="$KEY" bs=1024 count=1 status=none
    fi
fi
chmod 0400 "$KEY"

munged --force \
    --socket="$SOCK" \
    --key-file="$KEY" \
    --pid-file="$DIR/run/munged.pid" \
    --log-file="$DIR/log/munged.log" \
    --seed-file="$DIR/munge/munged.seed" \
    2>"$DIR/log/munged.err" || fail "munged failed to start"

deadline=$((SECONDS + TIMEOUT))
until munge -n -S "$SOCK" 2>/dev/null | unmunge -S "$SOCK" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || fail "munged did not answer on $SOCK within ${TIMEOUT}s"
    sleep 0.1
done

# ----------------------------------------------------------- slurm.conf --
: >"$DIR/plugstack.conf"
cat >"$DIR/slurm.conf" <<EOF
# Written by tests/slurm/start_slurm.sh: a private single-node test cluster.
ClusterName=wormcast-test
SlurmctldHost=${NODE}(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=${CTLD_PORT}
SlurmdPort=${SLURMD_PORT}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=${SOCK}
StateSaveLocation=${DIR}/state
SlurmdSpoolDir=${DIR}/spool
SlurmctldPidFile=${DIR}/run/slurmctld.pid
SlurmdPidFile=${DIR}/run/slurmd.pid
SlurmctldLogFile=${DIR}/log/slurmctld.log
SlurmdLogFile=${DIR}/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=${DIR}/plugstack.conf
MpiDefault=none
MailProg=/bin/true
# Reject at submission any job the partition can never run (too many nodes,
# CPUs, ...) instead of leaving it PENDING forever with Reason=PartitionConfig.
EnforcePartLimits=ALL
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
# Default batch_sched_delay=3 delays every batch start by up to 3 s.
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=300
MaxJobCount=10000
MaxArraySize=10001
NodeName=${NODE} NodeAddr=127.0.0.1 CPUs=${NCPU} RealMemory=100 State=UNKNOWN
PartitionName=debug Nodes=${NODE} Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$DIR/slurm.conf"

# -------------------------------------------------------------- daemons --
# Both fork into the background by themselves and write their pid files.
slurmctld -f "$SLURM_CONF" -i 2>"$DIR/log/slurmctld.err" \
    || fail "slurmctld failed to start"
slurmd -f "$SLURM_CONF" -N "$NODE" 2>"$DIR/log/slurmd.err" \
    || fail "slurmd failed to start"

# Pid of a daemon from its pid file if it is running (zombies count as dead).
running() {
    local pid
    pid=$(tr -dc '0-9' 2>/dev/null <"$DIR/run/$1.pid") && [ -n "$pid" ] \
        && kill -0 "$pid" 2>/dev/null \
        && ! grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2>/dev/null
}
state=""
started=$SECONDS
until state=$(sinfo -h -N -n "$NODE" -o '%T' 2>/dev/null) && [ "$state" = idle ]; do
    [ $SECONDS -lt $deadline ] || fail "node $NODE not idle within ${TIMEOUT}s (state: '${state}')"
    if [ $((SECONDS - started)) -ge 2 ]; then
        for d in slurmctld slurmd; do
            running "$d" || fail "$d exited during start-up"
        done
    fi
    sleep 0.2
done

echo "export SLURM_CONF=$SLURM_CONF"
