package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// secret writes a file holding a marker the tests look for in output.
func secret(t *testing.T, p, marker string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("TOKEN="+marker+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// leaks runs each script and reports the ones whose output holds marker.
func leaks(t *testing.T, s *Sandbox, dir, marker string, scripts ...string) {
	t.Helper()
	for _, script := range scripts {
		if out, _ := run(t, s, dir, script); strings.Contains(out, marker) {
			t.Errorf("%q read the denied file:\n%s", script, out)
		}
	}
}

func TestH16_AReadDenyRuleHidesTheFileFromCommands(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	env := filepath.Join(f.ws, ".env")
	secret(t, env, "hunter2-env")
	p := f.policy()
	p.HideRules = []HideRule{{Rule: "Read(./.env)", Patterns: []string{env}}}
	s := newSandbox(t, p, Options{})
	leaks(t, s, f.ws, "hunter2-env",
		`cat .env`,
		`cat < .env`,
		`echo $(<.env)`,
		`f=.e; cat ${f}nv`,
		`python3 -c "print(open('.env').read())"`,
		`cp .env /tmp/copied-env-$$ && cat /tmp/copied-env-$$; rm -f /tmp/copied-env-$$`,
		`grep -r hunter2 .`,
		`cd / && cat `+env,
		`ln .env hard 2>/dev/null; cat hard`,
	)
	// A write to it fails as a read-only path would, and says why.
	out := mustFail(t, s, f.ws, `echo 'TOKEN=planted' > .env`)
	if note := s.Explain(out, f.ws); !strings.Contains(note, env) || !strings.Contains(note, "Read(./.env)") ||
		!strings.Contains(note, "hidden on purpose") || strings.Contains(note, "allowWrite") {
		t.Errorf("the refused write of a hidden file is explained as %q (output %q)", note, out)
	}
	if b, _ := os.ReadFile(env); string(b) != "TOKEN=hunter2-env\n" {
		t.Errorf("the hidden file changed: %q", b)
	}
	// The rest of the workspace is as it was.
	mustPass(t, s, f.ws, `echo x > other && cat other`)
	if w := s.Warnings(); len(w) != 0 {
		t.Errorf("a rule that could be hidden whole got notes: %q", w)
	}
}

func TestH16_ADirectoryRuleHidesTheDirectory(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	// Not one of the default hidden directories, so the rule is what hides it.
	kube := filepath.Join(f.outside, ".kube")
	secret(t, filepath.Join(kube, "config"), "kube-token")
	secret(t, filepath.Join(kube, "cache", "deep", "x"), "kube-deep")
	p := f.policy()
	p.HideRules = []HideRule{{Rule: "Read(~/.kube/**)", Patterns: []string{kube + "/**"}}}
	s := newSandbox(t, p, Options{})
	leaks(t, s, f.ws, "kube-", `cat `+kube+`/config`, `cat `+kube+`/cache/deep/x`, `find `+kube+` -type f | xargs cat`)
	if out := mustPass(t, s, f.ws, `ls -A `+kube); strings.TrimSpace(out) != "" {
		t.Errorf("the hidden directory lists %q", out)
	}
	mustFail(t, s, f.ws, `echo x > `+kube+`/planted`)
}

func TestH16_AFileCreatedAfterStartIsHiddenFromTheNextCommand(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	p := f.policy()
	p.HideRules = []HideRule{
		{Rule: "Read(./**/*.pem)", Patterns: []string{f.ws + "/**/*.pem"}},
		{Rule: "Read(.secret)", Name: ".secret"},
		{Rule: "Read(./later.txt)", Patterns: []string{filepath.Join(f.ws, "later.txt")}},
	}
	s := newSandbox(t, p, Options{})
	// Created after the sandbox was made, by a sandboxed command itself.
	mustPass(t, s, f.ws, `mkdir -p keys/deep && echo 'TOKEN=pem-one' > keys/deep/new.pem && echo 'TOKEN=pem-two' > top.pem`)
	mustPass(t, s, f.ws, `mkdir -p a/b && echo 'TOKEN=named' > a/b/.secret && echo 'TOKEN=literal' > later.txt`)
	leaks(t, s, f.ws, "TOKEN=", `cat keys/deep/new.pem top.pem a/b/.secret later.txt`, `cat */*/*.pem`)
	// What the rules do not name stays readable.
	mustPass(t, s, f.ws, `echo 'TOKEN=plain' > keys/deep/new.txt`)
	if out := mustPass(t, s, f.ws, `cat keys/deep/new.txt`); !strings.Contains(out, "TOKEN=plain") {
		t.Errorf("a file no rule names was hidden: %q", out)
	}
}

func TestH16_ARuleThatCannotBeHiddenWholeIsReported(t *testing.T) {
	t.Parallel()
	base := scratch(t)
	home := filepath.Join(base, "home")
	ws := filepath.Join(home, "ws")
	os.MkdirAll(ws, 0o755)
	secret(t, filepath.Join(home, "notes.txt"), "home-notes")
	secret(t, filepath.Join(home, "docs", "a.txt"), "home-docs")
	secret(t, filepath.Join(ws, "own.txt"), "ws-own")
	many := filepath.Join(base, "many")
	for i := range maxHidden + 3 {
		secret(t, filepath.Join(many, fmt.Sprintf("f%03d", i)), "many")
	}
	p := Policy{Roots: []string{ws}, Home: home, Caches: []string{}, HideRules: []HideRule{
		{Rule: "Read(~/**)", Patterns: []string{home + "/**"}},
		{Rule: "Read(//many/*)", Patterns: []string{many + "/*"}},
		{Rule: "Read(*.key)", Name: "*.key"},
	}}
	s := newSandbox(t, p, Options{})
	notes := strings.Join(s.Warnings(), "\n")
	for _, want := range []string{
		"Read(~/**) is only partly hidden", home + " holds the workspace", ws + " holds the workspace",
		"Read(//many/*) is only partly hidden", fmt.Sprintf("more than %d paths", maxHidden),
		"Read(*.key) is only partly hidden", `outside the workspace roots, paths named "*.key" stay visible`,
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("the start-up notes lack %q:\n%s", want, notes)
		}
	}
	// What could be hidden is: everything of home but the way to the workspace.
	leaks(t, s, ws, "home-", `cat `+home+`/notes.txt `+home+`/docs/a.txt`)
}
