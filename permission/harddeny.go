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

// diskPrefixes are the /dev names of whole disks, their partitions and the
// block devices built on them.
var diskPrefixes = []string{"sd", "nvme", "hd", "vd", "xvd", "mmcblk", "disk", "rdisk",
	"md", "dm-", "mapper/", "nbd", "loop", "root", "block/"}

// diskTools are programs that erase or repartition the device they are
// given.
var diskTools = map[string]bool{
	"mke2fs": true, "mkswap": true, "wipefs": true, "mkdosfs": true, "mkntfs": true,
	"mkexfatfs": true, "blkdiscard": true, "sgdisk": true, "sfdisk": true, "parted": true,
	"fdisk": true, "cfdisk": true, "shred": true, "badblocks": true, "cryptsetup": true,
}

// denyWords returns why the simple command with these word values, run in
// one of d, is catastrophic, or "".
func denyWords(vals []string, d dirs) string {
	vals, _ = unwrap(vals)
	if len(vals) == 0 {
		return ""
	}
	name := path.Base(vals[0])
	switch {
	case name == "rm":
		return denyRm(vals[1:], d)
	case name == "find":
		return denyFind(vals[1:], d)
	case name == "chmod" || name == "chown" || name == "chgrp":
		return denyOwnership(name, vals[1:], d)
	case strings.HasPrefix(name, "mkfs") || diskTools[name]:
		for _, v := range vals[1:] {
			if isDiskDevice(v) || (strings.HasPrefix(name, "mkfs") && strings.HasPrefix(v, "/dev/")) {
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
func denyRm(args []string, d dirs) string {
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
	return catastrophicTargets(targets, d)
}

// denyOwnership judges chmod, chown and chgrp: a recursive change of /,
// home or a top-level system directory leaves the machine unusable (sudo
// stops at a world-writable /etc, ssh at an open home directory) as surely
// as removing it.
func denyOwnership(name string, args []string, d dirs) string {
	recursive, reference := false, false
	var operands []string
	opts := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case opts && a == "--":
			opts = false
		case opts && a == "--recursive":
			recursive = true
		case opts && (a == "--reference" || a == "--from"):
			reference = reference || a == "--reference"
			i++ // the option's value
		case opts && strings.HasPrefix(a, "--reference="):
			reference = true
		case opts && strings.HasPrefix(a, "--"):
		case opts && len(a) > 1 && a[0] == '-' && !(name == "chmod" && isModeOption(a)):
			if strings.IndexByte(a, 'R') >= 0 {
				recursive = true
			}
		default:
			operands = append(operands, a)
		}
	}
	if !reference && len(operands) > 0 {
		operands = operands[1:] // the mode or owner
	}
	if !recursive {
		return ""
	}
	for _, t := range operands {
		for _, p := range placed(t, d) {
			if what := catastrophicTarget(p); what != "" {
				return "it recursively changes the " + ownershipWord(name) + " of " + what
			}
		}
	}
	return ""
}

func ownershipWord(name string) string {
	if name == "chmod" {
		return "permissions"
	}
	return "owner"
}

// recursiveRm reports whether rm's arguments ask for a recursive removal.
func recursiveRm(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--recursive" || (len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a, "rR")) {
			return true
		}
	}
	return false
}

// denyFind judges find: deleting (-delete, -exec rm) under / or home.
func denyFind(args []string, d dirs) string {
	deletes := false
	var roots []string
	for i, a := range args {
		switch {
		case a == "-delete":
			deletes = true
		case (a == "-exec" || a == "-execdir" || a == "-ok") && i+1 < len(args) && path.Base(args[i+1]) == "rm":
			deletes = true
		case !deletes && !strings.HasPrefix(a, "-") && a != "(" && a != "!" && len(roots) == i:
			roots = append(roots, a)
		}
	}
	if !deletes {
		return ""
	}
	return catastrophicTargets(roots, d)
}

// catastrophicTargets names what removing one of targets in d would
// destroy, or "".
func catastrophicTargets(targets []string, d dirs) string {
	for _, t := range targets {
		for _, p := range placed(t, d) {
			if what := catastrophicTarget(p); what != "" {
				return "it recursively deletes " + what
			}
		}
	}
	return ""
}

// placed returns t as seen from each absolute directory of d (relative
// names in the start directory stay relative: where that is, is not known
// here).
func placed(t string, d dirs) []string {
	if path.IsAbs(t) || strings.HasPrefix(t, "~") || d.unknown {
		return []string{t}
	}
	out := []string{t}
	for _, dir := range d.list {
		if path.IsAbs(dir) {
			out = append(out, dir+"/"+t)
		}
	}
	return out
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
	clean := path.Clean(t)
	if p, _, _ := specialTarget(t); p != "" && path.IsAbs(p) {
		clean = path.Clean(p)
	}
	if strings.ContainsAny(clean, "*?[") {
		return catastrophicPattern(clean)
	}
	base := clean
	switch {
	case base == "/":
		return "/ (the whole file system)"
	case systemDirs[base]:
		return "the system directory " + base
	case base == homeDir() && base != "/":
		return "the home directory"
	case path.Dir(base) == "/home" || path.Dir(base) == "/Users":
		return "the home directory " + base
	}
	return ""
}

// catastrophicPattern judges a glob: one that matches /, a system or home
// directory, or everything in one of them (`/*`, `/e??`, `~/*`).
func catastrophicPattern(p string) string {
	candidates := []string{"/"}
	for dir := range systemDirs {
		candidates = append(candidates, dir)
	}
	if h := homeDir(); h != "" {
		candidates = append(candidates, h)
	}
	dir, last := path.Dir(p), path.Base(p)
	matchAll := strings.Trim(last, "*?.") == "" && strings.ContainsAny(last, "*?")
	for _, c := range candidates {
		if ok, _ := path.Match(p, c); ok {
			return "the directory " + c + " (matched by " + p + ")"
		}
		if ok, _ := path.Match(dir, c); matchAll && (ok || dir == c) {
			if c == "/" {
				return "/ (the whole file system)"
			}
			return "everything in " + c
		}
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
// on both sides of a pipe (`:(){ :|:& };:`), however deeply nested in
// blocks, subshells or loops, named as written, quoted or as $FUNCNAME. A
// recursive function that waits for its own calls is not flagged.
func isForkBomb(name string, body *syntax.Stmt) bool {
	found := false
	syntax.Walk(body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if n.Background && callsSelf(n, name) {
				found = true
			}
		case *syntax.BinaryCmd:
			if (n.Op == syntax.Pipe || n.Op == syntax.PipeAll) && callsSelf(n.X, name) && callsSelf(n.Y, name) {
				found = true
			}
		}
		return !found
	})
	return found
}

// callsSelf reports whether n runs the function name anywhere inside.
func callsSelf(n syntax.Node, name string) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 {
			return !found
		}
		first := c.Args[0]
		if v, ok := literalWord(first); ok && v == name {
			found = true
		}
		if len(first.Parts) == 1 {
			if p, ok := first.Parts[0].(*syntax.ParamExp); ok && p.Param != nil && p.Param.Value == "FUNCNAME" {
				found = true
			}
			if l, ok := first.Parts[0].(*syntax.Lit); ok && strings.ReplaceAll(l.Value, `\`, "") == name {
				found = true
			}
		}
		return !found
	})
	return found
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

// whyLoopBomb explains an endless loop that starts background jobs.
const whyLoopBomb = "an endless loop that starts a background job each time exhausts the machine's processes"

// isLoopBomb reports whether a loop never ends by its condition (`while
// true`, `while :`, `until false`, `for ((;;))`) and starts a background
// job on each pass with nothing in its body that stops or waits (break,
// return, exit, wait): a fork bomb written as a loop.
func isLoopBomb(loop syntax.Command) bool {
	var body []*syntax.Stmt
	switch c := loop.(type) {
	case *syntax.WhileClause:
		want := "true"
		if c.Until {
			want = "false"
		}
		if len(c.Cond) != 1 || !constantCall(c.Cond[0], want) {
			return false
		}
		body = c.Do
	case *syntax.ForClause:
		cs, ok := c.Loop.(*syntax.CStyleLoop)
		if !ok || cs.Cond != nil {
			return false
		}
		body = c.Do
	default:
		return false
	}
	background, stops := false, false
	for _, st := range body {
		syntax.Walk(st, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Stmt:
				background = background || n.Background
			case *syntax.CallExpr:
				if len(n.Args) > 0 {
					switch n.Args[0].Lit() {
					case "break", "return", "exit", "wait", "":
						stops = true
					}
				}
			}
			return true
		})
	}
	return background && !stops
}

// constantCall reports whether st is a plain call of the builtin name
// (`true`, or `:` for true; `false`).
func constantCall(st *syntax.Stmt, name string) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) != 1 || len(c.Assigns) > 0 || st.Negated {
		return false
	}
	v := c.Args[0].Lit()
	return v == name || (name == "true" && v == ":")
}
