package provider

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

// fake is a Provider whose Stream calls answer from a list: an error, or a
// stream of events that may end in an error.
type fake struct {
	answers []answer
	calls   int
}

type answer struct {
	err    error // Stream fails with this
	events []Event
	tail   error // the stream fails with this after its events
}

func (f *fake) Name() string  { return "fake" }
func (f *fake) Model() string { return "m" }
func (f *fake) Stream(ctx context.Context, req Request) (Stream, error) {
	a := f.answers[f.calls]
	f.calls++
	if a.err != nil {
		return nil, a.err
	}
	return &sliceStream{events: a.events, tail: a.tail}, nil
}

type sliceStream struct {
	events []Event
	tail   error
	cur    Event
	err    error
	closed bool
}

func (s *sliceStream) Next() bool {
	if len(s.events) == 0 {
		s.err = s.tail
		return false
	}
	s.cur, s.events = s.events[0], s.events[1:]
	return true
}
func (s *sliceStream) Event() Event { return s.cur }
func (s *sliceStream) Err() error   { return s.err }
func (s *sliceStream) Close() error { s.closed = true; return nil }

var (
	overloaded = &Error{Provider: "fake", Kind: ErrorOverloaded, Retryable: true}
	badKey     = &Error{Provider: "fake", Kind: ErrorAuth}
	done       = []Event{{Kind: EventTextDelta, Text: "ok"}, {Kind: EventMessageStop, StopReason: StopEndTurn}}
	quick      = RetryPolicy{BaseDelay: time.Microsecond, MaxDelay: time.Millisecond}
)

func TestWithRetry(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		answers []answer
		policy  RetryPolicy
		calls   int
		wantErr error
		text    string
	}{
		{"a retryable failure to open is retried", []answer{{err: overloaded}, {err: overloaded}, {events: done}}, quick, 3, nil, "ok"},
		{"retries stop after MaxAttempts", []answer{{err: overloaded}, {err: overloaded}, {err: overloaded}}, RetryPolicy{MaxAttempts: 3, BaseDelay: time.Microsecond}, 3, overloaded, ""},
		{"an error that is not retryable is returned at once", []answer{{err: badKey}}, quick, 1, badKey, ""},
		{"a stream that fails before any event is reopened", []answer{{tail: overloaded}, {events: done}}, quick, 2, nil, "ok"},
		{"failures to open and early stream failures share the attempts", []answer{{err: overloaded}, {tail: overloaded}}, RetryPolicy{MaxAttempts: 2, BaseDelay: time.Microsecond}, 2, overloaded, ""},
		{"a stream that fails after an event is not reopened", []answer{{events: done[:1], tail: overloaded}}, quick, 1, overloaded, "ok"},
		{"a wait longer than MaxDelay is not made", []answer{{err: &Error{Kind: ErrorRateLimit, Retryable: true, RetryAfter: time.Hour}}}, quick, 1, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := &fake{answers: tc.answers}
			var text string
			s, err := WithRetry(f, tc.policy).Stream(context.Background(), Request{})
			if err == nil {
				var r Response
				r, err = Collect(s)
				if len(r.Message.Blocks) > 0 {
					text = r.Message.Blocks[0].Text
				}
			}
			if f.calls != tc.calls {
				t.Errorf("calls = %d, want %d", f.calls, tc.calls)
			}
			if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Errorf("err = %v, want %v", err, tc.wantErr)
			}
			if tc.wantErr == nil && tc.text != "" && err != nil {
				t.Errorf("err = %v", err)
			}
			if text != tc.text {
				t.Errorf("text = %q, want %q", text, tc.text)
			}
		})
	}
}

func TestRetryWaitEndsWhenTheContextIsDone(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	f := &fake{answers: []answer{{err: overloaded}, {events: done}}}
	policy := RetryPolicy{BaseDelay: time.Hour, MaxDelay: time.Hour, OnRetry: func(int, time.Duration, error) { cancel() }}
	_, err := WithRetry(f, policy).Stream(ctx, Request{})
	if !errors.Is(err, context.Canceled) || f.calls != 1 {
		t.Errorf("err = %v after %d calls, want context.Canceled after 1", err, f.calls)
	}
}

func TestRetryClosesTheStreamItAbandons(t *testing.T) {
	t.Parallel()
	first := &sliceStream{tail: overloaded}
	p := &onceThen{first: first, then: &fake{answers: []answer{{events: done}}}}
	s, err := WithRetry(p, quick).Stream(context.Background(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Collect(s); err != nil {
		t.Fatal(err)
	}
	if !first.closed {
		t.Error("the failed stream was not closed")
	}
}

type onceThen struct {
	first Stream
	then  *fake
	used  bool
}

func (o *onceThen) Name() string  { return "fake" }
func (o *onceThen) Model() string { return "m" }
func (o *onceThen) Stream(ctx context.Context, req Request) (Stream, error) {
	if !o.used {
		o.used = true
		return o.first, nil
	}
	return o.then.Stream(ctx, req)
}

func TestBackoffDoublesWithJitterUpToTheCap(t *testing.T) {
	t.Parallel()
	p := RetryPolicy{MaxAttempts: 10, BaseDelay: time.Second, MaxDelay: 5 * time.Second}
	for _, tc := range []struct {
		attempt  int
		min, max time.Duration
	}{
		{1, 500 * time.Millisecond, time.Second},
		{2, time.Second, 2 * time.Second},
		{3, 2 * time.Second, 4 * time.Second},
		{4, 2500 * time.Millisecond, 5 * time.Second},
		{9, 2500 * time.Millisecond, 5 * time.Second},
	} {
		for range 50 {
			d, ok := p.delay(tc.attempt, overloaded)
			if !ok || d < tc.min || d > tc.max {
				t.Fatalf("attempt %d: delay %v (ok %v), want in [%v, %v]", tc.attempt, d, ok, tc.min, tc.max)
			}
		}
	}
	if d, ok := p.delay(1, &Error{Retryable: true, RetryAfter: 3 * time.Second}); !ok || d != 3*time.Second {
		t.Errorf("Retry-After: delay %v, %v; want exactly 3s", d, ok)
	}
	if _, ok := (RetryPolicy{}).delay(defaultMaxAttempts, overloaded); ok {
		t.Error("the default policy retried past its fourth attempt")
	}
}

func TestRetryAfterHeader(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		header http.Header
		want   time.Duration
		ok     bool
	}{
		{"none", http.Header{}, 0, false},
		{"seconds", http.Header{"Retry-After": {"2"}}, 2 * time.Second, true},
		{"zero", http.Header{"Retry-After": {"0"}}, 0, true},
		{"milliseconds win", http.Header{"Retry-After-Ms": {"150"}, "Retry-After": {"2"}}, 150 * time.Millisecond, true},
		{"a date in the past", http.Header{"Retry-After": {"Mon, 02 Jan 2006 15:04:05 GMT"}}, 0, true},
		{"garbage", http.Header{"Retry-After": {"soon"}}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, ok := RetryAfter(tc.header)
			if got != tc.want || ok != tc.ok {
				t.Errorf("RetryAfter = %v, %v; want %v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}
