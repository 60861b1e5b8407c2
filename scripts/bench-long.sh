#!/bin/sh
# bench-long.sh: the peak memory of a long headless session on the real
# binary: `workbench --script long.json -p go` plays 2,000 model turns, each
# a short text and one Read of 50 lines (the turns of session's
# BenchmarkLongSession2000), and /usr/bin/time reports the peak RSS, wall
# and CPU time of each run. Run by `make bench-long`; never by `make test`.
#
# VS=path measures a second binary the same way, alternating with BIN (an
# older build, to compare before and after in one run). TURNS and RUNS
# change the defaults. Each binary is dropped from the page cache and run
# once unmeasured first, as scripts/bench-start does, since the
# file-backed part of RSS depends on how the binary came into the cache.
set -eu
cd "$(dirname "$0")/.."
BIN=${BIN:-bin/workbench}
VS=${VS:-}
TURNS=${TURNS:-2000}
RUNS=${RUNS:-3}
BIN=$(realpath "$BIN")
[ -z "$VS" ] || VS=$(realpath "$VS")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
i=0
while [ "$i" -lt 200 ]; do
	echo "line $i of the file the session reads again and again"
	i=$((i + 1))
done >"$work/f.txt"
{
	printf '{"turns":['
	i=0
	while [ "$i" -lt "$TURNS" ]; do
		printf '{"text":"Turn %d: reading the file again.","tool_calls":[{"id":"r%d","name":"Read","input":{"file_path":"f.txt","limit":50}}]},' "$i" "$i"
		i=$((i + 1))
	done
	printf '{"text":"done"}]}'
} >"$work/long.json"
git init -q "$work"

# once BINARY LABEL: one run in a new empty HOME; prints the figures.
once() {
	home=$(mktemp -d)
	out=$(cd "$work" && env -u ANTHROPIC_API_KEY -u OPENAI_API_KEY -u OPENAI_BASE_URL \
		HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_STATE_HOME="$home/.state" XDG_DATA_HOME="$home/.data" \
		/usr/bin/time -f 'peak RSS %M kB, wall %e s, CPU %U s user %S s system, exit %x' \
		"$1" --script long.json --max-turns $((TURNS + 10)) -p go 2>&1 >/dev/null | tail -n 1)
	rm -rf "$home"
	echo "  $2: $out"
}

# prepare BINARY: drop it from the page cache, then one unmeasured run.
prepare() {
	sync "$1"
	dd if="$1" iflag=nocache count=0 status=none
	once "$1" "$1 (warm-up)" >/dev/null
}

echo "load $(cut -d' ' -f1-3 /proc/loadavg); $TURNS turns, $RUNS runs each"
prepare "$BIN"
[ -z "$VS" ] || prepare "$VS"
r=1
while [ "$r" -le "$RUNS" ]; do
	once "$BIN" "$BIN run $r"
	[ -z "$VS" ] || once "$VS" "$VS run $r"
	r=$((r + 1))
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg) at the end"
