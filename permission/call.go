package permission

import (
	"path"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// whyProgram explains an unknown part whose program is named by an
// expansion.
const whyProgram = "the program to run is only known when the line runs"

// whyCoproc explains an unknown coproc.
const whyCoproc = "coproc is read differently by bash and by the analysis"

// assignLike matches a word bash reads as an assignment.
var assignLike = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\[.*\])?\+?=`)

// whySedScript explains an unknown sed call.
const whySedScript = "the sed script runs commands (e) or uses commands the analysis does not read"

// trustedBinDirs are the directories whose programs are the ones a rule
// names: `/usr/bin/git status` is allowed by Bash(git status:*), while
// `./git status` (a file the agent may have written) is not.
var trustedBinDirs = map[string]bool{
	"/bin": true, "/usr/bin": true, "/usr/local/bin": true, "/sbin": true, "/usr/sbin": true,
	"/usr/local/sbin": true, "/opt/homebrew/bin": true,
}

// call records one simple command in d: its part, writes, directory change
// and hard-deny reason. It returns the directories after it, when it
// succeeded and whatever its status.
func (w *walker) call(c *syntax.CallExpr, d dirs) (ok, all dirs) {
	defer w.nested(c, d) // substitutions are parts after the command's own
	w.placedBefore = len(w.a.writes)
	defer func() { w.placedBefore = len(w.a.writes) }()
	x := w.expander(d)
	if len(c.Args) == 0 {
		// Assignments for the rest of the line.
		for _, a := range c.Assigns {
			if a.Name != nil && !shellLocal(a.Name.Value) && !inertPrefix(a.Name.Value, x.literal(a.Value)) {
				w.a.envTaint = true
			}
			if a.Name != nil {
				w.assignValue(a.Name.Value, x.literal(a.Value))
			}
		}
		return d, d
	}
	var vals, src []string
	var globs []*syntax.Word
	for _, a := range c.Args {
		s := w.print(a)
		fs, glob := x.fields(a)
		for _, v := range fs {
			vals = append(vals, v)
			globs = append(globs, globWord(glob, a))
		}
		src = append(src, s)
	}
	if len(vals) == 0 {
		return d, d // every word expanded to nothing
	}
	p := part{text: strings.Join(vals, " "), src: strings.Join(src, " ")}
	for i, v := range vals {
		if strings.IndexByte(v, opaque) >= 0 && i < len(src) {
			p.words = append(p.words, src[i])
		} else {
			p.words = append(p.words, v)
		}
	}
	p.builtin = readOnlyBuiltins[vals[0]] && len(c.Assigns) == 0 && !w.stmtWrites && !w.stateful && !w.shadowed[vals[0]]
	for _, a := range c.Assigns {
		if a.Name == nil || a.Index != nil || a.Array != nil || !inertPrefix(a.Name.Value, x.literal(a.Value)) {
			p.envPrefix = true
		}
		if a.Name != nil {
			w.assignValue(a.Name.Value, x.literal(a.Value))
		}
	}
	if l, ok := c.Args[0].Parts[0].(*syntax.Lit); ok && assignLike.MatchString(l.Value) {
		// bash would read it as an assignment where the parser saw a
		// program (after coproc, time and the like).
		w.unknownFor(whyNode)
	}
	if strings.IndexByte(vals[0], opaque) >= 0 {
		w.unknownFor(whyProgram)
		w.a.anyProgram = true
	}
	if base := path.Base(vals[0]); base != vals[0] && strings.IndexByte(vals[0], opaque) < 0 {
		based := strings.Join(append([]string{base}, vals[1:]...), " ")
		p.extra = append(p.extra, based)
		if trustedBinDirs[path.Dir(vals[0])] {
			p.alt = based
		}
	}
	u := unwrapAll(vals)
	unwrapped, n := u.rest, u.n
	// in is where the wrapped command runs: `env -C DIR rm -rf *` deletes
	// in DIR, and `sudo -i touch x` in a home the line does not show.
	in := wrappedDirs(u, d)
	if reason := denyWords(vals, in); reason != "" {
		w.denyFor(reason)
	}
	if n > 0 {
		if len(unwrapped) > 0 {
			p.extra = append(p.extra, strings.Join(unwrapped, " "))
		}
		if len(unwrapped) > 0 && strings.IndexByte(unwrapped[0], opaque) >= 0 {
			w.unknownFor(whyProgram)
			w.a.anyProgram = true
		}
	}
	if u.splitString {
		w.unknownFor(whySplitString)
	}
	if n > 0 && inputCode(vals[:n], unwrapped) {
		w.unknownFor(whyInputScript)
		w.a.anyProgram = true
	}
	for _, s := range u.scripts {
		w.scriptExtras(s, &p, in)
	}
	for _, prog := range u.programs {
		w.hiddenScript(prog) // deny and ask rules see the program a wrapper runs as its shell
	}
	if globs[0] != nil || n > 0 && n < len(globs) && globs[n] != nil {
		// A pattern names the program (`/bin/r? x` runs /bin/rm): it is
		// known only once the shell expands it.
		w.unknownFor(whyProgram)
		w.a.anyProgram = true
	}
	if len(unwrapped) > 1 && otherShells[path.Base(unwrapped[0])] {
		// A shell of another grammar: its script is not read as bash's,
		// but deny rules see the commands bash would read in it.
		w.unknownFor(whyOtherShell)
		for _, a := range unwrapped[1:] {
			if !strings.HasPrefix(a, "-") {
				w.hiddenScript(a)
			}
		}
	}
	w.shadowing(unwrapped, &p)
	for i := 0; i < n; i++ {
		if path.Base(vals[i]) == "env" {
			w.codeValues(vals[i:n]) // env NAME=VALUE in front of the command
		}
	}
	w.codeValues(unwrapped)
	if setsVariables(unwrapped) {
		w.a.envTaint = true
	}
	ok, all = d, d
	if len(unwrapped) > 0 {
		switch path.Base(unwrapped[0]) {
		case "cd", "pushd":
			ok = w.cd(unwrapped[1:], d)
			all = d.union(ok)
		case "popd", "source", ".":
			ok, all = unknownDirs, unknownDirs
		}
	}
	if len(unwrapped) > 0 && path.Base(unwrapped[0]) == "git" {
		w.gitRun(in)
	}
	before := len(w.a.writes)
	w.argWrites(unwrapped, globs[n:], in)
	w.optionValues(unwrapped, in)
	w.treeWrites(unwrapped, in)
	if n > 0 {
		w.argReads(vals[:n], globs[:n], d)
	}
	w.argReads(unwrapped, globs[n:], in)
	if len(unwrapped) > 1 && isFind(unwrapped[0]) {
		w.findCommands(unwrapped[1:], p, in)
	}
	if u.away && len(w.a.writes) > before {
		// Under another root (chroot DIR), an absolute name is not
		// the file it names here either.
		w.a.blindWrite = true
	}
	script, isScript := innerScript(unwrapped)
	if !isScript && readsStdinScript(unwrapped) {
		script, isScript = w.stdinScript(in)
	}
	if !isScript {
		if why := unseenScript(unwrapped); why != "" {
			w.unknownFor(why)
			w.a.anyProgram = true
		}
	}
	if isScript && w.depth >= maxShellDepth {
		w.unknownFor("shell scripts are nested deeper than the analysis follows")
	}
	if !isScript || w.depth >= maxShellDepth {
		w.a.parts = append(w.a.parts, p)
		return ok, all
	}
	okIn, allIn := w.inner(script, p, n, in)
	if path.Base(unwrapped[0]) == "eval" {
		return okIn, allIn // eval runs in this shell
	}
	return ok, all
}

// gitRun records a git command run in d, whose repository is judged when
// the call is evaluated.
func (w *walker) gitRun(d dirs) {
	if d.unknown {
		w.unknownFor(whyGitDir)
		return
	}
	for _, dir := range d.list {
		w.a.gitRuns = append(w.a.gitRuns, gitRun{dir: dir, before: len(w.a.writes)})
	}
}

// wrappedDirs is where the command that wrappers run runs, when they ran
// in d: moved by `env -C DIR`, `sudo -D DIR`, `unshare --wd DIR` (a
// relative DIR from each of d, as chdir takes it, without CDPATH), or
// somewhere the line does not show.
func wrappedDirs(u unwrapped, d dirs) dirs {
	if u.away {
		return unknownDirs
	}
	for _, target := range u.chdirs {
		switch {
		case target == "" || strings.IndexByte(target, opaque) >= 0:
			return unknownDirs
		case path.IsAbs(target):
			d = dirs{list: []string{target}}
			continue
		case d.unknown:
			return unknownDirs
		}
		d = d.join(target)
	}
	return d
}

// argWrites records the files a program writes through its arguments.
func (w *walker) argWrites(words []string, globs []*syntax.Word, d dirs) {
	if len(words) == 0 {
		return
	}
	files, blind, runs := argWrites(words)
	w.a.blindWrite = w.a.blindWrite || blind
	switch {
	case runs && awkNames[path.Base(words[0])]:
		w.unknownFor(whyAwk)
	case runs:
		w.unknownFor(whySedScript)
	}
	by := path.Base(words[0])
	n := len(w.a.writes)
	defer func() {
		if by == "rm" && denyRm(words[1:], startDir) == "" && recursiveRm(words[1:]) {
			for i := n; i < len(w.a.writes); i++ {
				w.a.writes[i].recursive = true
			}
		}
	}()
	for _, f := range files {
		var glob *syntax.Word
		for i, v := range words {
			if v == f && i < len(globs) {
				glob = globs[i]
			}
		}
		w.writeTarget(f, by, d, glob)
	}
}

// findCommands adds the commands a find runs as parts of their own (so
// each must be allowed, and deny rules see them), with writes checked as if
// {} were each of its roots, and records what it deletes or writes. When
// find may reach files that are not beneath its roots (findActions), a
// delete or a command that writes its {} writes somewhere unknown.
func (w *walker) findCommands(args []string, p part, d dirs) {
	roots, cmds, writes, deletes, beyond := findActions(args)
	for _, f := range writes {
		w.writeTarget(f, "find", d, nil)
	}
	if deletes {
		for _, r := range roots {
			if findSparesProtected(args) {
				w.writeTarget(r, "find", d, nil)
			} else {
				w.treeTarget(r, "find", d)
			}
		}
	}
	before := len(w.a.writes)
	defer func() {
		// Below links it follows, or from a list in a file, the files it
		// deletes or hands to a writer are not its roots.
		if beyond && (deletes || len(w.a.writes) > before) {
			w.a.blindWrite = true
		}
	}()
	for _, c := range cmds {
		fp := part{text: strings.Join(c.words, " "), src: strings.Join(c.words, " "), words: c.words,
			extra: []string{p.text}, envPrefix: p.envPrefix}
		if strings.IndexByte(c.words[0], opaque) >= 0 || strings.ContainsAny(c.words[0], "*?[") {
			w.unknownFor(whyProgram) // unknown, or a pattern the shell expands
			w.a.anyProgram = true
		}
		if base := path.Base(c.words[0]); base != c.words[0] {
			fp.extra = append(fp.extra, strings.Join(append([]string{base}, c.words[1:]...), " "))
		}
		unwrapped, n := unwrap(c.words)
		if n > 0 {
			fp.extra = append(fp.extra, strings.Join(unwrapped, " "))
		}
		if len(unwrapped) > 0 && path.Base(unwrapped[0]) == "git" {
			if c.inFound {
				w.gitRun(unknownDirs) // in every directory find finds
			} else {
				w.gitRun(d)
			}
		}
		w.a.parts = append(w.a.parts, fp)
		for _, r := range roots {
			words := placeholder(c.words, r)
			if reason := denyWords(words, d); reason != "" {
				w.denyFor(reason)
			}
			unwrapped, _ := unwrap(words)
			w.argWrites(unwrapped, nil, d)
			if _, ok := innerScript(unwrapped); ok || readsStdinScript(unwrapped) {
				w.unknownFor("find runs a shell on the files it finds")
			}
		}
	}
}

// cd returns where `cd ARGS` run in d goes when it succeeds. A relative
// name that does not start with . may be found through CDPATH, so it is
// unknown.
func (w *walker) cd(args []string, d dirs) dirs {
	var target string
	for _, a := range args {
		switch {
		case a == "--":
			continue
		case len(a) > 1 && a[0] == '-' && target == "":
			continue // -L, -P, -e, -@
		}
		if target != "" {
			return unknownDirs
		}
		target = a
	}
	switch {
	case target == "":
		if w.home == "" {
			return unknownDirs
		}
		return dirs{list: []string{w.home}}
	case target == "-" || strings.IndexByte(target, opaque) >= 0:
		return unknownDirs
	case path.IsAbs(target):
		return dirs{list: []string{target}}
	case !strings.HasPrefix(target, "."):
		return unknownDirs // CDPATH
	case d.unknown:
		return unknownDirs
	}
	return d.join(target)
}

// inner splits the script a `bash -c`, `eval` or trap runs and adds its
// parts. n is the number of wrapper words before the shell (sudo ...).
func (w *walker) inner(script string, p part, n int, d dirs) (ok, all dirs) {
	sub, parsed, ok, all := w.walkScript(script, d)
	if !parsed {
		w.unknownFor("a script passed to a shell does not parse")
	}
	if parsed && n == 0 {
		// A plain `bash -c 'a; b'` is judged by its parts, which also
		// carry the wrapper's text for deny rules such as Bash(bash:*).
		for _, ip := range sub.parts {
			ip.extra = append(append([]string(nil), ip.extra...), p.text)
			ip.envPrefix = ip.envPrefix || p.envPrefix
			w.a.parts = append(w.a.parts, ip)
		}
		return ok, all
	}
	// Wrapped (`sudo bash -c ...`) or unparsable: the call stays one part
	// for allow rules, and deny rules see the script's parts as well.
	for _, ip := range sub.parts {
		p.extra = append(p.extra, ip.text)
		p.extra = append(p.extra, ip.extra...)
	}
	w.a.parts = append(w.a.parts, p)
	return ok, all
}

// whyStdinScript explains a shell that reads its commands from a pipe.
const whyStdinScript = "a shell reads its commands from standard input, which is only known when the line runs"

// readsStdinScript reports whether a shell command has neither -c nor a
// script file, so it reads its commands from standard input.
func readsStdinScript(vals []string) bool {
	if len(vals) == 0 || !shells[path.Base(vals[0])] {
		return false
	}
	stdin := false // -s: the operands are arguments, the script is stdin
	for i := 1; i < len(vals); i++ {
		v := vals[i]
		switch {
		case v == "-o" || v == "+o" || v == "-O" || v == "+O":
			i++
		case v == "--":
			if stdin || i+1 == len(vals) {
				return true
			}
			return readsScriptFile(vals[i+1])
		case strings.HasPrefix(v, "--"):
		case len(v) > 1 && (v[0] == '-' || v[0] == '+'):
			if strings.IndexByte(v, 'c') >= 0 {
				return false
			}
			stdin = stdin || (v[0] == '-' && strings.IndexByte(v, 's') >= 0)
		case stdin:
			return true
		default:
			return readsScriptFile(v)
		}
	}
	return true
}

// readsScriptFile reports whether a shell's script file operand is its
// standard input.
func readsScriptFile(v string) bool {
	return v == "-" || v == "/dev/stdin" || v == "/dev/fd/0" || v == "/proc/self/fd/0"
}

// stdinScript returns the commands a shell reads from its here-document or
// here-string; a piped or unknown script makes the line unknown.
func (w *walker) stdinScript(d dirs) (string, bool) {
	r := w.stdin.doc
	switch {
	case r == nil && w.stdin.piped:
		w.unknownFor(whyStdinScript)
		return "", false
	case r == nil:
		return "", false
	}
	x := w.expander(d)
	var v string
	switch {
	case r.Op == syntax.WordHdoc:
		v = x.literal(r.Word) + "\n"
	case quotedDelimiter(r.Word):
		v = rawText(r.Hdoc) // <<'EOF': the body is taken as written
	default:
		v = x.document(r.Hdoc)
	}
	if strings.IndexByte(v, opaque) >= 0 {
		w.unknownFor(whyStdinScript)
		return "", false
	}
	return v, true
}

// quotedDelimiter reports whether a here-document's delimiter is quoted,
// which makes bash take its body as written.
func quotedDelimiter(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); !ok || strings.IndexByte(l.Value, '\\') >= 0 {
			return true
		}
	}
	return false
}

// rawText is the text of a word made of literals, or the opaque byte when
// it holds anything else.
func rawText(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	var b strings.Builder
	for _, p := range w.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			return opaqueStr
		}
		b.WriteString(l.Value)
	}
	return b.String()
}

// shells are the programs innerScript and stdinScript read scripts for.
var shells = map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true,
	"rbash": true}

// otherShells are shells whose grammar is not bash's: what they run asks.
var otherShells = map[string]bool{"fish": true, "csh": true, "tcsh": true, "rc": true, "es": true, "nu": true,
	"elvish": true, "xonsh": true, "pwsh": true, "yash": true}

// whyOtherShell explains a shell of another grammar.
const whyOtherShell = "a shell whose grammar the analysis does not read runs a script"

// innerScript returns the script a shell -c, eval or trap command runs,
// when it is known.
func innerScript(vals []string) (string, bool) {
	if len(vals) < 2 {
		return "", false
	}
	switch path.Base(vals[0]) {
	case "eval":
		if vals[1] == "--" {
			vals = vals[1:] // eval takes -- as the end of its options
		}
		for _, v := range vals[1:] {
			if strings.IndexByte(v, opaque) >= 0 {
				return "", false
			}
		}
		return strings.Join(vals[1:], " "), true
	case "trap":
		rest := vals[1:]
		if rest[0] == "--" {
			rest = rest[1:]
		}
		if len(rest) < 2 || strings.HasPrefix(rest[0], "-") {
			return "", false
		}
		return literal(rest[0])
	default:
		if !shells[path.Base(vals[0])] {
			return "", false
		}
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

// funcDecl checks a function for a fork bomb and walks its body where it
// will run.
func (w *walker) funcDecl(c *syntax.FuncDecl) {
	if c.Name != nil && isForkBomb(c.Name.Value, c.Body) {
		w.denyFor("a fork bomb exhausts the machine's processes")
	}
	w.walkStmt(c.Body, w.funcDirs)
}
