package conversation

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/tools"
)

// screen draws the view, checks the promises View makes about its size,
// and returns the text without styles and without trailing spaces, so goldens and assertions read as what a person sees.
func screen(t testing.TB, v *View) string {
	t.Helper()
	out := v.View()
	lines := strings.Split(out, "\n")
	if len(lines) != v.height {
		t.Fatalf("View returned %d lines, want exactly %d", len(lines), v.height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > v.width {
			t.Fatalf("line %d is %d cells wide, more than the width %d: %q", i, w, v.width, ansi.Strip(l))
		}
		lines[i] = strings.TrimRight(ansi.Strip(l), " ")
	}
	return strings.Join(lines, "\n")
}

// newView returns a view of the given size with the default hints.
func newView(width, height int) *View {
	v := New()
	v.SetSize(width, height)
	return v
}

// bashInput is the input of a Bash call.
func bashInput(cmd string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"command": cmd})
	return b
}

// numbered returns n lines "line 1" ... "line n".
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// answer is a reply with the Markdown a model writes: a paragraph, a list,
// a code block and a closing sentence.
const answer = "The build has **three** steps, run by `make`:\n\n" +
	"1. `go vet` checks the code.\n2. `go test -race` runs the tests.\n3. `go build` writes `bin/workbench`.\n\n" +
	"```go\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n```\n\n" +
	"Run `make run` to start it."

// fill adds n messages, cycling through the kinds a session has: the
// person's message, a Markdown reply, and a tool call with its output.
func fill(v *View, n int) {
	for i := range n {
		switch i % 3 {
		case 0:
			v.AddUser(fmt.Sprintf("Question %d: what does the build do?", i))
		case 1:
			v.AddAssistant(fmt.Sprintf("## Answer %d\n\n%s", i, answer))
		case 2:
			id := fmt.Sprintf("call-%d", i)
			v.AddToolUse(id, "Bash", bashInput("go test ./..."))
			v.SetToolResult(id, tools.Result{Text: numbered(12)}, 1500*time.Millisecond)
		}
	}
}

// deltas splits text into pieces of n bytes, as a stream delivers it.
func deltas(text string, n int) []string {
	var out []string
	for len(text) > n {
		out = append(out, text[:n])
		text = text[n:]
	}
	return append(out, text)
}
