package permission

import (
	"path"
	"strings"
)

// find runs commands of its own (-exec, -execdir, -ok, -okdir) on the files
// it finds, deletes them (-delete) and writes files (-fprint, -fprint0,
// -fprintf, -fls). findParts returns the commands it runs, each with the
// find's roots standing for the `{}` they get, and the files it writes.

// findCommand is one command find runs for the files it finds.
type findCommand struct {
	words []string // as written, {} included
}

// findActions reads a find command line: its roots, the commands it runs
// and the files it writes or deletes under.
func findActions(args []string) (roots []string, cmds []findCommand, writes []string) {
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "-H" || a == "-L" || a == "-P" || strings.HasPrefix(a, "-O") || strings.HasPrefix(a, "-D") {
			if a == "-D" && i+1 < len(args) {
				i++
			}
			continue
		}
		break
	}
	for ; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == "," {
			break
		}
		roots = append(roots, a)
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	for ; i < len(args); i++ {
		switch a := args[i]; a {
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(args) && args[j] != ";" && args[j] != "+" {
				j++
			}
			if j > i+1 {
				cmds = append(cmds, findCommand{words: args[i+1 : j]})
			}
			i = j
		case "-delete":
			writes = append(writes, roots...)
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			if i+1 < len(args) {
				writes = append(writes, args[i+1])
				i++
			}
		}
	}
	return roots, cmds, writes
}

// placeholder replaces find's {} in words with root.
func placeholder(words []string, root string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = strings.ReplaceAll(w, "{}", root)
	}
	return out
}

// isFind reports whether a program is find.
func isFind(prog string) bool {
	return path.Base(prog) == "find"
}
