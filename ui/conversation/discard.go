package conversation

// DiscardReply removes the reply and thinking streamed in this turn, which
// the session dropped because the stream broke before any tool call and it
// tries the turn again: the model never received those words, and the
// retry streams its reply from the start, so keeping them would show the
// same text twice. Only the trailing run of reply entries since the turn
// began goes; anything else (a call, a notice) ends the run. It reports
// whether the view changed.
func (v *View) DiscardReply() bool {
	v.closeOpen()
	i := len(v.entries)
	for i > v.turnStart && isReply(v.entries[i-1].item) {
		i--
	}
	if i == len(v.entries) {
		return false
	}
	v.entries = v.entries[:i]
	keep := v.selectable[:0]
	for _, e := range v.selectable {
		if e < i {
			keep = append(keep, e)
		}
	}
	v.selectable = keep
	if v.sel >= i {
		v.sel = -1
	}
	if !v.follow && v.top.idx >= len(v.entries) {
		v.follow = true
	}
	v.streamed = false
	return true
}

// isReply says whether an entry is part of a model's reply: its text
// blocks or its thinking.
func isReply(it item) bool {
	switch it.(type) {
	case *blockItem, *assistantItem, *thinkingItem:
		return true
	}
	return false
}
