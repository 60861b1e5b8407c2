package approval

import (
	"encoding/json"
	"net/url"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/theme"
)

// review renders the part of the dialog a person reads before answering:
// the call's input in the form that tool's changes are judged in. There is
// one per tool family, chosen by newReview, so adding a tool family never
// touches the dialog itself.
type review interface {
	// render returns the body at width cells; no line is wider.
	render(width int) []string
}

// newReview picks the review for a request and the dialog title that goes
// with it.
func newReview(req agent.ApprovalRequest, opts Options) (title string, r review) {
	t := targetOf(req)
	switch {
	case req.Tool == planTool:
		return "The agent's plan is ready", newPlanReview(req)
	case req.Tool == "Bash" || len(t.Commands) > 0:
		return req.Tool + " wants to run a command", newCommandReview(req, t, opts)
	case fileTools[req.Tool]:
		fr := newFileReview(req, opts)
		verb := "change"
		if req.Tool == "Write" {
			verb = "overwrite"
			if !fr.exists {
				verb = "create"
			}
		}
		return req.Tool + " wants to " + verb + " " + fr.shown, fr
	case req.Tool == "WebFetch":
		wr := newWebReview(req, t.Host)
		title = req.Tool + " wants to fetch a URL"
		if wr.host != "" {
			title = req.Tool + " wants to fetch from " + wr.host
		}
		return title, wr
	}
	return req.Tool + " wants to run", jsonReview{input: req.Input}
}

// cachedReview keeps the last render, since View runs on every frame and a
// diff or a Markdown plan is costly to lay out; the input never changes, so
// only the width invalidates it.
type cachedReview struct {
	review
	width int
	lines []string
}

func (c *cachedReview) render(width int) []string {
	if c.lines == nil || c.width != width {
		c.width, c.lines = width, c.review.render(width)
	}
	return c.lines
}

// jsonReview shows the input of a tool without a dedicated review as
// indented JSON.
type jsonReview struct{ input json.RawMessage }

func (j jsonReview) render(width int) []string {
	if len(j.input) == 0 || string(j.input) == "{}" {
		return []string{theme.Dim.Render("(no input)")}
	}
	return wrapText(prettyJSON(j.input), width)
}

// webReview shows the URL in full and its host on a line of its own: the
// host is what a "Yes for this session" grant opens.
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

func (w webReview) render(width int) []string {
	var out []string
	out = append(out, labelled("URL", w.url, width, theme.Base)...)
	out = append(out, labelled("Host", w.host, width, theme.Bold)...)
	if w.plain {
		out = append(out, theme.Warn.Render(truncate("plain http: the page can be altered on the way", width)))
	}
	if w.prompt != "" {
		out = append(out, "")
		out = append(out, labelled("Prompt", w.prompt, width, theme.Dim)...)
	}
	return out
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
