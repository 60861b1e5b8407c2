package approval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/theme"
	"github.com/seed92b641c3/workbench/ui/format"
)

// review renders the part of the dialog a person reads before answering:
// the call's input in the form that tool's changes are judged in, and the
// pins: what is asked about, which stays on screen however long the input
// is. There is one per tool family, chosen by newReview, so adding a tool
// family never touches the dialog itself.
type review interface {
	// render returns the body at width cells; no line is wider.
	render(width int, sh shape) body
	// pins returns the fixed part at width cells.
	pins(width int) pinned
}

// folder is a review that folds parts of its body into markers (x shows
// them).
type folder interface{ foldable() bool }

// newReview picks the review for a request and the dialog title that goes
// with it; the title is a function of the width because a command's title
// names as many of its programs as fit.
func newReview(req agent.ApprovalRequest, opts Options) (title func(width int) string, r review) {
	fixed := func(s string) func(int) string { return func(int) string { return s } }
	t := targetOf(req)
	switch {
	case req.Tool == planTool:
		return fixed("The agent's plan is ready"), newPlanReview(req)
	case req.Tool == "Bash" || len(t.Commands) > 0:
		c := newCommandReview(req, t, opts)
		return func(w int) string { return c.title(req.Tool, w) }, c
	case fileTools[req.Tool]:
		fr := newFileReview(req, opts)
		verb := "change"
		if req.Tool == "Write" {
			verb = "overwrite"
			if !fr.exists {
				verb = "create"
			}
		}
		return fixed(req.Tool + " wants to " + verb + " " + fr.shown), fr
	case req.Tool == "WebFetch":
		wr := newWebReview(req, t.Host)
		title := req.Tool + " wants to fetch a URL"
		if wr.host != "" {
			title = req.Tool + " wants to fetch from " + wr.host
		}
		return fixed(title), wr
	}
	return fixed(req.Tool + " wants to run"), newJSONReview(req.Input)
}

// cachedReview keeps the last renders, since View runs on every frame and
// a diff or a Markdown plan is costly to lay out; the input never changes,
// so only the width and the shape invalidate them. A View can ask for two
// shapes (with and without the pins repeated), so each shape is kept.
type cachedReview struct {
	review
	width  int
	shape  shape // the last one rendered
	bodies map[shape]body
	pinW   int
	pin    *pinned
}

func (c *cachedReview) render(width int, sh shape) body {
	if c.bodies == nil || c.width != width {
		c.width, c.bodies = width, map[shape]body{}
	}
	b, ok := c.bodies[sh]
	if !ok {
		b = c.review.render(width, sh)
		c.bodies[sh] = b
	}
	c.shape = sh
	return b
}

func (c *cachedReview) pins(width int) pinned {
	if c.pin == nil || c.pinW != width {
		p := c.review.pins(width)
		c.pinW, c.pin = width, &p
	}
	return *c.pin
}

func (c *cachedReview) foldable() bool {
	f, ok := c.review.(folder)
	return ok && f.foldable()
}

// jsonReview shows the input of a tool without a dedicated review (an MCP
// tool, most often) as indented JSON, with the argument names pinned: a
// long value must not hide that another argument follows it.
type jsonReview struct {
	input json.RawMessage
	names []string // the top-level argument names, in input order
}

func newJSONReview(in json.RawMessage) jsonReview {
	return jsonReview{input: in, names: objectKeys(in)}
}

// argsKey is the pin key of the argument names.
const argsKey = "arguments"

func (j jsonReview) pins(width int) pinned {
	if len(j.names) == 0 {
		return pinned{}
	}
	text := fmt.Sprintf("%d %s (%s): %s", len(j.names), plural(len(j.names), "argument", "arguments"),
		byteSize(len(j.input)), strings.Join(j.names, ", "))
	var lines []string
	for _, l := range wrapText(text, width) {
		lines = append(lines, theme.Bold.Render(l))
	}
	return pinned{items: []pin{{key: argsKey, lines: lines, full: lines}},
		more: "arguments", all: "Every argument name"}
}

func (j jsonReview) render(width int, _ shape) body {
	if len(j.input) == 0 || string(j.input) == "{}" {
		return body{lines: []string{theme.Dim.Render("(no input)")}}
	}
	var b body
	for _, src := range splitLines(prettyJSON(j.input)) {
		from := len(b.lines)
		b.lines = append(b.lines, wrapText(src, width)...)
		// A top-level argument starts a line indented once.
		if strings.HasPrefix(src, `  "`) && len(j.names) > 0 {
			b.anchor(argsKey, from, from+1)
		}
	}
	return b
}

// objectKeys returns the keys of a JSON object in the order they appear,
// or nil when in is not an object.
func objectKeys(in json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(in))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}

// byteSize writes a size in the UI's one unit system (format.Bytes).
func byteSize(n int) string { return format.Bytes(int64(n)) }

// webReview shows the URL in full and its host on a line of its own: the
// host is what a "Yes for this session" grant opens. Both are pinned, the
// URL wrapped and never cut, since its end can matter as much as its host.
type webReview struct {
	url, host, prompt string
	plain             bool // http, not https
}

func newWebReview(req agent.ApprovalRequest, host string) webReview {
	w := webReview{url: inputString(req.Input, "url"), host: host, prompt: inputString(req.Input, "prompt")}
	if u, err := url.Parse(w.url); err == nil {
		if w.host == "" {
			w.host = u.Hostname()
		}
		w.plain = strings.EqualFold(u.Scheme, "http")
	}
	return w
}

// urlKey is the pin key of a WebFetch URL.
const urlKey = "url"

func (w webReview) pins(width int) pinned {
	lines := labelled("URL", w.url, width, theme.Base)
	p := pinned{items: []pin{{key: urlKey, lines: lines, full: lines}}, more: "lines of the URL", all: "The whole URL"}
	p.tail = labelled("Host", w.host, width, theme.Bold)
	if w.plain {
		p.tail = append(p.tail, theme.Warn.Render(truncate("plain http: the page can be altered on the way", width)))
	}
	return p
}

func (w webReview) render(width int, sh shape) body {
	var b body
	if sh.repeat {
		b.lines = labelled("URL", w.url, width, theme.Base)
		b.anchor(urlKey, 0, len(b.lines))
	}
	if w.prompt != "" {
		b.lines = append(b.lines, labelled("Prompt", w.prompt, width, theme.Dim)...)
	}
	return b
}

// labelWidth is the width of the labels in front of a review's fields.
const labelWidth = 7

// labelled lays out "Label  value", wrapping the value under itself.
func labelled(label, value string, width int, st lipgloss.Style) []string {
	indent := strings.Repeat(" ", labelWidth)
	lines := wrapText(value, max(1, width-labelWidth))
	for i, l := range lines {
		head := indent
		if i == 0 {
			head = theme.Dim.Render(pad(label, labelWidth))
		}
		lines[i] = head + st.Render(l)
	}
	return lines
}
