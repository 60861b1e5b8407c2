package conversation

import (
	"encoding/json"
	"strconv"
	"strings"

	xansi "github.com/charmbracelet/x/ansi"

	"github.com/seed92b641c3/workbench/tools"
	"github.com/seed92b641c3/workbench/ui/format"
)

// lsNameMax is the widest name column an LS listing pads to: a longer name
// pushes its own size out instead of the whole column.
const lsNameMax = 40

// lsRenderer shows an LS listing as a table: names in one column, sizes in
// the UI's binary units (format.Bytes) right-aligned in the next, so they
// can be compared at a glance. The model reads the tool's text, where each
// file line is "name<TAB>1,234 bytes".
type lsRenderer struct{}

// Body implements toolRenderer.
func (lsRenderer) Body(_ json.RawMessage, res tools.Result) string {
	if res.IsError || res.Spill != nil {
		return res.Text
	}
	lines := strings.Split(res.Text, "\n")
	names := make([]string, len(lines))
	sizes := make([]string, len(lines))
	nameW, sizeW := 0, 0
	for i, l := range lines {
		tab := strings.LastIndexByte(l, '\t')
		if tab < 0 {
			continue
		}
		n, ok := lsBytes(l[tab+1:])
		if !ok {
			continue
		}
		names[i], sizes[i] = l[:tab], format.Bytes(n)
		if w := xansi.StringWidth(names[i]); w <= lsNameMax {
			nameW = max(nameW, w)
		}
		sizeW = max(sizeW, len(sizes[i]))
	}
	if sizeW == 0 {
		return res.Text
	}
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		if sizes[i] == "" {
			b.WriteString(l)
			continue
		}
		b.WriteString(names[i])
		b.WriteString(strings.Repeat(" ", max(0, nameW-xansi.StringWidth(names[i]))+2))
		b.WriteString(strings.Repeat(" ", sizeW-len(sizes[i])))
		b.WriteString(sizes[i])
	}
	return b.String()
}

// lsBytes reads the size LS writes after a file's name: "1 byte",
// "12,345 bytes".
func lsBytes(s string) (int64, bool) {
	num, unit, ok := strings.Cut(s, " ")
	if !ok || (unit != "byte" && unit != "bytes") {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(num, ",", ""), 10, 64)
	return n, err == nil && n >= 0
}
