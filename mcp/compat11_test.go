package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/tools"
)

// TestCompat11_ImagesReachTheResult checks that an image a real server
// returns becomes an image of the result, bytes and type intact, while a
// type the model APIs do not take stays a note.
func TestCompat11_ImagesReachTheResult(t *testing.T) {
	t.Parallel()
	m := start(t, Options{}, Config{"local": stdioEntry(t)})
	requireReady(t, m, "local")
	res := call(t, findTool(t, m, "mcp__local__mixed"), `{}`)
	if len(res.Images) != 1 || res.Images[0].MediaType != "image/png" || string(res.Images[0].Data) != "PNGDATA" {
		t.Fatalf("images = %+v", res.Images)
	}
	var meta resultMeta
	if err := json.Unmarshal(res.Meta, &meta); err != nil || meta.Images != 1 || meta.Omitted != 2 {
		t.Fatalf("meta %s (%v): want 1 image, the svg and the blob omitted", res.Meta, err)
	}
}

// TestCompat11_ProgressNotificationsReachTheCall checks that a call sends a
// progressToken and that the server's notifications come back as lines.
func TestCompat11_ProgressNotificationsReachTheCall(t *testing.T) {
	t.Parallel()
	m := start(t, Options{}, Config{"local": stdioEntry(t)})
	requireReady(t, m, "local")
	tl := findTool(t, m, "mcp__local__slow")
	var mu sync.Mutex
	var lines []string
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := tl.Call(ctx, json.RawMessage(`{}`), &tools.Context{Progress: func(s string) {
		mu.Lock()
		lines = append(lines, s)
		mu.Unlock()
	}})
	if err != nil || !strings.Contains(res.Text, "done with token wb-") {
		t.Fatalf("result %q %v: the call must carry a progress token", res.Text, err)
	}
	mu.Lock()
	defer mu.Unlock()
	// Progress is shown at most every 250 ms, so which later steps make it
	// through depends on the server's pace; the first always does, and
	// what comes through comes in order.
	if !slices.Contains(lines, "1/3 step 1") || !slices.IsSorted(lines) {
		t.Fatalf("progress lines = %q", lines)
	}
	for _, l := range lines {
		if !slices.Contains([]string{"1/3 step 1", "2/3 step 2", "3/3 step 3"}, l) {
			t.Fatalf("unexpected progress line %q in %q", l, lines)
		}
	}
	// Without anyone to show progress to, no token is sent.
	res = call(t, tl, `{}`)
	if res.Text != "no progress token" {
		t.Fatalf("a call without a Progress func sent a token: %q", res.Text)
	}
}
