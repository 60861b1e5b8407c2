package tools

import (
	"encoding/json"
	"unicode/utf8"
)

// decodeValue turns a tool input into the value model the schema validator
// works on: maps, slices, strings, bools, nil, and json.Number for numbers
// so that no integer loses precision. It does what jsonschema.UnmarshalJSON
// does, at a fraction of the cost: decoding every call's input through a
// json.Decoder was the largest single cost of the pipeline. json.Valid
// checks the grammar first, so the walk below may assume well-formed input;
// strings with escapes, which are rare in tool inputs, are handed to
// encoding/json.
//
// names holds strings likely to appear as object keys (a schema's property
// names); a key equal to one of them is not allocated again.
func decodeValue(b []byte, names map[string]string) (any, error) {
	if !json.Valid(b) {
		var v any
		err := json.Unmarshal(b, &v) // only to say what is wrong and where
		return nil, err
	}
	d := valueDecoder{b: b, names: names}
	return d.value()
}

type valueDecoder struct {
	b     []byte
	i     int
	names map[string]string
}

func (d *valueDecoder) skipSpace() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *valueDecoder) value() (any, error) {
	d.skipSpace()
	switch c := d.b[d.i]; c {
	case '{':
		return d.object()
	case '[':
		return d.array()
	case '"':
		return d.string()
	case 't':
		d.i += len("true")
		return true, nil
	case 'f':
		d.i += len("false")
		return false, nil
	case 'n':
		d.i += len("null")
		return nil, nil
	default:
		return d.number(), nil
	}
}

func (d *valueDecoder) object() (any, error) {
	d.i++ // {
	m := map[string]any{}
	for {
		d.skipSpace()
		if d.b[d.i] == '}' {
			d.i++
			return m, nil
		}
		if d.b[d.i] == ',' {
			d.i++
			d.skipSpace()
		}
		k, err := d.key()
		if err != nil {
			return nil, err
		}
		d.skipSpace()
		d.i++ // :
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		m[k] = v // the last of duplicate keys wins, as in encoding/json
	}
}

func (d *valueDecoder) array() (any, error) {
	d.i++ // [
	a := []any{}
	for {
		d.skipSpace()
		if d.b[d.i] == ']' {
			d.i++
			return a, nil
		}
		if d.b[d.i] == ',' {
			d.i++
		}
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		a = append(a, v)
	}
}

// key reads an object key, reusing a known name when it is one.
func (d *valueDecoder) key() (string, error) {
	tok, escaped, ascii := d.scanString()
	if !escaped {
		if name, ok := d.names[string(tok[1:len(tok)-1])]; ok {
			return name, nil
		}
	}
	return convertString(tok, escaped, ascii)
}

func (d *valueDecoder) string() (any, error) {
	s, err := convertString(d.scanString())
	return s, err
}

// scanString moves past a string token and returns it with its quotes,
// noting whether it has escapes or bytes outside ASCII.
func (d *valueDecoder) scanString() (tok []byte, escaped, ascii bool) {
	start := d.i
	d.i++ // "
	ascii = true
	for c := d.b[d.i]; c != '"'; c = d.b[d.i] {
		switch {
		case c == '\\':
			escaped = true
			d.i++ // the escaped character, which may be a quote
		case c >= utf8.RuneSelf:
			ascii = false
		}
		d.i++
	}
	d.i++
	return d.b[start:d.i], escaped, ascii
}

// convertString turns a string token into its value. One without escapes
// and in valid UTF-8 is taken as it is; anything else goes through
// encoding/json, which also replaces invalid UTF-8 the way every other
// reader of the input will.
func convertString(tok []byte, escaped, ascii bool) (string, error) {
	if inner := tok[1 : len(tok)-1]; !escaped && (ascii || utf8.Valid(inner)) {
		return string(inner), nil
	}
	var s string
	err := json.Unmarshal(tok, &s)
	return s, err
}

func (d *valueDecoder) number() any {
	start := d.i
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case '-', '+', '.', 'e', 'E', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			d.i++
			continue
		}
		break
	}
	return json.Number(d.b[start:d.i])
}
