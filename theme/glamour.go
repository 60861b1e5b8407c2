package theme

import (
	"fmt"
	"image/color"

	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
)

// Glamour returns the Markdown style of the current palette: glamour's own
// dark or light layout (indents, prefixes, list marks) with every colour
// taken from the palette. Glamour's stock colours are not used because
// several cannot be read on the background they are meant for (a teal link
// on white, red inline code on light grey, yellow on blue for a heading)
// and some paint a background (inline code, code blocks); here text is the
// terminal's, marks take the palette's measured colours, and nothing has a
// background. Each call returns a fresh copy the caller may change.
func Glamour() ansi.StyleConfig {
	p := current
	st := styles.DarkStyleConfig
	if p.Name == Light.Name {
		st = styles.LightStyleConfig
	}
	c := func(col color.Color) *string { s := hex(col); return &s }
	plain := ansi.StylePrimitive{}
	none := func(sp ansi.StylePrimitive) ansi.StylePrimitive {
		sp.Color, sp.BackgroundColor = nil, nil
		return sp
	}

	st.Document.StylePrimitive = none(st.Document.StylePrimitive)
	st.Paragraph.StylePrimitive = none(st.Paragraph.StylePrimitive)
	st.BlockQuote.StylePrimitive = none(st.BlockQuote.StylePrimitive)
	st.Text = none(st.Text)
	st.Heading.StylePrimitive = none(st.Heading.StylePrimitive)
	st.Heading.Color = c(p.Accent)
	for _, h := range []*ansi.StyleBlock{&st.H1, &st.H2, &st.H3, &st.H4, &st.H5, &st.H6} {
		h.StylePrimitive = none(h.StylePrimitive)
	}
	// H1 was a coloured badge (" Title " on a background); without the
	// background it is written like the other levels.
	st.H1.Prefix, st.H1.Suffix = "# ", ""
	st.H6.Color = c(p.Muted)
	st.HorizontalRule = none(st.HorizontalRule)
	st.HorizontalRule.Color = c(p.Subtle)
	st.Link = none(st.Link)
	st.Link.Color = c(p.Info)
	st.LinkText = none(st.LinkText)
	st.LinkText.Color = c(p.Info)
	st.Image = none(st.Image)
	st.Image.Color = c(p.Accent)
	st.ImageText = none(st.ImageText)
	st.ImageText.Color = c(p.Muted)
	st.Code.StylePrimitive = none(st.Code.StylePrimitive)
	st.Code.Color = c(p.Warning)
	// Inline code was padded by a space each side to fill its background;
	// without one the padding read as double spaces ("prints  hi .").
	st.Code.Prefix, st.Code.Suffix = "", ""
	st.CodeBlock.StyleBlock.StylePrimitive = none(st.CodeBlock.StyleBlock.StylePrimitive)
	st.CodeBlock.Chroma = &ansi.Chroma{
		Text:                plain,
		Error:               ansi.StylePrimitive{Color: c(p.Danger)},
		Comment:             ansi.StylePrimitive{Color: c(p.Muted)},
		CommentPreproc:      ansi.StylePrimitive{Color: c(p.Warning)},
		Keyword:             ansi.StylePrimitive{Color: c(p.Info)},
		KeywordReserved:     ansi.StylePrimitive{Color: c(p.Accent)},
		KeywordNamespace:    ansi.StylePrimitive{Color: c(p.Danger)},
		KeywordType:         ansi.StylePrimitive{Color: c(p.Accent)},
		Operator:            ansi.StylePrimitive{Color: c(p.Danger)},
		Punctuation:         plain,
		Name:                plain,
		NameBuiltin:         ansi.StylePrimitive{Color: c(p.Accent)},
		NameTag:             ansi.StylePrimitive{Color: c(p.Accent)},
		NameAttribute:       ansi.StylePrimitive{Color: c(p.Info)},
		NameClass:           plain,
		NameConstant:        ansi.StylePrimitive{Color: c(p.Accent)},
		NameDecorator:       ansi.StylePrimitive{Color: c(p.Warning)},
		NameFunction:        ansi.StylePrimitive{Color: c(p.Success)},
		LiteralNumber:       ansi.StylePrimitive{Color: c(p.Success)},
		LiteralString:       ansi.StylePrimitive{Color: c(p.Warning)},
		LiteralStringEscape: ansi.StylePrimitive{Color: c(p.Info)},
		GenericDeleted:      ansi.StylePrimitive{Color: c(p.Danger)},
		GenericInserted:     ansi.StylePrimitive{Color: c(p.Success)},
		GenericSubheading:   ansi.StylePrimitive{Color: c(p.Muted)},
		Background:          plain,
	}
	return st
}

// hex writes a colour as #RRGGBB, the form glamour reads.
func hex(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8)
}
