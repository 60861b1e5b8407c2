package agent

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/seed92b641c3/workbench/tools"
)

// maxParallel bounds concurrency-safe calls running at once: enough for a
// burst of reads, few enough not to flood the disk or the process table.
const maxParallel = 10

// abandonGrace is how long an interrupted turn waits for its running calls
// to return. Tools and in-process hooks are trusted to stop when their
// context ends; one that does not is left running, and reported, rather
// than holding the session after the person pressed Esc.
const abandonGrace = 3 * time.Second

// abandonedText is the result of a call still running when the grace ran
// out: what it did, or is still doing, is unknown.
const abandonedText = "The tool call was interrupted but did not stop; it was abandoned and may still be running. Check its effects before relying on them."

// scheduler runs the tool calls of one assistant message as they arrive
// while the model is still streaming. Concurrency-safe calls run together
// (at most maxParallel); an unsafe call runs alone. The queue is FIFO: a safe
// call may pass a safe one that cannot start yet, but nothing passes an
// unsafe call that is waiting. Results are kept in arrival order.
type scheduler struct {
	ctx  context.Context
	run  func(ctx context.Context, c Call) tools.Result
	safe func(c Call) bool
	done func(i int, c Call, r tools.Result)

	mu      sync.Mutex
	calls   []*scheduled
	running int
	unsafe  bool // an unsafe call is running
	wg      sync.WaitGroup
	// grace is abandonGrace, shorter in tests; abandoned is set when it ran
	// out, after which late results are kept out of the turn.
	grace     time.Duration
	abandoned bool
}

type scheduled struct {
	call     Call
	safe     bool
	started  bool
	finished bool
	result   tools.Result
}

func newScheduler(ctx context.Context, run func(context.Context, Call) tools.Result, safe func(Call) bool, done func(int, Call, tools.Result)) *scheduler {
	return &scheduler{ctx: ctx, run: run, safe: safe, done: done, grace: abandonGrace}
}

// add queues a call whose input is complete and starts what can start.
func (s *scheduler) add(c Call) {
	safe := s.isSafe(c)
	s.mu.Lock()
	s.calls = append(s.calls, &scheduled{call: c, safe: safe})
	s.startLocked()
	s.mu.Unlock()
}

// isSafe asks the tool once; a tool whose metadata panics counts as unsafe
// rather than stalling the queue.
func (s *scheduler) isSafe(c Call) (safe bool) {
	defer func() {
		if recover() != nil {
			safe = false
		}
	}()
	return s.safe(c)
}

func (s *scheduler) startLocked() {
	if s.abandoned {
		return // the turn is over
	}
	for i, sc := range s.calls {
		if sc.started {
			continue
		}
		if sc.safe {
			if s.unsafe || s.running >= maxParallel {
				continue
			}
		} else if s.running > 0 {
			return // nothing passes a waiting unsafe call
		}
		sc.started = true
		s.running++
		if !sc.safe {
			s.unsafe = true
		}
		s.wg.Add(1)
		go s.exec(i, sc)
		if !sc.safe {
			return
		}
	}
}

func (s *scheduler) exec(i int, sc *scheduled) {
	defer s.wg.Done()
	res := s.run(s.ctx, sc.call)
	s.mu.Lock()
	sc.finished, sc.result = true, res
	s.running--
	if !sc.safe {
		s.unsafe = false
	}
	s.startLocked()
	late := s.abandoned
	s.mu.Unlock()
	if s.done != nil && !late {
		s.done(i, sc.call, res)
	}
}

// wait blocks until every started call has finished, or, when the turn was
// cancelled, until the grace period ran out, then returns results in
// arrival order. Calls never started and calls abandoned still running get
// a synthetic result saying so, also passed to done.
func (s *scheduler) wait() []tools.Result {
	for {
		s.waitRunning()
		s.mu.Lock()
		pending := false
		for _, sc := range s.calls {
			if !sc.started {
				pending = true
			}
		}
		if pending && s.ctx.Err() == nil {
			// Everything running finished; what is left starts now.
			s.startLocked()
			s.mu.Unlock()
			continue
		}
		out := make([]tools.Result, len(s.calls))
		type ended struct {
			i int
			c Call
		}
		var unfinished []ended
		for i, sc := range s.calls {
			switch {
			case sc.finished:
				out[i] = sc.result
				continue
			case sc.started:
				out[i] = tools.Error(abandonedText)
			default:
				out[i] = tools.Error("The tool call was interrupted before it started.")
			}
			unfinished = append(unfinished, ended{i, sc.call})
		}
		s.mu.Unlock()
		// Whoever shows the calls learns how the unfinished ones ended; a
		// result arriving after this is kept out (see exec).
		for _, u := range unfinished {
			if s.done != nil {
				s.done(u.i, u.c, out[u.i])
			}
		}
		return out
	}
}

// waitRunning waits for the running calls to return, or, once the turn is
// cancelled, for at most the grace period; then it gives up on them.
func (s *scheduler) waitRunning() {
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return
	case <-s.ctx.Done():
	}
	t := time.NewTimer(s.grace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		s.mu.Lock()
		s.abandoned = true
		s.mu.Unlock()
	}
}

// callsSoFar returns the queued calls in arrival order.
func (s *scheduler) callsSoFar() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Call, len(s.calls))
	for i, sc := range s.calls {
		out[i] = sc.call
	}
	return out
}

// safeFor answers the scheduler's question from the registry: unknown tools
// run alone.
func safeFor(reg *tools.Registry) func(Call) bool {
	return func(c Call) bool {
		t, ok := reg.Get(c.Name)
		if !ok {
			return false
		}
		in := c.Input
		if len(in) == 0 {
			in = json.RawMessage("{}")
		}
		return t.ConcurrencySafe(in)
	}
}
