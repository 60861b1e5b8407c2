package provider

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// RetryPolicy says how WithRetry retries. The zero value is the default
// policy.
type RetryPolicy struct {
	// MaxAttempts counts every attempt, the first included; zero means 4.
	MaxAttempts int
	// BaseDelay is the wait before the second attempt; it doubles with each
	// attempt after that. Zero means one second.
	BaseDelay time.Duration
	// MaxDelay caps one wait. A server that asks (with Retry-After) for a
	// longer wait than this is not retried: its error goes to the caller, who
	// can tell the person how long to wait. Zero means 30 seconds.
	MaxDelay time.Duration
	// OnRetry, when set, is called before each wait with the attempt that
	// failed (1 for the first), the wait, and the error, so a UI can say
	// "overloaded, retrying in 2s".
	OnRetry func(attempt int, wait time.Duration, err error)
}

const (
	defaultMaxAttempts = 4
	defaultBaseDelay   = time.Second
	defaultMaxDelay    = 30 * time.Second
)

// WithRetry returns p with retries: a Stream call that fails with a
// retryable *Error (429, 5xx, overloaded) is tried again with exponential
// backoff and jitter, honouring the server's Retry-After, until the policy's
// attempts run out or ctx is done.
//
// A stream that opens and then fails with a retryable error before it has
// delivered any event is retried the same way, so an "overloaded" error sent
// as the first thing in a stream costs the caller nothing. Once an event has
// been delivered the stream is never restarted: a stream that breaks midway
// returns its error from Err, and the caller (the agent loop) decides what to
// do with the partial message.
//
// The SDK clients' own retries are turned off by the providers, so this is
// the only retry policy.
func WithRetry(p Provider, policy RetryPolicy) Provider {
	return &retrying{Provider: p, policy: policy}
}

type retrying struct {
	Provider
	policy RetryPolicy
}

func (r *retrying) Stream(ctx context.Context, req Request) (Stream, error) {
	s := &retryStream{ctx: ctx, req: req, r: r}
	if err := s.open(); err != nil {
		return nil, err
	}
	return s, nil
}

// retryStream delivers the events of the current attempt's stream, opening a
// new attempt while nothing has been delivered yet.
type retryStream struct {
	ctx       context.Context
	req       Request
	r         *retrying
	cur       Stream
	attempt   int
	delivered bool
	err       error
}

// open starts attempts until one opens or the policy gives up.
func (s *retryStream) open() error {
	for {
		s.attempt++
		st, err := s.r.Provider.Stream(s.ctx, s.req)
		if err == nil {
			s.cur = st
			return nil
		}
		if werr := s.backoff(err); werr != nil {
			return werr
		}
	}
}

// backoff waits before the next attempt after err. It returns the error to
// give the caller when there is to be no next attempt.
func (s *retryStream) backoff(err error) error {
	wait, ok := s.r.policy.delay(s.attempt, err)
	if !ok {
		return err
	}
	if s.r.policy.OnRetry != nil {
		s.r.policy.OnRetry(s.attempt, wait, err)
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-s.ctx.Done():
		return s.ctx.Err()
	case <-t.C:
		return nil
	}
}

func (s *retryStream) Next() bool {
	for s.err == nil && s.cur != nil {
		if s.cur.Next() {
			s.delivered = true
			return true
		}
		err := s.cur.Err()
		if err == nil || s.delivered {
			s.err = err
			return false
		}
		_ = s.cur.Close()
		s.cur = nil
		if werr := s.backoff(err); werr != nil {
			s.err = werr
			return false
		}
		if oerr := s.open(); oerr != nil {
			s.err = oerr
			return false
		}
	}
	return false
}

func (s *retryStream) Event() Event {
	if s.cur == nil {
		return Event{}
	}
	return s.cur.Event()
}

func (s *retryStream) Err() error { return s.err }

func (s *retryStream) Close() error {
	if s.cur == nil {
		return nil
	}
	return s.cur.Close()
}

// delay returns the wait before the attempt after the given one, or false
// when err is not worth another attempt.
func (p RetryPolicy) delay(attempt int, err error) (time.Duration, bool) {
	var pe *Error
	if !errors.As(err, &pe) || !pe.Retryable {
		return 0, false
	}
	maxAttempts := p.MaxAttempts
	if maxAttempts <= 0 {
		maxAttempts = defaultMaxAttempts
	}
	if attempt >= maxAttempts {
		return 0, false
	}
	base, maxDelay := p.BaseDelay, p.MaxDelay
	if base <= 0 {
		base = defaultBaseDelay
	}
	if maxDelay <= 0 {
		maxDelay = defaultMaxDelay
	}
	if pe.RetryAfter > 0 {
		if pe.RetryAfter > maxDelay {
			return 0, false
		}
		return pe.RetryAfter, true
	}
	d := base
	for i := 1; i < attempt && d < maxDelay; i++ {
		d *= 2
	}
	d = min(d, maxDelay)
	// Half the wait is fixed and half random, so clients that failed together
	// do not all come back at the same moment.
	half := d / 2
	return half + rand.N(d-half+1), true
}
