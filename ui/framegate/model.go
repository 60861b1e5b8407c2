package framegate

import tea "charm.land/bubbletea/v2"

// Model wraps the program's model so that the gate's markers never reach it:
// bubbletea calls Update and View for every message, and a marker changes
// nothing, so the wrapper answers it with the view it drew last instead of
// drawing the screen again.
func Model(inner tea.Model) tea.Model { return &model{inner: inner} }

// Inner returns the model a Model wraps (the final model of a program
// run with one), or m itself.
func Inner(m tea.Model) tea.Model {
	if w, ok := m.(*model); ok {
		return w.inner
	}
	return m
}

// model is the wrapper Model returns.
type model struct {
	inner  tea.Model
	last   tea.View
	drawn  bool // last holds a view
	marked bool // the message just handled was a marker
}

// Init is the inner model's.
func (w *model) Init() tea.Cmd { return w.inner.Init() }

// Update passes every message but the gate's own to the inner model.
func (w *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if isMarker(msg) {
		w.marked = true
		return w, nil
	}
	w.marked = false
	next, cmd := w.inner.Update(msg)
	w.inner = next
	return w, cmd
}

// View is the inner model's, drawn again only when a message other than a
// marker came in.
func (w *model) View() tea.View {
	if w.marked && w.drawn {
		return w.last
	}
	w.last = w.inner.View()
	w.drawn = true
	return w.last
}
