package viewer

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
)

// keyMap is the viewer's keys, less-like. The footer's hint line is
// generated from the help texts, so a key and its hint cannot disagree.
type keyMap struct {
	Down, Up         key.Binding
	PageDown, PageUp key.Binding
	HalfDown, HalfUp key.Binding
	Top, Bottom      key.Binding
	Left, Right      key.Binding
	GoTo, Search     key.Binding
	Next, Prev       key.Binding
	Wrap, Follow     key.Binding
	Close            key.Binding
	Submit, Cancel   key.Binding // in the search and line prompts
	hints            []string    // the footer's key hints, most important first
}

func newKeyMap() keyMap {
	k := keyMap{
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("j/k", "scroll")),
		Up:       key.NewBinding(key.WithKeys("up", "k")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "space"), key.WithHelp("space/b", "page")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "b")),
		HalfDown: key.NewBinding(key.WithKeys("ctrl+d")),
		HalfUp:   key.NewBinding(key.WithKeys("ctrl+u")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g/G", "top/end")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end")),
		Left:     key.NewBinding(key.WithKeys("left", "h")),
		Right:    key.NewBinding(key.WithKeys("right", "l")),
		GoTo:     key.NewBinding(key.WithKeys(":", "ctrl+g"), key.WithHelp(":", "line")),
		Search:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		Next:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n/N", "next/prev")),
		Prev:     key.NewBinding(key.WithKeys("N")),
		Wrap:     key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "wrap")),
		Follow:   key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "follow")),
		Close:    key.NewBinding(key.WithKeys("q", "esc"), key.WithHelp("q", "close")),
		Submit:   key.NewBinding(key.WithKeys("enter")),
		Cancel:   key.NewBinding(key.WithKeys("esc")),
	}
	for _, b := range []key.Binding{k.Close, k.Search, k.Next, k.GoTo, k.Wrap, k.Follow, k.Top, k.PageDown, k.Down} {
		k.hints = append(k.hints, b.Help().Key+" "+b.Help().Desc)
	}
	return k
}

// hintLine joins as many hints as fit in width cells, dropping whole hints
// from the end rather than cutting one in the middle.
func (k *keyMap) hintLine(width int) string {
	var b strings.Builder
	for _, h := range k.hints {
		sep := ""
		if b.Len() > 0 {
			sep = " · "
		}
		if ansi.StringWidth(b.String()+sep+h) > width {
			break
		}
		b.WriteString(sep + h)
	}
	return b.String()
}
