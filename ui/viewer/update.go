package viewer

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Update handles a key, paste, mouse wheel or StepMsg and returns what the
// root must do next.
func (v *Viewer) Update(msg tea.Msg) Action {
	if v.closed {
		return Action{}
	}
	switch msg := msg.(type) {
	case StepMsg:
		if msg.id != v.id || msg.seq != v.seq {
			return Action{} // for another viewer, or overtaken
		}
		v.queued = false
		v.Step(v.budget)
	case tea.KeyPressMsg:
		if v.mode != browsing {
			v.promptKey(msg)
		} else if v.browseKey(msg) {
			return Action{Close: true}
		}
	case tea.PasteMsg:
		if v.mode != browsing {
			v.input, _ = v.input.Update(msg)
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			v.up(wheelLines)
		case tea.MouseWheelDown:
			v.down(wheelLines)
		}
	}
	return v.action()
}

// browseKey handles a key while reading; it reports whether the person
// closed the viewer.
func (v *Viewer) browseKey(msg tea.KeyPressMsg) bool {
	k := &v.keys
	v.msg = ""
	switch {
	case key.Matches(msg, k.Cancel) && (v.search.active || v.gotoLine > 0):
		v.search.active, v.gotoLine = false, 0
		v.say("stopped", false)
	case key.Matches(msg, k.Close):
		return true
	case key.Matches(msg, k.Down):
		v.down(1)
	case key.Matches(msg, k.Up):
		v.up(1)
	case key.Matches(msg, k.PageDown):
		v.down(v.bodyH)
	case key.Matches(msg, k.PageUp):
		v.up(v.bodyH)
	case key.Matches(msg, k.HalfDown):
		v.down(max(1, v.bodyH/2))
	case key.Matches(msg, k.HalfUp):
		v.up(max(1, v.bodyH/2))
	case key.Matches(msg, k.Top):
		v.moveTo(0)
	case key.Matches(msg, k.Bottom):
		v.top, v.topSub = v.bottom(v.bodyH)
	case key.Matches(msg, k.Left):
		v.xoff = max(0, v.xoff-hScroll)
	case key.Matches(msg, k.Right):
		if !v.wrap && v.xoff+hScroll < v.maxCols {
			v.xoff += hScroll
		}
	case key.Matches(msg, k.GoTo):
		v.openPrompt(lineInput, ":")
	case key.Matches(msg, k.Search):
		v.openPrompt(searching, "/")
	case key.Matches(msg, k.Next), key.Matches(msg, k.Prev):
		if v.search.re == nil {
			v.say("no search yet: press / to search", true)
			break
		}
		v.find(key.Matches(msg, k.Next))
	case key.Matches(msg, k.Wrap):
		v.wrap, v.topSub, v.xoff = !v.wrap, 0, 0
	case key.Matches(msg, k.Follow):
		v.follow = !v.follow // View keeps the end in view while it is set
	}
	return false
}

func (v *Viewer) openPrompt(m mode, prompt string) {
	v.mode = m
	v.input.Reset()
	v.input.Prompt = prompt
	v.input.Placeholder = ""
	if m == lineInput {
		v.input.Placeholder = "line number, or 50%"
	}
	v.input.Focus()
}

// promptKey handles a key while a search pattern or line number is typed.
func (v *Viewer) promptKey(msg tea.KeyPressMsg) {
	switch {
	case key.Matches(msg, v.keys.Cancel):
		v.mode = browsing
		v.input.Blur()
	case key.Matches(msg, v.keys.Submit):
		text := strings.TrimSpace(v.input.Value())
		m := v.mode
		v.mode = browsing
		v.input.Blur()
		if text == "" {
			return
		}
		if m == searching {
			v.startSearch(text)
		} else {
			v.goTo(text)
		}
	default:
		v.input, _ = v.input.Update(msg)
	}
}

// startSearch sets a new pattern and looks for its first match from the
// top of the screen.
func (v *Viewer) startSearch(pattern string) {
	if err := v.search.setPattern(pattern); err != nil {
		v.say(err.Error(), true)
		return
	}
	if v.search.literal {
		v.say("not a valid regexp: searching for the text as typed", false)
	}
	v.find(true)
}

// goTo moves to a line number, or to a percentage of the file ("50%").
func (v *Viewer) goTo(text string) {
	if pct, ok := strings.CutSuffix(text, "%"); ok {
		p, err := strconv.ParseFloat(pct, 64)
		if err != nil || p < 0 || p > 100 {
			v.say(fmt.Sprintf("not a percentage: %s", text), true)
			return
		}
		v.moveTo(v.rowBefore(int64(float64(v.size)*p/100) + 1))
		return
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(text, ",", ""), 10, 64)
	if err != nil || n < 1 {
		v.say(fmt.Sprintf("not a line number: %s", text), true)
		return
	}
	v.gotoLine = n
	v.resolveGoto()
}

// resolveGoto moves to the line asked for once the index has reached it,
// or to the last line when the file is shorter; it reports whether it is
// done.
func (v *Viewer) resolveGoto() bool {
	n := v.gotoLine
	if off, ok := v.lineStart(n - 1); ok && (off < v.size || v.size == 0) {
		v.gotoLine = 0
		v.moveTo(off)
		return true
	}
	if v.indexing() {
		return false
	}
	v.gotoLine = 0
	total, ok := v.totalLines()
	if !ok {
		v.say("cannot go to a line: the file could not be read to the end", true)
		return true
	}
	v.say(fmt.Sprintf("the file has %s%s", thousands(total), plural(total, " line", " lines")), false)
	if off, ok := v.lineStart(total - 1); ok && total > 0 {
		v.moveTo(off)
	}
	return true
}

// moveTo puts the row at off at the top of the screen (or as near as the
// end of the file allows).
func (v *Viewer) moveTo(off int64) {
	v.top, v.topSub, v.follow = off, 0, false
	v.clampBottom()
}

// down scrolls n screen lines towards the end, never past the point where
// the last line is at the bottom.
func (v *Viewer) down(n int) {
	for ; n > 0; n-- {
		if v.wrap && v.topSub+1 < v.subCount(v.top) {
			v.topSub++
			continue
		}
		end := v.rowEnd(v.top)
		if end >= v.size {
			break
		}
		v.top, v.topSub = end, 0
	}
	v.clampBottom()
}

// up scrolls n screen lines towards the start; it ends follow mode.
func (v *Viewer) up(n int) {
	v.follow = false
	for ; n > 0; n-- {
		if v.topSub > 0 {
			v.topSub--
			continue
		}
		if v.top == 0 {
			break
		}
		v.top = v.rowBefore(v.top)
		if v.wrap {
			v.topSub = v.subCount(v.top) - 1
		}
	}
}

// clampBottom keeps the screen from scrolling past the end of the file.
func (v *Viewer) clampBottom() {
	// Only a position within a screenful of rows from the end can be past
	// it; anything earlier is left alone without reading.
	if v.size-v.top > int64(v.bodyH)*(2*rowCap+4*cutSlack) {
		return
	}
	top, sub := v.bottom(v.bodyH)
	if v.top > top || v.top == top && v.topSub > sub {
		v.top, v.topSub = top, sub
	}
}

// bottom returns the position that shows the end of the file on the last
// line of a text area height lines high.
func (v *Viewer) bottom(height int) (int64, int) {
	need := max(1, height)
	for end := v.size; end > 0; {
		start := v.rowBefore(end)
		n := 1
		if v.wrap {
			n = v.subCount(start)
		}
		if n >= need {
			return start, n - need
		}
		need -= n
		end = start
	}
	return 0, 0
}

// subCount is how many screen lines row r takes when wrapped.
func (v *Viewer) subCount(r int64) int {
	if m := &v.subMemo; m.row == r && m.width == v.width {
		return m.n
	}
	styled, _ := v.rowText(r, true)
	n := 1
	if ansi.StringWidth(styled) > v.width {
		n = len(wrapRow(styled, v.width))
	}
	v.subMemo.row, v.subMemo.width, v.subMemo.n = r, v.width, n
	return n
}
