package conversation

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/shell"
	"github.com/seed92b641c3/workbench/ui/format"
)

// bashRenderer shows a command that went on in the background as the
// person needs it: which task it is, the command, that it runs in the
// background and how to watch it. The model's text says the same for the
// model (the output file, TaskOutput, TaskStop), which the person does
// not use. Every other Bash result is shown as it came.
type bashRenderer struct{}

// Body implements toolRenderer.
func (bashRenderer) Body(input json.RawMessage, res tools.Result) string {
	var meta shell.Meta
	if res.IsError || len(res.Meta) == 0 || json.Unmarshal(res.Meta, &meta) != nil || !meta.Background || meta.TaskID == "" {
		return res.Text
	}
	var in struct {
		Command         string `json:"command"`
		RunInBackground bool   `json:"run_in_background"`
	}
	_ = json.Unmarshal(input, &in)
	var b strings.Builder
	if in.RunInBackground {
		fmt.Fprintf(&b, "%s runs in the background: %s\n", meta.TaskID, oneLine(in.Command))
	} else {
		// It outlived its timeout: what it printed so far comes first.
		if out, _, ok := strings.Cut(res.Text, "\n\n[command still running after "); ok && !strings.HasPrefix(res.Text, "[command still running") {
			b.WriteString(strings.TrimRight(out, "\n") + "\n")
		}
		// The command is in the call's header just above.
		fmt.Fprintf(&b, "Still running after %s; it goes on in the background as %s.\n",
			format.Duration(time.Duration(meta.DurationMS)*time.Millisecond), meta.TaskID)
	}
	fmt.Fprintf(&b, "Watch it with /tasks open %s; stop it with /tasks stop %s.", meta.TaskID, meta.TaskID)
	return b.String()
}
