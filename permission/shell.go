package permission

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
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
		out[i] = p.text
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
	// writes are the files the line writes that the policy can see: the
	// targets of `>`, `>>`, `&>` and the like, and the files named to
	// programs such as rm, cp or tee (argwrites.go). An allow rule for a
	// command does not open paths it does not name: these go through the
	// path rules and the workspace boundary like an Edit's.
	writes []write
	// blindWrite is set when a written file is only known when the line
	// runs (`> $f`, `rm "$dir"`, or a relative name after a cd): no allow
	// rule can cover it.
	blindWrite bool
	// changesDir is set when a part changes the directory, so relative
	// write targets cannot be placed.
	changesDir bool
}

// write is a file a command line writes, as written in it, and what writes
// it: "" for a redirection, or the program.
type write struct {
	path, by string
}

// part is one simple command.
type part struct {
	// text is the command's words as source text; allow rules match it.
	text string
	// words are the words as source text, for suggestions.
	words []string
	// extra are other spellings deny and ask rules also check: the command
	// without wrappers like sudo or env, the wrapping `bash -c` of a nested
	// part, the parts inside a wrapped `sudo bash -c '...'`.
	extra []string
}

// analysisCacheSize bounds the shared analysis cache: enough for every
// distinct command of a long session, small enough to never matter.
const analysisCacheSize = 1024

// maxCachedCommand keeps huge command lines (heredocs of generated files)
// out of the cache so it cannot hold megabytes.
const maxCachedCommand = 8 << 10

var analysisCache = struct {
	sync.Mutex
	m map[string]*analysis
}{m: make(map[string]*analysis)}

// cachedAnalysis returns the analysis of cmd, parsing it at most once while
// it stays in the cache: tool pipelines ask about the same line repeatedly
// (permission, hooks, re-checks after rewrites).
func cachedAnalysis(cmd string) *analysis {
	if len(cmd) > maxCachedCommand {
		return analyze(cmd, 0)
	}
	analysisCache.Lock()
	a, ok := analysisCache.m[cmd]
	analysisCache.Unlock()
	if ok {
		return a
	}
	a = analyze(cmd, 0)
	analysisCache.Lock()
	if len(analysisCache.m) >= analysisCacheSize {
		for k := range analysisCache.m { // evict an arbitrary entry
			delete(analysisCache.m, k)
			break
		}
	}
	analysisCache.m[cmd] = a
	analysisCache.Unlock()
	return a
}

// analyze parses cmd and collects its parts and any hard-deny reason.
func analyze(cmd string, depth int) *analysis {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		return roughAnalysis(cmd, fmt.Errorf("%w: %v", ErrUnparsable, err))
	}
	w := &walker{a: &analysis{}, depth: depth, pr: syntax.NewPrinter()}
	syntax.Walk(f, w.visit)
	if w.a.changesDir {
		for _, t := range w.a.writes {
			if !filepath.IsAbs(t.path) && t.path != "~" && !strings.HasPrefix(t.path, "~/") {
				w.a.blindWrite = true
			}
		}
	}
	return w.a
}

// walker collects parts while syntax.Walk visits every node, so commands in
// substitutions, subshells and bodies are found wherever they nest.
type walker struct {
	a     *analysis
	depth int
	pr    *syntax.Printer
	buf   strings.Builder
}

func (w *walker) print(n syntax.Node) string {
	w.buf.Reset()
	if err := w.pr.Print(&w.buf, n); err != nil {
		return ""
	}
	return w.buf.String()
}

func (w *walker) denyFor(reason string) {
	if w.a.deny == "" {
		w.a.deny = reason
	}
}

func (w *walker) visit(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Stmt:
		for _, r := range n.Redirs {
			if r.Word == nil || !(writesTo(r.Op) || r.Op == syntax.DplOut && !isFD(wordValue(r.Word))) {
				continue
			}
			target := wordValue(r.Word)
			switch {
			case isDiskDevice(target):
				w.denyFor("writing to the raw disk device " + target + " destroys its file systems")
			case harmlessTarget(target):
			case strings.IndexByte(target, opaque) >= 0:
				w.a.blindWrite = true
			default:
				w.a.writes = append(w.a.writes, write{path: target})
			}
		}
	case *syntax.FuncDecl:
		if n.Name != nil && isForkBomb(n.Name.Value, n.Body) {
			w.denyFor("a fork bomb exhausts the machine's processes")
		}
	case *syntax.DeclClause:
		text := w.print(n)
		w.a.parts = append(w.a.parts, part{text: text, words: strings.Fields(text)})
	case *syntax.CallExpr:
		if len(n.Args) > 0 {
			w.call(n)
		}
	}
	return true
}

// call records one simple command, checks it against the hard-deny list and
// splits a literal `bash -c` or eval script it runs.
func (w *walker) call(c *syntax.CallExpr) {
	src := make([]string, len(c.Args))
	vals := make([]string, len(c.Args))
	for i, a := range c.Args {
		src[i] = w.print(a)
		vals[i] = wordValue(a)
	}
	p := part{text: strings.Join(src, " "), words: src}
	if reason := denyWords(vals); reason != "" {
		w.denyFor(reason)
	}
	unwrapped, n := unwrap(vals)
	if len(unwrapped) > 0 && changesDirectory[path.Base(unwrapped[0])] {
		w.a.changesDir = true
	}
	files, blind := argWrites(unwrapped)
	for _, f := range files {
		w.a.writes = append(w.a.writes, write{path: f, by: path.Base(unwrapped[0])})
	}
	w.a.blindWrite = w.a.blindWrite || blind
	if n > 0 {
		p.extra = append(p.extra, strings.Join(src[n:], " "))
	}
	script, ok := innerScript(unwrapped)
	if !ok || w.depth >= maxShellDepth {
		w.a.parts = append(w.a.parts, p)
		return
	}
	inner := analyze(script, w.depth+1)
	if inner.deny != "" {
		w.denyFor(inner.deny)
	}
	w.a.writes = append(w.a.writes, inner.writes...)
	w.a.blindWrite = w.a.blindWrite || inner.blindWrite
	w.a.changesDir = w.a.changesDir || inner.changesDir
	if inner.err == nil && n == 0 {
		// A plain `bash -c 'a; b'` is judged by its parts, which also
		// carry the wrapper's text for deny rules such as Bash(bash:*).
		for _, ip := range inner.parts {
			ip.extra = append(append([]string(nil), ip.extra...), p.text)
			w.a.parts = append(w.a.parts, ip)
		}
		return
	}
	// Wrapped (`sudo bash -c ...`) or unparsable: the call stays one part
	// for allow rules, and deny rules see the script's parts as well.
	for _, ip := range inner.parts {
		p.extra = append(p.extra, ip.text)
		p.extra = append(p.extra, ip.extra...)
	}
	w.a.parts = append(w.a.parts, p)
}

// innerScript returns the script a shell -c or eval command runs, when it is
// a literal string.
func innerScript(vals []string) (string, bool) {
	if len(vals) < 2 {
		return "", false
	}
	switch path.Base(vals[0]) {
	case "eval":
		for _, v := range vals[1:] {
			if strings.IndexByte(v, opaque) >= 0 {
				return "", false
			}
		}
		return strings.Join(vals[1:], " "), true
	case "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash":
	default:
		return "", false
	}
	cflag := false
	for i := 1; i < len(vals); i++ {
		v := vals[i]
		switch {
		case v == "--":
			if cflag && i+1 < len(vals) {
				return literal(vals[i+1])
			}
			return "", false
		case v == "-o" || v == "+o" || v == "-O" || v == "+O":
			i++ // takes an option name
		case strings.HasPrefix(v, "--"):
		case len(v) > 1 && (v[0] == '-' || v[0] == '+'):
			if strings.IndexByte(v, 'c') >= 0 {
				cflag = true
			}
		default:
			if cflag {
				return literal(v)
			}
			return "", false
		}
	}
	return "", false
}

func literal(v string) (string, bool) {
	if strings.IndexByte(v, opaque) >= 0 {
		return "", false
	}
	return v, true
}

// opaque stands in a word value for an expansion whose value is unknown, so
// such words never compare equal to a literal.
const opaque = '\x00'

// wordValue is the value of w after quote removal, with $HOME and ${HOME}
// read as ~ (hard deny treats both alike) and any other expansion replaced
// by the opaque byte.
func wordValue(w *syntax.Word) string {
	var b strings.Builder
	wordParts(&b, w.Parts)
	return b.String()
}

func wordParts(b *strings.Builder, parts []syntax.WordPart) {
	for _, wp := range parts {
		switch wp := wp.(type) {
		case *syntax.Lit:
			b.WriteString(wp.Value)
		case *syntax.SglQuoted:
			b.WriteString(wp.Value)
		case *syntax.DblQuoted:
			wordParts(b, wp.Parts)
		case *syntax.ParamExp:
			if wp.Param != nil && wp.Param.Value == "HOME" && wp.Exp == nil && wp.Repl == nil &&
				wp.Slice == nil && wp.Index == nil && !wp.Excl && !wp.Length {
				b.WriteByte('~')
			} else {
				b.WriteByte(opaque)
			}
		default:
			b.WriteByte(opaque)
		}
	}
}

// changesDirectory names the builtins after which a relative path means
// something else than in the directory the line started in.
var changesDirectory = map[string]bool{"cd": true, "pushd": true, "popd": true}

// harmlessTarget reports whether writing to target touches no file: the
// null device and the process's own streams.
func harmlessTarget(target string) bool {
	switch target {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty":
		return true
	}
	return strings.HasPrefix(target, "/dev/fd/")
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
	a := &analysis{err: err}
	if strings.TrimSpace(cmd) != "" {
		a.parts = append(a.parts, part{text: strings.TrimSpace(cmd), words: strings.Fields(cmd)})
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
		if reason := denyWords(vals); reason != "" && a.deny == "" {
			a.deny = reason
		}
		a.parts = append(a.parts, part{text: strings.Join(words, " "), words: words})
	}
	if a.deny == "" && roughForkBomb(cmd) {
		a.deny = "a fork bomb exhausts the machine's processes"
	}
	return a
}
