package conversation

import (
	"sort"

	"github.com/seed92b641c3/workbench/tools"
)

// SelectPrev selects the tool call or thinking block before the selected
// one, or, with nothing selected, the last one on screen, and scrolls to
// show it. It reports whether the selection changed.
func (v *View) SelectPrev() bool {
	if len(v.selectable) == 0 {
		return false
	}
	var k int
	if v.sel < 0 {
		_, last := v.visibleRange()
		k = sort.SearchInts(v.selectable, last+1) - 1
		if k < 0 {
			k = 0
		}
	} else {
		k = sort.SearchInts(v.selectable, v.sel) - 1
		if k < 0 {
			return false
		}
	}
	return v.selectEntry(v.selectable[k])
}

// SelectNext selects the tool call or thinking block after the selected
// one, or, with nothing selected, the first one on screen, and scrolls to
// show it. It reports whether the selection changed.
func (v *View) SelectNext() bool {
	if len(v.selectable) == 0 {
		return false
	}
	var k int
	if v.sel < 0 {
		first, _ := v.visibleRange()
		k = sort.SearchInts(v.selectable, first)
		if k == len(v.selectable) {
			k = len(v.selectable) - 1
		}
	} else {
		k = sort.SearchInts(v.selectable, v.sel+1)
		if k == len(v.selectable) {
			return false
		}
	}
	return v.selectEntry(v.selectable[k])
}

// HasSelection reports whether a tool call or thinking block is selected,
// so the root can decide whether Esc clears the selection or does
// something else.
func (v *View) HasSelection() bool { return v.sel >= 0 }

// Deselect clears the selection (Esc).
func (v *View) Deselect() {
	if v.sel >= 0 {
		v.changed(v.sel)
		v.sel = -1
	}
}

func (v *View) selectEntry(i int) bool {
	if i == v.sel {
		return false
	}
	v.Deselect()
	v.sel = i
	v.changed(i)
	v.ensureVisible(i)
	return true
}

// ToggleExpand expands or collapses the selected item. With nothing
// selected it acts on the last tool call or thinking block on screen, the
// one whose hint the person most likely just read. An expanded item taller
// than the screen is shown from its first line. It reports whether
// anything changed.
func (v *View) ToggleExpand() bool {
	i := v.sel
	if i < 0 {
		first, last := v.visibleRange()
		k := sort.SearchInts(v.selectable, last+1) - 1
		if k < 0 || v.selectable[k] < first {
			return false
		}
		i = v.selectable[k]
	}
	it, ok := v.entries[i].item.(expandable)
	if !ok {
		return false
	}
	it.toggle()
	v.changed(i)
	v.ensureVisible(i)
	return true
}

// Selected returns the selected tool call's id and, when its output was
// spilled to a file, the spill, so the root can open it in a viewer. ok is
// false when no tool call is selected.
func (v *View) Selected() (toolID string, spill *tools.Spill, ok bool) {
	if v.sel < 0 {
		return "", nil, false
	}
	t, isTool := v.entries[v.sel].item.(*toolItem)
	if !isTool {
		return "", nil, false
	}
	return t.id, t.res.Spill, true
}
