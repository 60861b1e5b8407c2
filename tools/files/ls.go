package files

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed ls.md
var lsPrompt string

const lsSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "The directory to list: absolute, or relative to the working directory. Defaults to the working directory."},
    "ignore": {"type": "array", "items": {"type": "string"}, "description": "Glob patterns (such as *.log or node_*) of entry names to leave out."}
  },
  "additionalProperties": false
}`

// maxEntries bounds a listing; a larger directory is better explored with
// Glob than read as a list.
const maxEntries = 1000

type lsInput struct {
	Path   string   `json:"path"`
	Ignore []string `json:"ignore"`
}

// LS lists one directory, not recursively.
func LS() tools.Tool {
	return tools.Build(tools.Spec{
		Name:            "LS",
		Description:     "List the entries of one directory (not recursive): subdirectories first, then files with their sizes.",
		Prompt:          lsPrompt,
		Schema:          lsSchema,
		ReadOnly:        tools.Always,
		ConcurrencySafe: tools.Always,
		Permission:      tools.AllowSelf,
		Target: func(input json.RawMessage, tc *tools.Context) permission.Target {
			in, err := decode[lsInput](input)
			if err != nil {
				return permission.Target{Access: permission.AccessRead}
			}
			return permission.Target{Paths: []string{tc.Abs(in.Path)}, Access: permission.AccessRead}
		},
		Run: runLS,
	})
}

// lsEntry is one line of a listing.
type lsEntry struct {
	name string
	dir  bool
	line string
}

func runLS(ctx context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
	in, err := decode[lsInput](input)
	if err != nil {
		return tools.Result{}, err
	}
	for i, p := range in.Ignore {
		if !doublestar.ValidatePattern(p) {
			return tools.Error(fmt.Sprintf("ignore[%d] is not a valid glob pattern: %q", i, p)), nil
		}
	}
	dir := tc.Abs(in.Path)
	display := shown(tc, dir)
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return tools.Error(fmt.Sprintf("Directory does not exist: %s.", display)), nil
	}
	if err != nil {
		return tools.Error(fmt.Sprintf("Cannot list %s: %v", display, err)), nil
	}
	if !fi.IsDir() {
		return tools.Error(fmt.Sprintf("%s is a file, not a directory; use Read to see its content.", display)), nil
	}
	real, err := tc.CheckedReal(dir)
	if err != nil {
		return tools.Error(err.Error()), nil
	}
	des, err := os.ReadDir(real) // the directory the check saw, not the name again
	if err != nil {
		return tools.Error(fmt.Sprintf("Cannot list %s: %v", display, err)), nil
	}
	if err := ctx.Err(); err != nil {
		return tools.Result{}, err
	}
	var entries []lsEntry
	ignored := 0
	vis := tc.NewVisibility(dir)
	vis.SetNouns("entry", "entries")
	for _, de := range des {
		if matchesAny(in.Ignore, de.Name()) {
			ignored++
			continue
		}
		if vis.Skip(filepath.Join(dir, de.Name())) {
			continue // hidden by a Read rule: counted, not listed
		}
		entries = append(entries, describeEntry(dir, de))
	}
	sort.Slice(entries, func(i, j int) bool {
		if entries[i].dir != entries[j].dir {
			return entries[i].dir
		}
		return entries[i].name < entries[j].name
	})
	if len(entries) == 0 {
		if ignored > 0 {
			return tools.Text(withNotice(fmt.Sprintf("%s has no entries left after ignoring %s.", display, plural(ignored, "entry", "entries")), vis)), nil
		}
		if vis.Hidden() > 0 {
			return tools.Text(fmt.Sprintf("%s shows no entries.\n%s", display, vis.Notice())), nil
		}
		return tools.Text(fmt.Sprintf("(%s is an empty directory)", display)), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s/ (%s", strings.TrimSuffix(display, "/"), plural(len(entries), "entry", "entries"))
	if ignored > 0 {
		fmt.Fprintf(&b, ", %d ignored", ignored)
	}
	b.WriteString(")\n")
	for _, e := range entries[:min(len(entries), maxEntries)] {
		b.WriteString(e.line + "\n")
	}
	if len(entries) > maxEntries {
		fmt.Fprintf(&b, "(Listing stopped at %d of %d entries. Use ignore, or Glob with a pattern, to narrow it down.)\n", maxEntries, len(entries))
	}
	return tools.Text(withNotice(strings.TrimSuffix(b.String(), "\n"), vis)), nil
}

// describeEntry renders a directory entry: `name/` for a directory,
// `name\tN bytes` for a file, and `-> target` after a symlink, which is
// sorted with directories when it points at one.
func describeEntry(dir string, de fs.DirEntry) lsEntry {
	name := de.Name()
	e := lsEntry{name: name, dir: de.IsDir()}
	full := filepath.Join(dir, name)
	if de.Type()&fs.ModeSymlink != 0 {
		dest, _ := os.Readlink(full)
		fi, err := os.Stat(full)
		switch {
		case err != nil:
			e.line = fmt.Sprintf("%s -> %s (broken link)", name, dest)
		case fi.IsDir():
			e.dir = true
			e.line = fmt.Sprintf("%s/ -> %s", name, dest)
		default:
			e.line = fmt.Sprintf("%s -> %s\t%s", name, dest, plural(int(fi.Size()), "byte", "bytes"))
		}
		return e
	}
	if e.dir {
		e.line = name + "/"
		return e
	}
	if fi, err := de.Info(); err == nil {
		e.line = fmt.Sprintf("%s\t%s", name, plural(int(fi.Size()), "byte", "bytes"))
	} else {
		e.line = name
	}
	return e
}

// matchesAny reports whether name matches one of the glob patterns.
func matchesAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, _ := doublestar.Match(p, name); ok {
			return true
		}
	}
	return false
}
