package permission

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Some of what bash does with a line is decided by values the analysis
// cannot know: an arithmetic expression evaluates the value of every
// variable it names as arithmetic again, so `x='a[$(touch P)]'; echo $((x))`
// runs touch; `${!x}` and `${x@P}` expand a name or a prompt taken from a
// value; an extended glob pattern holds command substitutions the parser
// keeps as text. scanUnknown finds such constructs. Each makes the line
// unknown, and an unknown line asks in every mode (H15).

// scanUnknown returns why f holds a construct whose effect is only known
// when it runs, or "" when there is none.
func scanUnknown(f *syntax.File) string {
	s := &unknownScan{strNames: stringAssigned(f)}
	s.walk(f, nil)
	return s.reason
}

type unknownScan struct {
	reason string
	// strNames are the variables the line may give a string value; nil
	// when a builtin may assign any variable (read, eval, declare...).
	strNames map[string]bool
}

// varSetters are builtins that can assign variables named in their
// arguments or in code they run.
var varSetters = map[string]bool{
	"eval": true, "source": true, ".": true, "read": true, "mapfile": true, "readarray": true,
	"printf": true, "getopts": true, "wait": true, "trap": true,
}

// stringAssigned collects the names the line assigns outside arithmetic,
// or returns nil when it cannot tell.
func stringAssigned(f *syntax.File) map[string]bool {
	names := map[string]bool{}
	all := false
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name != nil {
				names[n.Name.Value] = true
			}
		case *syntax.WordIter:
			names[n.Name.Value] = true
		case *syntax.DeclClause:
			all = true
		case *syntax.CallExpr:
			if len(n.Args) > 0 && varSetters[n.Args[0].Lit()] {
				all = true
			}
		}
		return !all
	})
	if all {
		return nil
	}
	return names
}

func (s *unknownScan) flag(why string) {
	if s.reason == "" {
		s.reason = why
	}
}

// Reasons an unknown part gives, for messages.
const (
	whyArithmetic  = "an arithmetic expression evaluates a value only known when it runs (bash evaluates array subscripts in it, which can run commands)"
	whyIndirect    = "${!name} expands a variable whose name is only known when it runs"
	whyPrompt      = "${name@P} expands a value as a prompt, which can run commands"
	whyExtGlob     = "an extended glob pattern holds an expansion the analysis cannot see into"
	whyShopt       = "shopt changes how later words are read (extglob, expand_aliases)"
	whyNameRef     = "declare -n and -i make later assignments and expansions evaluate values"
	whyVarName     = "a builtin takes a variable name (with a subscript bash evaluates) only known when it runs"
	whyIFS         = "IFS is changed, so the words of later expansions cannot be known"
	whyNode        = "the line uses shell syntax the analysis does not handle"
	whyQuotedParam = "single quotes inside a double-quoted ${...} are plain characters to bash, so the expansions between them run"
)

// walk checks every node under n. ints are the variables known to hold
// integers here (the counters a C-style for loop sets itself).
func (s *unknownScan) walk(n syntax.Node, ints map[string]bool) {
	syntax.Walk(n, func(n syntax.Node) bool {
		if s.reason != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.WordIter:
			if n.Name != nil && n.Name.Value == "IFS" {
				s.flag(whyIFS)
			}
		case nil, *syntax.File, *syntax.Comment, *syntax.Stmt, *syntax.CallExpr,
			*syntax.Subshell, *syntax.Block, *syntax.IfClause, *syntax.WhileClause,
			*syntax.BinaryCmd, *syntax.FuncDecl, *syntax.Word, *syntax.Lit,
			*syntax.SglQuoted, *syntax.CmdSubst, *syntax.CaseClause,
			*syntax.CaseItem, *syntax.ArrayExpr, *syntax.ProcSubst, *syntax.TimeClause,
			*syntax.CoprocClause, *syntax.ParenTest, *syntax.BraceExp:
		case *syntax.ForClause:
			if loop, ok := n.Loop.(*syntax.CStyleLoop); ok {
				inner := loopInts(loop, ints, s.strNames)
				s.arith(loop.Init, inner)
				s.arith(loop.Cond, inner)
				s.arith(loop.Post, inner)
				for _, st := range n.Do {
					s.walk(st, inner)
				}
				return false
			}
		case *syntax.DblQuoted:
			if quotesInQuotedParam(n.Parts) {
				s.flag(whyQuotedParam)
			}
		case *syntax.Redirect:
			// A here-document's body is read like a double-quoted word.
			if n.Hdoc != nil && quotesInQuotedParam(n.Hdoc.Parts) {
				s.flag(whyQuotedParam)
			}
		case *syntax.CStyleLoop:
		case *syntax.Assign:
			if n.Name != nil && n.Name.Value == "IFS" {
				s.flag(whyIFS)
			}
			s.arith(n.Index, ints)
		case *syntax.ArrayElem:
			s.arith(n.Index, ints)
		case *syntax.ArithmExp:
			s.arith(n.X, ints)
		case *syntax.ArithmCmd:
			s.arith(n.X, ints)
		case *syntax.LetClause:
			for _, x := range n.Exprs {
				s.arith(x, ints)
			}
		case *syntax.ParamExp:
			s.param(n, ints)
		case *syntax.BinaryArithm, *syntax.UnaryArithm, *syntax.ParenArithm:
			// Reached only through nodes already checked by arith.
		case *syntax.TestClause:
		case *syntax.BinaryTest:
			switch n.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
				// [[ a -eq b ]] evaluates both sides as arithmetic.
				s.arithOperand(n.X, ints)
				s.arithOperand(n.Y, ints)
			}
		case *syntax.UnaryTest:
			if n.Op == syntax.TsVarSet || n.Op == syntax.TsRefVar {
				// [[ -v a[i] ]] evaluates the subscript.
				if w, ok := n.X.(*syntax.Word); !ok || !plainName(w) {
					s.flag(whyVarName)
				}
			}
		case *syntax.DeclClause:
			s.decl(n)
		case *syntax.ExtGlob:
			if n.Pattern != nil && strings.ContainsAny(n.Pattern.Value, "$`") {
				s.flag(whyExtGlob)
			}
		default:
			// FlagsArithm (zsh), TestDecl (bats) and anything a later
			// parser version adds.
			s.flag(whyNode)
		}
		return s.reason == ""
	})
	if s.reason == "" {
		s.calls(n)
	}
}

// calls checks the builtins whose arguments are variable names or options
// that change how bash reads words.
func (s *unknownScan) calls(n syntax.Node) {
	syntax.Walk(n, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 || s.reason != "" {
			return s.reason == ""
		}
		name := c.Args[0].Lit()
		switch name {
		case "shopt":
			set := false
			for _, a := range c.Args[1:] {
				v := a.Lit()
				switch {
				case v == "":
					s.flag(whyShopt) // not a plain word
				case v == "-s":
					set = true
				case set && (v == "extglob" || v == "expand_aliases"):
					s.flag(whyShopt)
				}
			}
		case "read", "mapfile", "readarray", "unset", "printf", "test", "[", "getopts", "wait":
			for i, a := range c.Args[1:] {
				if name == "printf" && (i == 0 || c.Args[i].Lit() != "-v") {
					continue // only printf -v NAME names a variable
				}
				if name == "mapfile" || name == "readarray" {
					if a.Lit() == "-C" {
						s.flag(whyVarName) // a callback run as a command
					}
				}
				if (name == "test" || name == "[") && c.Args[i].Lit() != "-v" && c.Args[i].Lit() != "-R" {
					continue
				}
				if !safeNameArg(a) {
					s.flag(whyVarName)
				}
			}
		case "bash", "sh":
			for i, a := range c.Args[1:] {
				if a.Lit() == "-O" && i+2 < len(c.Args) {
					if v := c.Args[i+2].Lit(); v == "extglob" || v == "expand_aliases" || v == "" {
						s.flag(whyShopt)
					}
				}
			}
		}
		return true
	})
}

// safeNameArg reports whether a word passed where a variable name may be is
// a literal without a subscript bash would evaluate.
func safeNameArg(w *syntax.Word) bool {
	v, ok := literalWord(w)
	return ok && safeSubscript(v)
}

// safeSubscript reports whether a variable name, as a builtin takes it,
// has no subscript or an integer constant one.
func safeSubscript(v string) bool {
	i := strings.IndexByte(v, '[')
	if i < 0 {
		return true
	}
	j := strings.LastIndexByte(v, ']')
	return j > i && intLiteral.MatchString(v[i+1:j])
}

// decl checks declare, typeset, local, export and readonly.
func (s *unknownScan) decl(d *syntax.DeclClause) {
	for _, a := range d.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			v, ok := literalWord(a.Value)
			switch {
			case !ok:
				// `declare "$x"`: the value may be an assignment
				// with a subscript.
				s.flag(whyVarName)
			case strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+"):
				if strings.ContainsAny(v[1:], "ni") {
					s.flag(whyNameRef)
				}
			default:
				// `declare 'a[$(cmd)]=1'`: a quoted assignment's
				// subscript is evaluated like an unquoted one's.
				name, _, _ := strings.Cut(v, "=")
				if !safeSubscript(name) {
					s.flag(whyVarName)
				}
			}
		}
	}
}

// param checks one parameter expansion.
func (s *unknownScan) param(p *syntax.ParamExp, ints map[string]bool) {
	switch {
	case p.Flags != nil || p.Width || p.IsSet || p.NestedParam != nil || len(p.Modifiers) > 0 ||
		p.Split != syntax.OptUnset || p.GlobSubst != syntax.OptUnset || p.RcExpand != syntax.OptUnset:
		s.flag(whyNode)
	case p.Excl && p.Names == 0 && !listIndex(p.Index):
		s.flag(whyIndirect)
	case p.Exp != nil && p.Exp.Op == syntax.OtherParamOps && p.Exp.Word != nil && strings.Contains(p.Exp.Word.Lit(), "P"):
		s.flag(whyPrompt)
	}
	if !listIndex(p.Index) {
		s.arith(p.Index, ints)
	}
	if p.Slice != nil {
		s.arith(p.Slice.Offset, ints)
		s.arith(p.Slice.Length, ints)
	}
}

// listIndex reports whether an index is [@] or [*], which lists the array
// rather than evaluating anything.
func listIndex(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	if !ok {
		return false
	}
	l := w.Lit()
	return l == "@" || l == "*"
}

// intLiteral matches the integer constants of bash arithmetic.
var intLiteral = regexp.MustCompile(`^(?:[0-9]+|0[xX][0-9a-fA-F]+|[0-9]+#[0-9a-zA-Z@_]+)$`)

// specialInts are parameters bash itself always sets to a number.
var specialInts = map[string]bool{"#": true, "?": true, "$": true, "!": true}

// arith checks an arithmetic expression: safe when its operands are
// integer constants or variables known to hold integers here.
func (s *unknownScan) arith(x syntax.ArithmExpr, ints map[string]bool) {
	if x == nil || s.reason != "" {
		return
	}
	switch x := x.(type) {
	case *syntax.Word:
		if !arithWordSafe(x, ints) {
			s.flag(whyArithmetic)
		}
	case *syntax.BinaryArithm:
		s.arith(x.X, ints)
		s.arith(x.Y, ints)
	case *syntax.UnaryArithm:
		s.arith(x.X, ints)
	case *syntax.ParenArithm:
		s.arith(x.X, ints)
	default:
		s.flag(whyNode)
	}
}

// arithOperand checks a [[ ]] operand that bash evaluates as arithmetic.
func (s *unknownScan) arithOperand(x syntax.TestExpr, ints map[string]bool) {
	w, ok := x.(*syntax.Word)
	if !ok {
		return // a nested test, checked on its own
	}
	if !arithWordSafe(w, ints) {
		s.flag(whyArithmetic)
	}
}

// arithWordSafe reports whether one arithmetic operand is an integer
// constant or names (plainly, or as $name) a variable known to hold one.
func arithWordSafe(w *syntax.Word, ints map[string]bool) bool {
	if len(w.Parts) != 1 {
		return false
	}
	switch p := w.Parts[0].(type) {
	case *syntax.Lit:
		return intLiteral.MatchString(p.Value) || ints[p.Value]
	case *syntax.ParamExp:
		return p.Param != nil && simpleParam(p) && (ints[p.Param.Value] || specialInts[p.Param.Value])
	}
	return false
}

// simpleParam reports whether p is a plain $name or ${name}.
func simpleParam(p *syntax.ParamExp) bool {
	return p.Param != nil && p.Flags == nil && !p.Excl && !p.Length && !p.Width && !p.IsSet &&
		p.NestedParam == nil && p.Index == nil && len(p.Modifiers) == 0 && p.Slice == nil &&
		p.Repl == nil && p.Names == 0 && p.Exp == nil &&
		p.Split == syntax.OptUnset && p.GlobSubst == syntax.OptUnset && p.RcExpand == syntax.OptUnset
}

// loopInts returns the integers known inside a C-style loop: the names its
// own initialisation assigns a safe value, unless the line assigns them a
// string somewhere (then `i++` would evaluate that string).
func loopInts(loop *syntax.CStyleLoop, outer, strNames map[string]bool) map[string]bool {
	inner := make(map[string]bool, len(outer)+2)
	for k := range outer {
		inner[k] = true
	}
	if strNames == nil {
		return inner
	}
	var collect func(x syntax.ArithmExpr)
	collect = func(x syntax.ArithmExpr) {
		b, ok := x.(*syntax.BinaryArithm)
		if !ok {
			return
		}
		if b.Op == syntax.Comma {
			collect(b.X)
			collect(b.Y)
			return
		}
		if w, ok := b.X.(*syntax.Word); ok && b.Op == syntax.Assgn {
			if y, ok := b.Y.(*syntax.Word); ok && arithWordSafe(y, inner) && syntax.ValidName(w.Lit()) && !strNames[w.Lit()] {
				inner[w.Lit()] = true
			}
		}
	}
	collect(loop.Init)
	return inner
}

// plainName reports whether w is a literal variable name with no subscript.
func plainName(w *syntax.Word) bool {
	v, ok := literalWord(w)
	return ok && syntax.ValidName(v)
}

// literalWord returns the value of a word made only of literal text and
// quotes, with no expansion.
func literalWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	if !literalParts(&b, w.Parts) {
		return "", false
	}
	return b.String(), true
}

func literalParts(b *strings.Builder, parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if strings.IndexByte(v, '\\') >= 0 {
				return false // escapes: let expand say what they mean
			}
			b.WriteString(v)
		case *syntax.SglQuoted:
			if p.Dollar {
				return false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if !literalParts(b, p.Parts) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// quotesInQuotedParam reports whether a double-quoted word (or a
// here-document's body) holds a ${...}
// whose word has single quotes around an expansion: bash takes those
// quotes as plain characters there and runs what is between them
// (`"${x:-'$(touch P)'}"`), while the parser reads them as quotes. A
// command substitution inside starts a context of its own and is checked
// when the walk reaches it.
func quotesInQuotedParam(parts []syntax.WordPart) bool {
	found := false
	inWord := func(w *syntax.Word) {
		if w == nil {
			return
		}
		for _, p := range w.Parts {
			switch p := p.(type) {
			case *syntax.SglQuoted:
				if strings.ContainsAny(p.Value, "$`") {
					found = true
				}
			case *syntax.DblQuoted:
				found = found || quotesInQuotedParam(p.Parts)
			}
		}
	}
	for _, part := range parts {
		syntax.Walk(part, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				return false
			case *syntax.ParamExp:
				if n.Exp != nil {
					inWord(n.Exp.Word)
				}
				if n.Repl != nil {
					inWord(n.Repl.Orig)
					inWord(n.Repl.With)
				}
			}
			return !found
		})
	}
	return found
}
