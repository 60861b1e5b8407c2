package permission

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// homeDir is the user's home directory, cleaned, or "" when unknown. It is
// read once: hard deny runs on every shell call.
var homeDir = sync.OnceValue(func() string {
	h, err := os.UserHomeDir()
	if err != nil || h == "" {
		return ""
	}
	return filepath.Clean(h)
})

// HardDeny reports whether command is on the list no rule, mode or person can
// allow: a recursive rm of /, ~ or a top-level system directory (with or
// without sudo and other wrappers), a fork bomb, mkfs on a /dev device, dd or
// a redirection writing to a raw disk. It judges the parsed commands, so a
// quoted mention such as `echo "rm -rf /"` is not denied, while `bash -c
// "rm -rf /"` is. A line that does not parse is judged on a rough split of its
// text, which errs towards denying.
func HardDeny(command string) (reason string, denied bool) {
	a := cachedAnalysis(command)
	return a.deny, a.deny != ""
}

// systemDirs are top-level directories whose recursive removal wrecks the
// machine as surely as removing / does.
var systemDirs = map[string]bool{
	"/bin": true, "/boot": true, "/dev": true, "/etc": true, "/home": true,
	"/lib": true, "/lib32": true, "/lib64": true, "/opt": true, "/proc": true,
	"/root": true, "/sbin": true, "/srv": true, "/sys": true, "/usr": true,
	"/var": true, "/Users": true, "/System": true, "/Library": true,
	"/Applications": true, "/private": true,
}

// diskPrefixes are the /dev names of whole disks and their partitions.
var diskPrefixes = []string{"sd", "nvme", "hd", "vd", "xvd", "mmcblk", "disk", "rdisk"}

// denyWords returns why the simple command with these word values is
// catastrophic, or "".
func denyWords(vals []string) string {
	vals, _ = unwrap(vals)
	if len(vals) == 0 {
		return ""
	}
	name := path.Base(vals[0])
	switch {
	case name == "rm":
		return denyRm(vals[1:])
	case strings.HasPrefix(name, "mkfs"):
		for _, v := range vals[1:] {
			if strings.HasPrefix(v, "/dev/") {
				return name + " on " + v + " erases the file system on that device"
			}
		}
	case name == "dd":
		for _, v := range vals[1:] {
			if of, ok := strings.CutPrefix(v, "of="); ok && isDiskDevice(of) {
				return "dd onto the raw disk " + of + " destroys its file systems"
			}
		}
	}
	return ""
}

// denyRm judges the arguments of rm: recursive removal of the file system
// root, the home directory or a top-level system directory.
func denyRm(args []string) string {
	recursive := false
	var targets []string
	opts := true
	for _, a := range args {
		switch {
		case opts && a == "--":
			opts = false
		case opts && (a == "--recursive" || (len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a, "rR"))):
			recursive = true
		case opts && strings.HasPrefix(a, "-") && len(a) > 1:
		default:
			targets = append(targets, a)
		}
	}
	if !recursive {
		return ""
	}
	for _, t := range targets {
		if what := catastrophicTarget(t); what != "" {
			return "it recursively deletes " + what
		}
	}
	return ""
}

// catastrophicTarget names what removing t would destroy, or "".
func catastrophicTarget(t string) string {
	if t == "" || strings.IndexByte(t, opaque) >= 0 {
		return ""
	}
	if t == "~" || strings.HasPrefix(t, "~/") {
		rest := strings.TrimSuffix(strings.TrimSuffix(t[1:], "*"), "/")
		if path.Clean("/"+rest) == "/" {
			return "the home directory"
		}
		return ""
	}
	if !strings.HasPrefix(t, "/") {
		return ""
	}
	base := t
	if b, ok := strings.CutSuffix(base, "/*"); ok {
		base = b
	}
	clean := path.Clean("/" + base)
	switch {
	case clean == "/":
		return "/ (the whole file system)"
	case systemDirs[clean]:
		return "the system directory " + clean
	case clean == homeDir() && clean != "/":
		return "the home directory"
	}
	return ""
}

// isDiskDevice reports whether p names a whole disk or a partition.
func isDiskDevice(p string) bool {
	name, ok := strings.CutPrefix(path.Clean(p), "/dev/")
	if !ok {
		return false
	}
	for _, d := range diskPrefixes {
		if strings.HasPrefix(name, d) {
			return true
		}
	}
	return false
}

// isForkBomb reports whether the function name's body starts copies of
// itself without waiting for them: a call to itself in the background, or
// piped into itself (`:(){ :|:& };:`). A recursive function that waits for
// its own calls is not flagged.
func isForkBomb(name string, body *syntax.Stmt) bool {
	found := false
	syntax.Walk(body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if n.Background && stmtCalls(n, name) {
				found = true
			}
		case *syntax.BinaryCmd:
			if (n.Op == syntax.Pipe || n.Op == syntax.PipeAll) && stmtCalls(n.X, name) && stmtCalls(n.Y, name) {
				found = true
			}
		}
		return !found
	})
	return found
}

// stmtCalls reports whether s runs the command name directly or as one side
// of a pipeline or list.
func stmtCalls(s *syntax.Stmt, name string) bool {
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		return len(c.Args) > 0 && c.Args[0].Lit() == name
	case *syntax.BinaryCmd:
		return stmtCalls(c.X, name) || stmtCalls(c.Y, name)
	}
	return false
}

// roughForkBomb looks for `f(){ f|f& }` in text the parser rejected.
func roughForkBomb(cmd string) bool {
	s := strings.Join(strings.Fields(cmd), "")
	for {
		i := strings.Index(s, "(){")
		if i < 0 {
			return false
		}
		j := strings.LastIndexAny(s[:i], ";&|\n{}()") + 1
		name := s[j:i]
		if name != "" && strings.Contains(s[i:], name+"|"+name+"&") {
			return true
		}
		s = s[i+3:]
	}
}
