package pipeline

// SelectPrev moves the selection to the call before the selected one, in
// arrival order (nested calls follow their parent). With nothing selected
// it selects the newest call, the one a person most likely wants to see.
func (p *Panel) SelectPrev() {
	switch c := p.sel; {
	case c == nil:
		p.selectNewest()
	case c.member > 0:
		p.sel = c.group.calls[c.member-1]
	case c.group.idx > 0:
		g := p.groups[c.group.idx-1]
		p.sel = g.calls[len(g.calls)-1]
	}
}

// SelectNext moves the selection to the call after the selected one; at
// the newest call it stays. With nothing selected it selects the newest.
func (p *Panel) SelectNext() {
	switch c := p.sel; {
	case c == nil:
		p.selectNewest()
	case c.member < len(c.group.calls)-1:
		p.sel = c.group.calls[c.member+1]
	case c.group.idx < len(p.groups)-1:
		p.sel = p.groups[c.group.idx+1].calls[0]
	}
}

// Deselect clears the selection, so the view follows the newest call again.
func (p *Panel) Deselect() {
	p.sel = nil
}

// Selected returns the selected call's id, or "" when nothing is selected,
// so the root can act on the call a person is looking at.
func (p *Panel) Selected() string {
	if p.sel == nil {
		return ""
	}
	return p.sel.id
}

func (p *Panel) selectNewest() {
	if n := len(p.groups); n > 0 {
		g := p.groups[n-1]
		p.sel = g.calls[len(g.calls)-1]
	}
}

// Select selects the call with this id, so the root can open a call's
// trace from elsewhere (the conversation, /trace). It reports whether the
// panel knows the call.
func (p *Panel) Select(id string) bool {
	c := p.byID[id]
	if c != nil {
		p.sel = c
	}
	return c != nil
}
