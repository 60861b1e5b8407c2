package frontmatter

import "testing"

func TestSplit(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in, front, body string
		ok                    bool
	}{
		{"front matter and body", "---\nname: a\n---\nbody\n", "\nname: a\n", "body\n", true},
		{"a byte-order mark is ignored", "\xef\xbb\xbf---\nx: 1\n---\n", "\nx: 1\n", "", true},
		{"trailing spaces on the fences", "--- \nx: 1\n---\t\nb", "\nx: 1\n", "b", true},
		{"no opening fence", "name: a\n---\n", "", "", false},
		{"no closing fence", "---\nname: a\n", "", "", false},
	}
	for _, c := range cases {
		front, body, ok := Split([]byte(c.in))
		if ok != c.ok || string(front) != c.front || string(body) != c.body {
			t.Errorf("%s: got %q %q %v", c.name, front, body, ok)
		}
	}
}
