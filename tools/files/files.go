// Package files holds the tools that read and change files: Read, Write,
// Edit, MultiEdit, LS and Glob. Each names the paths it touches in its
// permission Target, so path rules and the workspace boundary apply to it;
// the readers allow themselves, the writers ask unless a rule allows them.
package files

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/seed92b641c3/workbench/internal/atomicfile"
	"io/fs"
	"os"
	"path/filepath"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/seed92b641c3/workbench/tools"
)

// All returns the file tools in the order a model is shown them.
func All() []tools.Tool {
	return []tools.Tool{Read(), Write(), Edit(), MultiEdit(), LS(), Glob()}
}

// newFileMode is the mode of a file a tool creates; an existing file keeps
// its own mode when it is rewritten.
const newFileMode fs.FileMode = 0o644

// dirMode is the mode of parent directories created for a new file.
const dirMode fs.FileMode = 0o755

// maxDiffBytes bounds the text handed to the differ: a diff of larger files
// costs more than the UI gains from it, so the Meta says it was left out.
const maxDiffBytes = 1 << 20

// decode reads a tool's input, already validated against its schema.
func decode[T any](input json.RawMessage) (T, error) {
	var v T
	if err := json.Unmarshal(input, &v); err != nil {
		return v, fmt.Errorf("input: %w", err)
	}
	return v, nil
}

// shown renders a path for people and models: relative to the working
// directory when inside it, so it can be passed back to a tool as is.
func shown(tc *tools.Context, abs string) string {
	if tc != nil && tc.WorkDir != "" {
		if rel, err := filepath.Rel(tc.WorkDir, abs); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return abs
}

// writeTarget returns the file a write to path really changes: the end of a
// symlink chain when path is a symlink, so the link survives the rename and
// the file written is the one the permission check resolved (H4).
func writeTarget(path string) string {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if real, err := filepath.EvalSymlinks(path); err == nil {
			return real
		}
	}
	return path
}

// writeAtomic replaces path with data so that a reader sees either the old
// or the new content, never a mix.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	return atomicfile.Write(path, data, mode, dirMode)
}

// maxEditBytes bounds the size of a file Edit and MultiEdit load into
// memory; beyond it, Write with new content is the way to change a file.
const maxEditBytes = 64 << 20

// before is a file as it was before a change.
type before struct {
	content []byte
	mode    fs.FileMode // the mode to write with: the file's own, or newFileMode
	found   bool        // the file exists
	loaded  bool        // content holds the whole file (or the file is new)
}

// existing describes the file at path before a change. A directory or other
// non-regular file is an error a model can act on. The content is loaded
// when the file has at most limit bytes; a larger file is an error when need
// is set and is left unloaded otherwise.
func existing(path, display string, limit int64, need bool) (before, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return before{mode: newFileMode, loaded: true}, nil
	}
	if err != nil {
		return before{}, err
	}
	if fi.IsDir() {
		return before{}, fmt.Errorf("%s is a directory, not a file", display)
	}
	if !fi.Mode().IsRegular() {
		return before{}, fmt.Errorf("%s is not a regular file", display)
	}
	b := before{mode: fi.Mode().Perm(), found: true}
	if fi.Size() > limit {
		if need {
			return before{}, fmt.Errorf("%s has %d bytes, more than the %d this tool edits in memory; use Write to replace it", display, fi.Size(), limit)
		}
		return b, nil
	}
	if b.content, err = os.ReadFile(path); err != nil {
		return before{}, err
	}
	b.loaded = true
	return b, nil
}

// change is the Meta a writing tool attaches for the UI and transcript.
type change struct {
	Path string `json:"path"`
	Diff string `json:"diff"`
	// Note says why Diff is empty when the content did change.
	Note string `json:"note,omitempty"`
}

// diffMeta builds the Meta of a change from old to new content. known is
// false when the old content was too large to load.
func diffMeta(abs, display, oldText, newText string, known bool) json.RawMessage {
	c := change{Path: abs}
	switch {
	case !known || len(oldText)+len(newText) > maxDiffBytes:
		c.Note = "diff left out: the file is too large"
	default:
		c.Diff = udiff.Unified(display, display, oldText, newText)
	}
	b, _ := json.Marshal(c)
	return b
}

// plural picks a noun's form for a count.
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
