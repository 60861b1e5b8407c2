// Package rewind takes checkpoints of a workspace and puts it back: before
// each prompt of the person and before each call that can change files, the
// whole work tree (untracked files included, ignored ones left out) is
// recorded in a shadow git repository of the session's own, so a person can
// take the files back to before any prompt, whatever Bash did to them.
//
// The shadow repository has its own GIT_DIR and GIT_INDEX_FILE and the
// project as GIT_WORK_TREE: it works where the project has no repository and
// never reads or writes the project's .git. Its persistent index makes git
// hash only files whose size or mtime changed, so a checkpoint after a small
// change costs a stat of the tree, and its objects grow by changed content
// only. A restore never reaches the protected places (.git, .workbench,
// .claude, .mcp.json) and writes nothing through a symbolic link.
package rewind

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Options say where a Store keeps its repository and what it leaves alone.
type Options struct {
	// Dir holds the shadow repository and the checkpoint log (a session's
	// rewind directory); it is created if missing.
	Dir string
	// WorkTree is the project directory whose files are recorded.
	WorkTree string
	// Ignore are extra patterns in .gitignore syntax (the rewind.ignore
	// setting) for files no checkpoint records and no restore touches.
	Ignore []string
	// Shared, when set, is the project's directory shared by its sessions'
	// stores: the objects every checkpoint writes, and the index the last
	// session left, from which a new session's first checkpoint starts, so
	// it hashes only what changed since instead of the whole tree. Empty
	// keeps everything in Dir.
	Shared string
	// Now is the clock checkpoints are stamped with; nil is time.Now. Tests
	// pass their own so the times a list shows stay the same.
	Now func() time.Time
}

// Store is one session's checkpoints. Its methods are safe for concurrent
// use; checkpoints and restores run one at a time, in the order they were
// asked for (see line), including those taken in the background.
type Store struct {
	dir      string
	workTree string
	ignore   []string
	git      *git
	now      func() time.Time

	// seed is the shared index this store starts from and leaves its
	// index in ("" without Options.Shared); seeded says the session's
	// index is up to date there.
	seed   string
	seeded bool

	// lock is held while the store is open: two processes writing one
	// session's checkpoints would number them twice.
	lock *os.File

	line line
	// stopPrepare cancels the recording Prepare started, for a session
	// that closes before it is done (under line.mu).
	stopPrepare context.CancelFunc
	// nextPrompt is the number the next prompt checkpoint gets, given
	// out when it is asked for (under line.mu), so a checkpoint taken in
	// the background has its number at once.
	nextPrompt int

	log     *checkpointLog
	exclude []byte // the info/exclude last written
	// nested are the directories holding a repository of their own,
	// never recorded (gitlinks.go).
	nested []string
}

// Open opens (creating on first use) the store in o.Dir.
func Open(o Options) (*Store, error) {
	if o.Dir == "" || o.WorkTree == "" {
		return nil, errors.New("rewind: a store needs a directory and a work tree")
	}
	wt, err := filepath.Abs(o.WorkTree)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(wt); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("rewind: work tree %s is not a directory", wt)
	}
	for _, p := range o.Ignore {
		if strings.ContainsAny(p, "\n\r") {
			return nil, fmt.Errorf("rewind.ignore: pattern %q spans lines", p)
		}
	}
	if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("rewind: %w", err)
	}
	s := &Store{dir: o.Dir, workTree: wt, ignore: o.Ignore, now: o.Now}
	if s.now == nil {
		s.now = time.Now
	}
	if s.lock, err = lockDir(o.Dir); err != nil {
		return nil, err
	}
	objects := ""
	if o.Shared != "" {
		objects = filepath.Join(o.Shared, "objects")
		if err := os.MkdirAll(objects, 0o700); err != nil {
			s.lock.Close()
			return nil, fmt.Errorf("rewind: %w", err)
		}
	}
	s.git = newGit(filepath.Join(o.Dir, "git"), wt, objects)
	needsInit, err := s.initRepo()
	if err != nil {
		s.lock.Close()
		return nil, err
	}
	seeded := false
	if o.Shared != "" {
		if seeded, err = s.startFromSeed(o.Shared); err != nil {
			s.lock.Close()
			return nil, err
		}
	}
	if s.log, err = openLog(filepath.Join(o.Dir, "checkpoints.jsonl")); err != nil {
		s.lock.Close()
		return nil, err
	}
	s.nextPrompt = s.log.maxPrompt() + 1
	if needsInit || seeded {
		s.gitSetUpInLine(needsInit, seeded)
	}
	return s, nil
}

// attributes turn off every conversion between the files and the objects
// (line endings, filters, encodings) that the project's .gitattributes could
// ask for: a restore must give back the bytes that were there.
const attributes = "* -text -ident -filter -working-tree-encoding -eol\n"

// initRepo readies the shadow repository's directory: its attributes, and
// no index.lock left by a git that was stopped. It runs no git: needsInit
// says that `git init` has yet to make the repository itself, which
// gitSetUpInLine does. Git missing is an error now, as the failed `git init`
// it would come to was: the session says at once that rewind is off.
func (s *Store) initRepo() (needsInit bool, err error) {
	gd := s.git.gitDir
	if _, err := os.Stat(filepath.Join(gd, "HEAD")); err != nil {
		if _, err := exec.LookPath("git"); err != nil {
			return false, fmt.Errorf("rewind: creating the shadow repository: git init: %w", err)
		}
		needsInit = true
	}
	// The store holds the session's lock, so an index.lock here was left
	// by a git that a crash or a kill stopped mid-write: left in place,
	// it would fail every checkpoint of the session from now on.
	if err := os.Remove(filepath.Join(gd, "index.lock")); err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("rewind: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(gd, "info"), 0o700); err != nil {
		return false, fmt.Errorf("rewind: %w", err)
	}
	if err := os.WriteFile(filepath.Join(gd, "info", "attributes"), []byte(attributes), 0o600); err != nil {
		return false, fmt.Errorf("rewind: %w", err)
	}
	return needsInit, nil
}

// gitSetUpInLine runs the git processes a new store needs, `git init` and
// the clean-up of a seed index (see startFromSeed), as the first piece of
// work in line and in the background: opening a store starts no process,
// so a session's first frame does not wait for git, and every checkpoint,
// restore and diff waits for them in line. git init leaves the files Open
// wrote (the attributes, the seed index) as they are. When it fails, every
// later git command of the store fails with its error.
func (s *Store) gitSetUpInLine(needsInit, seeded bool) {
	s.line.mu.Lock()
	ready, leave := s.line.joinLocked()
	s.line.mu.Unlock()
	go func() {
		<-ready
		defer leave()
		if needsInit {
			if _, err := s.git.run(context.Background(), nil, "init", "-q"); err != nil {
				s.git.broken = fmt.Errorf("rewind: creating the shadow repository: %w", err)
				return
			}
		}
		if seeded {
			s.dropIgnoredFromSeed()
		}
	}()
}

// Close leaves the index for the project's next session and releases the
// checkpoint log.
func (s *Store) Close() error {
	s.line.mu.Lock()
	if s.stopPrepare != nil {
		s.stopPrepare()
	}
	s.line.mu.Unlock()
	defer s.line.enter()()
	s.saveSeed()
	err := s.log.close()
	if s.lock != nil {
		s.lock.Close() // closing the descriptor releases the lock
		s.lock = nil
	}
	return err
}

// WorkTree is the directory the store records.
func (s *Store) WorkTree() string { return s.workTree }

// syncExcludes writes the shadow repository's info/exclude: the protected
// places, the rewind.ignore patterns and the project's own .git/info/exclude
// (its .gitignore files git reads from the work tree itself).
func (s *Store) syncExcludes() error {
	b := s.excludes()
	if bytes.Equal(b, s.exclude) {
		return nil
	}
	if err := os.WriteFile(filepath.Join(s.git.gitDir, "info", "exclude"), b, 0o600); err != nil {
		return fmt.Errorf("rewind: %w", err)
	}
	s.exclude = b
	return nil
}

// excludes is the content of the shadow repository's info/exclude.
func (s *Store) excludes() []byte {
	var b bytes.Buffer
	b.WriteString("# written by workbench: never recorded, never restored\n")
	for _, p := range protectedPatterns {
		b.WriteString(p + "\n")
	}
	for _, p := range s.ignore {
		b.WriteString(p + "\n")
	}
	if own, err := os.ReadFile(filepath.Join(s.workTree, ".git", "info", "exclude")); err == nil {
		b.WriteString("# the project's .git/info/exclude\n")
		b.Write(own)
		b.WriteString("\n")
	}
	return b.Bytes()
}

// snapshot records the work tree in the index and returns its tree id.
// Files git could not read are left out and named in warning; the rest is
// recorded all the same.
func (s *Store) snapshot(ctx context.Context) (tree, warning string, err error) {
	if err := s.syncExcludes(); err != nil {
		return "", "", err
	}
	if err := s.dropGitlinks(ctx); err != nil {
		return "", "", err
	}
	if _, err := s.git.run(ctx, s.addPathspec(), "add", "-A", "--ignore-errors",
		"--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
		warning = err.Error()
	}
	if err := s.dropGitlinks(ctx); err != nil {
		return "", "", err
	}
	tree, err = s.git.line(ctx, nil, "write-tree")
	if err != nil {
		return "", "", fmt.Errorf("rewind: recording the work tree: %w", err)
	}
	if !s.seeded {
		// The first snapshot hashed what changed since the seed (or the
		// whole tree): keep that work for the next session now, not only
		// at Close, which a crash skips.
		s.saveSeed()
	}
	return tree, warning, nil
}

// Meta says what a checkpoint is taken before.
type Meta struct {
	Kind Kind
	// Prompt is the number of the prompt the checkpoint belongs to; for a
	// KindPrompt checkpoint, 0 means the next number; for the other kinds,
	// the latest prompt's.
	Prompt int
	// Label is the prompt's text or the call's summary.
	Label  string
	Tool   string
	CallID string
}

// Checkpoint records the work tree now. A tree equal to the last
// checkpoint's reuses its commit, so a call that changed nothing costs a
// stat of the tree and one line of log.
func (s *Store) Checkpoint(ctx context.Context, m Meta) (Checkpoint, error) {
	s.line.mu.Lock()
	if m.Kind == KindPrompt && m.Prompt == 0 {
		m.Prompt = s.reservePrompt()
	}
	ready, leave := s.line.joinLocked()
	s.line.mu.Unlock()
	<-ready
	defer leave()
	return s.checkpoint(ctx, m)
}

func (s *Store) checkpoint(ctx context.Context, m Meta) (Checkpoint, error) {
	if !m.Kind.valid() {
		return Checkpoint{}, fmt.Errorf("rewind: unknown checkpoint kind %q", m.Kind)
	}
	tree, warning, err := s.snapshot(ctx)
	if err != nil {
		return Checkpoint{}, err
	}
	return s.record(ctx, m, tree, warning)
}

// record logs a checkpoint of tree, committing it unless the last
// checkpoint holds the same tree.
func (s *Store) record(ctx context.Context, m Meta, tree, warning string) (Checkpoint, error) {
	last, hasLast := s.log.last()
	if m.Prompt == 0 {
		m.Prompt = s.log.maxPrompt()
	}
	c := Checkpoint{
		Kind: m.Kind, Prompt: m.Prompt, Label: firstLine(m.Label), Tool: m.Tool, CallID: m.CallID,
		Tree: tree, Time: s.now().UTC(), Warning: warning,
	}
	if hasLast && last.Tree == tree {
		c.Commit = last.Commit
	} else {
		var err error
		parent := ""
		if hasLast {
			parent = last.Commit
		}
		if c.Commit, err = s.git.writeCommit(tree, parent, string(c.Kind)+" "+c.Label, c.Time); err != nil {
			return Checkpoint{}, fmt.Errorf("rewind: %w", err)
		}
		// The ref keeps every checkpoint reachable, so no git gc can
		// take one away.
		if err := s.writeRef(c.Commit); err != nil {
			return Checkpoint{}, err
		}
	}
	if err := s.log.append(&c); err != nil {
		return Checkpoint{}, err
	}
	return c, nil
}

// writeRef points refs/workbench/checkpoints at commit, as a loose ref
// written whole (temporary file, rename): one process less per checkpoint
// than git update-ref, and the store is the ref's only writer.
func (s *Store) writeRef(commit string) error {
	p := filepath.Join(s.git.gitDir, "refs", "workbench", "checkpoints")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("rewind: %w", err)
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, []byte(commit+"\n"), 0o600); err != nil {
		return fmt.Errorf("rewind: %w", err)
	}
	if err := os.Rename(tmp, p); err != nil {
		return fmt.Errorf("rewind: %w", err)
	}
	return nil
}

// labelMax bounds a label in the log: enough to tell prompts apart.
const labelMax = 200

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i]) + " …"
	}
	if r := []rune(s); len(r) > labelMax {
		s = string(r[:labelMax]) + "…"
	}
	return s
}

// BeginPrompt takes the checkpoint before a prompt of the person, numbered
// after the session's last one.
func (s *Store) BeginPrompt(ctx context.Context, text string) (Checkpoint, error) {
	return s.Checkpoint(ctx, Meta{Kind: KindPrompt, Label: text})
}

// BeginPromptInBackground takes the checkpoint before a prompt of the
// person without making the prompt wait for it, and returns the prompt's
// number. The checkpoint keeps its place in line: the first call that can
// change files waits for it (BeforeCall), so it still records the files as
// they were before the prompt. A project's first checkpoint hashes the
// whole tree, which can take many seconds; the person's request to the
// model goes out meanwhile. failed, when not nil, is told if it fails.
func (s *Store) BeginPromptInBackground(ctx context.Context, text string, failed func(error)) int {
	s.line.mu.Lock()
	n := s.reservePrompt()
	ready, leave := s.line.joinLocked()
	s.line.mu.Unlock()
	go func() {
		<-ready
		defer leave()
		if _, err := s.checkpoint(ctx, Meta{Kind: KindPrompt, Prompt: n, Label: text}); err != nil && failed != nil {
			failed(err)
		}
	}()
	return n
}

// reservePrompt gives out the next prompt number (line.mu held).
func (s *Store) reservePrompt() int {
	n := s.nextPrompt
	s.nextPrompt++
	return n
}

// Prepare records the work tree in the shadow repository's index in the
// background, so the session's first checkpoint, usually the one before
// the person's first prompt, only stats the tree. It is what a session
// does when it opens: the project's first session hashes every file here,
// while the person reads the screen and types. It logs no checkpoint.
//
// A session that closes first stops it (Close): nothing is lost but the
// head start.
func (s *Store) Prepare(ctx context.Context) {
	ctx, stop := context.WithCancel(ctx)
	s.line.mu.Lock()
	s.stopPrepare = stop
	ready, leave := s.line.joinLocked()
	s.line.mu.Unlock()
	go func() {
		defer stop()
		<-ready
		defer leave()
		// A failure here shows again, and is told, at the first checkpoint.
		_, _, _ = s.snapshot(ctx)
	}()
}

// EndPrompt takes the checkpoint when a prompt's run ends.
func (s *Store) EndPrompt(ctx context.Context) (Checkpoint, error) {
	return s.Checkpoint(ctx, Meta{Kind: KindEnd})
}

// BeforeCall takes the checkpoint before a call that can change files.
func (s *Store) BeforeCall(ctx context.Context, tool, callID, summary string) (Checkpoint, error) {
	return s.Checkpoint(ctx, Meta{Kind: KindCall, Tool: tool, CallID: callID, Label: summary})
}
