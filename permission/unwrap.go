package permission

import (
	"path"
	"strings"
)

// wrappers are commands that run another command given as their arguments,
// with the short options of each that take a value. Deny rules and hard deny
// look through them, so `sudo rm -rf /` and `env X=1 rm x` are seen as rm.
// Allow rules do not: allowing `rm` does not allow `sudo rm`.
var wrappers = map[string]string{
	"sudo":    "ugpCDhrtUT",
	"doas":    "uC",
	"env":     "uCS",
	"nice":    "n",
	"nohup":   "",
	"time":    "fo",
	"timeout": "sk",
	"command": "",
	"builtin": "",
	"exec":    "a",
	"stdbuf":  "ioe",
	"ionice":  "cnpP",
	"xargs":   "IinPLdEsa",
	"setsid":  "",
}

// unwrap strips leading wrapper commands (and their options) from a
// command's word values. It returns the remaining words and how many were
// stripped. Best effort: an unusual option spelling may leave the wrapper
// in place, which only makes deny rules see less, never allow more.
func unwrap(vals []string) ([]string, int) {
	i := 0
	for i < len(vals) {
		opts, ok := wrappers[path.Base(vals[i])]
		if !ok {
			break
		}
		name := path.Base(vals[i])
		i++
		positional := 0 // timeout takes a duration before the command
		if name == "timeout" {
			positional = 1
		}
	options:
		for i < len(vals) {
			v := vals[i]
			switch {
			case v == "--":
				i++
				break options
			case name == "env" && strings.IndexByte(v, '=') > 0 && !strings.HasPrefix(v, "-"):
				i++
			case strings.HasPrefix(v, "--"):
				i++
			case len(v) > 1 && v[0] == '-':
				i++
				if takesValue(v[1:], opts) && i < len(vals) {
					i++
				}
			case positional > 0:
				positional--
				i++
			default:
				break options
			}
		}
	}
	return vals[i:], i
}

// takesValue reports whether a cluster of short options ends with one that
// takes its value from the next word (`-u root`, but not `-uroot`).
func takesValue(cluster, opts string) bool {
	for j := 0; j < len(cluster); j++ {
		if strings.IndexByte(opts, cluster[j]) >= 0 {
			return j == len(cluster)-1
		}
	}
	return false
}
