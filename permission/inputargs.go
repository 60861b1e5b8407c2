package permission

import (
	"path"
	"strings"
)

// xargs and parallel add words read from their input to the command they
// run, or put them where a replace string stands (`xargs -I{} sh -c {}`,
// parallel's `{}`, `{.}`, `{1}`...). Such words are arguments while they
// stay arguments; given to a shell's -c as its script, put into a script,
// or used as the program, they are code the line does not hold.

// whyInputScript explains a command that runs words read from its input as
// code.
const whyInputScript = "xargs or parallel puts words read from its input into the program or the script it runs, which are only known when it runs"

// inputCode reports whether the wrappers in front of a command (wrapped,
// the words before rest) make words from their input into its program or
// its shell script.
func inputCode(wrapped, rest []string) bool {
	replace, appends, parallel := inputReplace(wrapped)
	if !appends {
		return false
	}
	if parallel {
		// parallel's inputs may follow the command: `::: a b`, `:::: file`.
		for i, v := range rest {
			if strings.HasPrefix(v, ":::") {
				rest = rest[:i]
				break
			}
		}
	}
	if len(rest) == 0 {
		return parallel // parallel with no command runs its inputs
	}
	has := func(v string) bool { return replace != "" && strings.Contains(v, replace) }
	if has(rest[0]) {
		return true
	}
	if !shells[path.Base(rest[0])] {
		return false
	}
	script, ok := innerScript(rest)
	if ok {
		return has(script)
	}
	return shellDashC(rest) // `xargs sh -c`: the first input word is the script
}

// inputReplace reads the options of the xargs and parallel in wrapped: the
// replace string they substitute ("" when none), and whether there is one
// at all.
func inputReplace(wrapped []string) (replace string, appends, parallel bool) {
	for i := 0; i < len(wrapped); i++ {
		switch path.Base(wrapped[i]) {
		case "parallel":
			return "{", true, true
		case "xargs":
			appends = true
			for j := i + 1; j < len(wrapped); j++ {
				v := wrapped[j]
				switch {
				case v == "-I" || v == "-J":
					if j+1 < len(wrapped) {
						replace = wrapped[j+1]
					}
				case strings.HasPrefix(v, "--replace"):
					replace = "{}"
					if _, val, ok := strings.Cut(v, "="); ok {
						replace = val
					}
				case strings.HasPrefix(v, "-I") || strings.HasPrefix(v, "-J"):
					replace = v[2:]
				case strings.HasPrefix(v, "-i"):
					replace = "{}"
					if len(v) > 2 {
						replace = v[2:]
					}
				}
			}
		}
	}
	return replace, appends, false
}

// shellDashC reports whether a shell's options hold -c.
func shellDashC(words []string) bool {
	for _, v := range words[1:] {
		switch {
		case v == "--" || !strings.HasPrefix(v, "-") || strings.HasPrefix(v, "--"):
			if v == "--" || !strings.HasPrefix(v, "-") {
				return false
			}
		case strings.IndexByte(v, 'c') >= 0:
			return true
		}
	}
	return false
}
