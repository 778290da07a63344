#!/usr/bin/env bash
# stop_slurm.sh DIR [TIMEOUT_SECONDS]
#
# Stops the cluster started by start_slurm.sh DIR: cancels its jobs, then
# stops slurmd, slurmctld and munged by their pid files in DIR/run, waiting
# for each to exit (SIGKILL after TIMEOUT seconds).  Safe to run twice or on
# a half-started DIR.  Exit 0 when nothing of DIR's cluster is left running.
set -uo pipefail

if [ $# -lt 1 ]; then
    echo "usage: $0 DIR [TIMEOUT_SECONDS]" >&2
    exit 2
fi
[ -d "$1" ] || exit 0
DIR=$(cd "$1" && pwd -P)
TIMEOUT=${2:-30}
export SLURM_CONF="$DIR/slurm.conf"

# Running and not a zombie (a zombie waits for pid 1 to reap it).
alive() {
    [ -n "$1" ] && kill -0 "$1" 2>/dev/null || return 1
    ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}

# Pid from a pid file, only if that process is still the expected program.
pid_of() {
    local f="$DIR/run/$1.pid" pid
    [ -s "$f" ] || return 1
    pid=$(tr -dc '0-9' <"$f")
    [ -n "$pid" ] && alive "$pid" || return 1
    case "$(cat "/proc/$pid/comm" 2>/dev/null)" in
        "$1"*) echo "$pid" ;;
        *) return 1 ;;
    esac
}

# Send SIGTERM to the named daemons at once, wait for all of them to exit,
# SIGKILL whatever is left after TIMEOUT seconds.
stop_daemons() {
    local name pid pids=() deadline=$((SECONDS + TIMEOUT))
    for name in "$@"; do
        pid=$(pid_of "$name") || continue
        kill -TERM "$pid" 2>/dev/null
        pids+=("$pid")
    done
    for pid in "${pids[@]}"; do
        while alive "$pid"; do
            if [ $SECONDS -ge $deadline ]; then
                echo "stop_slurm.sh: pid $pid ignored SIGTERM, sending SIGKILL" >&2
                kill -KILL "$pid" 2>/dev/null
                sleep 0.2
                break
            fi
            sleep 0.1
        done
    done
    for name in "$@"; do
        pid_of "$name" >/dev/null || rm -f "$DIR/run/$name.pid"
    done
}

# 1. Cancel jobs still known to this controller, so that no slurmstepd or
#    job process outlives slurmd (proctrack/linuxproc does not kill jobs when
#    slurmd exits).
if pid_of slurmctld >/dev/null && [ -f "$SLURM_CONF" ]; then
    jobs=$(timeout 10 squeue -h -o '%F' 2>/dev/null | sort -u)
    if [ -n "$jobs" ]; then
        # shellcheck disable=SC2086
        timeout 10 scancel --quiet --full $jobs 2>/dev/null || true
    fi
    deadline=$((SECONDS + 15))
    while [ -n "$(timeout 5 squeue -h -o '%i' 2>/dev/null)" ] && [ $SECONDS -lt $deadline ]; do
        sleep 0.2
    done
fi
# Fallback (controller already gone, scancel timed out, ...): kill every
# slurmstepd whose environment has our SLURM_CONF (start_slurm.sh exports it
# to slurmd, which passes it on), together with its job processes.
descendants() {
    local c
    for c in $(pgrep -P "$1" 2>/dev/null); do
        echo "$c"
        descendants "$c"
    done
}
for p in $(pgrep -x slurmstepd 2>/dev/null); do
    if tr '\0' '\n' 2>/dev/null <"/proc/$p/environ" | grep -qxF "SLURM_CONF=$SLURM_CONF"; then
        # shellcheck disable=SC2046
        kill -KILL "$p" $(descendants "$p") 2>/dev/null
    fi
done

# 2. The Slurm daemons together, then munged (which they use while exiting).
stop_daemons slurmd slurmctld
stop_daemons munged

rc=0
for n in slurmd slurmctld munged; do
    if pid_of "$n" >/dev/null; then
        echo "stop_slurm.sh: $n still running" >&2
        rc=1
    fi
done
exit $rc
