package memory

import "testing"

func TestStemMakesFormsOfAWordMeet(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		words []string
	}{
		{"plural, -ing and -ed forms of test", []string{"test", "tests", "testing", "tested"}},
		{"a doubled consonant before -ing", []string{"run", "running", "runs"}},
		{"a lost final e", []string{"use", "using", "used", "uses"}},
		{"make and making", []string{"make", "making", "makes"}},
		{"-es after a sibilant", []string{"class", "classes"}},
		{"-ies to -y", []string{"policy", "policies"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			want := stem(c.words[0])
			for _, w := range c.words[1:] {
				if got := stem(w); got != want {
					t.Errorf("stem(%q) = %q, stem(%q) = %q; want them equal", w, got, c.words[0], want)
				}
			}
		})
	}
}

func TestStemLeavesWordsThatOnlyLookInflected(t *testing.T) {
	t.Parallel()
	for _, w := range []string{"status", "class", "bus", "go"} {
		if got := stem(w); got != w {
			t.Errorf("stem(%q) = %q, want it unchanged", w, got)
		}
	}
}
