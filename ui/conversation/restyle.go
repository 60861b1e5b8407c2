package conversation

// Restyle renders everything again in the current theme, for after it
// changed palette: cached lines carry the old colours.
func (v *View) Restyle() {
	v.md = newMarkdown()
	for i := range v.entries {
		v.entries[i].invalidate()
	}
}
