package hooks

import (
	"fmt"
	"regexp"
)

// toolMatcher decides which tool names a hook fires for. A nil matcher
// matches every tool.
type toolMatcher struct {
	re *regexp.Regexp
}

// compileMatcher reads a matcher the way users write them: "" or "*" for
// every tool, otherwise a regular expression that must match the whole tool
// name, so "Write" does not fire for "WriteFile" and "Bash|Write" means
// either tool exactly.
func compileMatcher(m string) (toolMatcher, error) {
	if m == "" || m == "*" {
		return toolMatcher{}, nil
	}
	re, err := regexp.Compile(`^(?:` + m + `)$`)
	if err != nil {
		return toolMatcher{}, fmt.Errorf("bad matcher %q: %w", m, err)
	}
	return toolMatcher{re: re}, nil
}

func (m toolMatcher) match(tool string) bool {
	return m.re == nil || m.re.MatchString(tool)
}
