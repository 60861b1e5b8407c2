package theme

import "image/color"

// Mark is how one kind of Markdown text is drawn: a colour and text
// attributes. It has no background field on purpose: replies are read on
// the terminal's own background all day, and a painted block (a code
// background, a heading badge) is what made the old renderer's stock
// styles unreadable on one palette or the other. A nil Color is the
// terminal's own foreground.
type Mark struct {
	Color                                         color.Color
	Bold, Italic, Underline, Strikethrough, Faint bool
}

// MarkdownStyle is every mark the Markdown renderer and the code
// highlighter draw with, taken from the current palette. It lives here,
// not in the renderer, so that theme stays the one place colours are
// chosen and the contrast test can measure each of them.
type MarkdownStyle struct {
	Headings                        [6]Mark // levels 1 to 6
	Emphasis, Strong, Strikethrough Mark
	Code                            Mark // inline code: a colour, no padding
	Link, URL                       Mark // a link's text; the address after it
	Image                           Mark // an image's alt text
	Bullet                          Mark // list bullets and numbers
	TaskOpen, TaskDone              Mark // [ ] and [x]
	HTML                            Mark // raw HTML, shown as text
	TableHeader                     Mark
	// Lines rather than text: held to the 3:1 of graphics.
	QuoteBar, Rule, TableBorder Mark
	Syntax                      SyntaxStyle
}

// SyntaxStyle is the colour of each kind of token the code highlighter
// finds. Plain code is the terminal's own colour, like prose.
type SyntaxStyle struct {
	Keyword, Type, Constant, Function Mark
	String, Number, Comment, Meta     Mark
	Tag, Attribute, Key               Mark // markup tags, their attributes; keys in data files
	Added, Removed, Hunk              Mark // diff lines
}

// Markdown returns the Markdown style of the current palette. Text is the
// terminal's; marks take the palette's measured colours (each readable at
// 4.5:1 on the palette's backgrounds); headings differ by level through
// weight, underline and colour, so they stay distinct in either palette.
func Markdown() MarkdownStyle {
	p := current
	c := func(col color.Color) Mark { return Mark{Color: col} }
	return MarkdownStyle{
		Headings: [6]Mark{
			{Color: p.Accent, Bold: true, Underline: true},
			{Color: p.Accent, Bold: true},
			{Color: p.Info, Bold: true},
			{Bold: true},
			{Color: p.Muted, Bold: true},
			{Color: p.Muted, Italic: true},
		},
		Emphasis:      Mark{Italic: true},
		Strong:        Mark{Bold: true},
		Strikethrough: Mark{Strikethrough: true},
		Code:          c(p.Warning),
		Link:          Mark{Color: p.Info, Underline: true},
		URL:           c(p.Muted),
		Image:         c(p.Accent),
		Bullet:        c(p.Muted),
		TaskOpen:      c(p.Muted),
		TaskDone:      c(p.Success),
		HTML:          c(p.Muted),
		TableHeader:   Mark{Bold: true},
		QuoteBar:      c(p.Subtle),
		Rule:          c(p.Subtle),
		TableBorder:   c(p.Subtle),
		Syntax: SyntaxStyle{
			Keyword:   c(p.Info),
			Type:      c(p.Accent),
			Constant:  c(p.Accent),
			Function:  c(p.Success),
			String:    c(p.Warning),
			Number:    c(p.Success),
			Comment:   Mark{Color: p.Muted, Italic: true},
			Meta:      c(p.Danger),
			Tag:       c(p.Info),
			Attribute: c(p.Accent),
			Key:       c(p.Info),
			Added:     c(p.Success),
			Removed:   c(p.Danger),
			Hunk:      c(p.Accent),
		},
	}
}
