package files

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed glob.md
var globPrompt string

const globSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "The glob to match, such as **/*.go or src/**/*_test.go. A pattern without a slash matches file names at any depth."},
    "path": {"type": "string", "description": "The directory to search from: absolute, or relative to the working directory. Defaults to the working directory."}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`

// maxMatches bounds a Glob result; more than that is a sign the pattern
// should be narrower.
const maxMatches = 1000

// skippedDirs are never descended into below the search root: they hold
// history or third-party code that drowns out the project's own files. A
// search rooted inside one of them still works.
var skippedDirs = map[string]bool{".git": true, "node_modules": true, "vendor": true}

type globInput struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path"`
}

// globPlan is where a Glob call walks and what it matches there.
type globPlan struct {
	root     string // the directory walked
	pattern  string // the pattern for paths relative to root
	baseName bool   // match file names only, at any depth
}

// plan splits the pattern's literal leading directories off into the walk
// root, so `src/**/*.go` walks only src and `../lib/*.go` walks ../lib.
func plan(in globInput, tc *tools.Context) globPlan {
	p := globPlan{baseName: !strings.Contains(in.Pattern, "/")}
	base, rest := doublestar.SplitPattern(in.Pattern)
	if filepath.IsAbs(in.Pattern) {
		p.root = filepath.Clean(base)
	} else {
		p.root = filepath.Join(tc.Abs(in.Path), base)
	}
	p.pattern = rest
	return p
}

// Glob finds files by name pattern.
func Glob() tools.Tool {
	return tools.Build(tools.Spec{
		Name:            "Glob",
		Description:     "Find files whose paths match a glob pattern (with ** for any depth). Returns paths, most recently modified first.",
		Prompt:          globPrompt,
		Schema:          globSchema,
		ReadOnly:        tools.Always,
		ConcurrencySafe: tools.Always,
		Permission:      tools.AllowSelf,
		Target: func(input json.RawMessage, tc *tools.Context) permission.Target {
			in, err := decode[globInput](input)
			if err != nil {
				return permission.Target{Access: permission.AccessRead}
			}
			return permission.Target{Paths: []string{plan(in, tc).root}, Access: permission.AccessRead}
		},
		Run: runGlob,
	})
}

type match struct {
	path  string
	mtime time.Time
}

func runGlob(ctx context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
	in, err := decode[globInput](input)
	if err != nil {
		return tools.Result{}, err
	}
	if !doublestar.ValidatePattern(in.Pattern) {
		return tools.Error(fmt.Sprintf("%q is not a valid glob pattern (check brackets and braces).", in.Pattern)), nil
	}
	if in.Path != "" && !filepath.IsAbs(in.Pattern) {
		if fi, err := os.Stat(tc.Abs(in.Path)); err != nil || !fi.IsDir() {
			return tools.Error(fmt.Sprintf("%s is not a directory to search in.", shown(tc, tc.Abs(in.Path)))), nil
		}
	}
	p := plan(in, tc)
	display := shown(tc, p.root)
	fi, err := os.Stat(p.root)
	if errors.Is(err, fs.ErrNotExist) {
		// The pattern names a directory that is not there: nothing matches.
		return tools.Text("No files found"), nil
	}
	if err != nil {
		return tools.Error(fmt.Sprintf("Cannot search %s: %v", display, err)), nil
	}
	if !fi.IsDir() {
		return tools.Error(fmt.Sprintf("%s is a file, not a directory to search in.", display)), nil
	}
	// WalkDir does not descend into a root that is a symlink (a working
	// directory under /tmp on macOS, say), so the walk starts at its target
	// and matches are reported under the root as given.
	walkRoot, err := tc.CheckedReal(p.root) // where the check saw it lead, or a refusal
	if err != nil {
		return tools.Error(err.Error()), nil
	}
	var found []match
	vis := tc.NewVisibility(p.root)
	seen := 0
	err = filepath.WalkDir(walkRoot, func(full string, d fs.DirEntry, err error) error {
		if err != nil {
			// An unreadable subdirectory is skipped, not fatal.
			if d != nil && d.IsDir() && full != walkRoot {
				return fs.SkipDir
			}
			return nil
		}
		if seen++; seen%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() {
			if full != walkRoot && skippedDirs[d.Name()] {
				return fs.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(walkRoot, full)
		if err != nil {
			return nil
		}
		m := match{path: filepath.Join(p.root, rel)}
		// A file a Read rule hides is counted before the pattern is
		// tried, whether it would match or not: the count is the same for
		// every pattern searched from this directory, so no pattern can
		// learn a hidden file's name from it.
		if vis.Skip(m.path) {
			return nil
		}
		subject := filepath.ToSlash(rel)
		if p.baseName {
			subject = path.Base(subject)
		}
		if ok, _ := doublestar.Match(p.pattern, subject); !ok {
			return nil
		}
		if info, err := d.Info(); err == nil {
			m.mtime = info.ModTime()
		}
		found = append(found, m)
		return nil
	})
	if err != nil {
		return tools.Result{}, fmt.Errorf("glob %s: %w", display, err)
	}
	if len(found) == 0 {
		return tools.Text(withNotice("No files found", vis)), nil
	}
	sort.Slice(found, func(i, j int) bool {
		if !found[i].mtime.Equal(found[j].mtime) {
			return found[i].mtime.After(found[j].mtime)
		}
		return found[i].path < found[j].path
	})
	var b strings.Builder
	for _, m := range found[:min(len(found), maxMatches)] {
		b.WriteString(shown(tc, m.path) + "\n")
	}
	if len(found) > maxMatches {
		fmt.Fprintf(&b, "(Showing the %d most recently modified of %d matches. Use a narrower pattern or path to see others.)\n", maxMatches, len(found))
	}
	return tools.Text(withNotice(strings.TrimSuffix(b.String(), "\n"), vis)), nil
}

// withNotice ends text with what vis left out, if anything.
func withNotice(text string, vis *tools.Visibility) string {
	if n := vis.Notice(); n != "" {
		return text + "\n" + n
	}
	return text
}
