package conversation

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// CopyText is what the copy key puts on the clipboard: the selected tool
// call's result as the model received it, the selected thinking block, or,
// with nothing selected, the agent's latest answer (its Markdown source).
// what names it for the notice that says what was copied. Escape sequences
// and control characters other than newline and tab are left out, so what
// is pasted is the text a person read, not instructions to a terminal.
func (v *View) CopyText() (text, what string, ok bool) {
	if v.sel >= 0 {
		switch it := v.entries[v.sel].item.(type) {
		case *toolItem:
			return plainCopy(it.res.Text), "the output of " + it.name, true
		case *thinkingItem:
			return plainCopy(it.text.String()), "the thinking block", true
		}
	}
	// A reply is a run of block entries, the last perhaps still streaming.
	end := len(v.entries)
	for end > 0 && !isAnswerPart(v.entries[end-1].item) {
		end--
	}
	start := end
	for start > 0 && isAnswerPart(v.entries[start-1].item) {
		start--
	}
	var parts []string
	for _, e := range v.entries[start:end] {
		var md string
		switch it := e.item.(type) {
		case *blockItem:
			md = it.md
		case *assistantItem:
			md = it.rest()
		}
		if md = strings.TrimSpace(md); md != "" {
			parts = append(parts, md)
		}
	}
	if len(parts) == 0 {
		return "", "", false
	}
	return plainCopy(strings.Join(parts, "\n\n")), "the agent's last answer", true
}

func isAnswerPart(it item) bool {
	switch it.(type) {
	case *blockItem, *assistantItem:
		return true
	}
	return false
}

func plainCopy(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return -1
		}
		return r
	}, ansi.Strip(s))
}
