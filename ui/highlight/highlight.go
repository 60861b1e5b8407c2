// Package highlight colours source code in the code blocks of model
// replies. It replaces a general highlighter whose registries of styles and
// lexers cost more than twenty milliseconds of every start, before the
// first frame, whether a reply ever held code or not. Here a language is a
// small table (keywords, comment syntax, string delimiters) read by one
// scanner, and nothing is built until a block in that language is drawn.
//
// A Highlighter reads a block line by line and carries what is open at a
// line's end (a block comment, a multi-line string, a markup tag) into the
// next, so the lines of a block can be drawn as they come. It never
// panics: the text is the model's and can be anything.
package highlight

import "strings"

// Kind is what a span of code is, which decides its colour. The renderer
// maps kinds to the theme's colours, so this package knows no colours.
type Kind uint8

// The kinds of span. Plain is drawn in the terminal's own colour.
const (
	Plain Kind = iota
	Keyword
	Type
	Constant
	Function
	String
	Number
	Comment
	Meta // preprocessor lines, decorators, prompts, file headers of a diff
	Tag
	Attribute
	Key
	Added
	Removed
	Hunk
)

// Span is a run of text of one kind. The text is a part of the line given
// to Line, unchanged, so the spans of a line join to the line again.
type Span struct {
	Kind Kind
	Text string
}

// Highlighter highlights the lines of one code block in one language. The
// zero value and a nil *Highlighter highlight nothing (every line is one
// Plain span).
type Highlighter struct {
	lang *language
	st   state
}

// state is what a line leaves open for the next one.
type state struct {
	comment int  // 1 + index of the open block comment, or 0
	str     int  // 1 + index of the open multi-line string, or 0
	tag     bool // inside a markup tag
}

// New returns a highlighter for the language a code fence's info string
// names: its first word, case-insensitive, by name or alias ("go",
// "golang", "ts", "Bash", "c++"). An unknown or empty name gives a
// highlighter that leaves text plain.
func New(info string) *Highlighter {
	return &Highlighter{lang: lookup(info)}
}

// Known reports whether info names a language this package highlights.
func Known(info string) bool { return lookup(info) != nil }

// lookup finds the language of an info string's first word.
func lookup(info string) *language {
	name := strings.ToLower(firstWord(info))
	name = strings.TrimPrefix(strings.Trim(name, "{}"), ".") // {.go} and .go, as some writers label
	if name == "" {
		return nil
	}
	for _, l := range languages {
		for _, n := range strings.Fields(l.names) {
			if n == name {
				return l
			}
		}
	}
	return nil
}

func firstWord(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t,{"); i > 0 {
		s = s[:i]
	}
	return s
}

// Line highlights one line (without its line ending) and returns its
// spans, in order, adjacent spans of one kind joined.
func (h *Highlighter) Line(line string) []Span {
	if h == nil || h.lang == nil || line == "" {
		if line == "" {
			return nil
		}
		return []Span{{Plain, line}}
	}
	s := scanner{line: line, lang: h.lang, st: &h.st}
	switch h.lang.mode {
	case modeDiff:
		return diffLine(line)
	case modeMarkup:
		s.markup()
	default:
		if h.lang.prompt {
			if !s.prompt() {
				return []Span{{Plain, line}}
			}
		}
		s.code()
	}
	return s.out
}

// diffLine colours a line of a unified diff by its first characters.
func diffLine(line string) []Span {
	k := Plain
	switch {
	case strings.HasPrefix(line, "+++ ") || strings.HasPrefix(line, "--- ") ||
		strings.HasPrefix(line, "diff ") || strings.HasPrefix(line, "index "):
		k = Meta
	case strings.HasPrefix(line, "@@"):
		k = Hunk
	case line[0] == '+' || line[0] == '>':
		k = Added
	case line[0] == '-' || line[0] == '<':
		k = Removed
	}
	return []Span{{k, line}}
}
