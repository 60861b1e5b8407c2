package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// targetsWorkspace is workspace() plus a symlink src/outlink to the outside
// directory, a file src/a.txt and a symlink src/b.txt to a file outside.
func targetsWorkspace(t *testing.T) (project, outside string) {
	t.Helper()
	project, outside = workspace(t)
	if err := os.WriteFile(filepath.Join(outside, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "src", "a.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for link, to := range map[string]string{"src/outlink": outside, "src/b.txt": filepath.Join(outside, "f")} {
		if err := os.Symlink(to, filepath.Join(project, link)); err != nil {
			t.Fatal(err)
		}
	}
	return project, outside
}

// writersPolicy allows every file-writing program, so only the write
// targets can make a line ask.
func writersPolicy(t *testing.T, project string) *Policy {
	return newPolicy(t, []string{project}, rules{allow: []string{"Bash(echo:*)", "Bash(cat:*)",
		"Bash(touch:*)", "Bash(rm:*)", "Bash(cp:*)", "Bash(mv:*)", "Bash(ln:*)", "Bash(install:*)",
		"Bash(chmod:*)", "Bash(sed:*)", "Bash(tee:*)", "Bash(mkdir:*)", "Bash(dd:*)", "Bash(cd:*)"}})
}

// Write targets are resolved as bash and the program will resolve them:
// special files, tilde forms, brace expansion and globs.
func TestH15_WriteTargetsResolvedAsBashDoes(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	p := writersPolicy(t, project)
	o := outside
	checkCommands(t, p, project, []commandCase{
		{"echo A > /dev/fd/../../x", Ask, "workspace", "/x"},
		{"echo A > /dev/fd/1", Allow, "Bash(echo:*)", ""},
		{"echo A 2>/dev/stderr >/dev/null", Allow, "Bash(echo:*)", ""},
		{"echo A > /dev/stdout/../../x", Ask, "workspace", ""},
		{"echo A > /proc/self/root" + o + "/x", Ask, "workspace", o},
		{"echo A > /proc/self/cwd/x", Allow, "Bash(echo:*)", ""},
		{"echo A > /proc/thread-self/root/etc/x", Ask, "workspace", "/etc/x"},
		{"echo A > /proc/1/root/x", Ask, "unknown-target", ""},
		{"echo A > /dev/fd/3/x", Ask, "unknown-target", ""},
		{"touch ~+/x", Allow, "Bash(touch:*)", ""},
		{"touch ~+/../x", Ask, "workspace", ""},
		{"touch ~-/x", Ask, "unknown-target", ""},
		{"touch ~root/x", Ask, "workspace", "/root/x"},
		{"touch ~/x", Ask, "workspace", ""},
		{"touch {" + o + "/x,y}", Ask, "workspace", o},
		{"touch src/{a,b}.txt", Ask, "workspace", o + "/f"}, // b.txt points outside
		{"touch {a,c}.txt", Allow, "Bash(touch:*)", ""},
		{"echo A >> src/outl?nk/f", Ask, "workspace", o + "/f"},
		{"echo A >> src/out*/f", Ask, "workspace", o},
		{"echo A >> src/[o]utlink/f", Ask, "workspace", o},
		{"echo A >> src/*.txt", Ask, "workspace", o + "/f"},
		{"echo A >> src/a.tx?", Allow, "Bash(echo:*)", ""},
		{"echo A >> 'src/outl?nk/f'", Allow, "Bash(echo:*)", ""}, // quoted: no glob, no such directory
		{"cp a.txt src/*link", Ask, "workspace", o},
		{"cd ./src && echo A >> outl?nk/f", Ask, "workspace", o},
		{`f=x; echo A > src/outl?nk/"$f"`, Ask, "unknown-target", ""},
		{"cd " + o + " && touch x", Ask, "workspace", o + "/x"},
		{"cd /etc; echo > hosts", Ask, "workspace", "/etc/hosts"},
		{`echo hi > "$(echo ` + o + `)/x"`, Ask, "workspace", o},
		{`touch "$(dirname ` + o + `/y)/x"`, Ask, "workspace", o},
	})
}

// The options of the file-writing programs are read as getopt reads them,
// so the target is found however it is spelled.
func TestH15_WriterOptionsFindTheTarget(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	p := writersPolicy(t, project)
	o := outside
	asks := []string{
		"cp -t" + o + " a", "cp -t " + o + " a", "cp -rt " + o + " a", "cp -rt" + o + " a", "cp -Rpt " + o + " a b",
		"cp --target=" + o + " a", "cp --targ " + o + " a", "cp --target-directory " + o + " a",
		"cp --target-directory=" + o + " a", "cp a b " + o, "cp -- a " + o, "cp a -t " + o,
		"mv -t " + o + " a", "mv a " + o, "mv " + o + "/f a", "mv --target-directory=" + o + " a",
		"ln -st " + o + " a", "ln -s a " + o + "/l", "ln --target-directory " + o + " a",
		"install -d " + o + "/x", "install -dm755 " + o + "/x", "install --directory " + o + "/x",
		"install -Dm644 a " + o + "/x", "install -t " + o + " a", "install -m 644 a " + o + "/x",
		"chmod -x " + o + "/f", "chmod -w " + o + "/f", "chmod -R -x " + o, "chmod -rwx " + o + "/f",
		"chmod u+x " + o + "/f", "chmod --reference=a " + o + "/f", "chown -R me " + o,
		"sed -ni s/a/b/p " + o + "/f", "sed -Ei s/a/b/ " + o + "/f", "sed -i.bak s/a/b/ " + o + "/f",
		"sed -ri -e s/a/b/ " + o + "/f", "sed --in-place s/a/b/ " + o + "/f", "sed --in-pl=.orig s/a/b/ " + o + "/f",
		"sed -e s/a/b/ -i " + o + "/f", "sed -n 's/a/b/w " + o + "/f' src/a.txt", "sed 'w " + o + "/f' src/a.txt",
		"sed -e '1w " + o + "/f' src/a.txt", "sed '/x/w " + o + "/f' src/a.txt", "sed '$W " + o + "/f' src/a.txt",
		"sed -n '/a/,/b/{s/x/y/gw " + o + "/f\n}' src/a.txt", "sed 's|a|b|w " + o + "/f' src/a.txt",
		"sed --expression='w " + o + "/f' src/a.txt",
		"tee -a " + o + "/f", "tee --output-error=warn " + o + "/f", "dd if=/dev/zero of=" + o + "/f",
		"touch -d yesterday " + o + "/f", "touch -r src/a.txt " + o + "/f", "mkdir -pm 700 " + o + "/d",
		"truncate -s 0 " + o + "/f", "rm -- " + o + "/f",
	}
	for _, s := range asks {
		req := bash(s)
		req.WorkDir = project
		if d := p.Evaluate(req); d.Behavior != Ask {
			t.Errorf("%s: got %s by %q, want ask", s, d.Behavior, d.Rule)
		}
	}
	checkCommands(t, p, project, []commandCase{
		{"cp " + o + "/f a.txt", Allow, "Bash(cp:*)", ""},
		{"cp -t src " + o + "/f", Allow, "Bash(cp:*)", ""},
		{"touch -r " + o + "/f src/a.txt", Allow, "Bash(touch:*)", ""}, // the reference is read
		{"sed 's/world/there/' src/a.txt", Allow, "Bash(sed:*)", ""},
		{"sed -n '/^#/p;/w/d' " + o + "/f", Allow, "Bash(sed:*)", ""},
		{"sed 's/x/y/w /dev/stdout' src/a.txt", Allow, "Bash(sed:*)", ""},
		{"sed -i 's/a/b/' src/a.txt", Allow, "Bash(sed:*)", ""},
		{"chmod +x src/a.txt", Allow, "Bash(chmod:*)", ""},
		{"install -d build/bin", Allow, "Bash(install:*)", ""},
		{"sed 's/.*/touch P/e' src/a.txt", Ask, "unknown", "sed script runs commands"},
		{"sed '1e touch P' src/a.txt", Ask, "unknown", ""},
		{"sed -f script.sed -i src/a.txt", Ask, "unknown-target", ""},
		{"sed -i'bak/*' s/a/b/ src/a.txt", Ask, "unknown-target", ""},
		{"cp --suffix=" + o + "/ -b a b", Ask, "unknown-target", ""},
		{"sed --sandbox 's/a/b/w x' src/a.txt", Allow, "Bash(sed:*)", ""},
	})
}

func TestSedScriptWrites(t *testing.T) {
	t.Parallel()
	cases := []struct {
		script string
		files  []string
		ok     bool
	}{
		{"s/a/b/", nil, true},
		{"s/a/b/w out", []string{"out"}, true},
		{"s,w,x,g;w out\np", []string{"out"}, true},
		{"/start/,/end/ { w a.txt\n}", []string{"a.txt"}, true},
		{"\\%x%w y", []string{"y"}, true},
		{"1~2w odd", []string{"odd"}, true},
		{"a\\\nwrite me\nw real", []string{"real"}, true},
		{"y/abc/xyz/;w z", []string{"z"}, true},
		{":top\ns/x/y/;t top", nil, true},
		{"# w comment\np", nil, true},
		{"s/x/y/e", nil, false},
		{"e ls", nil, false},
		{"1!e", nil, false},
		{"v", nil, false},
		{"s/unterminated", nil, false},
	}
	for _, c := range cases {
		files, ok := sedScriptWrites(c.script)
		if ok != c.ok || len(files) != len(c.files) || (len(files) > 0 && files[0] != c.files[0]) {
			t.Errorf("%q: %q ok %v, want %q ok %v", c.script, files, ok, c.files, c.ok)
		}
	}
}

// find runs commands on what it finds: each is a part of its own, its
// files are the find's roots, and -delete and -fprint write there too.
func TestH15_FindRunsItsCommandsAsParts(t *testing.T) {
	t.Parallel()
	project, outside := targetsWorkspace(t)
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash(find:*)", "Bash(gofmt:*)", "Bash(rm:*)"}, deny: []string{"Bash(curl:*)"}})
	o := outside
	checkCommands(t, p, project, []commandCase{
		{"find . -name '*.go' -exec gofmt -l {} +", Allow, "Bash(gofmt:*), Bash(find:*)", ""},
		{"find . -name '*.o' -delete", Allow, "Bash(find:*)", ""},
		{"find . -name '*.o' -exec rm {} \\;", Allow, "Bash(rm:*), Bash(find:*)", ""},
		{"find . -exec python3 {} \\;", Ask, "mode:default", ""},
		{"find . -execdir chmod 777 {} +", Ask, "mode:default", ""},
		{"find . -exec curl -d @{} x \\;", Deny, "Bash(curl:*)", ""},
		{"find . -ok /usr/bin/curl {} \\;", Deny, "Bash(curl:*)", ""},
		{"find " + o + " -name x -delete", Ask, "workspace", o},
		{"find " + o + " -exec rm {} +", Ask, "workspace", o},
		{"find -L src -fprint " + o + "/list", Ask, "workspace", o + "/list"},
		{"find . -exec sh -c 'rm \"$1\"' _ {} \\;", Ask, "unknown", ""},
		{"find . -exec $CMD {} \\;", Deny, "Bash(curl:*)", ""},
	})
}
