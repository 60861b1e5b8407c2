package permission

import "strings"

// Builtins that assign the variables named in their arguments change what
// later commands see: `read PATH <<< /tmp/evil; ls` runs /tmp/evil/ls. So
// a line that assigns a variable that is not shell-local this way keeps
// allow rules from matching any of its parts, as `PATH=x; ls` does. The
// names are found as bash's own option reader finds them: options in
// clusters before the operands, a value attached or the next word, `--`.

// builtinOptions are the option strings (getopt style, `:` after a letter
// that takes a value) of the builtins that assign variables, as bash 5.2
// declares them.
var builtinOptions = map[string]string{
	"read":      "ersa:d:i:n:N:p:t:u:",
	"printf":    "v:",
	"wait":      "fnp:",
	"mapfile":   "d:u:n:O:tC:c:s:",
	"readarray": "d:u:n:O:tC:c:s:",
	"getopts":   "",
}

// declarationBuiltins assign NAME=value operands; run through `builtin` or
// `command` they are plain calls, not declarations the parser reads.
var declarationBuiltins = map[string]bool{"declare": true, "typeset": true, "export": true, "local": true, "readonly": true}

// setsVariables reports whether a builtin call (its words, wrappers
// removed) assigns a variable that is not shell-local (`read PATH`,
// `read -s PATH`, `printf -vGIT_DIR`, `getopts o PATH`, `wait -p PATH`,
// `mapfile PATH`, `builtin export PATH=x`). Options it cannot read make
// it say yes.
func setsVariables(vals []string) bool {
	if len(vals) < 2 {
		return false
	}
	if declarationBuiltins[vals[0]] {
		// An exported name reaches programs whatever its case
		// (npm_config_script_shell); others matter when upper-case.
		exported := vals[0] == "export"
		for _, v := range vals[1:] {
			if strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+") {
				exported = exported || strings.ContainsRune(v, 'x')
				continue
			}
			name, value, _ := strings.Cut(v, "=")
			if !inertPrefix(name, value) && (exported || !shellLocal(name)) {
				return true
			}
		}
		return false
	}
	optstring, ok := builtinOptions[vals[0]]
	if !ok {
		return false
	}
	opts, operands, ok := bashGetopt(vals[1:], optstring)
	if !ok {
		return true
	}
	var names []string
	switch vals[0] {
	case "read":
		names = append(opts['a'], operands...)
		if len(names) == 0 {
			names = []string{"REPLY"} // shell-local to bash, read by no program
		}
	case "printf":
		names = opts['v']
	case "wait":
		names = opts['p']
	case "mapfile", "readarray":
		names = operands // MAPFILE when none
	case "getopts":
		if len(operands) > 1 {
			names = operands[1:2]
		}
	}
	for _, n := range names {
		if n != "REPLY" && !shellLocal(n) {
			return true
		}
	}
	return false
}

// bashGetopt reads args as bash's builtins read their options: clustered
// letters before the first operand, a letter followed by `:` in optstring
// taking the rest of its word or the next one, `--` ending them. It
// returns each option's values, the operands, and false for an option it
// does not know or a value that is missing.
func bashGetopt(args []string, optstring string) (opts map[byte][]string, operands []string, ok bool) {
	opts = map[byte][]string{}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for j := 1; j < len(a); j++ {
			at := strings.IndexByte(optstring, a[j])
			if at < 0 || a[j] == ':' {
				return nil, nil, false
			}
			if at+1 >= len(optstring) || optstring[at+1] != ':' {
				opts[a[j]] = append(opts[a[j]], "")
				continue
			}
			val := a[j+1:]
			if val == "" {
				if i+1 >= len(args) {
					return nil, nil, false
				}
				i++
				val = args[i]
			}
			opts[a[j]] = append(opts[a[j]], val)
			break
		}
	}
	return opts, args[i:], true
}
