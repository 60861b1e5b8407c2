package permission

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// RuleError reports a rule that cannot be used, with where it came from, so a
// person can find the setting or flag to fix. Callers get it with errors.As.
type RuleError struct {
	// Raw is the rule as written (trimmed).
	Raw string
	// Source is where the rule came from; empty when ParseRule was called
	// directly.
	Source string
	// Reason says what is wrong in a phrase ("missing ')'").
	Reason string
}

// Error names the source and the rule first, so the message points at the
// line to fix.
func (e *RuleError) Error() string {
	if e.Source != "" {
		return fmt.Sprintf("%s: permission rule %q: %s", e.Source, e.Raw, e.Reason)
	}
	return fmt.Sprintf("permission rule %q: %s", e.Raw, e.Reason)
}

// ParseRule reads one rule in the forms `*`, `Name`, `Name(specifier)` and
// `mcp__server__*`. It rejects what it cannot read rather than guessing, so a
// mistyped deny rule fails loudly instead of silently matching nothing. The
// specifier is everything between the first '(' and its matching ')', which
// must end the rule.
func ParseRule(s string) (Rule, error) {
	raw := strings.TrimSpace(s)
	bad := func(format string, args ...any) (Rule, error) {
		return Rule{}, &RuleError{Raw: raw, Reason: fmt.Sprintf(format, args...)}
	}
	if raw == "" {
		return bad("empty rule")
	}
	open := strings.IndexByte(raw, '(')
	if open < 0 {
		if strings.IndexByte(raw, ')') >= 0 {
			return bad("unbalanced parentheses: ')' without '('")
		}
		if err := checkToolName(raw); err != "" {
			return bad("%s", err)
		}
		return Rule{Tool: raw, Raw: raw}, nil
	}
	name := strings.TrimSpace(raw[:open])
	if name == "" {
		return bad("empty tool name before '('")
	}
	if err := checkToolName(name); err != "" {
		return bad("%s", err)
	}
	closing, depth := -1, 0
	for i := open; i < len(raw) && closing < 0; i++ {
		switch raw[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				closing = i
			}
		}
	}
	if closing < 0 {
		return bad("unbalanced parentheses: missing ')'")
	}
	if closing != len(raw)-1 {
		return bad("unexpected text %q after ')'", raw[closing+1:])
	}
	spec := strings.TrimSpace(raw[open+1 : closing])
	if spec == "" {
		return bad("empty specifier; write %s alone to match every call of the tool", name)
	}
	if err := checkSpecifier(name, spec); err != "" {
		return bad("%s", err)
	}
	return Rule{Tool: name, Specifier: spec, Raw: raw}, nil
}

// checkToolName returns why name cannot be a tool name, or "".
func checkToolName(name string) string {
	if strings.ContainsAny(name, " \t\r\n\v\f") {
		return fmt.Sprintf("tool name %q contains white space", name)
	}
	if strings.ContainsAny(name, "()") {
		return "unbalanced parentheses in the tool name"
	}
	return ""
}

// checkSpecifier validates the specifier of the tools whose specifier has a
// known grammar, so a broken pattern is an error when settings load rather
// than a rule that never matches.
func checkSpecifier(tool, spec string) string {
	switch specKindOf(tool) {
	case specHost:
		host, ok := strings.CutPrefix(spec, "domain:")
		if !ok || strings.TrimSpace(host) == "" {
			return fmt.Sprintf("%s rules take domain:<host> (for example %s(domain:example.com))", tool, tool)
		}
	case specRead, specWrite:
		if !doublestar.ValidatePattern(spec) {
			return fmt.Sprintf("invalid path pattern %q", spec)
		}
	}
	return ""
}

// splitRuleList splits "A(x), B(y)" at the commas outside parentheses, the
// form Suggestion uses when one call needs several rules.
func splitRuleList(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
