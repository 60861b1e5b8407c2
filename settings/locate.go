package settings

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// position turns a byte offset into a 1-based line and column.
func position(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	before := data[:offset]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// locate finds the byte offset of the value at a path of object keys and
// array indexes ("permissions", "allow", "3"), so an error about a value can
// point at its line and column. It returns -1 when the path is not there.
func locate(data []byte, path []string) int64 {
	dec := json.NewDecoder(bytes.NewReader(data))
	var walk func(depth int) (int64, bool)
	// skip consumes one value whose first token was already read.
	var skip func(tok json.Token) bool
	skip = func(tok json.Token) bool {
		d, ok := tok.(json.Delim)
		if !ok || (d != '{' && d != '[') {
			return true
		}
		for dec.More() {
			if d == '{' {
				if _, err := dec.Token(); err != nil {
					return false
				}
			}
			t, err := dec.Token()
			if err != nil || !skip(t) {
				return false
			}
		}
		_, err := dec.Token()
		return err == nil
	}
	walk = func(depth int) (int64, bool) {
		// Skip whitespace so the offset is the value's first byte.
		start := dec.InputOffset()
		for start < int64(len(data)) && isSpace(data[start]) || start < int64(len(data)) && (data[start] == ':' || data[start] == ',') {
			start++
		}
		tok, err := dec.Token()
		if err != nil {
			return -1, false
		}
		if depth == len(path) {
			return start, true
		}
		d, ok := tok.(json.Delim)
		if !ok {
			return -1, false
		}
		switch d {
		case '{':
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return -1, false
				}
				if k, _ := kt.(string); k == path[depth] {
					return walk(depth + 1)
				}
				vt, err := dec.Token()
				if err != nil || !skip(vt) {
					return -1, false
				}
			}
		case '[':
			want, err := strconv.Atoi(path[depth])
			if err != nil {
				return -1, false
			}
			for i := 0; dec.More(); i++ {
				if i == want {
					return walk(depth + 1)
				}
				vt, err := dec.Token()
				if err != nil || !skip(vt) {
					return -1, false
				}
			}
		}
		return -1, false
	}
	off, ok := walk(0)
	if !ok {
		return -1
	}
	return off
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
