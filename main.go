// Command workbench is a terminal workbench for coding agents: every tool
// call travels one visible, audited pipeline, risky calls stop for approval,
// and output too large for the model is spilled to files a person can read.
//
// Usage:
//
//	workbench [flags]                    the interactive workbench
//	workbench -p PROMPT [flags]          one headless run
//	workbench tool [flags] NAME [JSON]   run one tool call through the pipeline
//	workbench tools [--json]             list the tool catalog
//	workbench rewind --list | N          list prompts, or rewind to before one
//	workbench trust [--revoke]           let the project's own settings apply whole
//	workbench help                       this help
//
// main only chooses the sub-command and parses its flags; the session
// package assembles what every sub-command runs.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/seed92b641c3/workbench/sandbox"
)

// Exit statuses shared by every subcommand.
const (
	exitOK    = 0 // the call or run succeeded
	exitError = 1 // the tool returned an error result (denied, blocked, failed)
	exitUsage = 2 // bad flags, bad settings: nothing ran
)

func main() {
	// The sandbox launcher (H16) runs before anything else: it is this
	// binary re-executed for one command, and becomes that command.
	sandbox.Dispatch()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches a command line; it is main without os.Exit, for tests.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "tool":
			return runTool(args[1:], stdin, stdout, stderr)
		case "tools":
			return runTools(args[1:], stdout, stderr)
		case "rewind":
			return runRewind(args[1:], stdout, stderr)
		case "trust":
			return runTrust(args[1:], stdout, stderr)
		case "help", "-h", "-help", "--help":
			usage(stdout)
			return exitOK
		case "version", "-version", "--version":
			fmt.Fprintln(stdout, versionLine())
			return exitOK
		}
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		f, err := parseRunFlags(args, stderr)
		if err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return exitOK
			}
			fmt.Fprintf(stderr, "workbench: %v\n", err)
			return exitUsage
		}
		if f.prompt == "" {
			return runTUI(f, stdout, stderr)
		}
		return runHeadless(f, stdout, stderr)
	}
	fmt.Fprintf(stderr, "workbench: unknown command %q\n\n", args[0])
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprint(w, `Workbench: a terminal workbench for coding agents.

Usage:
  workbench [flags]                    the interactive workbench in this directory:
                                       type a message, Enter sends; F1 or /help lists
                                       every key; !command runs your own shell command;
                                       Ctrl-C twice quits (the session is saved)
       --continue  --resume ID  --provider P  --model M  --permission-mode MODE
  workbench tool [flags] NAME [JSON]   run one tool call through the whole pipeline
                                       (JSON from stdin when omitted)
  workbench tools [--json]             list the tools with their safety metadata
  workbench rewind --list [--json]     the prompts of the latest session (or --session ID)
                                       with their time and the files each changed
  workbench rewind N [--conversation]  take the files (and the conversation) back to
       [--no-code] [--force] [--undo]  before prompt N; --undo undoes the latest rewind
  workbench -p PROMPT [flags]          run the agent headless on one prompt
       --output-format text|json|stream-json  --provider anthropic|openai|script
       --model M  --base-url URL  --script FILE  --max-turns N  --continue
       --resume ID  --answers FILE  --background-wait D (2m)  --max-duration D
  workbench trust [--revoke]           trust this project: its own settings files (hooks,
                                       allow rules, sandbox, env, baseURL) apply whole
  workbench version                    print the version and commit
  workbench help                       show this help

Flags of 'workbench tool' (see 'workbench tool -h'):
  --cwd DIR  --settings FILE  --permission-mode MODE  --allow RULE  --ask RULE
  --deny RULE  --spill-dir DIR  --max-output N  --trace  --no-claude-settings
  --trust-project

Exit status: 0 success, 1 the call ended in an error result, 2 usage or settings error.
State lives under $XDG_STATE_HOME/workbench/sessions/<id>/ (default ~/.local/state).
`)
}
