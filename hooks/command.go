package hooks

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Command is a shell command hook as written in settings.
type Command struct {
	// Command is run with /bin/sh -c, the shell existing hook scripts are
	// written for.
	Command string
	// Timeout bounds the command; zero means the registry's default.
	Timeout time.Duration
	// Dir is the working directory; empty means the Input's Cwd.
	Dir string
}

// Tuning of command hooks.
const (
	shell = "/bin/sh"
	// outputCap is how much of a hook's stdout, and separately of its
	// stderr, is kept. The rest is read and dropped, so a chatty hook
	// never blocks on a full pipe and never grows our memory.
	outputCap = 64 << 10
	// drainGrace is how long we wait, after the hook's process group is
	// gone, for its pipes to close. Only a process that left the group
	// (setsid) can hold them longer; then we close our ends and move on.
	drainGrace = 2 * time.Second
	// killWait is exec's WaitDelay: how long Wait may take after the group
	// was sent SIGKILL. SIGKILL cannot be caught, so this is a backstop.
	killWait = 2 * time.Second
)

// StdoutRecorded is how much of a hook's stdout an Outcome keeps for the
// host to record: enough to read what a hook said, not a log file.
const StdoutRecorded = 4 << 10

func (c Command) validate() error {
	if strings.TrimSpace(c.Command) == "" {
		return errors.New("empty command")
	}
	if c.Timeout < 0 {
		return fmt.Errorf("negative timeout %s", c.Timeout)
	}
	return nil
}

// run starts the command in its own process group, writes in as JSON to
// its stdin and reads its verdict from the exit status and stdout. The
// whole group is killed when the timeout passes or ctx is cancelled, and
// again after the shell exits, so children it left in the background
// (`sleep 1000 &`) neither outlive the hook nor keep us waiting on their
// pipes.
func (c Command) run(ctx context.Context, in Input, timeout time.Duration) Outcome {
	payload, err := json.Marshal(in)
	if err != nil {
		return Outcome{Err: fmt.Errorf("encode hook input: %w", err)}
	}
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cmd := exec.CommandContext(hctx, shell, "-c", c.Command)
	cmd.Dir = c.Dir
	if cmd.Dir == "" {
		cmd.Dir = in.Cwd
	}
	cmd.Env = os.Environ()
	if proj := cmp.Or(in.ProjectDir, in.Cwd); proj != "" {
		cmd.Env = append(cmd.Env, "WORKBENCH_PROJECT_DIR="+proj, "CLAUDE_PROJECT_DIR="+proj)
	}
	ownGroup(cmd)
	cmd.Cancel = func() error { return killGroup(cmd.Process) }
	cmd.WaitDelay = killWait

	res, err := runPiped(cmd, payload)
	if err != nil {
		return Outcome{Err: fmt.Errorf("start hook: %w", err)}
	}
	stderr := strings.TrimSpace(string(res.stderr))

	if res.waitErr != nil && hctx.Err() != nil {
		return Outcome{Err: deadlineErr(ctx, timeout)}
	}
	var exit *exec.ExitError
	switch {
	case res.waitErr == nil:
		o := parseStdout(in.HookEventName, res.stdout, res.stdoutCut)
		o.Stdout = clip(strings.TrimSpace(string(res.stdout)), StdoutRecorded)
		return o
	case errors.As(res.waitErr, &exit) && exit.ExitCode() == 2:
		return Outcome{Block: true, Reason: stderr}
	case errors.As(res.waitErr, &exit):
		return Outcome{Err: &ExitError{Code: exit.ExitCode(), Status: exit.ProcessState.String(), Stderr: stderr}}
	default:
		return Outcome{Err: fmt.Errorf("run hook: %w", res.waitErr)}
	}
}
