package permission

import "strings"

// sedScriptWrites reads a sed script far enough to find what it writes:
// the files of `w FILE` and `W FILE` commands and of the s command's w
// flag. ok is false when the script runs commands (`e`, the s command's e
// flag) or holds something this reader does not know, so what it does is
// unknown. Addresses, regular expressions with any delimiter, text
// arguments of a, i and c, labels and braces are skipped as GNU sed reads
// them.
func sedScriptWrites(script string) (files []string, ok bool) {
	files, _, ok = sedScript(script)
	return files, ok
}

// sedScript is sedScriptWrites that also returns the files the script's r
// and R commands read, which Read rules judge.
func sedScript(script string) (files, reads []string, ok bool) {
	s := sedReader{src: script}
	for {
		s.skipSpace(";\n")
		if s.done() {
			return files, reads, true
		}
		if s.peek() == '#' {
			s.toEOL()
			continue
		}
		if !s.address() {
			return nil, reads, false
		}
		s.skipSpace("")
		if s.peek() == ',' {
			s.next()
			s.skipSpace("")
			if !s.address() {
				return nil, reads, false
			}
		}
		s.skipSpace("")
		for s.peek() == '!' {
			s.next()
			s.skipSpace("")
		}
		if s.done() {
			return nil, reads, false
		}
		cmd := s.next()
		switch cmd {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'q', 'Q', 'l', 'L':
			s.skipSpace("")
			for !s.done() && s.peek() >= '0' && s.peek() <= '9' {
				s.next()
			}
		case ':', 'b', 't', 'T':
			s.label()
		case 'a', 'i', 'c':
			s.text()
		case 'r', 'R':
			reads = append(reads, s.filename())
		case 'w', 'W':
			files = append(files, s.filename())
		case 's':
			w, fine := s.substitute()
			if !fine {
				return nil, reads, false
			}
			files = append(files, w...)
		case 'y':
			d := s.next()
			if d == 0 || d == '\\' || d == '\n' || !s.delimited(d) || !s.delimited(d) {
				return nil, reads, false
			}
		default:
			// e runs a command; v, and anything else, is not read here.
			return nil, reads, false
		}
	}
}

type sedReader struct {
	src string
	i   int
}

func (s *sedReader) done() bool { return s.i >= len(s.src) }

func (s *sedReader) peek() byte {
	if s.done() {
		return 0
	}
	return s.src[s.i]
}

func (s *sedReader) next() byte {
	if s.done() {
		return 0
	}
	c := s.src[s.i]
	s.i++
	return c
}

// skipSpace skips blanks and the separators in also.
func (s *sedReader) skipSpace(also string) {
	for !s.done() && (s.peek() == ' ' || s.peek() == '\t' || strings.IndexByte(also, s.peek()) >= 0) {
		s.i++
	}
}

func (s *sedReader) toEOL() string {
	start := s.i
	for !s.done() && s.peek() != '\n' {
		s.i++
	}
	return s.src[start:s.i]
}

// address skips an optional address: a line number (with ~step or +n), $,
// /regex/ or \cregexc, with the I and M modifiers.
func (s *sedReader) address() bool {
	switch c := s.peek(); {
	case c >= '0' && c <= '9':
		for !s.done() && (s.peek() >= '0' && s.peek() <= '9' || s.peek() == '~') {
			s.next()
		}
	case c == '$':
		s.next()
	case c == '+' || c == '~':
		s.next()
		for !s.done() && s.peek() >= '0' && s.peek() <= '9' {
			s.next()
		}
	case c == '/':
		s.next()
		if !s.delimited('/') {
			return false
		}
		s.modifiers()
	case c == '\\':
		s.next()
		d := s.next()
		if d == 0 || d == '\n' || !s.delimited(d) {
			return false
		}
		s.modifiers()
	}
	return true
}

func (s *sedReader) modifiers() {
	for s.peek() == 'I' || s.peek() == 'M' {
		s.next()
	}
}

// delimited skips text up to an unescaped delimiter d and the delimiter.
func (s *sedReader) delimited(d byte) bool {
	for !s.done() {
		c := s.next()
		switch {
		case c == '\\':
			s.next()
		case c == d:
			return true
		case c == '\n' && d != '\n':
			return false
		}
	}
	return false
}

// label skips a label, which ends at a newline or semicolon.
func (s *sedReader) label() {
	for !s.done() && s.peek() != '\n' && s.peek() != ';' {
		s.next()
	}
}

// text skips the text of a, i or c: the rest of the line, with
// backslash-newline continuing it.
func (s *sedReader) text() {
	for !s.done() {
		c := s.next()
		if c == '\\' {
			s.next()
			continue
		}
		if c == '\n' {
			return
		}
	}
}

// filename reads the file name of r, R, w, W or the w flag: the rest of
// the line after blanks.
func (s *sedReader) filename() string {
	s.skipSpace("")
	return s.toEOL()
}

// substitute reads an s command after the s: the regex, the replacement
// and the flags, returning the file of a w flag.
func (s *sedReader) substitute() ([]string, bool) {
	d := s.next()
	if d == 0 || d == '\\' || d == '\n' || !s.delimited(d) || !s.delimited(d) {
		return nil, false
	}
	for !s.done() {
		switch c := s.peek(); {
		case c == 'g' || c == 'p' || c == 'i' || c == 'I' || c == 'm' || c == 'M' || c >= '0' && c <= '9':
			s.next()
		case c == 'w':
			s.next()
			return []string{s.filename()}, true
		case c == 'e':
			return nil, false // runs the pattern space as a command
		case c == ';' || c == '\n' || c == '}' || c == ' ' || c == '\t':
			return nil, true
		default:
			return nil, false
		}
	}
	return nil, true
}
