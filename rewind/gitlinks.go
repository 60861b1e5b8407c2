package rewind

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// indexGitlinkMode is the mode bits of a gitlink in an index entry.
const indexGitlinkMode = 0o160000

// dropGitlinks removes every gitlink from the shadow index and remembers
// its path, so that the next `git add` neither looks into it nor adds it
// again. It runs before and after each `git add`.
func (s *Store) dropGitlinks(ctx context.Context) error {
	links, err := indexGitlinks(filepath.Join(s.git.gitDir, "index"))
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
	var links []string
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, path, ok := strings.Cut(string(rec), "\t")
		if ok && strings.HasPrefix(meta, "160000 ") {
			links = append(links, path)
		}
	}
	return links, nil
}

// errIndexFormat is an index this reader does not understand.
var errIndexFormat = errors.New("unknown index format")

// indexGitlinks reads a git index file (versions 2 to 4, SHA-1) and
// returns the paths of its gitlinks. A missing index has none.
func indexGitlinks(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if len(data) < 12 || string(data[:4]) != "DIRC" {
		return nil, errIndexFormat
	}
	version := binary.BigEndian.Uint32(data[4:8])
	count := binary.BigEndian.Uint32(data[8:12])
	if version < 2 || version > 4 {
		return nil, errIndexFormat
	}
	const fixed = 40 + 20 + 2 // stat data, object id, flags
	var links []string
	var prev []byte
	at := 12
	for range count {
		start := at
		if at+fixed > len(data) {
			return nil, errIndexFormat
		}
		mode := binary.BigEndian.Uint32(data[at+24 : at+28])
		flags := binary.BigEndian.Uint16(data[at+60 : at+62])
		at += fixed
		if flags&0x4000 != 0 { // extended flags
			if version < 3 || at+2 > len(data) {
				return nil, errIndexFormat
			}
			at += 2
		}
		var name []byte
		if version == 4 {
			strip, n := binary.Uvarint(data[at:])
			if n <= 0 || strip > uint64(len(prev)) {
				return nil, errIndexFormat
			}
			at += n
			end := bytes.IndexByte(data[at:], 0)
			if end < 0 {
				return nil, errIndexFormat
			}
			name = append(slices.Clone(prev[:len(prev)-int(strip)]), data[at:at+end]...)
			at += end + 1
			prev = name
		} else {
			end := bytes.IndexByte(data[at:], 0)
			if end < 0 {
				return nil, errIndexFormat
			}
			name = data[at : at+end]
			// One to eight NULs pad the entry to a multiple of eight.
			at = start + (at-start+end+8)&^7
			if at > len(data) {
				return nil, errIndexFormat
			}
		}
		if mode&0o170000 == indexGitlinkMode {
			links = append(links, string(name))
		}
	}
	return links, nil
}
