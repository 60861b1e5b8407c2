package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/agent"
)

// rewindRuns plays the two headless prompts: the first writes a
// file with Write, the second runs Bash, which rewrites a.txt, creates
// c.txt, deletes b.txt and appends to an ignored log.
func rewindRuns(t *testing.T, c *cli) {
	t.Helper()
	c.write("a.txt", "a\n")
	c.write("b.txt", "b\n")
	c.write(".gitignore", "*.log\n")
	c.write("build.log", "log\n")
	s1 := c.script("../s1.json", `{"turns":[
	  {"tool_calls":[{"id":"w","name":"Write","input":{"file_path":"one.txt","content":"one\n"}}]},
	  {"text":"wrote one"}]}`)
	s2 := c.script("../s2.json", `{"turns":[
	  {"tool_calls":[{"id":"b","name":"Bash","input":{"command":"printf 'rewritten\\n' > a.txt && echo c > c.txt && rm b.txt && echo more >> build.log"}}]},
	  {"text":"changed things"}]}`)
	for i, run := range [][]string{
		{"--script", s1, "-p", "write one.txt"},
		{"--continue", "--script", s2, "-p", "shuffle the files"},
	} {
		args := append([]string{"--cwd", c.project, "--allow", "Write", "--allow", "Bash", "--output-format", "json"}, run...)
		if code, out, errb := c.run("", args...); code != exitOK {
			t.Fatalf("run %d: exit %d\n%s\n%s", i+1, code, out, errb)
		}
	}
	if readFile(t, filepath.Join(c.project, "a.txt")) != "rewritten\n" {
		t.Fatal("the second run's Bash did not run")
	}
}

type rewindList struct {
	Session string `json:"session"`
	Prompts []struct {
		N      int      `json:"n"`
		Prompt string   `json:"prompt"`
		Files  []string `json:"files"`
	} `json:"prompts"`
	Dirty []string `json:"changed_since_last_checkpoint"`
}

func (c *cli) rewindList() rewindList {
	c.t.Helper()
	code, out, errb := c.run("", "rewind", "--cwd", c.project, "--list", "--json")
	if code != exitOK {
		c.t.Fatalf("rewind --list: exit %d %s", code, errb)
	}
	var l rewindList
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		c.t.Fatalf("%v: %s", err, out)
	}
	return l
}

func sorted(s []string) string {
	s = append([]string(nil), s...)
	sort.Strings(s)
	return strings.Join(s, ", ")
}

func (c *cli) exists(rel string) bool {
	_, err := os.Lstat(filepath.Join(c.project, rel))
	return err == nil
}

func (c *cli) read(rel string) string {
	b, _ := os.ReadFile(filepath.Join(c.project, rel))
	return string(b)
}

func checkRewindAcrossTwoPrompts(t *testing.T, c *cli) {
	l := c.rewindList()
	if len(l.Prompts) != 2 || l.Prompts[0].Prompt != "write one.txt" || l.Prompts[1].N != 2 {
		t.Fatalf("list %+v", l)
	}
	if got := sorted(l.Prompts[0].Files); got != "A one.txt" {
		t.Errorf("prompt 1 changed %s", got)
	}
	if got := sorted(l.Prompts[1].Files); got != "A c.txt, D b.txt, M a.txt" {
		t.Errorf("prompt 2 changed %s (build.log is ignored)", got)
	}
	if len(l.Dirty) != 0 {
		t.Errorf("dirty right after the runs: %v", l.Dirty)
	}

	code, out, errb := c.run("", "rewind", "--cwd", c.project, "2")
	if code != exitOK {
		t.Fatalf("rewind 2: exit %d\n%s\n%s", code, out, errb)
	}
	for _, want := range []string{"restored   a.txt", "recreated  b.txt", "removed    c.txt", "rewind --undo"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if c.read("a.txt") != "a\n" || c.read("b.txt") != "b\n" || c.exists("c.txt") || c.read("one.txt") != "one\n" {
		t.Fatalf("not the state before prompt 2: a=%q b=%q c=%v", c.read("a.txt"), c.read("b.txt"), c.exists("c.txt"))
	}
	if c.read("build.log") != "log\nmore\n" {
		t.Errorf("the ignored log was touched: %q", c.read("build.log"))
	}

	// Back to before prompt 1, over a file the person edited since.
	c.write("a.txt", "my own edit\n")
	code, _, errb = c.run("", "rewind", "--cwd", c.project, "1")
	if code != exitError || !strings.Contains(errb, "M a.txt") || !strings.Contains(errb, "--force") {
		t.Fatalf("restore over an edit: exit %d %s", code, errb)
	}
	if c.read("a.txt") != "my own edit\n" || !c.exists("one.txt") {
		t.Fatal("a refused rewind changed files")
	}
	if code, out, errb = c.run("", "rewind", "--cwd", c.project, "1", "--force"); code != exitOK {
		t.Fatalf("forced: exit %d %s %s", code, out, errb)
	}
	if c.exists("one.txt") || c.read("a.txt") != "a\n" {
		t.Fatal("not the state before prompt 1")
	}
	// The rewind itself can be undone, the person's edit included.
	if code, out, errb = c.run("", "rewind", "--cwd", c.project, "--undo"); code != exitOK {
		t.Fatalf("undo: exit %d %s %s", code, out, errb)
	}
	if c.read("a.txt") != "my own edit\n" || !c.exists("one.txt") {
		t.Fatalf("undo did not bring the edit back: %q", c.read("a.txt"))
	}
}

func TestRewindAcrossTwoHeadlessPromptsOutsideGit(t *testing.T) {
	c := newCLI(t)
	rewindRuns(t, c)
	checkRewindAcrossTwoPrompts(t, c)
}

// gitSnapshot is the project repository's status and every file under
// .git with its content digest and time.
func gitSnapshot(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command("git", "status", "--porcelain", "--ignored")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git status: %v %s", err, out)
	}
	var b strings.Builder
	b.Write(out)
	filepath.Walk(filepath.Join(dir, ".git"), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			data, _ := os.ReadFile(p)
			fmt.Fprintf(&b, "%s %v %x\n", p, info.ModTime(), sha256.Sum256(data))
		}
		return nil
	})
	return b.String()
}

func TestRewindInsideAGitRepositoryLeavesItsGitAlone(t *testing.T) {
	c := newCLI(t)
	c.write("a.txt", "a\n")
	c.write("b.txt", "b\n")
	c.write(".gitignore", "*.log\n")
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = c.project
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	rewindRuns(t, c)
	before := gitSnapshot(t, c.project)
	code, out, errb := c.run("", "rewind", "--cwd", c.project, "2")
	if code != exitOK {
		t.Fatalf("rewind 2: exit %d %s %s", code, out, errb)
	}
	if c.read("a.txt") != "a\n" || c.read("b.txt") != "b\n" || c.exists("c.txt") {
		t.Fatal("not restored")
	}
	// What git sees changed back too (a.txt and b.txt as committed, c.txt
	// gone), while .git's own files are byte for byte what they were.
	after := gitSnapshot(t, c.project)
	beforeFiles := before[strings.Index(before, c.project):]
	afterFiles := after[strings.Index(after, c.project):]
	if beforeFiles != afterFiles {
		t.Fatalf(".git changed:\n%s\n---\n%s", beforeFiles, afterFiles)
	}
	if status := after[:strings.Index(after, c.project)]; strings.Contains(status, "a.txt") || strings.Contains(status, "b.txt") || strings.Contains(status, "c.txt") {
		t.Errorf("git status after the rewind: %s", status)
	}
}

func TestRewindConversationGoesBackAndResumeContinuesThere(t *testing.T) {
	c := newCLI(t)
	rewindRuns(t, c)
	id := c.rewindList().Session
	code, out, errb := c.run("", "rewind", "--cwd", c.project, "2", "--conversation", "--no-code")
	if code != exitOK || !strings.Contains(out, "shuffle the files") {
		t.Fatalf("exit %d %s %s", code, out, errb)
	}
	if c.read("a.txt") != "rewritten\n" {
		t.Fatal("--no-code changed a file")
	}
	r, err := agent.LoadSession(filepath.Join(c.state, "workbench"), id)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := json.Marshal(r.History)
	if !strings.Contains(string(h), "write one.txt") || strings.Contains(string(h), "shuffle the files") {
		t.Fatalf("resumed history: %s", h)
	}
}

func TestBadRewindsSayWhyAndChangeNothing(t *testing.T) {
	c := newCLI(t)
	if code, _, errb := c.run("", "rewind", "--cwd", c.project, "--list"); code != exitUsage || !strings.Contains(errb, "no session of this project") {
		t.Fatalf("no session: exit %d %s", code, errb)
	}
	rewindRuns(t, c)
	for _, args := range [][]string{{"3"}, {"0"}, {"two"}, {"--list", "2"}, {"--no-code"}, {}} {
		code, _, errb := c.run("", append([]string{"rewind", "--cwd", c.project}, args...)...)
		if code != exitUsage || errb == "" {
			t.Errorf("rewind %v: exit %d %q", args, code, errb)
		}
	}
	if _, _, errb := c.run("", "rewind", "--cwd", c.project, "3"); !strings.Contains(errb, "numbered 1 to 2") {
		t.Errorf("rewind 3 says %q", errb)
	}
	if c.read("a.txt") != "rewritten\n" || !c.exists("c.txt") {
		t.Fatal("a refused rewind changed files")
	}

	// A transcript cut off by a crash: the conversation cannot go back,
	// and the files stay too.
	id := c.rewindList().Session
	tp := filepath.Join(c.state, "workbench", "sessions", id, "transcript.jsonl")
	f, _ := os.OpenFile(tp, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":1,"type":"mes`)
	f.Close()
	code, _, errb := c.run("", "rewind", "--cwd", c.project, "2", "--conversation")
	if code != exitUsage || !strings.Contains(errb, "partial entry") {
		t.Fatalf("cut-off transcript: exit %d %s", code, errb)
	}
	if c.read("a.txt") != "rewritten\n" {
		t.Fatal("files changed although the conversation could not go back")
	}

	// A session that ran with rewind off has no checkpoints.
	d := newCLI(t)
	d.write(".workbench/settings.json", `{"rewind":{"disable":true}}`)
	s := d.script("../s.json", `{"turns":[{"text":"hi"}]}`)
	if code, _, errb := d.run("", "--cwd", d.project, "--script", s, "-p", "hello"); code != exitOK {
		t.Fatal(errb)
	}
	if code, _, errb := d.run("", "rewind", "--cwd", d.project, "1"); code != exitUsage || !strings.Contains(errb, "no checkpoints") {
		t.Fatalf("no checkpoints: exit %d %s", code, errb)
	}
}

// A project's sessions keep their checkpoints' objects in one place under
// the state directory, named by a hash of the project's path, with the
// index the last session left: a new session writes no objects of its own
// for files that did not change, and still rewinds.
func TestRewindSessionsOfAProjectShareTheirObjects(t *testing.T) {
	c := newCLI(t)
	rewindRuns(t, c)
	sum := sha256.Sum256([]byte(c.project))
	shared := filepath.Join(c.state, "workbench", "rewind", fmt.Sprintf("%x", sum[:8]))
	if seeds, _ := filepath.Glob(filepath.Join(shared, "index-*")); len(seeds) != 1 {
		t.Fatalf("want one seed index in %s, found %v", shared, seeds)
	}
	s3 := c.script("../s3.json", `{"turns":[{"tool_calls":[{"id":"e","name":"Bash","input":{"command":"echo three > three.txt"}}]},{"text":"three"}]}`)
	if code, out, errb := c.run("", "--cwd", c.project, "--allow", "Bash", "--script", s3, "-p", "a new session"); code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errb)
	}
	list := c.rewindList()
	if len(list.Prompts) != 1 || strings.Join(list.Prompts[0].Files, ",") != "A three.txt" {
		t.Fatalf("the new session's prompts: %+v", list.Prompts)
	}
	own, _ := filepath.Glob(filepath.Join(c.state, "workbench", "sessions", list.Session, "rewind", "git", "objects", "??"))
	if len(own) > 0 {
		t.Errorf("the new session wrote objects of its own: %v", own)
	}
	if code, out, errb := c.run("", "rewind", "--cwd", c.project, "1"); code != exitOK || c.exists("three.txt") || c.read("a.txt") != "rewritten\n" {
		t.Fatalf("rewind of the new session: exit %d\n%s\n%s", code, out, errb)
	}
}
