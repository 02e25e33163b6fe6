#!/usr/bin/env bash
# Serves podman's Docker-compatible API on SOCKET for testcontainers, with containers.conf's runtime
# and limits, for as long as whoever started it keeps this script's standard input open; prints
# "ready" once the socket answers. When the input closes (the suite's close(), or its process ending
# however it ends), the containers labelled countersign.test-run=RUN are removed and the service
# stops: ryuk's job, without ryuk's image (testcontainers runs with its reaper off on this engine).
# Usage: test/containers/podman-engine.sh SOCKET RUN
set -euo pipefail

socket=$1
run=$2
export CONTAINERS_CONF=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/containers.conf

podman system service --time=0 "unix://$socket" &
service=$!

stop() {
  podman ps --all --quiet --filter "label=countersign.test-run=$run" |
    xargs --no-run-if-empty podman rm --force --time 0 >/dev/null || true
  kill "$service" 2>/dev/null || true
  wait "$service" 2>/dev/null || true
}
trap stop EXIT
trap 'exit 143' TERM INT HUP

until [[ -S "$socket" ]]; do
  kill -0 "$service" 2>/dev/null || { echo "podman system service ended before it listened" >&2; exit 1; }
  sleep 0.1
done
echo ready
# A background job's input would be /dev/null: the script's own is handed to it. `wait` is
# interrupted by a signal, where a command in the foreground would hold the trap back.
exec 3<&0
cat <&3 >/dev/null &
wait $! || true
