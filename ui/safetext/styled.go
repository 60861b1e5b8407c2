package safetext

import "strings"

// MarkStyled is Mark for a line that already carries escape sequences of
// its own, such as a line glamour rendered: the sequences (CSI, among them
// the colours, and OSC, among them hyperlinks) are kept as they are and
// only the text between them is marked. Renderers pass invisible
// characters through untouched, so marking after rendering is what keeps
// Markdown and its code blocks intact while still showing every bidi
// control and zero-width character. Only use it on text whose sequences
// this program wrote; text from outside goes through Mark, which escapes
// ESC itself.
func MarkStyled(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\x1b')
		if i < 0 {
			b.WriteString(Mark(s))
			break
		}
		b.WriteString(Mark(s[:i]))
		n := sequenceLen(s[i:])
		b.WriteString(s[i : i+n])
		s = s[i+n:]
	}
	return b.String()
}

// sequenceLen returns the length of the escape sequence s starts with: a
// CSI up to its final byte, an OSC up to BEL or ST, otherwise ESC and the
// byte after it. An unterminated sequence runs to the end of s.
func sequenceLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for j := 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1
			}
		}
		return len(s)
	case ']':
		for j := 2; j < len(s); j++ {
			if s[j] == '\a' {
				return j + 1
			}
			if s[j] == '\x1b' && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	return 2
}
