package permission

import (
	"regexp"
	"strings"
)

// An assignment in front of a command (`GIT_CONFIG_PARAMETERS=... git
// status`) changes what the command does as much as its arguments: git,
// the dynamic linker, bash itself and most tools read code or config paths
// from the environment. Only the variables below, with plain values, may be
// set in front of a command an allow rule matches; any other prefix makes
// allow rules miss, so the call asks. Deny and ask rules still match the
// command. Setting any other variable for the rest of the line (`PAGER=x;
// git log`, `export GIT_DIR=...`) likewise keeps allow rules from matching
// any part of it.

// inertVariables are the environment variables that select a language,
// time zone, colour or terminal size and nothing a program runs or loads.
var inertVariables = map[string]bool{
	"LANG": true, "LANGUAGE": true, "TZ": true,
	"NO_COLOR": true, "FORCE_COLOR": true, "CLICOLOR": true, "CLICOLOR_FORCE": true,
	"TERM": true, "COLORTERM": true, "COLUMNS": true, "LINES": true,
	"CI": true, "CGO_ENABLED": true, "GOOS": true, "GOARCH": true,
	"RUST_BACKTRACE": true, "PYTHONUNBUFFERED": true, "PYTHONDONTWRITEBYTECODE": true,
}

// localeVariable matches LC_ALL, LC_CTYPE and the other locale categories.
var localeVariable = regexp.MustCompile(`^LC_[A-Z]+$`)

// inertValue matches the plain values allowed for inert variables: no
// path separators (TZ may name a zone such as Europe/Berlin), no
// expansions.
var inertValue = regexp.MustCompile(`^[A-Za-z0-9_.,:@+-]*$`)

// tzValue matches a zone name, never a file (a leading ':' or '/'), never
// a way up.
var tzValue = regexp.MustCompile(`^[A-Za-z0-9_+-]+(?:/[A-Za-z0-9_+-]+)*$`)

// inertPrefix reports whether setting name to value in front of a command
// leaves what the command does unchanged for the policy.
func inertPrefix(name, value string) bool {
	if !inertVariables[name] && !localeVariable.MatchString(name) {
		return false
	}
	if name == "TZ" {
		return value == "" || tzValue.MatchString(value)
	}
	return inertValue.MatchString(value)
}

// shellLocal reports whether assigning name for the rest of the line
// (without a command) can only matter to the shell itself: a lower-case
// name that no program reads from its environment. Upper-case names, the
// proxy variables and anything bash interprets are not.
func shellLocal(name string) bool {
	switch name {
	case "http_proxy", "https_proxy", "ftp_proxy", "all_proxy", "no_proxy":
		return false
	}
	return strings.ToLower(name) == name
}
