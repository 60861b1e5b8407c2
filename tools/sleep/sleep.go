// Package sleep gives the model a way to wait: for a build, a deploy, a
// rate limit or a background task, without burning a shell on `sleep` or
// asking the person to wake it. Waiting is interrupted as soon as the call
// is cancelled, so a sleeping model never holds up Esc or shutdown.
package sleep

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/seed92b641c3/workbench/tools"
)

//go:embed sleep.md
var sleepPrompt string

// The bounds of one wait. The schema enforces them, so a model asking for
// more learns it at once instead of having its number silently changed.
const (
	// minSeconds keeps a call from being a busy loop of tiny sleeps.
	minSeconds = 1
	// maxSeconds is an hour: past that the model should rather stop and
	// let the person come back to it.
	maxSeconds = 3600
)

var sleepSchema = fmt.Sprintf(`{
  "type": "object",
  "properties": {
    "seconds": {"type": "number", "minimum": %d, "maximum": %d, "description": "How long to wait, in seconds (%d to %d; fractions allowed)."},
    "reason": {"type": "string", "description": "What you are waiting for, shown to the person."}
  },
  "required": ["seconds"],
  "additionalProperties": false
}`, minSeconds, maxSeconds, minSeconds, maxSeconds)

type sleepInput struct {
	Seconds float64 `json:"seconds"`
	Reason  string  `json:"reason"`
}

// Sleep is the tool that waits. It touches nothing, so it is read-only,
// may run beside other calls and needs no approval.
func Sleep() tools.Tool {
	return tools.Build(tools.Spec{
		Name:            "sleep",
		Description:     "Wait for a number of seconds (1 to 3600) before going on, for example while a build, deployment or background task finishes.",
		Prompt:          sleepPrompt,
		Schema:          sleepSchema,
		ReadOnly:        tools.Always,
		ConcurrencySafe: tools.Always,
		Permission:      tools.AllowSelf,
		Run:             runSleep,
	})
}

func runSleep(ctx context.Context, input json.RawMessage, _ *tools.Context) (tools.Result, error) {
	var in sleepInput
	if err := json.Unmarshal(input, &in); err != nil {
		return tools.Result{}, fmt.Errorf("input: %w", err)
	}
	// The schema bounds the number; clamping again keeps a caller that skips
	// validation from sleeping for ever.
	want := time.Duration(min(max(in.Seconds, minSeconds), maxSeconds) * float64(time.Second))
	start := time.Now()
	timer := time.NewTimer(want)
	defer timer.Stop()
	select {
	case <-timer.C:
		return tools.Text("Slept for " + seconds(want) + "."), nil
	case <-ctx.Done():
		return tools.Text(fmt.Sprintf("Woke early after %s of the %s asked for: the wait was interrupted.", seconds(time.Since(start)), seconds(want))), nil
	}
}

// seconds renders a duration for the model in plain seconds, whole when it
// is whole: "90 seconds" reads better than "1m30s".
func seconds(d time.Duration) string {
	s := d.Seconds()
	if s == 1 {
		return "1 second"
	}
	if d%time.Second == 0 {
		return strconv.FormatFloat(s, 'f', 0, 64) + " seconds"
	}
	return strconv.FormatFloat(s, 'f', 1, 64) + " seconds"
}
