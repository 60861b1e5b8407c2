package commands

import (
	"regexp"
	"strings"
)

// placeholders are $ARGUMENTS and $1 to $9, as in Claude Code.
var placeholders = regexp.MustCompile(`\$ARGUMENTS|\$[1-9]`)

// shellLine is a !`command` in a body: run before the prompt is sent, its
// output put in its place.
var shellLine = regexp.MustCompile("!`([^`\n]+)`")

// fileRef is an @path at the start of a line or after a space; an address
// like a@b.c is not one.
var fileRef = regexp.MustCompile(`(?:^|[\s(])@([^\s@` + "`" + `]+)`)

// Expand puts args into the body: $ARGUMENTS is all of them as typed, $1 to
// $9 each one (split like a shell would: quotes group words). A body with
// no placeholder gets the arguments after it, as Claude Code does, so
// nothing the person typed is lost.
func (c Command) Expand(args string) string {
	args = strings.TrimSpace(args)
	if !placeholders.MatchString(c.Body) {
		if args == "" {
			return c.Body
		}
		return c.Body + "\n\nARGUMENTS: " + args
	}
	words := splitArgs(args)
	return placeholders.ReplaceAllStringFunc(c.Body, func(p string) string {
		if p == "$ARGUMENTS" {
			return args
		}
		if n := int(p[1] - '1'); n < len(words) {
			return words[n]
		}
		return ""
	})
}

// splitArgs splits at spaces outside single or double quotes, dropping the
// quotes.
func splitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	var quote rune
	in := false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == 0 && (r == '"' || r == '\''):
			quote, in = r, true
		case quote == 0 && (r == ' ' || r == '\t' || r == '\n'):
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// ShellLines returns the commands of a body's !`command` parts, in order.
func ShellLines(body string) []string {
	var out []string
	for _, m := range shellLine.FindAllStringSubmatch(body, -1) {
		out = append(out, strings.TrimSpace(m[1]))
	}
	return out
}

// ReplaceShell puts run's answer for each !`command` in its place. run is
// called once per occurrence, in order, so each goes through the pipeline
// as its own call.
func ReplaceShell(body string, run func(command string) string) string {
	return shellLine.ReplaceAllStringFunc(body, func(m string) string {
		return run(strings.TrimSpace(shellLine.FindStringSubmatch(m)[1]))
	})
}

// FileRefs returns the @path references of a body, each once, in order.
// Trailing punctuation (a full stop after a path in a sentence) is not part
// of the path.
func FileRefs(body string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range fileRef.FindAllStringSubmatch(body, -1) {
		p := strings.TrimRight(m[1], ".,;:!?)]}'\"")
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
