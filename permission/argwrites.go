package permission

import (
	"path"
	"strings"
)

// A rule such as `Bash(rm:*)` says which program may run, not where it may
// write. For the common programs whose arguments name the files they
// change, those files are checked like an Edit's (path rules, protected
// files, the workspace boundary), just as redirection targets are, so an
// allowed `rm` still asks before `rm -rf ~/notes`. Other programs' arguments
// are not paths to the policy.

// writeArgs says which operands of a program are files it writes.
type writeArgs int

const (
	allOperands writeArgs = iota // rm a b: a and b
	lastOperand                  // cp a b dir: dir
	afterFirst                   // chmod 644 a b: a and b
)

// fileWriters are the programs checked, by base name.
var fileWriters = map[string]writeArgs{
	"rm": allOperands, "rmdir": allOperands, "unlink": allOperands, "shred": allOperands,
	"touch": allOperands, "mkdir": allOperands, "truncate": allOperands, "tee": allOperands,
	"mv": allOperands, // the sources are gone afterwards
	"cp": lastOperand, "ln": lastOperand, "install": lastOperand, "rsync": lastOperand,
	"chmod": afterFirst, "chown": afterFirst, "chgrp": afterFirst,
}

// valueOptions are short options of those programs that take the next word
// as their value (`truncate -s 0 f`, `install -m 644 a b`), so the value is
// not taken for a file.
var valueOptions = map[string]string{
	"truncate": "sr", "install": "mogS", "mkdir": "m", "cp": "S", "mv": "S", "ln": "S",
	"shred": "nsu", "rsync": "e",
}

// argWrites returns the files a command (its words after quote removal,
// wrappers such as sudo already removed) writes through its arguments, and
// whether one of them is only known when it runs.
func argWrites(words []string) (files []string, blind bool) {
	if len(words) < 2 {
		return nil, false
	}
	prog := path.Base(words[0])
	kind, ok := fileWriters[prog]
	if !ok {
		if prog == "dd" {
			return ddWrites(words[1:])
		}
		if prog == "sed" {
			return sedWrites(words[1:])
		}
		return nil, false
	}
	var operands []string
	target := "" // from -t DIR / --target-directory=DIR
	takes := valueOptions[prog]
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			operands = append(operands, words[i+1:]...)
			i = len(words)
		case strings.HasPrefix(w, "--target-directory="):
			target = strings.TrimPrefix(w, "--target-directory=")
		case w == "-t" && i+1 < len(words) && (kind == lastOperand):
			target = words[i+1]
			i++
		case strings.HasPrefix(w, "--"):
			// A long option; its value, if any, is joined with "=".
		case len(w) > 1 && w[0] == '-':
			if strings.ContainsAny(w[len(w)-1:], takes) && i+1 < len(words) {
				i++ // the option's value
			}
		default:
			operands = append(operands, w)
		}
	}
	switch {
	case target != "":
		operands = []string{target}
	case kind == lastOperand && len(operands) > 0:
		operands = operands[len(operands)-1:]
	case kind == afterFirst && len(operands) > 0 && !hasPrefixed(words, "--reference"):
		operands = operands[1:] // the mode or owner
	}
	return writeTargets(operands)
}

// ddWrites finds dd's output file (of=FILE).
func ddWrites(args []string) ([]string, bool) {
	for _, a := range args {
		if f, ok := strings.CutPrefix(a, "of="); ok {
			return writeTargets([]string{f})
		}
	}
	return nil, false
}

// sedWrites finds the files `sed -i` edits in place: its operands after the
// script, which is the first operand unless -e or -f gave it.
func sedWrites(args []string) ([]string, bool) {
	inPlace, scriptGiven := false, false
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-i" || strings.HasPrefix(a, "-i") && !strings.HasPrefix(a, "--") || strings.HasPrefix(a, "--in-place"):
			inPlace = true
		case a == "-e" || a == "-f" || a == "--expression" || a == "--file":
			scriptGiven = true
			i++
		case strings.HasPrefix(a, "--expression=") || strings.HasPrefix(a, "--file="):
			scriptGiven = true
		case len(a) > 1 && a[0] == '-':
			if strings.ContainsAny(a, "ef") && !strings.HasPrefix(a, "--") {
				scriptGiven = true
				i++
			}
		default:
			operands = append(operands, a)
		}
	}
	if !inPlace {
		return nil, false
	}
	if !scriptGiven && len(operands) > 0 {
		operands = operands[1:]
	}
	return writeTargets(operands)
}

// writeTargets keeps the names that are files (not the null device) and
// cuts a glob back to the directory it searches, which is what could be
// written. A name holding an expansion makes the command blind.
func writeTargets(names []string) (files []string, blind bool) {
	for _, n := range names {
		switch {
		case n == "" || harmlessTarget(n):
		case strings.IndexByte(n, opaque) >= 0:
			blind = true
		default:
			if i := strings.IndexAny(n, "*?["); i >= 0 {
				n = path.Dir(n[:i] + "x") // the directory the glob is in
			}
			files = append(files, n)
		}
	}
	return files, blind
}

func hasPrefixed(words []string, prefix string) bool {
	for _, w := range words {
		if strings.HasPrefix(w, prefix) {
			return true
		}
	}
	return false
}
