package approval

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"mvdan.cc/sh/v3/syntax"
)

const (
	// blankFoldLines is the shortest run of blank lines folded into a
	// marker: one or two are layout, more push the rest of the command out
	// of sight.
	blankFoldLines = 3
	// heredocFoldLines is the longest here-document shown as it is; a
	// longer one is data the person can expand, and folding it keeps the
	// command after it on screen.
	heredocFoldLines = 8
	// gapFoldWidth is the shortest run of spaces inside a line folded into
	// a marker, so a line padded to push its end off the screen reads as
	// what it is.
	gapFoldWidth = 24
)

// segment is a line of a command as the body shows it, or a marker that
// stands for lines folded away.
type segment struct {
	text   string
	marker string
}

// foldCommand splits a command into its lines, folding runs of blank lines
// and long here-documents into markers ("⋯ 60 blank lines ⋯") unless
// expanded. The here-documents are found by the shell parser, so a "<<"
// inside quotes folds nothing; a command that does not parse folds only
// its blank runs.
func foldCommand(cmd string, expanded bool) []segment {
	lines := splitLines(cmd)
	if expanded {
		out := make([]segment, len(lines))
		for i, l := range lines {
			out[i] = segment{text: l}
		}
		return out
	}
	docs := heredocs(cmd)
	var out []segment
	for i := 0; i < len(lines); {
		if end, ok := docs[i]; ok && end-i >= heredocFoldLines {
			n := end - i
			out = append(out, segment{marker: fmt.Sprintf("⋯ here-document, %s %s ⋯", thousands(n), plural(n, "line", "lines"))})
			i = end
			continue
		}
		j := i
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if n := j - i; n >= blankFoldLines {
			out = append(out, segment{marker: fmt.Sprintf("⋯ %s blank lines ⋯", thousands(n))})
			i = j
			continue
		}
		out = append(out, segment{text: lines[i]})
		i++
	}
	return out
}

// heredocs maps the first body line of each here-document in cmd (0-based)
// to the line after its body, where the terminator is.
func heredocs(cmd string) map[int]int {
	f, err := syntax.NewParser().Parse(strings.NewReader(cmd), "")
	if err != nil {
		return nil
	}
	docs := map[int]int{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if r, ok := n.(*syntax.Redirect); ok && r.Hdoc != nil && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) {
			from, to := int(r.Hdoc.Pos().Line())-1, int(r.Hdoc.End().Line())-1
			if to > from {
				docs[from] = to
			}
		}
		return true
	})
	return docs
}

// gapRun finds the runs of spaces gapFoldWidth wide or wider.
var gapRun = regexp.MustCompile(` {` + fmt.Sprint(gapFoldWidth) + `,}`)

// Italic on and off, for a marker inside a line: switched off with its own
// code, so the line's colour and weight carry on after it.
const (
	inlineOn  = "\x1b[3m"
	inlineOff = "\x1b[23m"
)

// wrapCode wraps one line of code to width, shown safely (visible), with
// wide runs of spaces folded into "⋯ 300 spaces ⋯" when fold is set. Code
// is never cut: what is hidden cannot be reviewed.
func wrapCode(line string, width int, fold bool) []string {
	l := visible(line)
	if l == "" {
		return []string{""}
	}
	if fold {
		l = gapRun.ReplaceAllStringFunc(l, func(gap string) string {
			return " " + inlineOn + "⋯ " + thousands(len(gap)) + " spaces ⋯" + inlineOff + " "
		})
	}
	return strings.Split(ansi.Wrap(l, max(1, width), ""), "\n")
}

// programs lists the programs a command's parts run, each once, in order:
// the first word of each part as written (`sudo`, `./build.sh`, `$EDITOR`).
func programs(parts []commandPart) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range parts {
		name := programOf(p.text)
		if name != "" && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

// programOf is the first word of a simple command, unquoted when it is a
// plain literal ("rm" and 'rm' are rm) and printed as written otherwise.
func programOf(part string) string {
	f, err := syntax.NewParser().Parse(strings.NewReader(part), "")
	if err != nil {
		fields := strings.Fields(part)
		if len(fields) == 0 {
			return ""
		}
		return fields[0]
	}
	var word *syntax.Word
	syntax.Walk(f, func(n syntax.Node) bool {
		if word != nil {
			return false
		}
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			word = c.Args[0]
			return false
		}
		return true
	})
	if word == nil {
		return ""
	}
	if lit, ok := literal(word); ok {
		return lit
	}
	var b strings.Builder
	if syntax.NewPrinter().Print(&b, word) != nil {
		return ""
	}
	return b.String()
}

// literal is the value of a word made only of literal text and quotes.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(strings.ReplaceAll(p.Value, `\`, ""))
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(lit.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// fileWrites lists the files a command's redirections write, as written
// (`~/.bashrc`, `"$f"`), each once: the parts rules see leave redirections
// out, so `cat > ~/.bashrc <<EOF` would read as just `cat`. /dev/null is
// left out, and so are duplications onto a descriptor (`>&2`). Only what
// the parser sees at the top level is listed; a `bash -c` string is one
// word to it.
func fileWrites(cmd string) []string {
	f, err := syntax.NewParser().Parse(strings.NewReader(cmd), "")
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		r, ok := n.(*syntax.Redirect)
		if !ok || r.Word == nil {
			return true
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrInOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll, syntax.DplOut:
		default:
			return true
		}
		var b strings.Builder
		if syntax.NewPrinter().Print(&b, r.Word) != nil {
			return true
		}
		target := b.String()
		if lit, ok := literal(r.Word); ok {
			target = lit
		}
		if r.Op == syntax.DplOut && (target == "-" || strings.Trim(target, "0123456789") == "") {
			return true
		}
		if target != "/dev/null" && !seen[target] {
			seen[target] = true
			out = append(out, target)
		}
		return true
	})
	return out
}
