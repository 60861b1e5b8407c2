package pipeline

// Restyle drops every cached rendering, for after the theme changed
// palette: the cached lines carry the old colours.
func (p *Panel) Restyle() {
	for _, g := range p.groups {
		for _, c := range g.calls {
			c.version++
		}
	}
}
