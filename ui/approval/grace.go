package approval

import "time"

const (
	// approvalGrace is how long after a dialog opens keys are ignored, so a
	// prompt cannot be approved by a key meant for the input line.
	approvalGrace = 400 * time.Millisecond
	// approvalGraceCap bounds how long a person typing without pause (or a
	// held key's auto-repeat) keeps the dialog deaf, so it never stays
	// unanswerable.
	approvalGraceCap = 1500 * time.Millisecond
)

// grace decides which keys reach a freshly shown dialog. A key is ignored
// when it comes within approvalGrace of the dialog appearing, or within
// approvalGrace of the previous ignored key while the person is still typing
// (up to approvalGraceCap): someone in the middle of a sentence keeps typing
// through the first 400 ms, and their next letter must not answer a prompt
// they have not read.
type grace struct {
	opened  time.Time // when the dialog was last shown
	ignored time.Time // when the last key was ignored; zero if none
}

// reset starts the grace period again, for a dialog that has just been shown.
func (g *grace) reset(now time.Time) {
	g.opened, g.ignored = now, time.Time{}
}

// swallow reports whether a key arriving at now must be ignored, and
// remembers it if so.
func (g *grace) swallow(now time.Time) bool {
	since := now.Sub(g.opened)
	if since >= approvalGraceCap {
		return false
	}
	quiet := since >= approvalGrace && (g.ignored.IsZero() || now.Sub(g.ignored) >= approvalGrace)
	if quiet {
		return false
	}
	g.ignored = now
	return true
}

// Grace is the same grace period for a modal outside this package (the
// MCP servers' question), so every question that can start programs
// ignores keys typed before the person could have read it, by one rule.
// The zero Grace swallows nothing: Reset it when the modal is drawn.
type Grace struct{ g grace }

// Reset starts the grace period, for a modal that has just been drawn.
func (g *Grace) Reset(now time.Time) { g.g.reset(now) }

// Swallow reports whether a key arriving at now must be ignored.
func (g *Grace) Swallow(now time.Time) bool { return g.g.swallow(now) }
