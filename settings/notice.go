package settings

import (
	"fmt"

	"github.com/seed92b641c3/workbench/hooks"
)

// Notice is something a settings file asks for that Workbench reads but
// does not do (a hook event it does not fire, a hook type it does not
// run). It is not an error: the file may be written for a newer Claude
// Code, and the rest of it still applies. The host shows every notice on
// stderr and in the UI's notices, so nothing is ignored silently.
type Notice struct {
	Path   string
	Line   int
	Column int
	Field  string
	Msg    string
}

// String names the file, line and field the way settings errors do.
func (n Notice) String() string {
	loc := n.Path
	if n.Line > 0 {
		loc = fmt.Sprintf("%s:%d:%d", n.Path, n.Line, n.Column)
	}
	return fmt.Sprintf("settings %s: %s: %s", loc, n.Field, n.Msg)
}

// hookNotices places what the hooks loader ignored in the file.
func hookNotices(path string, data []byte, ignored []hooks.Ignored) []Notice {
	var out []Notice
	for _, ig := range ignored {
		n := Notice{Path: path, Field: "hooks." + ig.Where(), Msg: ig.Msg}
		if off := locate(data, append([]string{"hooks"}, ig.Path...)); off >= 0 {
			n.Line, n.Column = position(data, off)
		}
		out = append(out, n)
	}
	return out
}
