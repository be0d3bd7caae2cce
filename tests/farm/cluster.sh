#!/usr/bin/env bash
# The ctest fixture of the farm test: brings the local Slurm cluster (tools/slurm-local.sh) up before it and down
# after it, but leaves alone a cluster that was already running (someone's own, or a farm run in progress).
#   cluster.sh up STATE_FILE     start it unless it runs; STATE_FILE remembers whether this fixture started it
#   cluster.sh down STATE_FILE   stop it if `up` started it
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
local_cluster="$here/../../tools/slurm-local.sh"
state="${2:?usage: cluster.sh up|down STATE_FILE}"
case "${1:-}" in
  up)
    if bash "$local_cluster" status >/dev/null 2>&1; then
      echo "farm test: a local cluster is already running; using it" && rm -f "$state"
    else
      bash "$local_cluster" start && echo started >"$state"
    fi ;;
  down)
    if [[ -f $state ]]; then bash "$local_cluster" stop && rm -f "$state"; fi ;;
  *) echo "usage: cluster.sh up|down STATE_FILE" >&2; exit 2 ;;
esac
