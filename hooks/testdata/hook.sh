#!/bin/bash
# hook.sh DUMP [REPLY [EXIT]]: a hook script as people write them. It saves
# the event it receives on stdin to the file DUMP, prints the file REPLY
# byte for byte (when given) and exits with EXIT (default 0).
cat > "$1"
if [ -n "${2:-}" ]; then
	cat "$2"
fi
exit "${3:-0}"
