package main

import "testing"

// The TUI tells SessionEnd hooks why it closes: the person quitting at the
// prompt input is prompt_input_exit; a signal and /resume are recorded as
// such and reach hooks as "other" (agent's endReason).
func TestCompat3_TUISessionEndReasons(t *testing.T) {
	for _, tc := range []struct {
		signalled bool
		next      string
		want      string
	}{
		{false, "", "prompt_input_exit"},
		{true, "", "signal"},
		{true, "20261202-000000-00000000", "signal"},
		{false, "20261202-000000-00000000", "resume"},
	} {
		if got := tuiEndReason(tc.signalled, tc.next); got != tc.want {
			t.Errorf("tuiEndReason(%v, %q) = %q, want %q", tc.signalled, tc.next, got, tc.want)
		}
	}
}
