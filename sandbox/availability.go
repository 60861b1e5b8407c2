package sandbox

import (
	"errors"
	"fmt"
	"os"
	"sync"
)

// availability is whether a session's sandbox can be had. The check at
// start decides it, unless it was inconclusive (ErrInconclusive): then the
// question stays open, commands start through the launcher all the same,
// and each command's start asks again until an answer comes. No answer is
// ever taken from a timeout: fail closed.
type availability struct {
	mu    sync.Mutex
	st    availabilityState
	check sync.Mutex // one check after start at a time
}

// availabilityState is one reading of availability.
type availabilityState struct {
	// unavailable is why the sandbox cannot be had, or nil.
	unavailable error
	// late says unavailable was found after start, when the start-up
	// notice had already said commands run in the sandbox.
	late bool
	// open is why the check has not answered yet, or nil.
	open error
}

// get reads the state.
func (a *availability) get() availabilityState {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.st
}

// settle records a check's result: nil (available), an inconclusive error
// (the question stays open) or the reason the sandbox cannot be had. late
// says the check ran after start.
func (a *availability) settle(err error, late bool) availabilityState {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case err == nil:
		a.st = availabilityState{}
	case errors.Is(err, ErrInconclusive):
		a.st = availabilityState{open: err}
	default:
		a.st = availabilityState{unavailable: err, late: late}
	}
	return a.st
}

// probe asks the backend whether r can be enforced, unless the test switch
// forces the answer.
func (s *Sandbox) probe(r Resolved) error {
	if why := os.Getenv(ForceUnavailableEnv); why != "" {
		return fmt.Errorf("%s (forced by %s)", why, ForceUnavailableEnv)
	}
	return s.backend.Probe(r)
}

// recheck makes the check again when it is still open, with r, the policy
// of the command about to start, and returns the state to start it by.
func (s *Sandbox) recheck(r Resolved) availabilityState {
	if st := s.state.get(); st.open == nil {
		return st
	}
	s.state.check.Lock()
	defer s.state.check.Unlock()
	if st := s.state.get(); st.open == nil {
		return st // another command's check answered meanwhile
	}
	return s.state.settle(s.probe(r), true)
}
