package rewind

import (
	"errors"
	"path/filepath"
	"testing"
)

// The checkpoint before a prompt can be taken in the background: the
// prompt gets its number at once, even while the store is busy, and the
// first call that can change files waits for that checkpoint, so a rewind
// to the prompt still finds the files as they were before it.
func TestAPromptCheckpointInTheBackgroundComesBeforeTheFirstCall(t *testing.T) {
	p := project(t)
	s := open(t, p)
	s.Prepare(ctx)
	// The test holds the line, as a long first checkpoint would: asking
	// for the prompt's checkpoint must not wait for it.
	leave := s.line.enter()
	n := s.BeginPromptInBackground(ctx, "first", func(err error) { t.Errorf("checkpoint failed: %v", err) })
	if n != 1 {
		t.Fatalf("the first prompt is numbered %d", n)
	}
	if m := s.BeginPromptInBackground(ctx, "second", nil); m != 2 {
		t.Fatalf("the second prompt is numbered %d", m)
	}
	leave()
	c := must(s.BeforeCall(ctx, "Bash", "call_1", "rewrite a.txt"))
	agentWork(t, p)
	must(s.EndPrompt(ctx))
	list := s.List()
	if len(list) != 4 || list[0].Kind != KindPrompt || list[0].Prompt != 1 || list[1].Prompt != 2 || list[2].ID != c.ID {
		t.Fatalf("checkpoints out of order: %+v", list)
	}
	rep := must(s.RestorePrompt(ctx, 1, RestoreOptions{}))
	if read(t, p, "a.txt") != "a\n" || !exists(p, "b.txt") || exists(p, "new/c.txt") {
		t.Fatalf("not the files before prompt 1: %+v", rep.Changed)
	}
}

// A background checkpoint that fails (here: the store is closed) says so
// to its caller, who notes it in the transcript.
func TestABackgroundCheckpointThatFailsIsTold(t *testing.T) {
	p := project(t)
	s := open(t, p)
	s.Close()
	done := make(chan error, 1)
	s.BeginPromptInBackground(ctx, "after close", func(err error) { done <- err })
	if err := <-done; err == nil {
		t.Fatal("a checkpoint after Close did not fail")
	} else if errors.Is(err, ErrNoCheckpoints) {
		t.Fatalf("unexpected error %v", err)
	}
}

// An index.lock left by a git that a crash stopped mid-write would fail
// every later checkpoint of the session; the store, which holds the
// session's lock, removes it when it opens.
func TestALeftoverIndexLockDoesNotStopCheckpoints(t *testing.T) {
	p := project(t)
	dir := filepath.Join(t.TempDir(), "rewind")
	s, err := Open(Options{Dir: dir, WorkTree: p})
	if err != nil {
		t.Fatal(err)
	}
	must(s.BeginPrompt(ctx, "first"))
	s.Close()
	write(t, dir, "git/index.lock", "")
	s, err = Open(Options{Dir: dir, WorkTree: p})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	write(t, p, "a.txt", "changed\n")
	c := must(s.BeginPrompt(ctx, "second"))
	if files := must(s.Diff(ctx, 1, c.ID)); changeList(files) != "M a.txt" {
		t.Errorf("the checkpoint after the leftover lock holds %v", files)
	}
}
