package agent

import (
	"strings"
	"unicode"

	"github.com/seed92b641c3/workbench/permission"
)

// askFromHook turns a PreToolUse hook's ask into an approval request.
func (r *run) askFromHook(hook, reason string) permission.Decision {
	msg := reason
	if msg == "" {
		msg = "a hook asked for approval"
	}
	return permission.Decision{Behavior: permission.Ask, Message: msg, Rule: "hook:" + hook}
}

// suggestName finds the visible tool name closest to a mistyped one, so the
// model can correct itself in one step. Hidden tools are never suggested.
func (p *Pipeline) suggestName(name string) string {
	want := normalizeName(name)
	best, bestDist := "", 1<<30
	for _, n := range p.Tools.Names() {
		if p.Visible != nil && !p.Visible(n) {
			continue
		}
		d := levenshtein(want, normalizeName(n))
		if d < bestDist {
			best, bestDist = n, d
		}
	}
	// More than about a third of the name wrong is a guess, not a typo.
	if best == "" || bestDist > max(2, len(want)/3) {
		return ""
	}
	return best
}

func normalizeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
