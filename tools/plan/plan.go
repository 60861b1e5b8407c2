// Package plan gives the model a planning phase: EnterPlanMode switches the
// session to the read-only plan permission mode, and ExitPlanMode puts the
// finished plan to the person and, once they approve it, switches to a mode
// in which the work can be done. The mode itself belongs to the session;
// a Controller only reads and sets it through the funcs it is given.
package plan

import (
	"context"
	"sync"

	"github.com/seed92b641c3/workbench/permission"
)

// Controller connects the plan tools to the session's permission mode. The
// session fills the exported fields before building the tools and does not
// change them afterwards. Its methods and the tools built on it are safe
// for concurrent use. A Controller must not be copied after first use.
type Controller struct {
	// Mode reports the session's current permission mode. Required.
	Mode func() permission.Mode
	// SetMode changes the session's permission mode. Required. It is called
	// with the Controller's lock held, so it must not call back into it.
	SetMode func(permission.Mode)
	// Approve shows the plan to the person through the same path as a
	// permission prompt and reports their verdict and any feedback. Nil
	// approves every plan, for sessions where nobody reviews plans.
	Approve func(ctx context.Context, plan string) (approved bool, feedback string)
	// Target is the mode after an approved plan when the session was not in
	// a mode that must be restored (see After). Empty, invalid or plan
	// means acceptEdits: the person approved edits, not every command.
	Target permission.Mode

	mu     sync.Mutex
	before permission.Mode // mode when EnterPlanMode switched to plan; "" if unknown
}

// restored are the modes an approved plan returns to instead of Target.
// bypassPermissions is one because the person chose to be asked nothing and
// a plan should not take that away; dontAsk and auto because they are
// unattended modes, and Target could let through edits they would refuse.
var restored = map[permission.Mode]bool{
	permission.ModeBypass:  true,
	permission.ModeDontAsk: true,
	permission.ModeAuto:    true,
}

// After is the mode an approved plan switches to: the mode before
// EnterPlanMode when it is bypassPermissions, dontAsk or auto, Target
// otherwise (also when the session started in plan mode, so there is no
// mode before).
func (c *Controller) After() permission.Mode {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.after()
}

func (c *Controller) after() permission.Mode {
	if restored[c.before] {
		return c.before
	}
	if m, ok := permission.ParseMode(string(c.Target)); ok && m != permission.ModePlan {
		return m
	}
	return permission.ModeAcceptEdits
}

// Forget drops the remembered mode. The session calls it when the person
// changes the mode by hand, so a later ExitPlanMode does not bring back a
// mode from before that change.
func (c *Controller) Forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.before = ""
}

// enter switches to plan mode, remembering the mode it leaves. It reports
// false when the session was already in plan mode, leaving the remembered
// mode as it was.
func (c *Controller) enter() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	cur := c.Mode()
	if cur == permission.ModePlan {
		return false
	}
	c.before = cur
	c.SetMode(permission.ModePlan)
	return true
}

// leave switches out of plan mode after an approval and returns the mode
// the session is in afterwards. If the mode is no longer plan, the person
// changed it while deciding, and their choice stands.
func (c *Controller) leave() permission.Mode {
	c.mu.Lock()
	defer c.mu.Unlock()
	cur := c.Mode()
	if cur == permission.ModePlan {
		cur = c.after()
		c.SetMode(cur)
	}
	c.before = ""
	return cur
}

func (c *Controller) inPlan() bool { return c.Mode() == permission.ModePlan }

// mustWork panics on a Controller the tools cannot use: a wiring mistake
// that should fail when the session is built, not on the first call.
func mustWork(c *Controller, tool string) {
	if c == nil || c.Mode == nil || c.SetMode == nil {
		panic("plan." + tool + ": the Controller needs Mode and SetMode")
	}
}
