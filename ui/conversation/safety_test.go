package conversation

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/tools"
)

// rlo and zwsp are the two characters the display-safety tests hide in
// commands, file names, output and prose: a right-to-left override, which
// reorders what follows it, and a zero-width space, which shows as nothing.
const (
	rlo  = "\u202E"
	zwsp = "\u200B"
)

// mark is how the view draws an escape: reverse video on and off.
func mark(e string) string { return "\x1b[7m" + e + "\x1b[27m" }

// checkEscaped fails unless the drawn view shows both escapes, marked, and
// neither raw character.
func checkEscaped(t *testing.T, v *View, want ...string) {
	t.Helper()
	out := v.View()
	if strings.Contains(out, rlo) || strings.Contains(out, zwsp) {
		t.Errorf("the view draws a raw U+202E or U+200B:\n%q", out)
	}
	for _, e := range []string{"<U+202E>", "<U+200B>"} {
		if !strings.Contains(out, mark(e)) {
			t.Errorf("the view does not draw %s in reverse video:\n%q", e, out)
		}
	}
	text := screen(t, v)
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("screen lacks %q:\n%s", w, text)
		}
	}
}

func TestH16_ConversationEscapesInvisibleCharacters(t *testing.T) {
	t.Parallel()
	t.Run("Bash command and output", func(t *testing.T) {
		t.Parallel()
		v := newView(80, 12)
		v.AddToolUse("c1", "Bash", bashInput("rm -rf "+rlo+"fdp."+zwsp+"x"))
		v.SetToolResult("c1", tools.Result{Text: "removed " + rlo + "txt.exe\nok" + zwsp + "\n"}, time.Second)
		checkEscaped(t, v, "Bash(rm -rf <U+202E>fdp.<U+200B>x)", "removed <U+202E>txt.exe", "ok<U+200B>")
	})
	t.Run("file name", func(t *testing.T) {
		t.Parallel()
		v := newView(80, 12)
		in, _ := json.Marshal(map[string]string{"file_path": "/tmp/re" + rlo + "adme" + zwsp + ".md"})
		v.AddToolUse("c1", "Read", in)
		v.SetToolResult("c1", tools.Result{Text: "1\thello\n"}, time.Second)
		checkEscaped(t, v, "re<U+202E>adme<U+200B>.md")
	})
	t.Run("the person's message", func(t *testing.T) {
		t.Parallel()
		v := newView(80, 12)
		v.AddUser("run " + rlo + "this" + zwsp + " please")
		checkEscaped(t, v, "run <U+202E>this<U+200B> please")
	})
	t.Run("streamed agent text", func(t *testing.T) {
		t.Parallel()
		v := newView(80, 12)
		v.AppendAssistantDelta("I will run " + rlo + "this" + zwsp + " now")
		checkEscaped(t, v, "I will run <U+202E>this<U+200B> now")
	})
	t.Run("Markdown with a code block", func(t *testing.T) {
		t.Parallel()
		v := newView(80, 16)
		v.AddAssistant("Run **this** " + rlo + "first:\n\n```sh\nrm " + zwsp + "-rf /tmp/x\n```\n\nand `ls " + rlo + "` after.")
		checkEscaped(t, v, "this <U+202E>first:", "rm <U+200B>-rf /tmp/x", "ls <U+202E>")
		if text := screen(t, v); strings.Contains(text, "```") {
			t.Errorf("the code fence is drawn, so the Markdown was not rendered:\n%s", text)
		}
	})
}

// A carriage return, a backspace or an escape sequence in what names a
// call (its command, its path) is shown as an escape, never obeyed or
// dropped: "echo safe\rrm x" must not read as "rm x", nor "saf\be" as
// "safe".
func TestH16_ConversationHeadersShowControlCharacters(t *testing.T) {
	t.Parallel()
	for cmd, want := range map[string]string{
		"echo safe\rrm notes.md":    `Bash(echo safe\rrm notes.md)`,
		"echo saf\be; rm notes.md":  `Bash(echo saf\x08e; rm notes.md)`,
		"echo ok\x1b[2Krm notes.md": `Bash(echo ok\x1b[2Krm notes.md)`,
	} {
		v := newView(80, 6)
		v.AddToolUse("c1", "Bash", bashInput(cmd))
		out := v.View()
		checkNoControls(t, out)
		if s := screen(t, v); !strings.Contains(s, want) {
			t.Errorf("the header of %q does not read %q:\n%s", cmd, want, s)
		}
	}
}

// checkNoControls fails when a drawn view holds a control character other
// than a newline or the SGR sequences the view writes itself.
func checkNoControls(t *testing.T, out string) {
	t.Helper()
	for i := 0; i < len(out); i++ {
		c := out[i]
		if c == '\x1b' && i+1 < len(out) && out[i+1] == '[' {
			j := i + 2
			for j < len(out) && (out[j] >= '0' && out[j] <= '9' || out[j] == ';' || out[j] == ':') {
				j++
			}
			if j < len(out) && out[j] == 'm' {
				i = j
				continue
			}
		}
		if c < 0x20 && c != '\n' || c == 0x7f {
			t.Errorf("the view holds %#x at byte %d: %q", c, i, out)
			return
		}
	}
}
