package tools

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The validator must see exactly what the library's own reader would give
// it, or a schema could pass input it should reject (H1).
func checkSameAsLibrary(t *testing.T, in string) {
	t.Helper()
	want, wantErr := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(in)))
	got, err := decodeValue([]byte(in), map[string]string{"a": "a", "s": "s"})
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%q: error %v, library's error %v", in, err, wantErr)
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: decoded %#v, library %#v", in, got, want)
	}
}

func TestDecodeValueMatchesTheLibrary(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, ` { "a" : [ 1 , -2.5e+3 , true , false , null , "x" ] } `,
		`{"command":"git status","timeout":120000}`,
		`{"n":123456789012345678901234567890}`,
		`{"a":1,"a":2}`,
		`{"s":"quote \" backslash \\ slash \/ tab \t unicode \u00e9 \ud83d\ude00"}`,
		`{"s":"héllo wörld ✓"}`,
		"{\"s\":\"bad \xff utf8\"}",
		`{"nested":{"deep":[[{"x":[]}]]}}`,
		`"just a string"`, `42`, `null`,
		// Invalid: each must be an error.
		``, `{`, `{"a":}`, `{"a":1,}`, `[1,2`, `{"a":1} trailing`, `{'a':1}`, "{\"a\":\"ctl \x01\"}", `01`, `{"a":tru}`,
	} {
		checkSameAsLibrary(t, in)
	}
}

func FuzzDecodeValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,"b",{"c":null}]}`, `"\u00e9"`, `[1e5,-0.0]`, `{"x":"\\"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) { checkSameAsLibrary(t, in) })
}

func BenchmarkDecodeValue(b *testing.B) {
	in := []byte(`{"command":"git status"}`)
	names := map[string]string{"command": "command"}
	b.ReportAllocs()
	for b.Loop() {
		decodeValue(in, names)
	}
}

func BenchmarkJSONValid(b *testing.B) {
	in := []byte(`{"command":"git status"}`)
	for b.Loop() {
		json.Valid(in)
	}
}
