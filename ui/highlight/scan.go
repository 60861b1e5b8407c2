package highlight

import (
	"strings"
	"unicode/utf8"
)

// scanner splits one line into spans by its language's table.
type scanner struct {
	line string
	lang *language
	st   *state
	i    int // next byte to read
	out  []Span

	lastStart, lastEnd int // where the last span lies in the line
}

// emit adds line[from:to] as a span of kind k, joining it to the last span
// when that has the same kind and ends where this one starts.
func (s *scanner) emit(k Kind, from, to int) {
	if to <= from {
		return
	}
	if n := len(s.out); n > 0 && s.out[n-1].Kind == k && s.lastEnd == from {
		s.out[n-1].Text = s.line[s.lastStart:to]
	} else {
		s.out = append(s.out, Span{k, s.line[from:to]})
		s.lastStart = from
	}
	s.lastEnd = to
}

// prompt handles a console transcript line: a "$ " or "% " prompt is Meta
// and what follows is a command; any other line is the command's output.
func (s *scanner) prompt() bool {
	for _, p := range []string{"$ ", "% ", "# ", "> "} {
		if strings.HasPrefix(s.line, p) || s.line == strings.TrimSpace(p) {
			n := min(len(p), len(s.line))
			s.emit(Meta, 0, n)
			s.i = n
			return true
		}
	}
	return false
}

// code scans a line of a programming or data language.
func (s *scanner) code() {
	l := s.lang
	line := s.line
	if s.st.comment > 0 && !s.closeComment() {
		return
	}
	if s.st.str > 0 && !s.closeString(l.strings[s.st.str-1], s.i) {
		return
	}
	if l.hashMeta {
		if t := strings.TrimLeft(line[s.i:], " \t"); strings.HasPrefix(t, "#") && s.i == 0 {
			s.emit(Meta, 0, len(line))
			return
		}
	}
	if l.sectionMeta {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			s.emit(Meta, 0, len(line))
			return
		}
	}
	first := true // no word seen yet on this line
	for s.i < len(line) {
		c := line[s.i]
		start := s.i
		switch {
		case c == ' ' || c == '\t':
			for s.i < len(line) && (line[s.i] == ' ' || line[s.i] == '\t') {
				s.i++
			}
			s.emit(Plain, start, s.i)
			continue
		case s.openComment():
			if !s.closeComment() {
				return
			}
			continue
		case s.lineComment():
			s.emit(Comment, start, len(line))
			s.i = len(line)
			return
		}
		if d, ok := s.openString(); ok {
			kind := String
			if !s.closeString(l.strings[d], s.i) {
				return
			}
			if l.keySep != 0 && (first || l.keyAnywhere) && s.followedBy(l.keySep) {
				kind = Key
				s.relabel(start, kind)
			}
			first = false
			continue
		}
		switch {
		case l.atMeta && c == '@' && s.i+1 < len(line) && isIdentStart(line[s.i+1], l):
			s.i++
			s.readIdent()
			s.emit(Meta, start, s.i)
		case l.varPrefix && c == '$' && s.i+1 < len(line):
			s.variable()
		case isDigit(c) || c == '.' && s.i+1 < len(line) && isDigit(line[s.i+1]) && (s.i == 0 || !isIdentChar(line[s.i-1], l)):
			s.number()
		case isIdentStart(c, l):
			s.readIdent()
			s.emit(s.classify(start, first), start, s.i)
		default:
			s.i++
			s.emit(Plain, start, s.i)
			continue // punctuation does not end the first word's place
		}
		first = false
	}
}

// relabel gives the text from `from` to the cursor, the end of the last
// span, the kind k.
func (s *scanner) relabel(from int, k Kind) {
	n := len(s.out)
	if n == 0 || s.lastEnd != s.i || from < s.lastStart {
		return
	}
	if s.lastStart == from {
		s.out[n-1].Kind = k
		return
	}
	s.out[n-1].Text = s.line[s.lastStart:from]
	s.out = append(s.out, Span{k, s.line[from:s.i]})
	s.lastStart = from
}

// followedBy reports whether the next character after spaces is c.
func (s *scanner) followedBy(c byte) bool {
	j := s.i
	for j < len(s.line) && (s.line[j] == ' ' || s.line[j] == '\t') {
		j++
	}
	return j < len(s.line) && s.line[j] == c && (c != ':' || j+1 >= len(s.line) || s.line[j+1] != ':')
}

// classify decides what a word is.
func (s *scanner) classify(start int, first bool) Kind {
	l := s.lang
	w := s.line[start:s.i]
	if l.caseFold {
		w = strings.ToLower(w)
	}
	if !l.firstWordKeywords || first {
		if l.words().keywords[w] {
			return Keyword
		}
	}
	if l.keySep != 0 && (first || l.keyAnywhere) && s.followedBy(l.keySep) {
		return Key
	}
	ws := l.words()
	switch {
	case ws.types[w]:
		return Type
	case ws.constants[w]:
		return Constant
	}
	if s.i < len(s.line) && s.line[s.i] == '(' {
		return Function
	}
	if l.capitalTypes && w[0] >= 'A' && w[0] <= 'Z' {
		return Type
	}
	return Plain
}

func (s *scanner) readIdent() {
	for s.i < len(s.line) && isIdentChar(s.line[s.i], s.lang) {
		s.i++
	}
}

// number reads a numeric literal: digits, a radix prefix, a fraction, an
// exponent with its sign, a type suffix, digit separators.
func (s *scanner) number() {
	start := s.i
	line := s.line
	for s.i < len(line) {
		c := line[s.i]
		switch {
		case isDigit(c) || isLetter(c) || c == '_':
			s.i++
		case c == '.' && s.i+1 < len(line) && isDigit(line[s.i+1]):
			s.i++
		case (c == '+' || c == '-') && s.i > start && (line[s.i-1] == 'e' || line[s.i-1] == 'E') &&
			!strings.HasPrefix(strings.ToLower(line[start:s.i]), "0x"):
			s.i++
		default:
			s.emit(Number, start, s.i)
			return
		}
	}
	s.emit(Number, start, s.i)
}

// variable reads a shell, PHP or make variable: $name, ${...}, $(...), $1.
func (s *scanner) variable() {
	start := s.i
	s.i++ // $
	line := s.line
	switch c := line[s.i]; {
	case c == '{' || c == '(':
		closer := byte('}')
		if c == '(' {
			closer = ')'
		}
		if j := strings.IndexByte(line[s.i:], closer); j >= 0 {
			s.i += j + 1
		} else {
			s.i = len(line)
		}
	case isIdentStart(c, s.lang) || isDigit(c):
		for s.i < len(line) && (isDigit(line[s.i]) || isLetter(line[s.i]) || line[s.i] == '_') {
			s.i++
		}
	case strings.IndexByte("@?#*!$<^-", c) >= 0:
		s.i++
	default:
		s.emit(Plain, start, s.i)
		return
	}
	s.emit(Constant, start, s.i)
}

// openComment reports whether a block comment opens at the cursor, and
// records it as open.
func (s *scanner) openComment() bool {
	for k, bc := range s.lang.blockComments {
		if bc.lineStart && s.i != 0 {
			continue
		}
		if strings.HasPrefix(s.line[s.i:], bc.open) {
			s.st.comment = k + 1
			s.emit(Comment, s.i, s.i+len(bc.open))
			s.i += len(bc.open)
			return true
		}
	}
	return false
}

// closeComment reads the open block comment up to its end. It reports
// false when the comment runs past the end of the line.
func (s *scanner) closeComment() bool {
	bc := s.lang.blockComments[s.st.comment-1]
	start := s.i
	j := strings.Index(s.line[s.i:], bc.close)
	if j < 0 || bc.lineStart && s.i+j != 0 {
		s.emit(Comment, start, len(s.line))
		s.i = len(s.line)
		return false
	}
	s.i += j + len(bc.close)
	s.emit(Comment, start, s.i)
	s.st.comment = 0
	return true
}

// lineComment reports whether a comment to the end of the line starts at
// the cursor.
func (s *scanner) lineComment() bool {
	for _, p := range s.lang.lineComments {
		if !strings.HasPrefix(s.line[s.i:], p) {
			continue
		}
		// In shells and data files # starts a comment only as a word
		// of its own: "a#b" and "${#x}" are not comments.
		if s.lang.commentAfterSpace && s.i > 0 && s.line[s.i-1] != ' ' && s.line[s.i-1] != '\t' {
			continue
		}
		return true
	}
	return false
}

// openString reports which string delimiter opens at the cursor, the
// longest first, and moves past it.
func (s *scanner) openString() (int, bool) {
	for k, d := range s.lang.strings {
		if !strings.HasPrefix(s.line[s.i:], d.open) {
			continue
		}
		if d.char && !s.charLiteral(d) {
			continue
		}
		s.emit(String, s.i, s.i+len(d.open))
		s.i += len(d.open)
		s.st.str = k + 1
		return k, true
	}
	return 0, false
}

// charLiteral reports whether a char delimiter at the cursor holds one
// character or one escape and closes, as 'a' and '\n' do; Rust's
// lifetimes ('a) do not close.
func (s *scanner) charLiteral(d delim) bool {
	j := s.i + len(d.open)
	if j >= len(s.line) {
		return false
	}
	if s.line[j] == '\\' {
		k := strings.Index(s.line[j+1:min(len(s.line), j+12)], d.close)
		return k > 0
	}
	_, n := utf8.DecodeRuneInString(s.line[j:])
	return strings.HasPrefix(s.line[j+n:], d.close)
}

// closeString reads the body of the open string from `from` to its
// closing delimiter. It reports false when the string runs past the end of
// the line; a single-line string then ends there.
func (s *scanner) closeString(d delim, from int) bool {
	line := s.line
	j := from
	for j < len(line) {
		if d.escape && line[j] == '\\' {
			j += 2
			continue
		}
		if strings.HasPrefix(line[j:], d.close) {
			j += len(d.close)
			s.emit(String, from, j)
			s.i = j
			s.st.str = 0
			return true
		}
		j++
	}
	s.emit(String, from, len(line))
	s.i = len(line)
	if !d.multiline {
		s.st.str = 0
	}
	return false
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// isIdentStart: letters, _, any byte of a non-ASCII character, and the
// language's extra characters ($ in JavaScript).
func isIdentStart(c byte, l *language) bool {
	return isLetter(c) || c == '_' || c >= 0x80 || strings.IndexByte(l.identStart, c) >= 0
}

func isIdentChar(c byte, l *language) bool {
	return isIdentStart(c, l) || isDigit(c) || strings.IndexByte(l.identExtra, c) >= 0
}
