package pty

import (
	"context"
	"regexp"
	"time"
)

// DoneBy says why a wait for a program to finish its work ended.
type DoneBy string

// The reasons, as the tools report them in done_by.
const (
	// DonePrompt: the prompt pattern matched the end of the new output.
	DonePrompt DoneBy = "prompt"
	// DoneQuiet: no output for the quiet period.
	DoneQuiet DoneBy = "quiet"
	// DoneExited: the program ended.
	DoneExited DoneBy = "exited"
	// DoneTimeout: the hard limit passed.
	DoneTimeout DoneBy = "timeout"
	// DoneInterrupted: the caller's context ended first.
	DoneInterrupted DoneBy = "interrupted"
)

// Defaults of a wait, as the reference tools use them: quiet is long
// enough for a compiler between two phases, the grace covers a slow
// start-up before the first output, and the timeout gives a call back.
const (
	DefaultQuiet        = 8 * time.Second
	DefaultStartupGrace = 15 * time.Second
	DefaultTimeout      = 120 * time.Second
)

// promptWindow is how much of the latest output the prompt pattern sees.
const promptWindow = 4096

// WaitSpec says when a program counts as finished with what it was asked.
type WaitSpec struct {
	// Since is the stream position the wait is about: the prompt pattern
	// only looks at output after it, so the prompt that was already on
	// screen before a command was sent does not count.
	Since int64
	// Prompt is matched against the last 4096 bytes of output after Since,
	// as PlainText (escape sequences removed). Nil: the session's pattern,
	// if it has one.
	Prompt *regexp.Regexp
	// Quiet ends the wait after this long without output; 0 turns quiet
	// detection off.
	Quiet time.Duration
	// StartupGrace delays the first quiet check to max(Quiet,
	// StartupGrace) after the wait starts, for programs slow to start.
	StartupGrace time.Duration
	// Timeout is the hard limit; 0 means DefaultTimeout.
	Timeout time.Duration
}

// Wait blocks until the program is done with what it was asked (see
// WaitSpec) and says why it stopped waiting.
func (s *Session) Wait(ctx context.Context, w WaitSpec) DoneBy {
	start := time.Now()
	if w.Timeout <= 0 {
		w.Timeout = DefaultTimeout
	}
	if w.Prompt == nil {
		w.Prompt = s.spec.Prompt
	}
	deadline := start.Add(w.Timeout)
	firstQuiet := start.Add(max(w.Quiet, w.StartupGrace))
	timer := time.NewTimer(w.Timeout)
	defer timer.Stop()
	for {
		next := s.outputSignal()
		if w.Prompt != nil && w.Prompt.MatchString(PlainText(s.Tail(w.Since, promptWindow))) {
			return DonePrompt
		}
		select {
		case <-s.done:
			return DoneExited
		default:
		}
		now := time.Now()
		if !now.Before(deadline) {
			return DoneTimeout
		}
		wake := deadline
		if w.Quiet > 0 {
			quietAt := now.Add(w.Quiet - s.Idle())
			if quietAt.Before(firstQuiet) {
				quietAt = firstQuiet
			}
			if !now.Before(quietAt) {
				return DoneQuiet
			}
			if quietAt.Before(wake) {
				wake = quietAt
			}
		}
		timer.Reset(wake.Sub(now))
		select {
		case <-next:
		case <-s.done:
		case <-timer.C:
		case <-ctx.Done():
			if isClosed(s.done) {
				return DoneExited
			}
			return DoneInterrupted
		}
	}
}
