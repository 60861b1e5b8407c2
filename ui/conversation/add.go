package conversation

import (
	"encoding/json"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/tools"
)

// push appends an item and returns its index.
func (v *View) push(it item) int {
	v.entries = append(v.entries, entry{item: it})
	return len(v.entries) - 1
}

// changed marks an entry's cache stale after its data changed.
func (v *View) changed(i int) { v.entries[i].invalidate() }

// AddUser adds a message the person sent. It ends any reply or thinking
// still streaming, and pins the view to the bottom: whoever just sent a
// message wants to see the answer.
func (v *View) AddUser(text string) {
	v.closeOpen()
	v.push(&userItem{text: strings.TrimSpace(sanitize(text))})
	v.follow = true
}

// AppendAssistantDelta adds a piece of the reply being streamed, starting
// a new reply if none is open. Each block of the reply (a paragraph, a
// list, a code fence) is rendered as Markdown once, when it is finished;
// only the block being written is drawn again, plainly, so a delta is cheap
// however long the reply.
func (v *View) AppendAssistantDelta(text string) {
	if text == "" {
		return
	}
	v.closeThinking()
	if v.stream < 0 {
		v.stream = v.push(newAssistant())
	}
	v.streamed = true
	for _, md := range v.entries[v.stream].item.(*assistantItem).appendText(text) {
		// The streaming entry is the last one: the finished block takes
		// its place and it moves down by one.
		v.entries = append(v.entries, v.entries[v.stream])
		v.entries[v.stream] = entry{item: &blockItem{md: md}}
		v.stream++
	}
	v.changed(v.stream)
}

// FinishAssistant ends the reply being streamed: its last block is rendered
// as Markdown like the others. It does nothing when no reply is open.
func (v *View) FinishAssistant() { v.closeOpen() }

// AddAssistant adds a whole reply at once, for providers that do not
// stream and for restoring a saved session. It is split into the same
// blocks a streamed reply is, so it looks the same.
func (v *View) AddAssistant(text string) {
	v.closeOpen()
	for _, md := range splitBlocks(text) {
		v.push(&blockItem{md: md})
	}
}

// AddThinking adds a piece of the model's thinking, starting a new thinking
// block if none is open. Thinking is collapsed to one line until expanded.
func (v *View) AddThinking(delta string) {
	if delta == "" {
		return
	}
	v.closeStream()
	if v.think < 0 {
		v.think = v.push(&thinkingItem{})
		v.selectable = append(v.selectable, v.think)
	}
	v.entries[v.think].item.(*thinkingItem).text.WriteString(delta)
	v.changed(v.think)
}

// AddToolUse adds a tool call as one line, `● Bash(git status)`, with a
// short form of its input chosen by the tool's renderer. A second call with
// an id already shown updates that call's input instead.
func (v *View) AddToolUse(id, name string, input json.RawMessage) {
	if c, ok := v.children[id]; ok {
		c.item.input = input
		v.changed(c.entry)
		return
	}
	if i, ok := v.parentEntry(id); ok {
		child := &toolItem{id: id, name: name, input: input, r: rendererFor(name)}
		parent := v.entries[i].item.(*toolItem)
		parent.children = append(parent.children, child)
		v.children[id] = childRef{entry: i, item: child}
		v.changed(i)
		return
	}
	if i, ok := v.toolIdx[id]; ok && id != "" {
		t := v.entries[i].item.(*toolItem)
		t.input = input
		v.changed(i)
		return
	}
	v.closeOpen()
	i := v.push(&toolItem{id: id, name: name, input: input, r: rendererFor(name)})
	v.selectable = append(v.selectable, i)
	if id != "" {
		v.toolIdx[id] = i
	}
}

// SetToolResult finishes a tool call: the line becomes `✓ Bash(git status)
// 0.12s` (or ✗ for an error) and the output appears under it, collapsed to
// a few lines. A spilled result also shows its size, its line count and the
// spill file's path. It reports false when no call has that id.
func (v *View) SetToolResult(id string, res tools.Result, dur time.Duration) bool {
	if c, ok := v.children[id]; ok {
		c.item.setResult(res, dur)
		v.changed(c.entry)
		return true
	}
	i, ok := v.toolIdx[id]
	if !ok {
		return false
	}
	v.entries[i].item.(*toolItem).setResult(res, dur)
	v.changed(i)
	return true
}

// SetToolWaiting marks a call as waiting for the person's approval (`?`),
// or, with waiting false, as running again. It reports whether the call's
// line changed.
func (v *View) SetToolWaiting(id string, waiting bool) bool {
	i, t, ok := v.toolOrChild(id)
	if !ok {
		return false
	}
	if t.state == toolOK || t.state == toolFailed {
		return false
	}
	state := toolRunning
	if waiting {
		state = toolAsking
	}
	if t.state == state {
		return false
	}
	t.state = state
	v.changed(i)
	return true
}

// AddNotice adds a dimmed line for the person: a hook's message, a retry,
// a task notification.
func (v *View) AddNotice(text string) {
	v.closeOpen()
	v.push(&noteItem{text: strings.TrimSpace(sanitize(text)), prefix: theme.SymbolSkipped + " ", style: func() lipgloss.Style { return theme.Dim }})
}

// AddNews adds a line of background news (a task ended, a monitor
// matched), marked so it reads as news, not as the person's words.
func (v *View) AddNews(text string) {
	v.closeOpen()
	v.push(&noteItem{text: strings.TrimSpace(sanitize(text)), prefix: theme.SymbolRunning + " ", style: func() lipgloss.Style { return theme.Dim }})
}

// AddError adds an error line (a failed model call, say) in the error
// colour.
func (v *View) AddError(text string) {
	v.closeOpen()
	v.push(&noteItem{text: strings.TrimSpace(sanitize(text)), prefix: theme.SymbolError + " ", style: func() lipgloss.Style { return theme.Err }})
}

// closeOpen ends whatever is streaming, so the next item comes after it.
func (v *View) closeOpen() {
	v.closeStream()
	v.closeThinking()
}

func (v *View) closeStream() {
	if v.stream < 0 {
		return
	}
	i := v.stream
	v.stream = -1
	rest := v.entries[i].item.(*assistantItem).rest()
	if strings.TrimSpace(rest) != "" {
		v.entries[i] = entry{item: &blockItem{md: rest}}
		return
	}
	// Nothing is left open: the streaming entry, the last one, goes.
	v.entries = v.entries[:i]
	if !v.follow && v.top.idx >= len(v.entries) {
		v.follow = true
	}
}

func (v *View) closeThinking() {
	if v.think < 0 {
		return
	}
	v.entries[v.think].item.(*thinkingItem).done = true
	v.changed(v.think)
	v.think = -1
}

// childRef places a child call: the entry of the call it is drawn in, and
// its own item.
type childRef struct {
	entry int
	item  *toolItem
}

// parentEntry finds the entry a call id belongs under: the call whose id,
// or whose child's id, is everything before the id's last "/".
func (v *View) parentEntry(id string) (int, bool) {
	k := strings.LastIndexByte(id, '/')
	if k <= 0 {
		return 0, false
	}
	parent := id[:k]
	if c, ok := v.children[parent]; ok {
		return c.entry, true // a child's child is drawn in the same entry
	}
	i, ok := v.toolIdx[parent]
	return i, ok
}

// toolOrChild finds a call's item and the entry it is drawn in.
func (v *View) toolOrChild(id string) (int, *toolItem, bool) {
	if c, ok := v.children[id]; ok {
		return c.entry, c.item, true
	}
	i, ok := v.toolIdx[id]
	if !ok {
		return 0, nil, false
	}
	return i, v.entries[i].item.(*toolItem), true
}
