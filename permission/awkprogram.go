package permission

import "strings"

// awk is the text tool of sed's kind, and a rule such as `Bash(awk:*)`
// allows it for that; but its programs run commands (`system("x")`,
// `print | "x"`, `"x" | getline`) and write files (`print > "f"`), as
// sed's e and w do. The analysis does not read awk's grammar: a program
// that uses any of these, one read from a file (-f, -i, -E), or one that
// loads an extension asks in every mode, and so does a line an awk
// program is only known in when it runs.

// whyAwk explains an unknown awk call.
const whyAwk = "the awk program may run commands or write files (system, a pipe, print >, a program file) the analysis does not read"

// awkNames are the programs read here.
var awkNames = map[string]bool{"awk": true, "gawk": true, "mawk": true, "nawk": true, "busybox-awk": true}

// awkUnseen reports whether an awk command line (its words after the
// program) may run a command or write a file the line does not show.
func awkUnseen(args []string) bool {
	var programs, operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case a == "-f" || a == "-i" || a == "-l" || a == "-E" || strings.HasPrefix(a, "--file") ||
			strings.HasPrefix(a, "--include") || strings.HasPrefix(a, "--load") || strings.HasPrefix(a, "--exec") ||
			len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:2], "filE"):
			return true // the program is in a file, or an extension is loaded
		case a == "-e" || a == "--source":
			programs = append(programs, next())
		case strings.HasPrefix(a, "--source="):
			programs = append(programs, strings.TrimPrefix(a, "--source="))
		case a == "-v" || a == "-F" || a == "--assign" || a == "--field-separator":
			next()
		case strings.HasPrefix(a, "-") && len(a) > 1:
			// -vNAME=x, -F:, --posix and the like
		default:
			operands = append(operands, a)
		}
	}
	if len(programs) == 0 {
		if len(operands) == 0 {
			return false
		}
		programs = operands[:1]
	}
	for _, p := range programs {
		if awkRunsOrWrites(p) {
			return true
		}
	}
	return false
}

// awkRunsOrWrites reports whether an awk program text may run a command or
// write a file: system, a single | (not ||), getline from a command,
// @load or @include, or a > after print or printf in the same statement.
func awkRunsOrWrites(prog string) bool {
	if strings.IndexByte(prog, opaque) >= 0 || strings.Contains(prog, "system") || strings.Contains(prog, "@") {
		return true
	}
	for i := 0; i < len(prog); i++ {
		if prog[i] == '|' {
			if i+1 < len(prog) && prog[i+1] == '|' {
				i++
				continue
			}
			return true
		}
	}
	printing := false
	for i := 0; i < len(prog); i++ {
		switch c := prog[i]; {
		case c == ';' || c == '{' || c == '}' || c == '\n':
			printing = false
		case strings.HasPrefix(prog[i:], "print"):
			printing = true
		case c == '>' && printing:
			return true
		}
	}
	return false
}
