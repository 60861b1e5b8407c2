package permission

import (
	"path/filepath"
	"slices"
	"testing"
)

// An allowed program may write only where the policy lets any write go:
// the files named to rm, cp, mv, tee, chmod, sed -i or dd of= are checked
// like an Edit's, so `Bash(rm:*)` cleans the build directory but asks
// before it touches the home directory.
func TestH04_FileArgumentsFollowTheBoundary(t *testing.T) {
	t.Parallel()
	project, outside := workspace(t)
	p := newPolicy(t, []string{project}, rules{
		allow: []string{"Bash(rm:*)", "Bash(cp:*)", "Bash(mv:*)", "Bash(tee:*)", "Bash(chmod:*)",
			"Bash(sed:*)", "Bash(dd:*)", "Bash(mkdir:*)", "Bash(truncate:*)", "Bash(install:*)", "Bash(ls:*)"},
		deny: []string{"Edit(./secrets/**)"},
	})
	out := filepath.Join(outside, "x")
	cases := []commandCase{
		{"rm -rf build", Allow, "Bash(rm:*)", ""},
		{"rm -rf ~/notes", Ask, "workspace", "written by rm"},
		{"rm -rf " + outside + "/*", Ask, "workspace", ""},
		{"rm -- -odd-name", Allow, "Bash(rm:*)", ""},
		{"cp " + out + " here.txt", Allow, "Bash(cp:*)", ""}, // reading from outside is not a write
		{"cp here.txt " + out, Ask, "workspace", "written by cp"},
		{"cp -t " + outside + " a b", Ask, "workspace", ""},
		{"mv " + out + " here.txt", Ask, "workspace", "written by mv"}, // the source is gone afterwards
		{"ls | tee " + out, Ask, "workspace", "written by tee"},
		{"chmod 600 " + out, Ask, "workspace", ""},
		{"chmod 600 src/a.go", Allow, "Bash(chmod:*)", ""},
		{"sed -i 's/a/b/' " + out, Ask, "workspace", "written by sed"},
		{"sed 's/a/b/' " + out, Allow, "Bash(sed:*)", ""},
		{"sed -e 's/a/b/' -i src/a.go", Allow, "Bash(sed:*)", ""},
		{"dd if=/dev/zero of=" + out + " bs=1k count=1", Ask, "workspace", "written by dd"},
		{"mkdir -p -m 700 " + out, Ask, "workspace", ""},
		{"truncate -s 0 log.txt", Allow, "Bash(truncate:*)", ""},
		{"install -m 644 a.txt " + out, Ask, "workspace", ""},
		{"rm secrets/key", Deny, "Edit(./secrets/**)", ""},
		{"sudo rm " + out, Ask, "", ""},
		{"rm .git/index.lock", Ask, "protected", "written by rm"},
		{`rm -rf "$BUILD_DIR"`, Ask, "unknown-target", "only known when it runs"},
		{"ls " + outside, Allow, "Bash(ls:*)", ""}, // other programs' arguments are not paths
	}
	checkCommands(t, p, project, cases)
}

func TestArgWrites(t *testing.T) {
	t.Parallel()
	cases := []struct {
		words []string
		want  []string
		blind bool
	}{
		{[]string{"rm", "-rf", "a", "b"}, []string{"a", "b"}, false},
		{[]string{"cp", "-r", "a", "b", "dst"}, []string{"dst"}, false},
		{[]string{"cp", "--target-directory=d", "a"}, []string{"d"}, false},
		{[]string{"chmod", "--reference=r", "f"}, []string{"f"}, false},
		{[]string{"chown", "-R", "me:me", "d"}, []string{"d"}, false},
		{[]string{"truncate", "-s", "0", "f"}, []string{"f"}, false},
		{[]string{"tee", "-a", "/dev/null", "log"}, []string{"/dev/null", "log"}, false},
		{[]string{"sed", "-n", "p", "f"}, nil, false},
		{[]string{"sed", "-i.bak", "s/a/b/", "f", "g"}, []string{"f", "g"}, false},
		{[]string{"rm", "build/*.o"}, []string{"build/*.o"}, false},
		{[]string{"rm", "x\x00"}, []string{"x\x00"}, false},
		{[]string{"grep", "-r", "x", "/etc"}, nil, false},
		{[]string{"rm"}, nil, false},
	}
	for _, c := range cases {
		got, blind, _ := argWrites(c.words)
		if !slices.Equal(got, c.want) || blind != c.blind {
			t.Errorf("%q: %q blind %v, want %q blind %v", c.words, got, blind, c.want, c.blind)
		}
	}
}
