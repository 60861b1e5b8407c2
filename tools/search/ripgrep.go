package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// errRipgrepUnusable means ripgrep could not be started or refused the
// search (its regex syntax is not quite RE2's: \Q...\E, for one, is RE2
// only); the caller falls back to the Go engine, which has already accepted
// the pattern.
var errRipgrepUnusable = errors.New("ripgrep could not answer")

// rgTypeName names the file type built from our table for one search.
const rgTypeName = "wbsel"

// rgWaitDelay bounds how long a killed ripgrep may keep its output pipe open.
const rgWaitDelay = 2 * time.Second

// findRipgrep returns the path of rg on PATH, or "".
func findRipgrep() string {
	p, err := exec.LookPath("rg")
	if err != nil {
		return ""
	}
	return p
}

// rgSearch is the ripgrep engine. It asks for machine-readable output (a NUL
// after each path, line numbers always) and parses it into the same
// per-file results as the Go engine; sorting and formatting are shared.
func rgSearch(ctx context.Context, q *query, rg string) (files []fileHits, partial bool, err error) {
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	cmd := exec.CommandContext(runCtx, rg, rgArgs(q)...)
	cmd.Dir = q.workDir
	out := &cappedBuffer{max: q.maxCollect, stop: stop}
	stderr := &tailBuffer{max: 4 << 10}
	cmd.Stdout = out
	cmd.Stderr = stderr
	cmd.WaitDelay = rgWaitDelay
	err = cmd.Run()
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, false, ctxErr
	}
	if out.full {
		// Stopped at the cap: keep the complete lines received.
		data := out.Bytes()
		if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
			return parseRg(data[:i+1], q.mode), true, nil
		}
		return nil, true, nil
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		return nil, false, nil // no match
	case errors.As(err, &exit) && exit.ExitCode() == 2 && out.Len() > 0:
		// Some files could not be read; what was found still counts, as
		// in the Go engine, which skips unreadable files.
	case errors.As(err, &exit):
		return nil, false, fmt.Errorf("%w: %v: %s", errRipgrepUnusable, err, strings.TrimSpace(stderr.String()))
	default:
		return nil, false, fmt.Errorf("%w: %v", errRipgrepUnusable, err)
	}
	return parseRg(out.Bytes(), q.mode), false, nil
}

// cappedBuffer collects ripgrep's output up to max bytes, then stops the
// process. Only the goroutine copying the output writes to it; it is read
// after the process has been waited for.
// The buffer is a field, not embedded: an embedded bytes.Buffer would bring
// its ReadFrom, which io.Copy prefers to Write, and the cap would be skipped.
type cappedBuffer struct {
	buf  bytes.Buffer
	max  int
	full bool
	stop func()
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if c.full {
		return len(p), nil
	}
	if room := c.max - c.buf.Len(); len(p) > room {
		c.buf.Write(p[:room])
		c.full = true
		c.stop()
		return len(p), nil
	}
	return c.buf.Write(p)
}

func (c *cappedBuffer) Bytes() []byte { return c.buf.Bytes() }
func (c *cappedBuffer) Len() int      { return c.buf.Len() }

// rgArgs turns a query into ripgrep flags. Everything that could make
// ripgrep differ from the Go engine is pinned: no config file, no global
// gitignore, no transcoding, the same type globs and the same .git rule.
func rgArgs(q *query) []string {
	args := []string{
		"--no-config", "--no-messages", "--color=never", "--no-heading",
		"--with-filename", "--null", "--encoding=none", "--no-ignore-global",
	}
	if q.mode == modeContent {
		args = append(args, "--line-number",
			fmt.Sprintf("--after-context=%d", q.after),
			fmt.Sprintf("--before-context=%d", q.before))
	} else {
		// Files mode counts too: --files-with-matches stops at the first
		// match and so would list a file whose NUL byte comes later,
		// which the count drops.
		args = append(args, "--count")
	}
	if q.ignoreCase {
		args = append(args, "--ignore-case")
	} else {
		args = append(args, "--case-sensitive")
	}
	if q.multiline {
		args = append(args, "--multiline", "--multiline-dotall")
	}
	if q.glob != "" {
		// A glob can include hidden entries, so .git needs its own
		// exclusion then; without one, .git is skipped as hidden, and an
		// extra glob would cost a match per entry.
		args = append(args, "--glob="+q.glob, "--glob=!.git")
	}
	if q.typ != "" {
		for _, g := range fileTypes[q.typ] {
			args = append(args, "--type-add="+rgTypeName+":"+g)
		}
		args = append(args, "--type="+rgTypeName)
	}
	return append(args, "--regexp="+q.pattern, "--", q.rgPath)
}

// parseRg reads ripgrep's output: `path NUL count` lines in count mode,
// `path NUL num:text` (match) and `path NUL num-text` (context) lines in
// content mode, "--" between context groups, which are rebuilt later. A
// line without a NUL is a notice; "path: WARNING: stopped searching binary
// file..." drops that file, as the Go engine skips files with a NUL byte.
// The content hits point into out, which is not copied.
func parseRg(out []byte, mode outputMode) []fileHits {
	var files []fileHits
	var binary []bool
	var curPath []byte
	cur := -1 // index of the file being read
	for pos := 0; pos < len(out); {
		ls := pos
		le := lineEnd(out, pos)
		pos = le + 1
		line := out[ls:le]
		z := bytes.IndexByte(line, 0)
		if z < 0 {
			if cur >= 0 && len(line) > len(curPath)+2 && bytes.HasPrefix(line, curPath) &&
				bytes.HasPrefix(line[len(curPath):], []byte(": ")) {
				binary[cur] = true
			}
			continue
		}
		if cur < 0 || !bytes.Equal(line[:z], curPath) {
			curPath = line[:z]
			files = append(files, fileHits{path: displayPath(curPath), data: out})
			binary = append(binary, false)
			cur = len(files) - 1
		}
		rest := line[z+1:]
		num, i := 0, 0
		for i < len(rest) && '0' <= rest[i] && rest[i] <= '9' {
			num = num*10 + int(rest[i]-'0')
			i++
		}
		if mode != modeContent {
			files[cur].count = num
			continue
		}
		if i >= len(rest) || (rest[i] != ':' && rest[i] != '-') {
			continue // not a line we asked for
		}
		start := ls + z + 1 + i + 1
		files[cur].lines = append(files[cur].lines, hit{num: num, start: start, end: le, match: rest[i] == ':'})
	}
	kept := files[:0]
	for i, f := range files {
		if !binary[i] {
			kept = append(kept, f)
		}
	}
	return kept
}

// displayPath drops the "./" ripgrep puts before paths under ".".
func displayPath(p []byte) string {
	return string(bytes.TrimPrefix(p, []byte("./")))
}

// tailBuffer keeps the last max bytes written, for error messages.
type tailBuffer struct {
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return string(t.b) }

// rgHide applies the Read rules to a ripgrep search: the files ripgrep
// would search are listed with the same filters (`--files`), each one the
// agent may not see is counted, and its results are dropped. Counting the
// listed files rather than the matching ones keeps the count blind to what
// the hidden files contain, and gives the Go walker's count.
func rgHide(ctx context.Context, q *query, rg string, files []fileHits) ([]fileHits, error) {
	cmd := exec.CommandContext(ctx, rg, rgListArgs(q)...)
	cmd.Dir = q.workDir
	cmd.WaitDelay = rgWaitDelay
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) && !(errors.As(err, &exit) && exit.ExitCode() == 2 && len(out) > 0) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: listing files: %v", errRipgrepUnusable, err)
	}
	hidden := map[string]bool{}
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) == 0 {
			continue
		}
		display := displayPath(p)
		if q.vis.Skip(absUnder(q.workDir, display)) {
			hidden[display] = true
		}
	}
	kept := files[:0]
	for _, f := range files {
		// A file listed after the search began is checked by itself.
		if !hidden[f.path] && !q.vis.Hides(absUnder(q.workDir, f.path)) {
			kept = append(kept, f)
		}
	}
	return kept, nil
}

// rgListArgs are the flags that make ripgrep list the files a search with
// q's filters reads, NUL-separated.
func rgListArgs(q *query) []string {
	args := []string{"--no-config", "--no-messages", "--color=never", "--null", "--no-ignore-global", "--files"}
	if q.glob != "" {
		args = append(args, "--glob="+q.glob, "--glob=!.git")
	}
	if q.typ != "" {
		for _, g := range fileTypes[q.typ] {
			args = append(args, "--type-add="+rgTypeName+":"+g)
		}
		args = append(args, "--type="+rgTypeName)
	}
	return append(args, "--", q.rgPath)
}

// absUnder makes a path ripgrep printed absolute: it runs in dir.
func absUnder(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}
