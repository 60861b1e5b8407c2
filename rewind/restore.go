package rewind

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ErrNoCheckpoints is returned when a session has nothing to go back to.
var ErrNoCheckpoints = errors.New("this session has no checkpoints: no prompt ran with rewind on")

// ErrNoPrompt is returned for a prompt number the session does not have.
var ErrNoPrompt = errors.New("no prompt")

// DirtyError stops a restore over files changed after the last checkpoint
// (by the person, most likely), unless the restore is forced: they are in
// no checkpoint yet, so overwriting them silently would lose work.
type DirtyError struct{ Files []Change }

func (e *DirtyError) Error() string {
	names := make([]string, len(e.Files))
	for i, c := range e.Files {
		names[i] = c.String()
	}
	return fmt.Sprintf("%d file(s) changed after the last checkpoint and would be overwritten: %s", len(e.Files), strings.Join(names, ", "))
}

// RestoreOptions change how a restore treats files it was not asked about.
type RestoreOptions struct {
	// Force restores over files changed after the last checkpoint.
	Force bool
}

// Skipped is a file a restore left as it was, and why.
type Skipped struct {
	Path string
	Why  string
}

// Report says what a restore did. Changed is relative to the state before
// it: Modified files got their old content back, Added ones were recreated,
// Deleted ones (made since the checkpoint) were removed.
type Report struct {
	To Checkpoint
	// Undo was taken just before the restore: restoring it undoes this one.
	Undo    Checkpoint
	Changed []Change
	// Skipped are left alone by design (protected places, nested git
	// repositories); Failed could not be written.
	Skipped []Skipped
	Failed  []Skipped
}

// Dirty lists the files changed after the last checkpoint, which a restore
// asks about.
func (s *Store) Dirty(ctx context.Context) ([]Change, error) {
	defer s.line.enter()()
	last, ok := s.log.last()
	if !ok {
		return nil, ErrNoCheckpoints
	}
	cur, _, err := s.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	return s.changes(ctx, last.Tree, cur)
}

// RestorePrompt puts the work tree back as it was before prompt n.
func (s *Store) RestorePrompt(ctx context.Context, n int, o RestoreOptions) (Report, error) {
	defer s.line.enter()()
	c, err := s.promptCheckpoint(n)
	if err != nil {
		return Report{}, err
	}
	return s.restore(ctx, c, o)
}

// RestoreCheckpoint puts the work tree back as checkpoint id recorded it.
func (s *Store) RestoreCheckpoint(ctx context.Context, id int, o RestoreOptions) (Report, error) {
	defer s.line.enter()()
	if len(s.log.all) == 0 {
		return Report{}, ErrNoCheckpoints
	}
	c, err := s.byID(id)
	if err != nil {
		return Report{}, err
	}
	return s.restore(ctx, c, o)
}

// Undo restores the state the latest restore started from.
func (s *Store) Undo(ctx context.Context, o RestoreOptions) (Report, error) {
	defer s.line.enter()()
	for i := len(s.log.all) - 1; i >= 0; i-- {
		if c := s.log.all[i]; c.Kind == KindRestore {
			return s.restore(ctx, c, o)
		}
	}
	return Report{}, errors.New("rewind: nothing to undo: this session was never rewound")
}

func (s *Store) promptCheckpoint(n int) (Checkpoint, error) {
	if len(s.log.all) == 0 {
		return Checkpoint{}, ErrNoCheckpoints
	}
	max := 0
	for _, c := range s.log.all {
		if c.Kind == KindPrompt {
			if c.Prompt == n {
				return c, nil
			}
			max = c.Prompt
		}
	}
	if max == 0 {
		return Checkpoint{}, ErrNoCheckpoints
	}
	return Checkpoint{}, fmt.Errorf("rewind: %w %d: this session's prompts are numbered 1 to %d", ErrNoPrompt, n, max)
}

// restore checks for unrecorded changes, takes the undo checkpoint, then
// makes the work tree match c: deletions first (files, then directories
// that emptied), then the files c holds.
func (s *Store) restore(ctx context.Context, target Checkpoint, o RestoreOptions) (Report, error) {
	rep := Report{To: target}
	last, _ := s.log.last()
	cur, warning, err := s.snapshot(ctx)
	if err != nil {
		return rep, err
	}
	dirty, err := s.changes(ctx, last.Tree, cur)
	if err != nil {
		return rep, err
	}
	if len(dirty) > 0 && !o.Force {
		return rep, &DirtyError{Files: dirty}
	}
	raw, err := s.diffTrees(ctx, cur, target.Tree, true)
	if err != nil {
		return rep, err
	}
	if rep.Undo, err = s.record(ctx, Meta{Kind: KindRestore, Prompt: last.Prompt, Label: fmt.Sprintf("before restoring checkpoint %d", target.ID)}, cur, warning); err != nil {
		return rep, err
	}
	if err := s.apply(ctx, raw, &rep); err != nil {
		return rep, err
	}
	if _, err := s.checkpoint(ctx, Meta{Kind: KindRestored, Prompt: last.Prompt, Label: fmt.Sprintf("restored checkpoint %d", target.ID)}); err != nil {
		return rep, err
	}
	return rep, nil
}

// gitlinkMode is a nested repository's entry: git records its commit, not
// its files, so there is nothing to restore.
const gitlinkMode = "160000"

func (s *Store) apply(ctx context.Context, raw []rawChange, rep *Report) error {
	fs, err := openWorkFS(s.workTree)
	if err != nil {
		return err
	}
	defer fs.close()
	var files, gone []rawChange
	for _, r := range raw {
		if why := protectedPath(r.path); why != "" {
			if !r.isTree() {
				rep.Skipped = append(rep.Skipped, Skipped{r.path, why})
			}
			continue
		}
		switch {
		case r.isTree():
			if r.status == Deleted {
				gone = append(gone, r)
			}
		case r.srcMode == gitlinkMode || r.dstMode == gitlinkMode:
			rep.Skipped = append(rep.Skipped, Skipped{r.path, "a nested git repository"})
		default:
			files = append(files, r)
		}
	}
	fail := func(p string, err error) { rep.Failed = append(rep.Failed, Skipped{p, err.Error()}) }
	// A file that goes, or changes type, is removed first, so a directory
	// can take its place.
	for _, r := range files {
		if r.status == Deleted || r.status == TypeChanged {
			if err := fs.remove(r.path); err != nil {
				fail(r.path, err)
				continue
			}
			if r.status == Deleted {
				rep.Changed = append(rep.Changed, Change{r.path, Deleted})
			}
		}
	}
	// Deepest directories first; one that still holds ignored files stays.
	sort.Slice(gone, func(i, j int) bool { return strings.Count(gone[i].path, "/") > strings.Count(gone[j].path, "/") })
	for _, r := range gone {
		if err := fs.rmdir(r.path); err != nil {
			fail(r.path, err)
		}
	}
	var blobs *blobReader
	for _, r := range files {
		if r.status == Deleted {
			continue
		}
		if blobs == nil {
			if blobs, err = s.git.blobs(ctx); err != nil {
				return err
			}
			defer blobs.close()
		}
		data, err := blobs.read(r.dstID)
		if err != nil {
			return err
		}
		switch r.dstMode {
		case "120000":
			err = fs.symlink(r.path, string(data))
		case "100755":
			err = fs.writeFile(r.path, data, 0o755)
		default:
			err = fs.writeFile(r.path, data, 0o644)
		}
		if err != nil {
			fail(r.path, err)
			continue
		}
		st := Modified
		if r.status == Added {
			st = Added
		}
		rep.Changed = append(rep.Changed, Change{r.path, st})
	}
	return nil
}
