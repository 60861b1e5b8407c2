package summary

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// args is a decoded input object, with its keys in the order the model
// wrote them: "first argument" means the first one written.
type args struct {
	keys   []string
	values map[string]json.RawMessage
}

// decode reads an input object; ok is false for anything else.
func decode(input json.RawMessage) (args, bool) {
	a := args{values: map[string]json.RawMessage{}}
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return a, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return a, false
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return a, false
		}
		if _, dup := a.values[k]; !dup {
			a.keys = append(a.keys, k)
		}
		a.values[k] = v
	}
	return a, true
}

// str is a string argument, or "" when absent or not a string.
func (a args) str(key string) string {
	var s string
	if json.Unmarshal(a.values[key], &s) != nil {
		return ""
	}
	return s
}

// first is the first of keys that is a non-empty string.
func (a args) first(keys ...string) string {
	for _, k := range keys {
		if s := a.str(k); s != "" {
			return s
		}
	}
	return ""
}

// num is a number argument, or 0.
func (a args) num(key string) float64 {
	var f float64
	if json.Unmarshal(a.values[key], &f) != nil {
		return 0
	}
	return f
}

// truth is a boolean argument, false when absent.
func (a args) truth(key string) bool {
	var b bool
	return json.Unmarshal(a.values[key], &b) == nil && b
}

// list decodes an array argument into v; false when it is not one.
func (a args) list(key string, v any) bool {
	raw, ok := a.values[key]
	return ok && json.Unmarshal(raw, v) == nil
}

// firstArg sums up a tool this package does not know by its first
// argument: the first string, number or boolean as its value, else the
// first list or object by its size (a list of one by its item), so the
// line never shows JSON.
func (a args) firstArg() string {
	// A plain value says more than a count, so the first one of those
	// comes first.
	for _, k := range a.keys {
		if t := bytes.TrimSpace(a.values[k]); len(t) > 0 && t[0] != '[' && t[0] != '{' {
			if s := value(t); s != "" {
				return s
			}
		}
	}
	for _, k := range a.keys {
		if s := value(a.values[k]); s != "" {
			return k + ": " + s
		}
	}
	if len(a.keys) > 0 {
		return strings.Join(a.keys, ", ")
	}
	return ""
}

// value is one argument's value as text for a summary.
func value(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return ""
	}
	switch t[0] {
	case '"':
		var s string
		if json.Unmarshal(t, &s) == nil {
			return firstLine(s)
		}
	case '[':
		var l []json.RawMessage
		if json.Unmarshal(t, &l) == nil && len(l) > 0 {
			if len(l) == 1 {
				return value(l[0])
			}
			return plural(len(l), "item")
		}
	case '{':
		var m map[string]json.RawMessage
		if json.Unmarshal(t, &m) == nil && len(m) > 0 {
			return plural(len(m), "field")
		}
	case 'n':
		return ""
	default:
		if n, err := strconv.ParseFloat(string(t), 64); err == nil {
			return strconv.FormatFloat(n, 'f', -1, 64)
		}
		return string(t) // true, false
	}
	return ""
}
