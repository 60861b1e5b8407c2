#!/bin/sh
# bench-sandbox.sh: what the sandbox costs per command on the real binary:
# `workbench --script calls.json -p go` plays CALLS model turns, each one
# Bash call of `true`, in one headless session, with the sandbox on
# (workspace-write) and off (--sandbox off); /usr/bin/time reports wall
# and CPU time, which include the sandbox server's and the commands' (the
# server is Workbench's child and waits for the commands). The difference
# over CALLS is the sandbox's cost per command. Run by `make
# bench-sandbox`; never by `make test`.
#
# VS=path measures a second binary the same way, alternating with BIN (an
# older build, to compare before and after in one run). CALLS and RUNS
# change the defaults.
set -eu
cd "$(dirname "$0")/.."
BIN=${BIN:-bin/workbench}
VS=${VS:-}
CALLS=${CALLS:-200}
RUNS=${RUNS:-3}
BIN=$(realpath "$BIN")
[ -z "$VS" ] || VS=$(realpath "$VS")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
	printf '{"turns":['
	i=0
	while [ "$i" -lt "$CALLS" ]; do
		printf '{"text":"Call %d.","tool_calls":[{"id":"b%d","name":"Bash","input":{"command":"true"}}]},' "$i" "$i"
		i=$((i + 1))
	done
	printf '{"text":"done"}]}'
} >"$work/calls.json"
git init -q "$work"

# once BINARY LABEL ARGS...: one run in a new empty HOME; prints the figures.
once() {
	bin=$1 label=$2
	shift 2
	home=$(mktemp -d)
	out=$(cd "$work" && env -u ANTHROPIC_API_KEY -u OPENAI_API_KEY -u OPENAI_BASE_URL \
		HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_STATE_HOME="$home/.state" XDG_DATA_HOME="$home/.data" \
		/usr/bin/time -f 'wall %e s, CPU %U s user %S s system, exit %x' \
		"$bin" --script calls.json --max-turns $((CALLS + 10)) --permission-mode bypassPermissions "$@" -p go 2>&1 >/dev/null | tail -n 1)
	rm -rf "$home"
	echo "  $label: $out"
}

echo "load $(cut -d' ' -f1-3 /proc/loadavg); $CALLS Bash calls of true, $RUNS runs each"
once "$BIN" "warm-up" >/dev/null
r=1
while [ "$r" -le "$RUNS" ]; do
	once "$BIN" "$BIN sandbox off, run $r" --sandbox off
	once "$BIN" "$BIN sandboxed, run $r"
	[ -z "$VS" ] || once "$VS" "$VS sandboxed, run $r"
	r=$((r + 1))
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg) at the end"
