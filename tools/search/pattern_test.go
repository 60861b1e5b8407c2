package search

import (
	"fmt"
	"strings"
	"testing"
)

// corpus mixes cases, underscores, brackets, non-ASCII letters and the two
// letters whose case folding leaves ASCII (K and ſ).
const corpus = "func NewServer(addr string) *Server {\n" +
	"\treturn &Server{addr: addr} // TODO: validate\n" +
	"}\n\n" +
	"var max_len = len(\"KELVIN \u212a and long \u017f\")\n" +
	"FIXME fixme FixMe\n" +
	"snake_case(call) and camelCase(call)\n" +
	"Größe straße ñandú\n" +
	"5\u212a\n" +
	"\u017f\n" +
	"\r\n" +
	"last line without newline func New"

// TestFastPathsFindWhatTheRegexpFinds checks the literal prefilter, the
// case-folding search and the line slicing against the plain regexp run on
// each line alone.
func TestFastPathsFindWhatTheRegexpFinds(t *testing.T) {
	t.Parallel()
	patterns := []string{
		`func New[A-Z]\w*\(`, `TODO|FIXME`, `(?i)fixme`, `(?i)kelvin`, `(?i)LONG \w`,
		`[a-z]+_[a-z]+\(`, `(?i)[a-z]+_[a-z]+\(`, `\bcall\b`, `^$`, `^\s*$`, `New$`,
		`Server\{`, `(?i)stra`, `ß`, `(?i)GRÖSSE`, `a|b`, `(foo|bar)?baz`, `x*`,
		`addr.*addr`, `(?i)k`, `(?i)s`, `[^a-z]Case`, `\\n`, `"`,
	}
	bufs := []string{corpus, corpus + "\n", "", "\n", "no match here\n"}
	for _, p := range patterns {
		for _, fold := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s fold=%v", p, fold), func(t *testing.T) {
				t.Parallel()
				m, err := compile(p, fold, false)
				if err != nil {
					t.Fatal(err)
				}
				for _, buf := range bufs {
					got, _ := m.lines([]byte(buf), nil, false)
					want := naiveLines(m, buf)
					if fmt.Sprint(got) != fmt.Sprint(want) {
						t.Errorf("in %q\ngot  %v\nwant %v", buf, got, want)
					}
				}
			})
		}
	}
}

// naiveLines splits buf into lines and runs the regexp on each.
func naiveLines(m *matcher, buf string) []lineSpan {
	var out []lineSpan
	if buf == "" {
		return out
	}
	lines := strings.SplitAfter(buf, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	pos := 0
	for i, l := range lines {
		text := strings.TrimSuffix(l, "\n")
		if m.re.MatchString(text) {
			out = append(out, lineSpan{start: pos, end: pos + len(text), num: i + 1})
		}
		pos += len(l)
	}
	return out
}

func TestFoldedLiteralIndex(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, lit, text string
		want            int
	}{
		{"the lower case is found", "needle", "a needle", 2},
		{"the upper case is found", "needle", "a NEEDLE", 2},
		{"mixed case is found", "needle", "xx NeEdLe", 3},
		{"the first of several is found", "ab", "xxABxab", 2},
		{"a near miss is skipped", "abc", "abx ABc", 4},
		{"a literal at the very end is found", "end", "the END", 4},
		{"absence gives -1", "needle", "haystack", -1},
		{"a text shorter than the literal gives -1", "needle", "nee", -1},
		{"punctuation has one case", "_(", "a_b_(c", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			l := &literal{b: []byte(c.lit), fold: true}
			if got := l.index([]byte(c.text)); got != c.want {
				t.Errorf("index(%q in %q) = %d, want %d", c.lit, c.text, got, c.want)
			}
		})
	}
}

func TestPatternRules(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, pattern string
		multiline     bool
		text          string
		match         bool
	}{
		{"a negated class never matches a line break", `a[^x]b`, false, "a\nb", false},
		{"\\s never matches a line break", `a\sb`, false, "a\nb", false},
		{"dot matches a line break in multiline mode", `a.b`, true, "a\nb", true},
		{"a negated class matches a line break in multiline mode", `a[^x]b`, true, "a\nb", true},
		{"\\A means the start of a line", `\Ab`, false, "a\nb", true},
		{"\\z means the end of a line", `a\z`, false, "a\nb", true},
		{"^ matches at a line start", `^b`, false, "a\nb", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			m, err := compile(c.pattern, false, c.multiline)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := m.lines([]byte(c.text), nil, true)
			if (len(got) > 0) != c.match {
				t.Errorf("%q in %q: matched %v, want %v", c.pattern, c.text, len(got) > 0, c.match)
			}
		})
	}
	for _, p := range []string{`a\nb`, `[\n]`} {
		if _, err := compile(p, false, false); err == nil || !strings.Contains(err.Error(), "multiline") {
			t.Errorf("%q without multiline: got %v, want an error that points to multiline", p, err)
		}
	}
	if _, err := compile(`a\nb`, false, true); err != nil {
		t.Errorf("a line break with multiline: %v", err)
	}
}
