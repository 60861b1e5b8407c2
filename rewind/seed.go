package rewind

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// startFromSeed points the store at the project's shared seed index and,
// when this session has no index yet, starts from it: the stat data of the
// last session's index lets git skip every file unchanged since, and the
// objects it names are in the shared object directory. Seeds are kept per
// set of exclude patterns, so a session with other rewind.ignore patterns
// starts from its own. copied says the seed was copied in: files it
// recorded that are ignored now (a .gitignore changed between sessions)
// are still to be dropped from the index (dropIgnoredFromSeed), which needs
// git and so runs in line, after the store opened.
func (s *Store) startFromSeed(shared string) (copied bool, err error) {
	sum := sha256.Sum256(s.excludes())
	s.seed = filepath.Join(shared, "index-"+hex.EncodeToString(sum[:8]))
	own := filepath.Join(s.git.gitDir, "index")
	if _, err := os.Stat(own); err == nil {
		return false, nil
	}
	if err := copyFile(s.seed, own); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return false, nil // the project's first session: nothing to start from
		}
		return false, fmt.Errorf("rewind: %w", err)
	}
	if err := s.syncExcludes(); err != nil {
		return false, err
	}
	return true, nil
}

// dropIgnoredFromSeed removes from a copied seed index the files that are
// ignored now. A seed git cannot use is only a lost shortcut: it is
// removed, and the first checkpoint hashes the tree.
func (s *Store) dropIgnoredFromSeed() {
	own := filepath.Join(s.git.gitDir, "index")
	ctx := context.Background()
	ignored, err := s.git.run(ctx, nil, "ls-files", "-z", "--cached", "--ignored", "--exclude-standard")
	if err == nil && len(ignored) > 0 {
		_, err = s.git.run(ctx, ignored, "rm", "--cached", "-q", "--ignore-unmatch", "--pathspec-from-file=-", "--pathspec-file-nul")
	}
	if err != nil {
		os.Remove(own)
	}
}

// saveSeed leaves the session's index where the project's next session
// starts from it. It is a cache: a failure costs that session time only.
func (s *Store) saveSeed() {
	s.seeded = true
	if s.seed == "" {
		return
	}
	tmp := s.seed + ".tmp-" + strconv.Itoa(os.Getpid())
	if err := copyFile(filepath.Join(s.git.gitDir, "index"), tmp); err != nil {
		os.Remove(tmp)
		return
	}
	if err := os.Rename(tmp, s.seed); err != nil {
		os.Remove(tmp)
	}
}

// copyFile copies src to dst, replacing dst.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, in); err != nil {
		return err
	}
	return os.WriteFile(dst, buf.Bytes(), 0o600)
}
