// Package search is the Grep tool: a regular-expression search over files
// that runs ripgrep when it is installed and a parallel Go walker otherwise,
// with the same output from both.
package search

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed grep.md
var grepPrompt string

// defaultHeadLimit is the page size when the input gives none: enough to
// see the shape of a result without flooding the conversation.
const defaultHeadLimit = 250

// maxCollect bounds the bytes of results an engine keeps for sorting. A
// search that would keep more (a pattern like "." over a large tree) stops
// there and says its result is incomplete, so it cannot exhaust memory.
const maxCollect = 128 << 20

type outputMode string

const (
	modeFiles   outputMode = "files_with_matches"
	modeContent outputMode = "content"
	modeCount   outputMode = "count"
)

// grepInput is the tool's input. Pointers mark fields whose absence differs
// from their zero value.
type grepInput struct {
	Pattern    string     `json:"pattern"`
	Path       string     `json:"path"`
	Glob       string     `json:"glob"`
	Type       string     `json:"type"`
	OutputMode outputMode `json:"output_mode"`
	IgnoreCase bool       `json:"-i"`
	LineNums   *bool      `json:"-n"`
	After      *int       `json:"-A"`
	Before     *int       `json:"-B"`
	Context    *int       `json:"-C"`
	Multiline  bool       `json:"multiline"`
	HeadLimit  *int       `json:"head_limit"`
	Offset     int        `json:"offset"`
}

// query is one search, resolved from the input, shared by both engines.
type query struct {
	pattern       string
	ignoreCase    bool
	multiline     bool
	mode          outputMode
	before, after int
	lineNumbers   bool
	glob, typ     string
	headLimit     int
	offset        int
	maxCollect    int // see maxCollect

	workDir     string
	root        string // absolute
	rootIsDir   bool
	rootDisplay string // how paths under root begin: "" for the working directory
	rgPath      string // root as passed to ripgrep, which runs in workDir
	// vis leaves out the files Read rules hide from the agent, in both
	// engines, and counts them.
	vis *tools.Visibility
}

// Grep returns the Grep tool. It uses ripgrep when rg is on PATH at call
// time and the Go walker otherwise.
func Grep() tools.Tool { return newGrep(findRipgrep) }

// newGrep builds the tool with a ripgrep finder; one that returns "" forces
// the Go engine.
func newGrep(ripgrep func() string) tools.Tool { return newGrepLimited(ripgrep, maxCollect) }

// newGrepLimited also sets how many bytes of results a search may keep.
func newGrepLimited(ripgrep func() string, limit int) tools.Tool {
	return tools.Build(tools.Spec{
		Name: "Grep",
		Description: "Search file contents with a regular expression (RE2/ripgrep syntax) under a " +
			"directory or in one file, honouring .gitignore and skipping hidden and binary files. " +
			"Lists matching files (default), shows matching lines with context, or counts matches per file.",
		Prompt:          grepPrompt,
		Schema:          grepSchema(),
		ReadOnly:        tools.Always,
		ConcurrencySafe: tools.Always,
		Permission:      tools.AllowSelf,
		Target:          grepTarget,
		Run: func(ctx context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
			return runGrep(ctx, input, tc, ripgrep(), limit)
		},
	})
}

// grepSchemaDoc is the input schema; the verbs receive the list of file
// types and the default head_limit.
const grepSchemaDoc = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["pattern"],
  "properties": {
    "pattern": {"type": "string", "minLength": 1,
      "description": "Regular expression to search for, in the syntax RE2 and ripgrep share. Escape literal braces and parentheses: interface\\{\\}, func New\\(."},
    "path": {"type": "string",
      "description": "File or directory to search, absolute or relative to the working directory. Defaults to the working directory."},
    "glob": {"type": "string",
      "description": "Only search files whose path matches this glob, e.g. *.go, *.{ts,tsx}, src/**/*.py; a leading ! excludes instead. A glob without / matches file names at any depth."},
    "type": {"type": "string", "enum": %s,
      "description": "Only search files of this type (go, py, ts, rust, md, ...)."},
    "output_mode": {"type": "string", "enum": ["files_with_matches", "content", "count"], "default": "files_with_matches",
      "description": "files_with_matches lists the matching files; content shows the matching lines; count gives the number of matching lines per file."},
    "-i": {"type": "boolean", "default": false, "description": "Ignore case."},
    "-n": {"type": "boolean", "default": true, "description": "Show line numbers (content mode)."},
    "-A": {"type": "integer", "minimum": 0, "description": "Lines of context to show after each match (content mode)."},
    "-B": {"type": "integer", "minimum": 0, "description": "Lines of context to show before each match (content mode)."},
    "-C": {"type": "integer", "minimum": 0, "description": "Lines of context to show before and after each match (content mode); -A and -B override it for their side."},
    "multiline": {"type": "boolean", "default": false,
      "description": "Let a match span lines: . then matches a newline and \\n may appear in the pattern."},
    "head_limit": {"type": "integer", "minimum": 0, "default": %d,
      "description": "Show at most this many entries (files, or lines in content mode); 0 means no limit."},
    "offset": {"type": "integer", "minimum": 0, "default": 0,
      "description": "Skip this many entries first, to page through a long result."}
  }
}`

func grepSchema() string {
	types, err := json.Marshal(typeNames())
	if err != nil {
		panic(err)
	}
	return fmt.Sprintf(grepSchemaDoc, types, defaultHeadLimit)
}

// grepTarget names the path the call reads, for permission rules.
func grepTarget(input json.RawMessage, tc *tools.Context) permission.Target {
	var in grepInput
	_ = json.Unmarshal(input, &in)
	p := in.Path
	if p == "" {
		p = tc.WorkDir
	}
	return permission.Target{Paths: []string{p}, Access: permission.AccessRead}
}

func runGrep(ctx context.Context, input json.RawMessage, tc *tools.Context, rg string, limit int) (tools.Result, error) {
	q, m, err := prepare(input, tc)
	if err != nil {
		return tools.Error(err.Error()), nil
	}
	q.maxCollect = limit
	if !q.rootIsDir && q.vis.Skip(q.root) {
		return tools.Text(noMatches + "\n\n" + q.vis.Notice()), nil
	}
	if !q.rootIsDir {
		// ripgrep searches a binary file named on its command line anyway,
		// so both engines decide this here.
		binary, err := isBinary(q.root)
		if err != nil {
			return tools.Error(fmt.Sprintf("cannot read %s: %v", q.rootDisplay, err)), nil
		}
		if binary {
			return tools.Text(noMatches + " (" + q.rootDisplay + " is a binary file)"), nil
		}
	}
	engine, fallback := "go", ""
	var files []fileHits
	var partial bool
	if rg != "" {
		engine = "ripgrep"
		files, partial, err = rgSearch(ctx, q, rg)
		if err == nil && q.vis.On() && q.rootIsDir {
			files, err = rgHide(ctx, q, rg, files)
		}
		if errors.Is(err, errRipgrepUnusable) {
			engine, fallback = "go", err.Error()
		}
	}
	if engine == "go" {
		files, partial, err = walkSearch(ctx, q, m)
	}
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, fmt.Errorf("grep: %w", err)
		}
		return tools.Error(err.Error()), nil
	}
	text, pg := render(q, files, partial)
	pg.Engine, pg.Fallback = engine, fallback
	switch {
	case q.vis.On() && (q.glob != "" || q.typ != ""):
		// How many files a filter left out would tell which hidden names
		// it matches (`glob: ".e*"`, then `".en*"`...): with a filter the
		// notice gives no number, and is there whether or not any file
		// was hidden.
		text += "\n\n" + filteredNotice
	case q.vis.Notice() != "":
		text += "\n\n" + q.vis.Notice()
		pg.Hidden = q.vis.Hidden()
	}
	meta, _ := json.Marshal(pg)
	text, spill := tools.CaptureText(tc, text)
	return tools.Result{Text: text, Captured: true, Spill: spill, Meta: meta}, nil
}

// filteredNotice ends a search with a glob or type filter while Read rules
// may hide files.
const filteredNotice = "[Read rules may hide files from this search. With a glob or type filter no count is given, since it would tell which hidden names the filter matches. Read refuses or asks for each such file.]"

// prepare resolves the input into a query and compiles the pattern. Its
// errors are meant for the model.
func prepare(input json.RawMessage, tc *tools.Context) (*query, *matcher, error) {
	var in grepInput
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, nil, fmt.Errorf("invalid input: %w", err)
	}
	if in.Pattern == "" {
		return nil, nil, errors.New("pattern: must not be empty")
	}
	q := &query{
		pattern:     in.Pattern,
		ignoreCase:  in.IgnoreCase,
		multiline:   in.Multiline,
		mode:        in.OutputMode,
		lineNumbers: in.LineNums == nil || *in.LineNums,
		glob:        in.Glob,
		typ:         in.Type,
		headLimit:   defaultHeadLimit,
		offset:      max(in.Offset, 0),
	}
	switch q.mode {
	case "":
		q.mode = modeFiles
	case modeFiles, modeContent, modeCount:
	default:
		return nil, nil, fmt.Errorf("output_mode: %q is not one of files_with_matches, content, count", in.OutputMode)
	}
	if q.typ != "" && fileTypes[q.typ] == nil {
		return nil, nil, fmt.Errorf("type: unknown file type %q (known: %s)", q.typ, strings.Join(typeNames(), ", "))
	}
	if in.HeadLimit != nil {
		q.headLimit = max(*in.HeadLimit, 0)
	}
	ctxLines := 0
	if in.Context != nil {
		ctxLines = max(*in.Context, 0)
	}
	q.before, q.after = ctxLines, ctxLines
	if in.Before != nil {
		q.before = max(*in.Before, 0)
	}
	if in.After != nil {
		q.after = max(*in.After, 0)
	}

	m, err := compile(in.Pattern, in.IgnoreCase, in.Multiline)
	if err != nil {
		return nil, nil, err
	}

	wd := tc.WorkDir
	if wd == "" {
		if wd, err = os.Getwd(); err != nil {
			return nil, nil, fmt.Errorf("no working directory: %w", err)
		}
	}
	c := *tc
	c.WorkDir = wd
	q.workDir, q.root = wd, c.Abs(in.Path)
	name := in.Path
	if name == "" {
		name = wd
	}
	if _, err := tc.CheckedReal(q.root); err != nil {
		return nil, nil, err // it leads elsewhere than the permission check saw
	}
	st, err := os.Stat(q.root)
	if err != nil {
		return nil, nil, fmt.Errorf("path %s: %v", name, errors.Unwrap(err))
	}
	q.rootIsDir = st.IsDir()
	q.vis = tc.NewVisibility(q.root)
	if !q.rootIsDir && !st.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("path %s is not a regular file or directory", name)
	}
	// Paths are shown relative to the working directory when inside it.
	// ripgrep runs there and gets the same relative root, so it prints
	// paths the same way ("." makes it print "./x", which parseRg strips).
	if rel, err := filepath.Rel(wd, q.root); err == nil && (rel == "." || filepath.IsLocal(rel)) {
		q.rgPath = rel
		if rel != "." {
			q.rootDisplay = filepath.ToSlash(rel)
		}
	} else {
		q.rgPath, q.rootDisplay = q.root, q.root
	}
	return q, m, nil
}

// isBinary reports whether a file has a NUL byte, the test both engines use.
func isBinary(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	buf := make([]byte, firstRead)
	for {
		n, err := f.Read(buf)
		if bytes.IndexByte(buf[:n], 0) >= 0 {
			return true, nil
		}
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, err
		}
	}
}
