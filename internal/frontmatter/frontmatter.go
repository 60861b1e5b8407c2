// Package frontmatter splits Markdown files that begin with a YAML block
// between --- lines, the shape of skills (SKILL.md) and memories.
package frontmatter

import "bytes"

// Split returns a file's front matter and the rest. The front matter comes
// back with a blank line in place of the opening ---, so line numbers a YAML
// parser reports within it are line numbers of the file. A byte-order mark
// is ignored; ok is false when the file has no complete front matter.
func Split(data []byte) (front, body []byte, ok bool) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	if string(bytes.TrimRight(first, " \t\r")) != "---" {
		return nil, nil, false
	}
	off := 0
	for off <= len(rest) {
		line, _, more := bytes.Cut(rest[off:], []byte("\n"))
		if string(bytes.TrimRight(line, " \t\r")) == "---" {
			front = append([]byte("\n"), rest[:off]...)
			end := off + len(line)
			if more {
				end++
			}
			return front, rest[end:], true
		}
		if !more {
			break
		}
		off += len(line) + 1
	}
	return nil, nil, false
}
