// Package permission decides whether a tool call may run. It sees the call's
// arguments (commands, paths, hosts), not only the tool's name, so a rule can
// allow `git status` without allowing `git push`. It has no dependency on the
// rest of Workbench: callers describe a call as a Request and get a Decision.
package permission

import "encoding/json"

// Mode is the session-wide permission posture a person picks (Shift+Tab in
// the UI, --permission-mode headless).
type Mode string

// The modes of the seed. Deny and ask rules hold in every one of them.
const (
	ModeDefault     Mode = "default"           // ask for anything not allowed
	ModeAcceptEdits Mode = "acceptEdits"       // file edits inside the workspace run without asking
	ModePlan        Mode = "plan"              // read-only tools only
	ModeBypass      Mode = "bypassPermissions" // everything not denied or asked by a rule runs
	ModeDontAsk     Mode = "dontAsk"           // what would ask is denied instead
	ModeAuto        Mode = "auto"              // like dontAsk, for unattended runs
)

// Modes lists every valid mode, in the order the UI cycles and help shows them.
var Modes = []Mode{ModeDefault, ModeAcceptEdits, ModePlan, ModeBypass, ModeDontAsk, ModeAuto}

// ParseMode accepts a mode name as written in settings or flags.
func ParseMode(s string) (Mode, bool) {
	for _, m := range Modes {
		if string(m) == s {
			return m, true
		}
	}
	return "", false
}

// Behavior is the verdict of a permission check.
type Behavior string

// The three verdicts. Ask sends the call to a person (or, headless, to a
// denial that says how to allow it).
const (
	Allow Behavior = "allow"
	Deny  Behavior = "deny"
	Ask   Behavior = "ask"
)

// Decision is a verdict with the reason a person or model will read.
type Decision struct {
	Behavior Behavior
	// Message explains the verdict in a sentence ("rm -rf / is never allowed").
	Message string
	// Rule names what decided: a rule as written ("Bash(git push:*)"), a mode
	// ("mode:plan"), "hard-deny", "workspace", "tool", "read-only".
	Rule string
	// UpdatedInput, when not empty, replaces the input (and is re-checked, H2).
	UpdatedInput json.RawMessage
	// Suggestion is a rule that would allow this call, for the headless
	// denial message and the approval dialog's session grant.
	Suggestion string
	// Checked lists the Target's paths as this decision resolved them, so
	// a file tool can open exactly what was checked (H17).
	Checked []CheckedPath
}

// CheckedPath is one path of a Target as a decision saw it.
type CheckedPath struct {
	// Path is the path as the Target named it.
	Path string
	// Real is where it led at the check, every symlink followed; a tool
	// refuses to use the path if it leads elsewhere by then.
	Real string
	// Protected is why writing it always asks, as the check found (write
	// access only), "" when it was not protected. A tool refuses a write
	// to a place that became protected after the check.
	Protected string
	// AllowedBy is what allowed the call at this check (Decision.Rule),
	// "" when the check did not allow it. "tool" means only the tool's
	// own verdict did: Write allows an unchanged file that way, and then
	// writes nothing if the file is no longer unchanged when it runs.
	AllowedBy string
}

// Allowed is the plain allow verdict a read-only tool returns for itself.
func Allowed() Decision { return Decision{Behavior: Allow, Rule: "tool"} }

// Denied builds a deny verdict with a reason.
func Denied(msg string) Decision { return Decision{Behavior: Deny, Message: msg, Rule: "tool"} }

// AskUser builds an ask verdict with the question a person will see.
func AskUser(msg string) Decision { return Decision{Behavior: Ask, Message: msg, Rule: "tool"} }

// Access says whether a call reads or writes the paths it names.
type Access int

// Read-access paths are matched by Read(...) rules, write-access paths by
// Edit(...) and Write(...) rules.
const (
	AccessNone Access = iota
	AccessRead
	AccessWrite
)

// Target is what a call touches, as far as rules care. A tool fills it from
// its input; rules with specifiers match against it. A call with an empty
// Target is matched by tool-name rules only.
type Target struct {
	// Commands are shell command lines (Bash, Monitor, shell_open,
	// shell_send). Every shell goes through the same policy (H5).
	Commands []string
	// Persistent says the commands are typed into a long-lived shell
	// (shell_send) that earlier lines, the agent's or the person's, may
	// have changed: its directory, HOME, functions and aliases are not
	// known, so a relative name it writes asks in every mode (H15).
	Persistent bool
	// Paths are the files or directories the call reads or writes, as given;
	// Evaluate resolves them against the working directory and symlinks.
	Paths  []string
	Access Access
	// Host is the host name of a URL the call fetches (WebFetch).
	Host string
	// Unknown, when set, says what the tool itself cannot see of the call
	// with certainty (a shell line edited with keys that cannot be
	// replayed): the call asks in every mode, like an unknown part of a
	// command line (H15). Deny rules still apply to what is visible.
	Unknown string
}
