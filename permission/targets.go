package permission

import (
	"path"
	"strings"
)

// specialTarget reads a written path the way the kernel will for the shell
// that runs the line: /dev/fd/N and /dev/std* are the shell's own streams,
// but /dev/fd/../../x is /x; /proc/self/root/x is /x and /proc/self/cwd/x
// is x in the shell's directory (the analysis's own /proc/self is another
// process). It returns the path to check, whether writing it touches no
// file, and whether it is only known when the line runs (another
// process's /proc entry, a descriptor's own path).
func specialTarget(t string) (p string, harmless, blind bool) {
	if !strings.HasPrefix(t, "/") {
		return t, false, false
	}
	clean := path.Clean(t)
	switch clean {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/stdin":
		return clean, true, false
	}
	for _, self := range []string{"/proc/self", "/proc/thread-self"} {
		rest, ok := strings.CutPrefix(clean, self+"/")
		if !ok {
			continue
		}
		first, tail, _ := strings.Cut(rest, "/")
		switch first {
		case "root":
			return "/" + tail, false, false
		case "cwd":
			if tail == "" {
				return ".", false, false
			}
			return tail, false, false
		case "fd":
			return fdTarget(tail)
		}
		return clean, false, true
	}
	if rest, ok := strings.CutPrefix(clean, "/dev/fd/"); ok {
		return fdTarget(rest)
	}
	if strings.HasPrefix(clean, "/proc/") {
		return clean, false, true
	}
	return clean, false, false
}

// fdTarget judges a path below a descriptor directory: a plain descriptor
// number is one of the shell's own descriptors (any file it opened was
// opened by a redirection, which is checked itself); a path through a
// descriptor (/dev/fd/3/x, a directory descriptor) is unknown.
func fdTarget(rest string) (string, bool, bool) {
	if rest != "" && isFD(rest) && !strings.Contains(rest, "-") {
		return "/dev/fd/" + rest, true, false
	}
	return "/dev/fd/" + rest, false, true
}
