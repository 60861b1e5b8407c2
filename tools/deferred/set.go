// Package deferred keeps some tools out of the model's schema list until they
// are asked for, to save context, without making that a loophole (H10): a
// deferred tool runs only once unlocked, whatever name the model emits, and
// ExecuteExtraTool runs its target through the whole pipeline under the
// target's own name.
package deferred

import (
	"path"
	"slices"
	"sync"
)

// Set says which tools are deferred (names or globs such as mcp__*) and
// which of those are unlocked in this session. It is safe for concurrent use.
type Set struct {
	patterns []string
	mu       sync.RWMutex
	unlocked map[string]bool
	onUnlock func(names []string)
}

// New makes a set from the settings' deferredTools patterns.
func New(patterns []string) *Set {
	return &Set{patterns: slices.Clone(patterns), unlocked: map[string]bool{}}
}

// Deferred reports whether a tool is kept out of the schema list.
func (s *Set) Deferred(name string) bool {
	if s == nil {
		return false
	}
	for _, p := range s.patterns {
		if p == name {
			return true
		}
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// Any reports whether any tool pattern is deferred at all.
func (s *Set) Any() bool { return s != nil && len(s.patterns) > 0 }

// OnUnlock sets a function told of newly unlocked names, so the session can
// record them in the transcript and restore them on resume.
func (s *Set) OnUnlock(f func(names []string)) {
	s.mu.Lock()
	s.onUnlock = f
	s.mu.Unlock()
}

// Unlock makes tools callable and returns the names that were not already.
func (s *Set) Unlock(names ...string) []string {
	s.mu.Lock()
	var added []string
	for _, n := range names {
		if !s.unlocked[n] {
			s.unlocked[n] = true
			added = append(added, n)
		}
	}
	f := s.onUnlock
	s.mu.Unlock()
	if f != nil && len(added) > 0 {
		f(added)
	}
	return added
}

// Restore unlocks names without telling OnUnlock: they come from the
// transcript being resumed, where they are already recorded.
func (s *Set) Restore(names ...string) {
	s.mu.Lock()
	for _, n := range names {
		s.unlocked[n] = true
	}
	s.mu.Unlock()
}

// Unlocked reports whether a tool was unlocked in this session.
func (s *Set) Unlocked(name string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.unlocked[name]
}

// List returns the unlocked names, sorted.
func (s *Set) List() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, 0, len(s.unlocked))
	for n := range s.unlocked {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Runnable is the pipeline's gate: a tool that is deferred and not unlocked
// cannot run, whether called directly or through ExecuteExtraTool.
func (s *Set) Runnable(name string) (bool, string) {
	if s == nil || !s.Deferred(name) || s.Unlocked(name) {
		return true, ""
	}
	return false, "it is a deferred tool that is not unlocked in this session; load it first with SearchExtraTools {\"query\":\"select:" + name + "\"}"
}

// Visible reports whether a tool's schema is shown to the model.
func (s *Set) Visible(name string) bool { return !s.Deferred(name) }
