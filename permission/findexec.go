package permission

import (
	"path"
	"strings"
)

// find runs commands of its own (-exec, -execdir, -ok, -okdir) on the files
// it finds, deletes them (-delete) and writes files (-fprint, -fprint0,
// -fprintf, -fls). findActions returns the commands it runs, each with the
// find's roots standing for the `{}` they get, and the files it writes.

// findCommand is one command find runs for the files it finds.
type findCommand struct {
	words []string // as written, {} included
	// inFound says it runs in each found file's directory (-execdir,
	// -okdir), not find's own.
	inFound bool
}

// findActions reads a find command line: its roots, the commands it runs
// and the files it writes, and whether it deletes what it finds. beyond is set when the files
// find visits are not all beneath the roots as the policy resolves them:
// it follows symbolic links below them (-L, -follow: a link in the
// workspace leads anywhere), or takes its starting points from a file
// (-files0-from), which the line does not show.
func findActions(args []string) (roots []string, cmds []findCommand, writes []string, deletes, beyond bool) {
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "-L" {
			beyond = true
		}
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
				cmds = append(cmds, findCommand{words: args[i+1 : j], inFound: a == "-execdir" || a == "-okdir"})
			}
			i = j
		case "-delete":
			deletes = true
		case "-follow":
			beyond = true
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			if i+1 < len(args) {
				writes = append(writes, args[i+1])
				i++
			}
		default:
			if strings.HasPrefix(a, "-files0-from") {
				beyond = true
			}
		}
	}
	return roots, cmds, writes, deletes, beyond
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
