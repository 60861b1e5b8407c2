package permission

import (
	"errors"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The analysis reads words the way bash will, using mvdan.cc/sh's expand
// package for quote removal, brace and tilde expansion and field splitting,
// so `\rm`, `"rm"`, `r\m` and `$'rm'` are all the word rm. What a word's
// value depends on that the line itself does not fix (a variable from the
// environment, the output of a command) is replaced by the opaque byte
// before expanding: rules then never mistake it for a known value, deny
// rules treat it as "could be anything", and a file named by it is a write
// whose target is unknown.

// opaque stands in a word value for an expansion whose value is unknown, so
// such words never compare equal to a literal.
const opaque = '\x00'

// opaqueStr is the value of an expansion the analysis cannot know.
const opaqueStr = string(opaque)

// expander expands words for one point of a line: where it runs and what
// home is.
type expander struct {
	env wordEnv
	// n numbers the synthetic variables that stand for expansions
	// computed before expanding (pure command substitutions).
	n int
	// shadowed are names the line defines as functions, whose output
	// is not the builtin's; noPure says any name may be one.
	shadowed map[string]bool
	noPure   bool
}

// wordEnv is the environment words are expanded in. Every variable is
// unknown except HOME (when the line does not change it) and PWD (when the
// directory is known); the synthetic names hold values computed ahead.
type wordEnv struct {
	home  string            // "" when unknown
	pwd   string            // "" when unknown; "." is the directory the line starts in
	known map[string]string // synthetic variables
}

func str(v string) expand.Variable {
	return expand.Variable{Set: true, Kind: expand.String, Str: v}
}

// Get implements expand.Environ.
func (e *wordEnv) Get(name string) expand.Variable {
	switch name {
	case "HOME":
		if e.home != "" {
			return str(e.home)
		}
	case "PWD", "HOME +": // ~+ is $PWD
		if e.pwd != "" {
			return str(e.pwd)
		}
	case "@", "*":
		return expand.Variable{Set: true, Kind: expand.Indexed, List: []string{opaqueStr}}
	case "IFS":
		return expand.Variable{} // the default; a line that sets IFS is unknown
	}
	if v, ok := e.known[name]; ok {
		return str(v)
	}
	if strings.HasPrefix(name, "HOME ") && name != "HOME -" {
		return expand.Variable{} // ~user: expand looks the user up
	}
	return str(opaqueStr)
}

// Each implements expand.Environ; nothing is listed.
func (e *wordEnv) Each(func(string, expand.Variable) bool) {}

// synthetic names a computed value; the NUL byte keeps it apart from any
// name a line can use.
func (x *expander) synthetic(val string) *syntax.ParamExp {
	if x.env.known == nil {
		x.env.known = map[string]string{}
	}
	x.n++
	name := "\x00v" + strconv.Itoa(x.n)
	x.env.known[name] = val
	return &syntax.ParamExp{Param: &syntax.Lit{Value: name}}
}

// fields expands an argument word into the fields bash passes (without
// pathname expansion), and reports whether an unquoted pattern character
// makes bash glob it.
func (x *expander) fields(w *syntax.Word) (vals []string, glob bool) {
	sw := x.sanitize(w)
	cfg := x.config(&glob)
	vals, err := safeFields(cfg, sw)
	if err != nil {
		return []string{opaqueStr}, false
	}
	return vals, glob
}

// errExpandPanic reports a pattern the expand package could not compile
// (it panics on some extended globs); the word is then unknown.
var errExpandPanic = errors.New("expand panicked")

// safeFields is expand.Fields, turning a panic inside it into an error so
// that no command line can crash the session.
func safeFields(cfg *expand.Config, w *syntax.Word) (vals []string, err error) {
	defer func() {
		if recover() != nil {
			vals, err = nil, errExpandPanic
		}
	}()
	return expand.Fields(cfg, w)
}

// literal expands a word bash does not split (an assignment's value) to
// its fields joined by spaces. Bash would not brace-expand or split it; the
// joined form only ever holds more than the value, which is what the
// checks of such values need (a plain value stays as it is).
func (x *expander) literal(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	vals, _ := x.fields(w)
	return strings.Join(vals, " ")
}

// document expands a here-document body as bash does (parameters and
// substitutions, no splitting or globbing); nil is empty.
func (x *expander) document(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	v, err := safeDocument(x.config(nil), x.sanitize(w))
	if err != nil {
		return opaqueStr
	}
	return v
}

func safeDocument(cfg *expand.Config, w *syntax.Word) (v string, err error) {
	defer func() {
		if recover() != nil {
			v, err = "", errExpandPanic
		}
	}()
	return expand.Document(cfg, w)
}

func (x *expander) config(glob *bool) *expand.Config {
	cfg := &expand.Config{Env: &x.env, ExtGlob: true}
	if glob != nil {
		cfg.ReadDir2 = func(string) ([]fs.DirEntry, error) {
			*glob = true
			return nil, nil
		}
	}
	return cfg
}

// sanitize returns w with every expansion whose value is unknown replaced by
// an opaque one and every pure command substitution by its output, so that
// expand computes exactly what is known.
func (x *expander) sanitize(w *syntax.Word) *syntax.Word {
	parts, changed := x.sanitizeParts(w.Parts, true)
	if !changed {
		return w
	}
	return &syntax.Word{Parts: parts}
}

// atStart says parts begin the word: $PWD stands for the directory as a
// relative "." only there; after other text (`/proc/self/root/$PWD`) the
// absolute directory it really holds is not known, so it is opaque.
func (x *expander) sanitizeParts(parts []syntax.WordPart, atStart bool) ([]syntax.WordPart, bool) {
	var out []syntax.WordPart
	changed := false
	set := func(i int, p syntax.WordPart) {
		if !changed {
			out = append([]syntax.WordPart(nil), parts...)
			changed = true
		}
		out[i] = p
	}
	for i, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted, *syntax.ExtGlob:
		case *syntax.DblQuoted:
			if inner, ok := x.sanitizeParts(p.Parts, atStart && i == 0); ok {
				set(i, &syntax.DblQuoted{Dollar: p.Dollar, Parts: inner})
			}
		case *syntax.ParamExp:
			if !x.knownParam(p) || (p.Param.Value == "PWD" && !(atStart && i == 0)) {
				set(i, x.synthetic(opaqueStr))
			}
		case *syntax.ArithmExp:
			if !constArith(p.X) {
				set(i, x.synthetic(opaqueStr))
			}
		case *syntax.CmdSubst:
			out, ok := x.pureOutput(p)
			if !ok {
				out = opaqueStr
			}
			set(i, x.synthetic(out))
		case *syntax.ProcSubst:
			set(i, x.synthetic("/dev/fd/63"))
		default:
			set(i, x.synthetic(opaqueStr))
		}
	}
	if !changed {
		return parts, false
	}
	return out, true
}

// knownParam reports whether expand can compute p exactly: a known
// variable, with operators whose words are literal.
func (x *expander) knownParam(p *syntax.ParamExp) bool {
	if p.Param == nil {
		return false
	}
	switch p.Param.Value {
	case "HOME":
		if x.env.home == "" {
			return false
		}
	case "PWD":
		// PWD stands for the directory as "." (its real value is an
		// absolute path): only its plain value means the same, not
		// what an operator computes from it (${PWD%/*} is the parent).
		if x.env.pwd == "" || !simpleParam(p) {
			return false
		}
	default:
		return false
	}
	if p.Flags != nil || p.Excl || p.Width || p.IsSet || p.NestedParam != nil || p.Index != nil ||
		len(p.Modifiers) > 0 || p.Slice != nil || p.Names != 0 ||
		p.Split != syntax.OptUnset || p.GlobSubst != syntax.OptUnset || p.RcExpand != syntax.OptUnset {
		return false
	}
	lit := func(w *syntax.Word) bool {
		if w == nil {
			return true
		}
		_, ok := literalWord(w)
		return ok
	}
	if p.Repl != nil && (!lit(p.Repl.Orig) || !lit(p.Repl.With)) {
		return false
	}
	if p.Exp != nil && (p.Exp.Op == syntax.OtherParamOps || !lit(p.Exp.Word)) {
		return false
	}
	return true
}

// constArith reports whether an arithmetic expression uses integer
// constants only, so expand can evaluate it.
func constArith(x syntax.ArithmExpr) bool {
	switch x := x.(type) {
	case *syntax.Word:
		l, ok := x.Parts[0].(*syntax.Lit)
		return len(x.Parts) == 1 && ok && intLiteral.MatchString(l.Value)
	case *syntax.BinaryArithm:
		return !assignOp(x.Op) && constArith(x.X) && constArith(x.Y)
	case *syntax.UnaryArithm:
		return x.Op != syntax.Inc && x.Op != syntax.Dec && constArith(x.X)
	case *syntax.ParenArithm:
		return constArith(x.X)
	}
	return false
}

// pureOutput computes what a command substitution prints when it is one
// call of a program that only prints its arguments (echo, printf, pwd,
// dirname, basename) with known arguments: `rm -rf $(echo /)` removes /.
func (x *expander) pureOutput(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	st := cs.Stmts[0]
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(st.Redirs) > 0 || st.Background || st.Negated || len(c.Assigns) > 0 || len(c.Args) == 0 {
		return "", false
	}
	var args []string
	for _, a := range c.Args {
		vals, glob := x.fields(a)
		if glob {
			return "", false
		}
		for _, v := range vals {
			if strings.IndexByte(v, opaque) >= 0 {
				return "", false
			}
		}
		args = append(args, vals...)
	}
	if x.noPure || x.shadowed[args[0]] {
		return "", false // a function of the same name prints what it likes
	}
	out, ok := printOnly(args, x.env.pwd)
	return strings.TrimRight(out, "\n"), ok
}

// printOnly runs the programs whose output depends only on their arguments.
func printOnly(args []string, pwd string) (string, bool) {
	rest := args[1:]
	switch args[0] {
	case "echo":
		newline := true
		for len(rest) > 0 && (rest[0] == "-n" || rest[0] == "-E" || rest[0] == "-e") {
			if rest[0] == "-n" {
				newline = false
			}
			if rest[0] == "-e" && strings.Contains(strings.Join(rest, " "), `\`) {
				return "", false
			}
			rest = rest[1:]
		}
		out := strings.Join(rest, " ")
		if newline {
			out += "\n"
		}
		return out, true
	case "printf":
		if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
			return "", false
		}
		return safeFormat(rest[0], rest[1:])
	case "pwd":
		return pwd, pwd != "" && len(rest) == 0
	case "dirname", "basename":
		if len(rest) != 1 || strings.HasPrefix(rest[0], "-") {
			return "", false
		}
		p := rest[0]
		if t := strings.TrimRight(p, "/"); t != "" {
			p = t
		} else if p != "" {
			p = "/"
		}
		if args[0] == "dirname" {
			return path.Dir(p), true
		}
		return path.Base(p), true
	}
	return "", false
}

// assignOp reports whether op assigns to its left operand.
func assignOp(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn,
		syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn,
		syntax.ShrAssgn, syntax.AndBoolAssgn, syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
		return true
	}
	return false
}

// safeFormat runs printf's formatting as bash's builtin would, reporting
// false for a format it cannot run (or that makes expand panic).
func safeFormat(format string, args []string) (out string, ok bool) {
	defer func() {
		if recover() != nil {
			out, ok = "", false
		}
	}()
	out, _, err := expand.Format(nil, format, args)
	return out, err == nil
}
