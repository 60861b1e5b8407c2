package permission

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// AnchorNotes lists the path rules whose `/path` reads like an absolute path
// written before rules followed Claude Code's forms: `/etc/**` now means
// <project>/etc/**, and a deny rule meant for the real /etc would quietly
// guard nothing. A rule is named when its first directory is missing from
// the project but present at the file system root; each note says how to
// write the absolute form.
func (p *Policy) AnchorNotes() []string {
	p.mu.RLock()
	defer p.mu.RUnlock()
	var out []string
	for _, list := range [][]Rule{p.deny, p.ask, p.allow} {
		for _, r := range list {
			if n := anchorNote(r, p.root0()); n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}

func anchorNote(r Rule, project string) string {
	s := r.Specifier
	if !strings.HasPrefix(s, "/") || strings.HasPrefix(s, "//") {
		return ""
	}
	if k := specKindOf(r.Tool); k != specRead && k != specWrite && k != specOther {
		return ""
	}
	first, _, _ := strings.Cut(s[1:], "/")
	if first == "" || strings.ContainsAny(first, `*?[{\`) {
		return ""
	}
	if _, err := os.Lstat(filepath.Join(project, first)); err == nil {
		return ""
	}
	if _, err := os.Lstat("/" + first); err != nil {
		return ""
	}
	return fmt.Sprintf("%s: rule %s means %s/%s (a leading / is the project root, as in Claude Code); write %s(/%s) for the absolute path",
		orUnknown(r.Source), r.Raw, project, strings.TrimPrefix(s, "/"), r.Tool, s)
}

func orUnknown(s string) string {
	if s == "" {
		return "a rule"
	}
	return s
}
