package tools

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/seed92b641c3/workbench/permission"
)

// A nil *Visibility hides nothing.
//
// Visibility is how a tool that finds files itself (Grep, Glob, LS) honours
// the Read rules: it leaves out every file the agent may not see
// (Context.Readable) and counts them, so the result can say how many are
// missing and why. The count never depends on what a file contains, only on
// which files the tool looked at. It is safe for concurrent use by a walk's
// workers.
type Visibility struct {
	tc *Context
	// rootRule is the ask rule the search root itself matched: the call
	// ran, so a person approved it, and files under it that only this rule
	// asks for were approved with it.
	rootRule string
	on       bool
	hidden   atomic.Int64
	mu       sync.Mutex
	rules    []string // the distinct rules that hid files
	// one and many name what is counted: files, unless SetNouns says.
	one, many string
}

// NewVisibility prepares the checks for a call that searches or lists
// under root.
func (c *Context) NewVisibility(root string) *Visibility {
	v := &Visibility{tc: c, on: c.HidesReads(), one: "file", many: "files"}
	if v.on {
		if b, rule := c.Paths.Readable(root); b == permission.Ask {
			v.rootRule = rule
		}
	}
	return v
}

// On reports whether any file can be hidden at all; when it is false the
// checks cost nothing and a tool may skip extra work such as listing.
func (v *Visibility) On() bool { return v != nil && v.on }

// Hides reports whether path is left out, without counting it.
func (v *Visibility) Hides(path string) bool {
	hidden, _ := v.hides(path)
	return hidden
}

func (v *Visibility) hides(path string) (bool, string) {
	if !v.On() {
		return false, ""
	}
	b, rule := v.tc.Paths.Readable(path)
	switch {
	case b == permission.Allow:
		return false, ""
	case b == permission.Ask && rule == v.rootRule:
		return false, ""
	}
	return true, rule
}

// Skip reports whether path is left out and, if it is, counts it.
func (v *Visibility) Skip(path string) bool {
	hidden, rule := v.hides(path)
	if hidden {
		v.Count(rule)
	}
	return hidden
}

// Count records one file left out by rule.
func (v *Visibility) Count(rule string) {
	v.hidden.Add(1)
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, r := range v.rules {
		if r == rule {
			return
		}
	}
	v.rules = append(v.rules, rule)
}

// maxNamedRules bounds how many hiding rules a notice names.
const maxNamedRules = 3

// SetNouns names what the notice counts ("entry", "entries" for LS).
func (v *Visibility) SetNouns(one, many string) { v.one, v.many = one, many }

// Hidden is how many files were left out.
func (v *Visibility) Hidden() int {
	if v == nil {
		return 0
	}
	return int(v.hidden.Load())
}

// Notice is the sentence a result ends with when files were left out, or "".
func (v *Visibility) Notice() string {
	n := v.Hidden()
	if n == 0 {
		return ""
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return notice(n, v.one, v.many, slices.Sorted(slices.Values(v.rules)))
}

func notice(n int, one, many string, rules []string) string {
	files := "1 " + one + " was"
	if n != 1 {
		files = fmt.Sprintf("%d %s were", n, many)
	}
	named := strings.Join(rules[:min(len(rules), maxNamedRules)], ", ")
	if len(rules) > maxNamedRules {
		named += fmt.Sprintf(" and %d more", len(rules)-maxNamedRules)
	}
	return fmt.Sprintf("[%s left out: Read rules deny or ask for them (%s). Read refuses or asks for each such file.]",
		files, named)
}
