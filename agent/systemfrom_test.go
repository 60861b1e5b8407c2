package agent

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seed92b641c3/workbench/agent/provider/script"
)

// A system prompt made later (Config.SystemFrom) is made once, when the
// first request needs it, and every request carries it with the session's
// nonce, as a prompt given at once (System) is carried; a subagent's prompt
// starts from it.
func TestASystemPromptMadeLaterIsMadeOnceAndCarriedByEveryRequest(t *testing.T) {
	t.Parallel()
	sc, err := script.Parse([]byte(`{"turns":[{"text":"one"},{"text":"two"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	prov := script.New(sc)
	f := newFixture(t)
	var made atomic.Int32
	s := NewSession(Config{Provider: prov, Pipeline: f.p, SystemFrom: func() string {
		made.Add(1)
		return "made later"
	}}, "sess", nil)
	if made.Load() != 0 {
		t.Fatal("the prompt was made before anything needed it")
	}
	s.Prompt(context.Background(), "first")
	s.Prompt(context.Background(), "second")
	reqs := prov.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	want := "made later" + nonceNote(s.cfg.Nonce)
	for i, r := range reqs {
		if r.System != want {
			t.Errorf("request %d carries system prompt %q, want %q", i, r.System, want)
		}
	}
	if n := made.Load(); n != 1 {
		t.Errorf("the prompt was made %d times", n)
	}
	if parts := s.ContextParts(); parts[0].Tokens != estimateTokens(len(want)) {
		t.Errorf("/context counts the system prompt as %d tokens, want %d", parts[0].Tokens, estimateTokens(len(want)))
	}
}

// The git status the session reads while it starts is the one
// GatherFactsIn reads, and the facts without it are the same otherwise.
func TestGitStatusIsWhatGatherFactsReads(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	if err := os.WriteFile(dir+"/new.txt", []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := FactsDirs{WorkDir: dir, ProjectRoot: dir}
	all := GatherFactsIn(context.Background(), d)
	status := GitStatus(context.Background(), dir)
	if !strings.Contains(status, "?? new.txt") || status != all.GitStatus {
		t.Fatalf("GitStatus %q, GatherFactsIn's %q", status, all.GitStatus)
	}
	rest := GatherFactsButGit(d)
	rest.GitStatus = status
	if SystemPrompt(rest) != SystemPrompt(all) {
		t.Fatalf("the prompt from the facts read apart differs:\n%s\n---\n%s", SystemPrompt(rest), SystemPrompt(all))
	}
	if GitStatus(context.Background(), t.TempDir()) != "" {
		t.Error("a directory outside any repository has a git status")
	}
}
