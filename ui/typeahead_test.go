package ui

import (
	"strings"
	"testing"
)

// TestKeysTypedBeforeTheStartPlayInOrder: what was typed in the terminal's
// line mode before the start is played before any other key: a line feed
// sends (it was the person's Enter), text after it waits in the input, a
// backspace removes a character, and an arrow key's escape sequence, whose
// meaning depended on a screen not yet drawn, leaves nothing behind.
func TestKeysTypedBeforeTheStartPlayInOrder(t *testing.T) {
	t.Parallel()
	a := newApp(t, `{"turns":[{"text":"Hello back."}]}`, 80, 24, appOptions{typed: "say hellp\x7fo\x1b[A\nand mor\x1bOBe"})
	a.runsStarted++
	a.idle()
	s := a.screen(t)
	if !strings.Contains(s, "› say hello\n") || !strings.Contains(s, "Hello back.") {
		t.Errorf("the line typed before the start was not sent as one message:\n%s", s)
	}
	if got := a.m.input.value(); got != "and more" {
		t.Errorf("the input holds %q, want the text typed after the Enter", got)
	}
}
