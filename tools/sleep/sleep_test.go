package sleep_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/tools/sleep"
)

func prepared(t *testing.T, input string) json.RawMessage {
	t.Helper()
	in, err := sleep.Sleep().Schema().Prepare(json.RawMessage(input))
	if err != nil {
		t.Fatalf("the schema rejected %s: %v", input, err)
	}
	return in
}

func TestSchemaBoundsTheWait(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		input string
		ok    bool
	}{
		{"one second", `{"seconds":1}`, true},
		{"an hour", `{"seconds":3600}`, true},
		{"a fraction", `{"seconds":2.5,"reason":"build"}`, true},
		{"zero", `{"seconds":0}`, false},
		{"under a second", `{"seconds":0.5}`, false},
		{"over an hour", `{"seconds":3601}`, false},
		{"negative", `{"seconds":-5}`, false},
		{"a string", `{"seconds":"10"}`, false},
		{"missing", `{"reason":"x"}`, false},
		{"an unknown property", `{"seconds":5,"until":"done"}`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := sleep.Sleep().Schema().Prepare(json.RawMessage(c.input))
			if c.ok != (err == nil) {
				t.Fatalf("Prepare(%s) = %v, want ok=%v", c.input, err, c.ok)
			}
			if !c.ok && !strings.Contains(err.Error(), "seconds") && !strings.Contains(err.Error(), "until") {
				t.Errorf("error %q does not name the field", err)
			}
		})
	}
}

func TestSleepMetadata(t *testing.T) {
	t.Parallel()
	tool := sleep.Sleep()
	in := json.RawMessage(`{"seconds":1}`)
	if tool.Name() != "sleep" || !tool.ReadOnly(in) || !tool.ConcurrencySafe(in) {
		t.Errorf("%s: read-only %v, concurrency-safe %v; want a lower-case name and both", tool.Name(), tool.ReadOnly(in), tool.ConcurrencySafe(in))
	}
	if d := tool.CheckPermission(context.Background(), in, &tools.Context{}); d.Behavior != permission.Allow {
		t.Errorf("own verdict %v, want allow", d.Behavior)
	}
}

func TestSleepWaitsTheWholeTime(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		input   string
		elapsed time.Duration
		want    string
	}{
		{"an hour", `{"seconds":3600}`, time.Hour, "Slept for 3600 seconds."},
		{"one second", `{"seconds":1}`, time.Second, "Slept for 1 second."},
		{"a fraction", `{"seconds":2.5}`, 2500 * time.Millisecond, "Slept for 2.5 seconds."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			in := prepared(t, c.input)
			// The bubble's fake clock lets an hour pass at once, exactly.
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				res, err := sleep.Sleep().Call(context.Background(), in, &tools.Context{})
				if err != nil || res.IsError || res.Text != c.want {
					t.Fatalf("got (%v, error=%v) %q, want %q", err, res.IsError, res.Text, c.want)
				}
				if got := time.Since(start); got != c.elapsed {
					t.Fatalf("slept %v, want %v", got, c.elapsed)
				}
			})
		})
	}
}

func TestSleepWakesWhenCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := sleep.Sleep().Call(ctx, prepared(t, `{"seconds":3600}`), &tools.Context{})
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("a cancelled sleep took %v to return", took)
	}
	if err != nil || res.IsError || !strings.Contains(res.Text, "Woke early") || !strings.Contains(res.Text, "of the 3600 seconds") {
		t.Fatalf("got (%v, error=%v) %q", err, res.IsError, res.Text)
	}
}

func TestEarlyWakeSaysHowLongItSlept(t *testing.T) {
	t.Parallel()
	in := prepared(t, `{"seconds":3600}`)
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		res, _ := sleep.Sleep().Call(ctx, in, &tools.Context{})
		want := "Woke early after 10 seconds of the 3600 seconds asked for: the wait was interrupted."
		if res.Text != want {
			t.Fatalf("got %q, want %q", res.Text, want)
		}
	})
}
