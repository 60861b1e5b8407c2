// Package files holds the tools that read and change files: Read, Write,
// Edit, MultiEdit, LS and Glob. Each names the paths it touches in its
// permission Target, so path rules and the workspace boundary apply to it;
// the readers allow themselves, the writers ask unless a rule allows them.
package files

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
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

// existing describes the checked file before a change, read through the
// descriptor the check-and-use open gives (H17). A directory or other
// non-regular file is an error a model can act on. The content is loaded
// when the file has at most limit bytes; a larger file is an error when need
// is set and is left unloaded otherwise.
func (f *checkedFile) existing(limit int64, need bool) (before, error) {
	file, err := f.openRead()
	if errors.Is(err, fs.ErrNotExist) {
		return before{mode: newFileMode, loaded: true}, nil
	}
	if err != nil {
		return before{}, err
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return before{}, err
	}
	if fi.IsDir() {
		return before{}, fmt.Errorf("%s is a directory, not a file", f.display)
	}
	if !fi.Mode().IsRegular() {
		return before{}, fmt.Errorf("%s is not a regular file", f.display)
	}
	b := before{mode: fi.Mode().Perm(), found: true}
	if fi.Size() > limit {
		if need {
			return before{}, fmt.Errorf("%s has %d bytes, more than the %d this tool edits in memory; use Write to replace it", f.display, fi.Size(), limit)
		}
		return b, nil
	}
	if b.content, err = io.ReadAll(io.LimitReader(file, limit+1)); err != nil {
		return before{}, err
	}
	b.loaded = int64(len(b.content)) <= limit
	if !b.loaded && need {
		return before{}, fmt.Errorf("%s grew past the %d bytes this tool edits in memory; use Write to replace it", f.display, limit)
	}
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
