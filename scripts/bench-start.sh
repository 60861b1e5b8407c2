#!/bin/sh
# bench-start.sh: how Workbench starts, measured on the real binary in a real
# pseudo-terminal (scripts/bench-start): time to the first full frame, CPU
# used by then, resident memory and idle CPU once it sits still. Run by
# `make bench-start`; never by `make test`.
#
# CRUSH=/path/to/crush measures Crush in the same run, alternating with
# Workbench, and prints the ratio of each pair (CRUSH_READY is the text of
# Crush's first full frame, its chat screen's key hints). VS=path measures
# another program the same way (VS_READY its ready text, VS_ENV NAME=VALUE
# pairs for it alone), such as an older Workbench:
# VS=/tmp/workbench-old VS_READY='0 tokens'. Given both, the run measures
# all three, round by round, with the ratios of Workbench to each. RUNS,
# IDLE and SETTLE change the defaults; ARGS adds arguments to the command
# lines of Workbench and of VS, an older Workbench (ARGS="--sandbox off").
#
# Each program gets an empty HOME and no API keys, so the figures do not
# depend on the developer's settings: Workbench starts its built-in demo.
# Crush gets a dummy Anthropic key (CRUSH_ENV), without which it opens on
# its provider picker instead of its chat screen, and its provider list
# auto-update and metrics are off (no network here). Each binary is dropped
# from the page cache and started once unmeasured before the runs, so that
# the file-backed part of RSS does not depend on how the file came into the
# cache (scripts/bench-start/main.go says why).
set -eu
cd "$(dirname "$0")/.."
BIN=${BIN:-bin/workbench}
RUNS=${RUNS:-5}
IDLE=${IDLE:-10s}
SETTLE=${SETTLE:-3s}
CRUSH=${CRUSH:-}
CRUSH_READY=${CRUSH_READY:-ctrl+p}
CRUSH_ENV=${CRUSH_ENV:-ANTHROPIC_API_KEY=sk-bench-start CRUSH_DISABLE_PROVIDER_AUTO_UPDATE=1 CRUSH_DISABLE_METRICS=1 DO_NOT_TRACK=1}
VS=${VS:-}
VS_READY=${VS_READY:-}
VS_ENV=${VS_ENV:-}
ARGS=${ARGS:-}
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
go build -o "$home/bench-start" ./scripts/bench-start
set -- -n "$RUNS" -idle "$IDLE" -settle "$SETTLE" -ready '0 tokens'
if [ -n "$VS" ]; then
	set -- "$@" -vs "$VS${ARGS:+ $ARGS}" -vs-ready "${VS_READY:?VS_READY: the ready text of $VS}" -vs-env "$VS_ENV"
fi
if [ -n "$CRUSH" ]; then
	set -- "$@" -vs "$CRUSH" -vs-ready "$CRUSH_READY" -vs-env "$CRUSH_ENV"
fi
# ARGS is split at spaces on purpose: each word is one argument.
# shellcheck disable=SC2086
env -u ANTHROPIC_API_KEY -u OPENAI_API_KEY -u OPENAI_BASE_URL \
	HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_STATE_HOME="$home/.state" XDG_DATA_HOME="$home/.data" \
	"$home/bench-start" "$@" -- "$BIN" $ARGS
