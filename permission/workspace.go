package permission

import (
	"os"
	"path/filepath"
	"strings"
)

// maxSymlinks bounds how many links resolvePath follows for one path, like
// the kernel's own limit; a longer chain is a loop the OS would refuse too.
const maxSymlinks = 40

// resolvePath resolves symlinks in the absolute path p the way the kernel
// does when the path is opened: components in order, each link replaced by
// its target before a following "..". Unlike filepath.EvalSymlinks it does
// not fail on a path that does not exist yet: missing components are kept
// as written, so a new file under a symlinked directory, or a dangling link,
// resolves to where a write would really land.
func resolvePath(p string) string { return resolveFrom("/", p) }

// resolveUnder is resolvePath for a path that may lie under one of dirs,
// themselves already resolved: the components of such a directory are not
// looked at again, so a name in the workspace costs one lstat, not one per
// component from /.
func resolveUnder(p string, dirs []string) string {
	best := ""
	for _, d := range dirs {
		if len(d) > len(best) && within(p, d) {
			best = d
		}
	}
	if best == "" || best == "/" {
		return resolvePath(p)
	}
	return resolveFrom(best, strings.TrimPrefix(p[len(best):], "/"))
}

// resolveFrom resolves todo, relative to the resolved directory real.
func resolveFrom(real, todo string) string {
	links := 0
	missing := false // a component did not exist; later ones cannot either
	for todo != "" {
		var c string
		c, todo, _ = strings.Cut(todo, "/")
		switch c {
		case "", ".":
			continue
		case "..":
			real = filepath.Dir(real)
			// A tool may clean the path before opening it, so what
			// follows is checked again rather than assumed missing.
			missing = false
			continue
		}
		next := filepath.Join(real, c)
		if missing {
			real = next
			continue
		}
		fi, err := os.Lstat(next)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			missing = err != nil
			real = next
			continue
		}
		target, err := os.Readlink(next)
		links++
		if err != nil || links > maxSymlinks {
			real = next
			missing = true
			continue
		}
		if filepath.IsAbs(target) {
			real = "/"
		}
		todo = target + "/" + todo
	}
	return real
}

// absPath makes p absolute against base (itself absolute), expanding a
// leading ~ the way a shell would. Expanding is the cautious reading: a tool
// that took "~" literally would write inside base, which is checked anyway.
func absPath(p, base, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		p = home + p[1:]
	}
	if !filepath.IsAbs(p) {
		p = base + "/" + p
	}
	return p
}

// within reports whether p is root or below it.
func within(p, root string) bool {
	if root == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == root || (strings.HasPrefix(p, root) && p[len(root)] == '/')
}

// containingRoot returns the root p is in, or "".
func containingRoot(p string, roots []string) string {
	for _, r := range roots {
		if within(p, r) {
			return r
		}
	}
	return ""
}

// target path forms of one request path.
type pathForms struct {
	given string // as the call named it, made absolute (for messages)
	lit   string // cleaned, symlinks not followed
	real  string // symlinks resolved: what a write would touch
}

func resolveForms(p, base, home string) pathForms {
	abs := absPath(p, base, home)
	return pathForms{given: p, lit: filepath.Clean(abs), real: resolvePath(abs)}
}

// Resolve returns where the absolute path p leads now, symlinks followed as
// the kernel follows them and missing components kept as written: the same
// resolution Evaluate checks, so a tool can tell whether a path still leads
// where it led at the check (H17).
func Resolve(p string) string {
	return resolvePath(p)
}
