package permission

import (
	"os"
	"path"
	"strings"

	"mvdan.cc/sh/v3/expand"
)

// expandWrite returns the files a recorded write names, with base the
// directory the line starts in. A glob is expanded against the file system
// now, never from the cache, as bash will expand it: every match is a file
// written (so a pattern through a symlink that points outside is seen), and
// a pattern that matches nothing is the literal name, as bash leaves it.
func expandWrite(w write, base string) []string {
	if w.glob == nil {
		return []string{w.path}
	}
	dir := base
	if w.dir != "." && w.dir != "" {
		dir = w.dir
		if !path.IsAbs(dir) {
			dir = base + "/" + dir
		}
	}
	x := &expander{env: wordEnv{home: w.home, pwd: dir}}
	cfg := &expand.Config{Env: &x.env, ExtGlob: true, ReadDir2: os.ReadDir}
	vals, err := safeFields(cfg, x.sanitize(w.glob))
	if err != nil || len(vals) == 0 {
		return []string{w.path}
	}
	out := make([]string, 0, len(vals))
	for _, v := range vals {
		if strings.IndexByte(v, opaque) >= 0 {
			continue
		}
		if !path.IsAbs(v) && w.dir != "." && w.dir != "" {
			v = w.dir + "/" + v
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return []string{w.path}
	}
	return out
}
