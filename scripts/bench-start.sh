#!/bin/sh
# bench-start.sh: how Workbench starts, measured on the real binary in a real
# pseudo-terminal (scripts/bench-start): time to the first full frame, CPU
# used by then, resident memory and idle CPU once it sits still. Run by
# `make bench-start`; never by `make test`.
#
# CRUSH=/path/to/crush measures Crush in the same run, alternating with
# Workbench, and prints the ratio of each pair (CRUSH_READY is the text of
# Crush's first full frame). RUNS, IDLE and SETTLE change the defaults.
#
# Each program gets an empty HOME and no API keys, so the figures do not
# depend on the developer's settings: Workbench starts its built-in demo.
set -eu
cd "$(dirname "$0")/.."
BIN=${BIN:-bin/workbench}
RUNS=${RUNS:-5}
IDLE=${IDLE:-10s}
SETTLE=${SETTLE:-3s}
CRUSH=${CRUSH:-}
CRUSH_READY=${CRUSH_READY:-ctrl+p}
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
go build -o "$home/bench-start" ./scripts/bench-start
set -- -n "$RUNS" -idle "$IDLE" -settle "$SETTLE" -ready '0 tokens'
if [ -n "$CRUSH" ]; then
	set -- "$@" -vs "$CRUSH" -vs-ready "$CRUSH_READY"
fi
exec env -u ANTHROPIC_API_KEY -u OPENAI_API_KEY -u OPENAI_BASE_URL \
	HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_STATE_HOME="$home/.state" XDG_DATA_HOME="$home/.data" \
	"$home/bench-start" "$@" -- "$BIN"
