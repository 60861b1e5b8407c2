#!/bin/sh
# Writes the hook's input (JSON on stdin) where the test can read it, and,
# for the events that may add context, adds some the test looks for in the
# model's request.
cat > "$CLAUDE_PROJECT_DIR/hook-$1.json"
case "$1" in
session-start) echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"(marker: session-start-context)"}}' ;;
user-prompt-submit) echo '(marker: prompt-context)' ;;
esac
