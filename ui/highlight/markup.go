package highlight

import "strings"

// markup scans a line of HTML or XML: tags and their names, attributes and
// quoted values, comments, entities. A tag or a comment left open at the
// end of a line carries into the next.
func (s *scanner) markup() {
	line := s.line
	for s.i < len(line) {
		start := s.i
		switch {
		case s.st.comment > 0:
			if !s.closeComment() {
				return
			}
		case s.st.str > 0:
			if !s.closeString(s.lang.strings[s.st.str-1], s.i) {
				return
			}
		case s.st.tag:
			s.inTag()
		case s.openComment():
		case line[s.i] == '<' && s.i+1 < len(line) && (isLetter(line[s.i+1]) || strings.IndexByte("/!?", line[s.i+1]) >= 0):
			s.i++
			kind := Tag
			if line[s.i] == '!' || line[s.i] == '?' {
				kind = Meta // <!DOCTYPE ...>, <?xml ...?>
			}
			if line[s.i] == '/' || line[s.i] == '!' || line[s.i] == '?' {
				s.i++
			}
			for s.i < len(line) && (isIdentChar(line[s.i], s.lang) || line[s.i] == ':') {
				s.i++
			}
			s.emit(kind, start, s.i)
			s.st.tag = true
		case line[s.i] == '&':
			j := strings.IndexByte(line[s.i:], ';')
			if j > 1 && j < 12 && !strings.ContainsAny(line[s.i+1:s.i+j], " <&") {
				s.i += j + 1
				s.emit(Constant, start, s.i)
				continue
			}
			s.i++
			s.emit(Plain, start, s.i)
		default:
			j := strings.IndexAny(line[s.i:], "<&")
			switch {
			case j < 0:
				j = len(line) - s.i
			case j == 0:
				j = 1 // a < that opens no tag
			}
			s.i += j
			s.emit(Plain, start, s.i)
		}
	}
}

// inTag scans inside a tag: attribute names, values, and the tag's end.
func (s *scanner) inTag() {
	line := s.line
	start := s.i
	c := line[s.i]
	switch {
	case c == '>':
		s.i++
		s.emit(Tag, start, s.i)
		s.st.tag = false
	case (c == '/' || c == '?') && s.i+1 < len(line) && line[s.i+1] == '>':
		s.i += 2
		s.emit(Tag, start, s.i)
		s.st.tag = false
	case c == '"' || c == '\'':
		if _, ok := s.openString(); ok {
			s.closeString(s.lang.strings[s.st.str-1], s.i)
		} else {
			s.i++
			s.emit(Plain, start, s.i)
		}
	case isIdentStart(c, s.lang):
		for s.i < len(line) && (isIdentChar(line[s.i], s.lang) || line[s.i] == ':') {
			s.i++
		}
		s.emit(Attribute, start, s.i)
	default:
		s.i++
		s.emit(Plain, start, s.i)
	}
}
