#!/bin/sh
# Writes the hook's input (JSON on stdin) where the test can read it.
cat > "$CLAUDE_PROJECT_DIR/hook-$1.json"
