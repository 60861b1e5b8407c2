package agent

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/seed92b641c3/workbench/tools"
)

// maxParallel bounds concurrency-safe calls running at once: enough for a
// burst of reads, few enough not to flood the disk or the process table.
const maxParallel = 10

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
}

type scheduled struct {
	call     Call
	safe     bool
	started  bool
	finished bool
	result   tools.Result
}

func newScheduler(ctx context.Context, run func(context.Context, Call) tools.Result, safe func(Call) bool, done func(int, Call, tools.Result)) *scheduler {
	return &scheduler{ctx: ctx, run: run, safe: safe, done: done}
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
	s.mu.Unlock()
	if s.done != nil {
		s.done(i, sc.call, res)
	}
}

// wait blocks until every started call has finished, then returns results
// in arrival order. Calls never started (the turn was cancelled) and calls
// that did not finish get a synthetic interrupted result.
func (s *scheduler) wait() []tools.Result {
	for {
		s.wg.Wait()
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
		for i, sc := range s.calls {
			if sc.finished {
				out[i] = sc.result
			} else {
				out[i] = tools.Error("The tool call was interrupted before it finished.")
			}
		}
		s.mu.Unlock()
		return out
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
