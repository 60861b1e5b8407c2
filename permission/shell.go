package permission

import (
	"errors"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// ErrUnparsable marks a command line the shell parser rejects. Such a command
// can only be allowed by a bare rule or a mode, never by a prefix rule,
// because its parts are unknown.
var ErrUnparsable = errors.New("command does not parse as shell")

// maxShellDepth bounds how deep `bash -c '...'` and `eval` strings are split
// recursively; deeper nesting is left as one opaque part.
const maxShellDepth = 4

// SplitCommand returns every simple command in cmd, each printed back as
// source text with its leading VAR=x assignments dropped: the parts of
// `a && b`, `a; b`, `a | b`, `$(b)`, backticks, subshells, blocks, process
// substitutions, control-flow and function bodies. A `bash -c`/`sh -c`/`eval`
// whose script is a literal string contributes the parts of that script
// instead of itself. Rules are checked against each part, so allowing `git
// status` never allows `git status && rm -rf x` (H3). A command that does not
// parse returns an error wrapping ErrUnparsable.
func SplitCommand(cmd string) ([]string, error) {
	a := cachedAnalysis(cmd)
	if a.err != nil {
		return nil, a.err
	}
	out := make([]string, len(a.parts))
	for i, p := range a.parts {
		out[i] = p.src
	}
	return out, nil
}

// analysis is what Evaluate needs to know about one command line. It is
// immutable once built and shared through the cache.
type analysis struct {
	parts []part
	// err is set when the line does not parse; parts are then a rough
	// split, good for deny and ask rules only.
	err error
	// deny is the hard-deny reason, empty when the line is not catastrophic.
	deny string
	// unknown says why part of the line is only known when it runs (an
	// arithmetic expression on a variable, ${!x}, a program named by a
	// variable...); such a line asks in every mode (H15).
	unknown string
	// writes are the files the line writes that the policy can see: the
	// targets of `>`, `>>`, `&>` and the like, and the files named to
	// programs such as rm, cp or tee (argwrites.go). An allow rule for a
	// command does not open paths it does not name: these go through the
	// path rules and the workspace boundary like an Edit's.
	writes []write
	// reads are the files the line names in its arguments and input
	// redirections, which Read deny and ask rules judge (a file a Read
	// rule hides is denied before the line runs).
	reads []write
	// blindWrite is set when a written file is only known when the line
	// runs (`> $f`, `rm "$dir"`, or a relative name after an unknown cd):
	// no allow rule can cover it, and it asks in every mode.
	blindWrite bool
	// envTaint is set when the line sets an environment variable that is
	// not inert for the rest of the line (`PAGER=x; git log`): no allow
	// rule matches any of its parts.
	envTaint bool
	// hidden are commands written inside literal strings of a line that is
	// unknown (`x='a[$(curl x)]'; echo $((x))`): bash may run them, so
	// deny and ask rules see them, and hard deny judges them.
	hidden []string
	// anyProgram is set when a part's program is only known when it runs,
	// so rules about one program cannot be passed over by name.
	anyProgram bool
	// gitRuns are the line's git commands and where they run, to judge
	// the repository each reads when the call is evaluated (gitrepo.go).
	gitRuns []gitRun
}

// write is a file a command line writes, as written in it (relative to the
// directory the line starts in, or absolute), and what writes it: "" for a
// redirection, or the program. A glob is expanded against the file system
// when the call is evaluated, never from the cache.
type write struct {
	path, by string
	glob     *syntax.Word // the word to expand, when it is a pattern
	dir      string       // where the glob is expanded, relative to the start
	home     string       // HOME for the glob's expansion
	// recursive is set for the targets of a recursive rm, which hard deny
	// judges again once they are resolved against the directory.
	recursive bool
	// tree is set for a directory the program writes beneath, at names
	// the line does not show (tree.go).
	tree bool
}

// part is one simple command.
type part struct {
	// text is the command's word values (after quote removal and
	// expansion, unknown values opaque) joined by spaces; rules match it.
	text string
	// alt is another spelling allow rules match: the program's base name
	// when it was named by its path in a system directory (/usr/bin/git).
	alt string
	// src is the command as source text, for SplitCommand.
	src string
	// words are the word values (source text where unknown), for
	// suggestions.
	words []string
	// extra are other spellings deny and ask rules also check: the program
	// by its base name, the command without wrappers like sudo or env, the
	// wrapping `bash -c` of a nested part, the parts inside a wrapped
	// `sudo bash -c '...'`.
	extra []string
	// envPrefix is set when a variable that is not inert is set in front
	// of the command: allow rules do not match it.
	envPrefix bool
	// builtin is set for a call of a builtin that changes nothing
	// (`[`, `test`, `true`, `false`, `:`) with no redirection that
	// writes: it needs no allow rule.
	builtin bool
}

// readOnlyBuiltins are the builtins that only compute an exit status.
// `test -v NAME[i]` evaluates a subscript, which makes the line unknown
// on its own (unknown.go).
var readOnlyBuiltins = map[string]bool{"[": true, "test": true, "true": true, "false": true, ":": true}

// analysisCacheSize bounds the shared analysis cache: enough for every
// distinct command of a long session, small enough to never matter.
const analysisCacheSize = 1024

// maxCachedCommand keeps huge command lines (heredocs of generated files)
// out of the cache so it cannot hold megabytes.
const maxCachedCommand = 8 << 10

// cacheKey is a command line and how it runs.
type cacheKey struct {
	cmd        string
	persistent bool
}

var analysisCache = struct {
	sync.Mutex
	m map[cacheKey]*analysis
}{m: make(map[cacheKey]*analysis)}

// cachedAnalysis returns the analysis of cmd run by a fresh shell.
func cachedAnalysis(cmd string) *analysis { return cachedAnalysisIn(cmd, false) }

// cachedAnalysisIn returns the analysis of cmd, run by a fresh shell or
// (persistent) by a long-lived one, parsing it at most once while it stays
// in the cache: tool pipelines ask about the same line repeatedly
// (permission, hooks, re-checks after rewrites).
func cachedAnalysisIn(cmd string, persistent bool) *analysis {
	if len(cmd) > maxCachedCommand {
		return analyzeIn(cmd, 0, persistent)
	}
	k := cacheKey{cmd, persistent}
	analysisCache.Lock()
	a, ok := analysisCache.m[k]
	analysisCache.Unlock()
	if ok {
		return a
	}
	a = analyzeIn(cmd, 0, persistent)
	analysisCache.Lock()
	if len(analysisCache.m) >= analysisCacheSize {
		for k := range analysisCache.m { // evict an arbitrary entry
			delete(analysisCache.m, k)
			break
		}
	}
	analysisCache.m[k] = a
	analysisCache.Unlock()
	return a
}

// isFD reports whether a `>&` target is a file descriptor (or `-`, close)
// rather than a file name.
func isFD(target string) bool {
	if target == "-" {
		return true
	}
	for i := 0; i < len(target); i++ {
		if target[i] < '0' || target[i] > '9' {
			return target[i] == '-' && i == len(target)-1 && i > 0
		}
	}
	return target != ""
}

// writesTo reports whether a redirection opens its target for writing.
func writesTo(op syntax.RedirOperator) bool {
	switch op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrInOut, syntax.RdrClob,
		syntax.RdrAll, syntax.AppAll:
		return true
	}
	return false
}

// roughUnquote approximates quote removal and $HOME expansion for text the
// parser rejected.
var roughUnquote = strings.NewReplacer(`"`, "", `'`, "", "${HOME}", "~", "$HOME", "~")

// roughAnalysis splits a line the parser rejected at every shell operator,
// so deny rules and hard deny still see its commands. The whole line is a
// part too, for rules written against it.
func roughAnalysis(cmd string, err error) *analysis {
	a := &analysis{err: err, unknown: "the line does not parse as shell"}
	if t := strings.TrimSpace(cmd); t != "" {
		a.parts = append(a.parts, part{text: t, src: t, words: strings.Fields(cmd)})
	}
	segs := strings.FieldsFunc(cmd, func(r rune) bool {
		return strings.ContainsRune(";&|()`\n{}", r)
	})
	for _, s := range segs {
		words := strings.Fields(s)
		if len(words) == 0 {
			continue
		}
		vals := make([]string, len(words))
		for i, wd := range words {
			v := roughUnquote.Replace(wd)
			vals[i] = strings.TrimPrefix(v, "$") // `$(rm` leaves a lone "$"
		}
		if vals[0] == "" {
			vals, words = vals[1:], words[1:]
		}
		if len(vals) == 0 {
			continue
		}
		if reason := denyWords(vals, startDir); reason != "" && a.deny == "" {
			a.deny = reason
		}
		text := strings.Join(words, " ")
		a.parts = append(a.parts, part{text: text, src: text, words: words})
	}
	if a.deny == "" && roughForkBomb(cmd) {
		a.deny = "a fork bomb exhausts the machine's processes"
	}
	return a
}
