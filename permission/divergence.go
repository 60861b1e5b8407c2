package permission

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A few byte sequences are read differently by bash and by the parser:
//   - a backslash before CR LF: the parser takes `\<CR><LF>` as a line
//     continuation, bash as an escaped CR followed by the end of the line,
//     so `echo hi\<CR><LF>touch x` runs touch;
//   - a backslash at the end of a comment: the parser continues the
//     comment's line, bash ends the comment at the newline, so
//     `echo x #\<LF>touch x` runs touch.
// Such a line asks in every mode, and deny rules and hard deny judge it
// as bash reads it.

// whyDivergence explains a line the parser and bash read differently.
const whyDivergence = "the line has a backslash before CR LF or at the end of a comment, which bash reads differently from the parser"

// divergentReadings returns the line as bash reads it when the parser may
// read it otherwise, or nil.
func divergentReadings(cmd string) []string {
	var out []string
	if strings.Contains(cmd, "\\\r\n") {
		out = append(out, strings.ReplaceAll(cmd, "\\\r\n", "\r\n"))
	}
	if strings.IndexByte(cmd, '#') >= 0 && strings.Contains(cmd, "\\\n") {
		if v, ok := commentsEndAtNewline(cmd); ok {
			out = append(out, v)
		}
	}
	return out
}

// commentsEndAtNewline returns cmd with the backslash that ends a comment
// removed, as bash reads it, and whether there was one.
func commentsEndAtNewline(cmd string) (string, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		return "", false
	}
	var cuts []int
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.Comment); ok && strings.HasSuffix(c.Text, "\\\n") {
			if at := int(c.End().Offset()) - 2; at >= 0 && at < len(cmd) && cmd[at] == '\\' {
				cuts = append(cuts, at)
			}
		}
		return true
	})
	if len(cuts) == 0 {
		return "", false
	}
	b := []byte(cmd)
	for i := len(cuts) - 1; i >= 0; i-- {
		b = append(b[:cuts[i]], b[cuts[i]+1:]...)
	}
	return string(b), true
}

// divergence makes a line the parser and bash read differently unknown and
// shows deny rules and hard deny what bash will run.
func (w *walker) divergence(readings []string) {
	w.unknownFor(whyDivergence)
	if w.depth >= maxShellDepth {
		return
	}
	for _, v := range readings {
		sub := analyze(v, w.depth+1)
		w.denyFor(sub.deny)
		for _, p := range sub.parts {
			w.a.hidden = append(w.a.hidden, p.text)
			w.a.hidden = append(w.a.hidden, p.extra...)
		}
		w.a.hidden = append(w.a.hidden, sub.hidden...)
	}
}

// whyCR explains a line where the parser took a carriage return beside a
// program's name for a blank.
const whyCR = "a carriage return touches a program's name, which bash keeps in the name (git<CR>status is one program to bash, git and status to the parser)"

// crAsBlank reports whether a carriage return touches the first word of a
// command: the parser takes it for a blank, bash keeps it in the word, so
// the program bash runs is not the one the rules saw (`git<CR>status` ran
// a program named so under Bash(git status:*)). A CR elsewhere only
// changes an argument, and the parser's reading splits more words than
// bash's, which keeps deny rules on the safe side.
func crAsBlank(f *syntax.File, cmd string) bool {
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 || found {
			return !found
		}
		from, to := int(c.Args[0].Pos().Offset()), int(c.Args[0].End().Offset())
		found = (from > 0 && from <= len(cmd) && cmd[from-1] == '\r') || (to < len(cmd) && cmd[to] == '\r')
		return !found
	})
	return found
}
