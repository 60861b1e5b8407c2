package rewind

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/seed92b641c3/workbench/internal/gitindex"
)

// A directory of the work tree that holds a repository of its own (a
// submodule, or one made with `git init` below the project) becomes a
// gitlink in the shadow index. From then on, every `git add` asks that
// repository whether it is dirty by running `git status` inside it, with
// its own config: a clean filter or an fsmonitor a sandboxed command wrote
// there would run outside the sandbox at the next checkpoint. So the shadow
// index never keeps a gitlink: each one is dropped as soon as it appears
// and its directory is left out of later snapshots. Checkpoints never
// recorded what is inside such a repository anyway (a gitlink is only its
// HEAD), so nothing is lost.

// dropGitlinks removes every gitlink from the shadow index and remembers
// its path, so that the next `git add` neither looks into it nor adds it
// again. It runs before and after each `git add`.
func (s *Store) dropGitlinks(ctx context.Context) error {
	links, err := gitindex.Gitlinks(filepath.Join(s.git.gitDir, "index"))
	if err != nil {
		// An index this reader does not know: ask git, which always can.
		if links, err = s.gitlinksFromGit(ctx); err != nil {
			return fmt.Errorf("rewind: listing nested repositories: %w", err)
		}
	}
	if len(links) == 0 {
		return nil
	}
	var paths bytes.Buffer
	for _, l := range links {
		paths.WriteString(l + "\x00")
		if !slices.Contains(s.nested, l) {
			s.nested = append(s.nested, l)
		}
	}
	// update-index only edits the index; `git rm` would first ask the
	// repository whether it is safe to remove, by running git in it.
	if _, err := s.git.run(ctx, paths.Bytes(), "update-index", "--force-remove", "-z", "--stdin"); err != nil {
		return fmt.Errorf("rewind: leaving out nested repositories: %w", err)
	}
	return nil
}

// addPathspec is what `git add` records: the whole work tree but the
// nested repositories found so far.
func (s *Store) addPathspec() []byte {
	var b bytes.Buffer
	b.WriteString(".\x00")
	for _, n := range s.nested {
		b.WriteString(":(exclude,literal)" + n + "\x00")
	}
	return b.Bytes()
}

// gitlinksFromGit lists the index's gitlinks with `git ls-files`.
func (s *Store) gitlinksFromGit(ctx context.Context) ([]string, error) {
	out, err := s.git.run(ctx, nil, "ls-files", "-z", "--stage")
	if err != nil {
		return nil, err
	}
	return gitindex.ParseLsFiles(out), nil
}
