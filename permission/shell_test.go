package permission

import (
	"errors"
	"slices"
	"testing"
)

func TestSplitCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"a simple command is one part", "git status -s", []string{"git status -s"}},
		{"and-lists split", "git status && rm x", []string{"git status", "rm x"}},
		{"or-lists and semicolons split", "a || b; c", []string{"a", "b", "c"}},
		{"pipes split", "cat f | grep x", []string{"cat f", "grep x"}},
		{"command substitution is its own part", "echo $(rm x)", []string{"echo $(rm x)", "rm x"}},
		{"backticks are command substitution", "echo `rm x`", []string{"echo $(rm x)", "rm x"}},
		{"subshells and blocks split", "(a; b) && { c; }", []string{"a", "b", "c"}},
		{"process substitution splits", "diff <(ls a) <(ls b)", []string{"diff <(ls a) <(ls b)", "ls a", "ls b"}},
		{"control flow bodies split", "if t; then a; else b; fi; for i in 1; do c; done; while w; do d; done",
			[]string{"t", "a", "b", "c", "w", "d"}},
		{"function bodies split", "f() { rm x; }; f", []string{"rm x", "f"}},
		{"leading assignments are dropped", "FOO=1 BAR=2 npm test", []string{"npm test"}},
		{"white space is normalised", "npm   test\t--watch", []string{"npm test --watch"}},
		{"bash -c scripts are split", `bash -c "git status; rm x"`, []string{"git status", "rm x"}},
		{"sh -lc scripts are split", `sh -lc 'a && b'`, []string{"a", "b"}},
		{"eval strings are split", `eval 'a; b'`, []string{"a", "b"}},
		{"a non-literal bash -c stays whole", `bash -c "$CMD"`, []string{`bash -c "$CMD"`}},
		{"a wrapped bash -c stays whole", `sudo bash -c 'a'`, []string{`sudo bash -c 'a'`}},
		{"declarations are parts", "export A=$(b)", []string{"export A=$(b)", "b"}},
		{"an empty line has no parts", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := SplitCommand(tc.in)
			if err != nil {
				t.Fatalf("SplitCommand(%q): %v", tc.in, err)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("SplitCommand(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestSplitCommandRejectsUnparsable(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`echo "unterminated`, "a &&", "if x; then"} {
		if _, err := SplitCommand(in); !errors.Is(err, ErrUnparsable) {
			t.Errorf("SplitCommand(%q) error = %v, want ErrUnparsable", in, err)
		}
	}
}

func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"a && b", "echo $(x) `y`", "bash -c 'rm -rf /'", ":(){ :|:& };:",
		"echo \"", "f() { g; }", "sudo -u root env A=1 rm -rf ~", "dd if=/dev/zero of=/dev/sda"} {
		f.Add(s)
	}
	p := NewPolicy([]string{f.TempDir()})
	p.AddRules(Allow, "fuzz", "Bash(rm:*)", "Bash(echo:*)", "Edit(./src/**)")
	p.AddRules(Deny, "fuzz", "Bash(curl:*)", "Edit(./secrets/**)")
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = SplitCommand(s)
		_, _ = HardDeny(s)
		_ = SessionRules("Bash", Target{Commands: []string{s}}, "/")
		if d := p.Evaluate(bash(s)); d.Rule == "" || d.Message == "" {
			t.Fatalf("%q: a decision must name what decided and why: %+v", s, d)
		}
	})
}
