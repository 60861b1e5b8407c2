package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// refusalMarkers are the error texts of EROFS, EACCES and EPERM as programs
// print them (strerror, Python's OSError, Go's syscall errors).
var refusalMarkers = []string{
	"Read-only file system",
	"read-only file system",
	"Permission denied",
	"permission denied",
	"Operation not permitted",
	"operation not permitted",
}

// pathToken finds path-like words in a line: quoted or bare, absolute or
// relative with a slash or a leading dot.
var pathToken = regexp.MustCompile(`['"‘’“”]([^'"‘’“”]+)['"‘’“”]|(?:^|[\s:(])((?:/|\./|\.\./|~/|\.)[^\s:'"‘’“”,)]*)`)

// programPrefix is how a shell or tool starts its error lines: its own
// name (often a path, `/usr/bin/bash: line 1: `), which is not the path it
// was refused.
var programPrefix = regexp.MustCompile(`^[^\s:'"]+: (?:line \d+: )?`)

// withoutProgram drops a line's program prefix when a path is still named
// after it.
func withoutProgram(line string) string {
	rest := programPrefix.ReplaceAllString(line, "")
	if rest != line && pathToken.MatchString(rest) {
		return rest
	}
	return line
}

// Explain reads a sandboxed command's output and, when a line reports a
// refused write or read of a path the sandbox closes, returns a note saying
// so and naming the ways out; otherwise "". dir is the command's working
// directory, for relative paths.
func (s *Sandbox) Explain(output, dir string) string {
	if !s.Active() {
		return ""
	}
	seen := map[string]bool{}
	var notes []string
	kinds := map[refusal]bool{}
	for line := range strings.Lines(output) {
		if !slices.ContainsFunc(refusalMarkers, func(m string) bool { return strings.Contains(line, m) }) {
			continue
		}
		for _, m := range pathToken.FindAllStringSubmatch(withoutProgram(line), -1) {
			p, quoted := m[1], true
			if p == "" {
				p, quoted = m[2], false
			}
			p = strings.TrimSpace(p)
			if p == "" || (!quoted && !strings.ContainsAny(p, "/.")) {
				continue
			}
			abs := expandHome(p, s.home())
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(dir, abs)
			}
			abs = filepath.Clean(abs)
			why, kind := s.closes(abs)
			if why == "" || seen[abs] {
				continue
			}
			seen[abs] = true
			kinds[kind] = true
			notes = append(notes, fmt.Sprintf("%s %s", abs, why))
			if len(notes) == 3 {
				break
			}
		}
	}
	if len(notes) == 0 {
		return ""
	}
	msg := "The sandbox refused this: " + strings.Join(notes, "; ") + "."
	if kinds[refusedHidden] {
		msg += " A hidden path is hidden on purpose: the agent may not read it, by any route."
	}
	if kinds[refusedSealed] {
		msg += " Make it inside a directory that exists, or run the command with dangerouslyDisableSandbox: true, " +
			"which asks the person first" + s.escapeNote() + "."
	}
	if kinds[refusedClosed] {
		msg += " To allow it, add the path to sandbox.allowWrite in the settings, or run the command with " +
			"dangerouslyDisableSandbox: true, which asks the person first" + s.escapeNote() + "."
	}
	return msg
}

// refusal is the kind of path the sandbox refused, which decides the way
// out the explanation names.
type refusal int

const (
	refusedNone   refusal = iota
	refusedHidden         // hidden on purpose: no way out
	refusedSealed         // a new entry directly in a sealed root
	refusedClosed         // not writable: allowWrite or run outside
)

// escapeNote says when asking to run outside is not an option.
func (s *Sandbox) escapeNote() string {
	if s.policy.Required {
		return " (not while sandbox.required is set)"
	}
	return ""
}

// closes says why the sandbox closes p, or "" when it does not, and what
// kind of refusal that is.
func (s *Sandbox) closes(p string) (string, refusal) {
	real := realOrSelf(p)
	s.mu.Lock()
	ruleHidden, sealed := s.ruleHidden, s.sealed
	s.mu.Unlock()
	for _, h := range ruleHidden {
		if within(real, h.path) || within(p, h.path) {
			return "is hidden by the sandbox (the deny rule " + h.rule + ")", refusedHidden
		}
	}
	for _, h := range s.resolved.Hide {
		if within(real, h) || within(p, h) {
			return "is hidden by the sandbox (sandbox.denyRead)", refusedHidden
		}
	}
	for _, ro := range s.resolved.ReadOnly {
		if within(real, ro) || within(p, ro) {
			return "is kept read-only by the sandbox even inside the workspace (git hooks and config, settings)", refusedClosed
		}
	}
	// Only a path that is not there was refused for being new.
	for _, root := range sealed {
		if _, err := os.Lstat(p); err != nil && (filepath.Dir(real) == root || filepath.Dir(p) == root) {
			return "cannot be made directly in the workspace root while it has no .workbench, .claude or .git: " +
				"a command could plant one of those there, and the sandbox cannot tell names apart " +
				"(only regular files can be made there)", refusedSealed
		}
	}
	for _, w := range s.resolved.Write {
		if within(real, w) || within(p, w) {
			return "", refusedNone
		}
	}
	if strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "/sys/") || strings.HasPrefix(p, "/dev/") {
		return "", refusedNone
	}
	if s.resolved.Mode == ReadOnly {
		return "is read-only: the sandbox is in read-only mode", refusedClosed
	}
	return "is outside the paths the sandbox lets commands write (the workspace, temp directories, tool caches, sandbox.allowWrite)", refusedClosed
}

// realOrSelf resolves p's symbolic links, or of its nearest existing parent.
func realOrSelf(p string) string {
	rest := ""
	for q := p; ; q = filepath.Dir(q) {
		if real, err := filepath.EvalSymlinks(q); err == nil {
			return filepath.Join(real, rest)
		}
		if q == filepath.Dir(q) {
			return p
		}
		rest = filepath.Join(filepath.Base(q), rest)
	}
}

// home is the home directory the policy was resolved with.
func (s *Sandbox) home() string {
	if s.policy.Home != "" {
		return s.policy.Home
	}
	h, _ := os.UserHomeDir()
	return h
}
