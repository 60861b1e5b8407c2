package permission

import (
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The walker interprets a parsed line for policy: it visits statements in
// the order bash runs them, follows the directory `cd` moves to (with `&&`,
// `||`, `;`, subshells and pipelines scoped as bash scopes them), expands
// each command's words (words.go) and records its parts, the files it
// writes and any hard-deny reason. A command type it does not handle makes
// the line unknown.

// dirs is where a command may run: one of a few directories, each absolute
// or relative to the directory the line starts in ("."), or unknown.
type dirs struct {
	list    []string
	unknown bool
}

// maxDirs bounds how many possible directories are followed; more is
// treated as unknown.
const maxDirs = 4

var (
	startDir    = dirs{list: []string{"."}}
	unknownDirs = dirs{unknown: true}
)

func (d dirs) union(o dirs) dirs {
	if d.unknown || o.unknown {
		return unknownDirs
	}
	out := dirs{list: append([]string(nil), d.list...)}
	for _, x := range o.list {
		if !contains(out.list, x) {
			out.list = append(out.list, x)
		}
	}
	if len(out.list) > maxDirs {
		return unknownDirs
	}
	return out
}

// join returns where the relative directory target leads from each of d
// (which must be known).
func (d dirs) join(target string) dirs {
	var out dirs
	for _, dir := range d.list {
		if dir == "." {
			out.list = append(out.list, target)
		} else {
			out.list = append(out.list, dir+"/"+target)
		}
	}
	return out
}

// single returns the directory when there is exactly one, for $PWD.
func (d dirs) single() string {
	if d.unknown || len(d.list) != 1 {
		return ""
	}
	return d.list[0]
}

// walker collects one line's analysis.
type walker struct {
	a     *analysis
	depth int
	pr    *syntax.Printer
	buf   strings.Builder
	// home is HOME as the line sees it, "" when the line may change it.
	home string
	// funcDirs is where function bodies run: the start when the line
	// never changes directory, unknown otherwise.
	funcDirs dirs
	// stdin is what the command being walked reads as standard input:
	// its here-document or here-string, or a pipe.
	stdin stdinSource
	// shadowed are the names the line defines as functions (or, in a
	// session that keeps state, every name): the analysis does not run
	// such a name's builtin meaning ahead (`$(echo x)`).
	shadowed map[string]bool
	// stateful says the line runs in a shell that earlier lines may have
	// changed (a PTY session): its directory, HOME, functions and aliases
	// are unknown.
	stateful bool
	// hashed are the names `hash -p` pointed at other programs.
	hashed map[string]string
	// placedBefore is how many of the line's writes came from commands
	// before the one being walked (throughPlaced looks at those only).
	placedBefore int
	// stmtWrites says the statement being walked, or one around it,
	// writes a file through a redirection (`: > f`, `{ true; } > f`).
	stmtWrites bool
}

// inherit gives a walker for a script run by this line (bash -c, eval, a
// wrapper's string) what this one knows is uncertain.
func (w *walker) inherit(outer *walker) {
	if outer.home == "" {
		w.home = ""
	}
	w.stateful = w.stateful || outer.stateful
	for name := range outer.shadowed {
		if w.shadowed == nil {
			w.shadowed = map[string]bool{}
		}
		w.shadowed[name] = true
	}
	for name, to := range outer.hashed {
		if w.hashed == nil {
			w.hashed = map[string]string{}
		}
		w.hashed[name] = to
	}
}

// stdinSource is what a command reads on its standard input, as far as the
// line shows it.
type stdinSource struct {
	doc   *syntax.Redirect // a here-document or here-string
	piped bool             // the right side of a pipe
}

// analyze parses cmd and interprets it. A panic in the parser or the
// expander (a bug, or a pattern it cannot compile) must not take the
// session down: the line is then judged on its rough split and asks.
func analyze(cmd string, depth int) *analysis { return analyzeIn(cmd, depth, false) }

// analyzeIn is analyze for a line run by a fresh shell or, persistent, by
// a long-lived one that earlier lines may have changed: there the line
// starts in a directory only known when it runs, HOME is unknown, any name
// may be a function or alias, and no builtin's output is computed ahead.
func analyzeIn(cmd string, depth int, persistent bool) (a *analysis) {
	defer func() {
		if r := recover(); r != nil {
			a = roughAnalysis(cmd, fmt.Errorf("%w: the analysis failed: %v", ErrUnparsable, r))
		}
	}()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		return roughAnalysis(cmd, fmt.Errorf("%w: %v", ErrUnparsable, err))
	}
	a = &analysis{}
	w := newWalker(a, depth, f)
	start := startDir
	if persistent {
		w.stateful, w.home, w.funcDirs, start = true, "", unknownDirs, unknownDirs
	}
	w.walkStmts(f.Stmts, start)
	w.paramAssigns(f)
	if a.unknown == "" {
		a.unknown = scanUnknown(f)
	}
	if strings.IndexByte(cmd, 0) >= 0 {
		w.nulByte(cmd)
	}
	if readings := divergentReadings(cmd); readings != nil {
		w.divergence(readings)
	}
	if strings.IndexByte(cmd, '\r') >= 0 && crAsBlank(f, cmd) {
		w.unknownFor(whyCR)
	}
	if persistent && historyExpansion(cmd) {
		w.unknownFor(whyHistory)
	}
	if a.unknown != "" && depth < maxShellDepth {
		hiddenCommands(a, f, depth)
	}
	return a
}

// hiddenCommands reads the literal strings of an unknown line as shell
// words: a value such as 'a[$(curl x)]' runs its substitution when bash
// evaluates it as arithmetic, a subscript or a prompt. Their commands are
// added for deny and ask rules and hard deny; what they do is unknown
// anyway, so nothing is allowed by them.
func hiddenCommands(a *analysis, f *syntax.File, depth int) {
	syntax.Walk(f, func(n syntax.Node) bool {
		var text string
		switch n := n.(type) {
		case *syntax.SglQuoted:
			text = n.Value
		case *syntax.Lit:
			// Inside double quotes `\$(` is a literal `$(` in the value.
			text = strings.NewReplacer(`\$`, "$", "\\`", "`").Replace(n.Value)
		default:
			return true
		}
		if !strings.Contains(text, "$(") && !strings.Contains(text, "`") {
			return true
		}
		for _, script := range []string{text, "echo " + text} {
			sub := analyze(script, depth+1)
			if sub.err != nil {
				continue
			}
			if a.deny == "" {
				a.deny = sub.deny
			}
			for _, p := range sub.parts {
				a.hidden = append(a.hidden, p.text)
				a.hidden = append(a.hidden, p.extra...)
			}
			break
		}
		return true
	})
}

func newWalker(a *analysis, depth int, f *syntax.File) *walker {
	w := &walker{a: a, depth: depth, pr: syntax.NewPrinter(), funcDirs: startDir, shadowed: definedNames(f)}
	if !changesHome(f) {
		w.home = homeDir()
	}
	if movesDirectory(f) {
		w.funcDirs = unknownDirs
	}
	return w
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

func (w *walker) unknownFor(reason string) {
	if w.a.unknown == "" {
		w.a.unknown = reason
	}
}

// expander returns an expander for words run in d.
func (w *walker) expander(d dirs) *expander {
	return &expander{env: wordEnv{home: w.home, pwd: d.single()}, shadowed: w.shadowed, noPure: w.stateful}
}

// walkStmts runs a list in order. It returns the directories the list may
// end in when its last command succeeded, and whatever its status.
func (w *walker) walkStmts(stmts []*syntax.Stmt, in dirs) (ok, all dirs) {
	ok, all = in, in
	for _, st := range stmts {
		ok, all = w.walkStmt(st, all)
	}
	return ok, all
}

func (w *walker) walkStmt(st *syntax.Stmt, in dirs) (ok, all dirs) {
	before, blind := len(w.a.writes), w.a.blindWrite
	w.redirects(st.Redirs, in)
	if st.Cmd == nil {
		return in, in
	}
	savedWrites := w.stmtWrites
	w.stmtWrites = savedWrites || len(w.a.writes) > before || w.a.blindWrite != blind
	defer func() { w.stmtWrites = savedWrites }()
	saved := w.stdin
	for _, r := range st.Redirs {
		if r.N == nil || r.N.Value == "0" {
			switch r.Op {
			case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
				w.stdin = stdinSource{doc: r}
			case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn:
				w.stdin = stdinSource{}
			}
		}
	}
	ok, all = w.walkCmd(st.Cmd, in)
	w.stdin = saved
	switch {
	case st.Background || st.Coprocess:
		return in, in // a background job runs in a subshell
	case st.Negated:
		return all, all
	}
	return ok, all
}

func (w *walker) walkCmd(cmd syntax.Command, in dirs) (ok, all dirs) {
	switch c := cmd.(type) {
	case *syntax.CallExpr:
		return w.call(c, in)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt:
			okX, allX := w.walkStmt(c.X, in)
			okY, allY := w.walkStmt(c.Y, okX)
			return okY, allX.union(allY)
		case syntax.OrStmt:
			okX, allX := w.walkStmt(c.X, in)
			okY, allY := w.walkStmt(c.Y, allX)
			return okX.union(okY), allX.union(allY)
		}
		// Every command of a pipeline runs in its own subshell.
		w.walkStmt(c.X, in)
		saved := w.stdin
		w.stdin = stdinSource{piped: true}
		w.walkStmt(c.Y, in)
		w.stdin = saved
		return in, in
	case *syntax.Subshell:
		w.walkStmts(c.Stmts, in)
		return in, in
	case *syntax.Block:
		return w.walkStmts(c.Stmts, in)
	case *syntax.IfClause:
		return w.ifClause(c, in)
	case *syntax.WhileClause:
		if isLoopBomb(c) {
			w.denyFor(whyLoopBomb)
		}
		start := loopStart(c, in)
		w.walkStmts(c.Cond, start)
		w.walkStmts(c.Do, start)
		return start, start
	case *syntax.ForClause:
		if it, ok := c.Loop.(*syntax.WordIter); ok && !shellLocal(it.Name.Value) {
			w.a.envTaint = true // `for PAGER in ...` sets an exported variable
		}
		if isLoopBomb(c) {
			w.denyFor(whyLoopBomb)
		}
		start := loopStart(c, in)
		w.nested(c.Loop, in)
		w.walkStmts(c.Do, start)
		return start, start
	case *syntax.CaseClause:
		w.nested(c.Word, in)
		out := in
		for _, item := range c.Items {
			for _, p := range item.Patterns {
				w.nested(p, in)
			}
			_, all := w.walkStmts(item.Stmts, in)
			out = out.union(all)
		}
		return out, out
	case *syntax.FuncDecl:
		w.funcDecl(c)
		if movesDirectory(c.Body) {
			// Calling it later moves the caller.
			return unknownDirs, unknownDirs
		}
		return in, in
	case *syntax.ArithmCmd:
		w.nested(c, in)
		return in, in
	case *syntax.TestClause:
		w.nested(c, in)
		return in, in
	case *syntax.DeclClause:
		w.decl(c, in)
		return in, in
	case *syntax.LetClause:
		w.nested(c, in)
		return in, in
	case *syntax.TimeClause:
		if c.Stmt != nil {
			return w.walkStmt(c.Stmt, in)
		}
		return in, in
	case *syntax.CoprocClause:
		// bash reads `coproc NAME cmd` and `coproc A=1 cmd` differently
		// from the parser; what runs is not certain.
		w.unknownFor(whyCoproc)
		w.walkStmt(c.Stmt, in)
		return in, in
	}
	w.unknownFor(whyNode)
	w.nested(cmd, in)
	return unknownDirs, unknownDirs
}

func (w *walker) ifClause(c *syntax.IfClause, in dirs) (ok, all dirs) {
	okC, allC := w.walkStmts(c.Cond, in)
	okT, allT := w.walkStmts(c.Then, okC)
	if c.Else == nil {
		return okT.union(allC), allT.union(allC)
	}
	if len(c.Else.Cond) == 0 { // a plain else
		okE, allE := w.walkStmts(c.Else.Then, allC)
		return okT.union(okE), allT.union(allE)
	}
	okE, allE := w.ifClause(c.Else, allC)
	return okT.union(okE), allT.union(allE)
}

// loopStart is where a loop's commands run: where it starts, unless the
// loop changes directory, when any iteration may be somewhere else.
func loopStart(loop syntax.Node, in dirs) dirs {
	if movesDirectory(loop) {
		return unknownDirs
	}
	return in
}

// nested walks the commands inside a node's words: command and process
// substitutions, wherever they are (arguments, here-documents, parameter
// defaults, arithmetic). Each runs in a subshell started in d.
func (w *walker) nested(n syntax.Node, d dirs) {
	if n == nil {
		return
	}
	if word, ok := n.(*syntax.Word); ok && word == nil {
		return
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			w.walkStmts(n.Stmts, d)
			return false
		case *syntax.ProcSubst:
			w.walkStmts(n.Stmts, d)
			return false
		}
		return true
	})
}

// redirects records the files a statement's redirections write.
func (w *walker) redirects(rs []*syntax.Redirect, d dirs) {
	for _, r := range rs {
		w.nested(r.Word, d)
		w.nested(r.Hdoc, d)
		if r.Word != nil {
			w.networkRedirect(r.Word, d)
		}
		if r.Word != nil && readsFrom(r.Op) {
			vals, glob := w.expander(d).fields(r.Word)
			for _, v := range vals {
				w.readTarget(v, d, globWord(glob, r.Word))
			}
		}
		if r.Word == nil || !(writesTo(r.Op) || r.Op == syntax.DplOut) {
			continue
		}
		x := w.expander(d)
		vals, glob := x.fields(r.Word)
		for _, v := range vals {
			if r.Op == syntax.DplOut && isFD(v) {
				continue
			}
			w.writeTarget(v, "", d, globWord(glob, r.Word))
		}
	}
}

// whyNetwork explains a redirection bash turns into a network connection.
const whyNetwork = "bash opens a network connection for a /dev/tcp or /dev/udp redirection, which no rule about programs sees"

// networkRedirect makes a redirection from or to /dev/tcp/HOST/PORT or
// /dev/udp/HOST/PORT unknown: bash connects there itself (`cat <
// /dev/tcp/h/80` fetches like curl), whatever allows the command.
func (w *walker) networkRedirect(word *syntax.Word, d dirs) {
	vals, _ := w.expander(d).fields(word)
	for _, v := range vals {
		c := path.Clean(strings.ReplaceAll(v, opaqueStr, "x"))
		if strings.HasPrefix(c, "/dev/tcp/") || strings.HasPrefix(c, "/dev/udp/") {
			w.unknownFor(whyNetwork)
		}
	}
}

func globWord(glob bool, word *syntax.Word) *syntax.Word {
	if glob {
		return word
	}
	return nil
}

// writeTarget records one file written in d, by a program or (by "") a
// redirection.
func (w *walker) writeTarget(t, by string, d dirs, glob *syntax.Word) {
	if isDiskDevice(t) {
		w.denyFor("writing to the raw disk device " + t + " destroys its file systems")
		return
	}
	if t == "" {
		return
	}
	if strings.IndexByte(t, opaque) >= 0 {
		w.a.blindWrite = true
		return
	}
	t, harmless, blind := specialTarget(t)
	switch {
	case harmless:
		return
	case blind:
		w.a.blindWrite = true
		return
	}
	if path.IsAbs(t) {
		w.throughPlaced(t)
		w.a.writes = append(w.a.writes, write{path: t, by: by, glob: glob, dir: ".", home: w.home})
		return
	}
	if d.unknown {
		w.a.blindWrite = true
		return
	}
	for _, dir := range d.list {
		p := t
		if dir != "." {
			p = dir + "/" + t
		}
		w.throughPlaced(p)
		w.a.writes = append(w.a.writes, write{path: p, by: by, glob: glob, dir: dir, home: w.home})
	}
}

// placers are the programs that can put a symbolic link (or another
// file's inode) at the paths they write: ln, and mv, cp and rsync, which
// move or copy links as links.
var placers = map[string]bool{"ln": true, "mv": true, "cp": true, "rsync": true}

// throughPlaced makes a write unknown when an earlier command of the line
// placed something at its path or at a directory above it (`ln -s /x l &&
// echo a > l/f`, `mv outlink y && echo a > y/f`): what it leads to is
// decided when the line runs, not when it is checked.
func (w *walker) throughPlaced(p string) {
	clean := path.Clean(p)
	for _, prev := range w.a.writes[:min(w.placedBefore, len(w.a.writes))] {
		if !placers[prev.by] {
			continue
		}
		at := path.Clean(prev.path)
		if clean == at || strings.HasPrefix(clean, strings.TrimSuffix(at, "/")+"/") {
			w.a.blindWrite = true
			return
		}
	}
}

// decl records a declaration (export, declare, local, readonly, typeset)
// as a part, and notes a variable it sets that is not inert.
func (w *walker) decl(c *syntax.DeclClause, d dirs) {
	defer w.nested(c, d)
	text := w.print(c)
	x := w.expander(d)
	words := []string{c.Variant.Value}
	for _, a := range c.Args {
		switch {
		case a.Name != nil:
			if !shellLocal(a.Name.Value) && !inertPrefix(a.Name.Value, x.literal(a.Value)) {
				w.a.envTaint = true
			}
			w.assignValue(a.Name.Value, x.literal(a.Value))
			words = append(words, w.print(a))
		case a.Value != nil:
			vals, _ := x.fields(a.Value)
			for _, v := range vals {
				name, _, _ := strings.Cut(v, "=")
				if !strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "+") && !shellLocal(name) {
					w.a.envTaint = true
				}
			}
			words = append(words, vals...)
		}
	}
	w.a.parts = append(w.a.parts, part{text: strings.Join(words, " "), src: text, words: strings.Fields(text)})
}

// changesHome reports whether the line may give HOME or PWD a value of its
// own, or run code that could (eval, source), so ~ and $HOME are unknown.
func changesHome(f *syntax.File) bool {
	changed := false
	named := func(s string) bool { return s == "HOME" || s == "PWD" }
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name != nil && named(n.Name.Value) {
				changed = true
			}
			if n.Name == nil && n.Value != nil {
				if v, ok := literalWord(n.Value); !ok || named(strings.SplitN(v, "=", 2)[0]) {
					changed = true
				}
			}
		case *syntax.WordIter:
			changed = changed || named(n.Name.Value)
		case *syntax.CallExpr:
			if len(n.Args) > 0 && varSetters[n.Args[0].Lit()] {
				changed = true
			}
		}
		return !changed
	})
	return changed
}

// movesDirectory reports whether n may change the shell's directory.
func movesDirectory(n syntax.Node) bool {
	moves := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			switch c.Args[0].Lit() {
			case "cd", "pushd", "popd", "source", ".", "eval", "":
				moves = true
			}
		}
		return !moves
	})
	return moves
}

// definedNames returns the names f defines as functions, which may shadow
// a builtin or program the analysis would otherwise run ahead, or nil.
func definedNames(f *syntax.File) map[string]bool {
	var names map[string]bool
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name != nil {
			if names == nil {
				names = map[string]bool{}
			}
			names[fd.Name.Value] = true
		}
		return true
	})
	return names
}

// whyNUL explains a line holding a NUL byte.
const whyNUL = "the line holds a NUL byte, which bash drops and a program's arguments end at"

// nulByte makes a line with a NUL byte unknown, and shows deny rules and
// hard deny the line as bash may read it: with the bytes dropped, and cut
// at the first.
func (w *walker) nulByte(cmd string) {
	w.unknownFor(whyNUL)
	if w.depth >= maxShellDepth {
		return
	}
	for _, v := range []string{strings.ReplaceAll(cmd, "\x00", ""), cmd[:strings.IndexByte(cmd, 0)]} {
		sub := analyze(v, w.depth+1)
		w.denyFor(sub.deny)
		for _, p := range sub.parts {
			w.a.hidden = append(w.a.hidden, p.text)
			w.a.hidden = append(w.a.hidden, p.extra...)
		}
	}
}

// paramAssigns looks at ${NAME:=value} and ${NAME=value}, which assign
// NAME while expanding: like NAME=value, a variable that is not
// shell-local changes what later commands see, and a command line in a
// variable that holds one is shown to the rules.
func (w *walker) paramAssigns(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		p, ok := n.(*syntax.ParamExp)
		if !ok || p.Param == nil || p.Exp == nil {
			return true
		}
		if p.Exp.Op != syntax.AssignUnset && p.Exp.Op != syntax.AssignUnsetOrNull {
			return true
		}
		if !shellLocal(p.Param.Value) {
			w.a.envTaint = true
		}
		x := w.expander(unknownDirs)
		w.assignValue(p.Param.Value, x.literal(p.Exp.Word))
		return true
	})
}
