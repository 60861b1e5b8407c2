package permission

import "fmt"

// Edit and MultiEdit read the file they change: whether old_string is
// found, and the lines they show around the change, tell what the file
// holds. So a Read deny rule that hides a file denies editing it too, and a
// Read ask rule asks, in every mode (issue 16). Write replaces a file
// without reading it and is judged as a write only; it never says what a
// hidden file held (see tools/files).

// readingEditors are the tools that read the file they change.
var readingEditors = map[string]bool{"Edit": true, "MultiEdit": true, "NotebookEdit": true}

// editReads judges the files an editing tool reads against the Read rules:
// the first with behaviour b decides.
func (p *Policy) editReads(e *evaluation, b Behavior) (Decision, bool) {
	if !readingEditors[e.req.Tool] || len(e.paths) == 0 || !p.hidesReadsLocked() {
		return Decision{}, false
	}
	for _, f := range e.paths {
		got, r := p.readRule(f)
		if got != b {
			continue
		}
		if b == Deny {
			return Decision{Behavior: Deny, Rule: r.Raw,
				Message: fmt.Sprintf("%s reads %s to change it, and rule %s%s keeps it from the agent", describe(e), f.given, r.Raw, from(r.Source))}, true
		}
		return Decision{Behavior: Ask, Rule: r.Raw,
			Message: fmt.Sprintf("rule %s%s asks before %s reads %s to change it", r.Raw, from(r.Source), describe(e), f.given)}, true
	}
	return Decision{}, false
}
