package main

import (
	"fmt"
	"io"
	"sync"
)

// hookMessages prints the hooks' systemMessage lines on a headless run's
// stderr, one whole line each (hooks of parallel calls may speak at once),
// escaped when stderr is a terminal: a project's hook script must not drive
// the person's terminal.
func hookMessages(stderr io.Writer) func(string) {
	var mu sync.Mutex
	safe := isTerminal(stderr)
	return func(msg string) {
		if safe {
			msg = terminalSafe(msg)
		}
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintln(stderr, "workbench: "+msg)
	}
}
