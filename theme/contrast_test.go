package theme

import (
	"image/color"
	"math"
	"testing"

	"charm.land/lipgloss/v2"
)

// luminance is a colour's relative luminance as WCAG 2 defines it.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v>>8) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is the WCAG 2 contrast ratio of two colours, 1 to 21.
func contrast(a, b color.Color) float64 {
	x, y := luminance(a), luminance(b)
	if x < y {
		x, y = y, x
	}
	return (x + 0.05) / (y + 0.05)
}

func isNoColor(c color.Color) bool {
	_, ok := c.(lipgloss.NoColor)
	return c == nil || ok
}

// WCAG AA: 4.5:1 for text, 3:1 for graphics such as borders.
const (
	minTextContrast   = 4.5
	minBorderContrast = 3.0
)

func TestContrastHoldsWCAGAAOnBothPalettes(t *testing.T) {
	defer Use(current)
	for _, p := range []Palette{Dark, Light} {
		Use(p)
		for name, st := range TextStyles() {
			fg, bg := st.GetForeground(), st.GetBackground()
			if isNoColor(fg) {
				// The terminal's own text: only a background of ours
				// could spoil it, and none may be set.
				if !isNoColor(bg) {
					t.Errorf("%s %s: a background without a foreground forces the terminal's text onto our colour", p.Name, name)
				}
				continue
			}
			backs := p.Backgrounds
			if !isNoColor(bg) {
				backs = []color.Color{bg}
			}
			for _, b := range backs {
				if r := contrast(fg, b); r < minTextContrast {
					t.Errorf("%s %s: contrast %.2f:1 against %s, want at least %.1f:1", p.Name, name, r, hex(b), minTextContrast)
				}
			}
		}
		for name, st := range BorderStyles() {
			for _, b := range p.Backgrounds {
				if r := contrast(st.GetBorderTopForeground(), b); r < minBorderContrast {
					t.Errorf("%s %s border: contrast %.2f:1 against %s, want at least %.1f:1", p.Name, name, r, hex(b), minBorderContrast)
				}
			}
		}
	}
}

// The body text styles carry no colour at all, so the person's terminal
// colours, whatever they are, draw them; and no style paints a canvas.
func TestBodyTextIsTheTerminalsOwn(t *testing.T) {
	defer Use(current)
	for _, p := range []Palette{Dark, Light} {
		Use(p)
		for _, name := range []string{"Base", "Bold", "UserMsg"} {
			st := TextStyles()[name]
			if !isNoColor(st.GetForeground()) || !isNoColor(st.GetBackground()) {
				t.Errorf("%s %s sets a colour: fg %v bg %v", p.Name, name, st.GetForeground(), st.GetBackground())
			}
		}
		// Only pairs that are a mark by nature have a background.
		for name, st := range TextStyles() {
			switch name {
			case "Selected", "DiffAdd", "DiffDel":
				continue
			}
			if !isNoColor(st.GetBackground()) {
				t.Errorf("%s %s forces a background %v", p.Name, name, st.GetBackground())
			}
		}
	}
}

// The contrast measure itself: black on white is 21:1, a colour on itself
// 1:1, and WCAG's own example of a mid grey.
func TestContrastMeasure(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want float64
	}{{"#000000", "#FFFFFF", 21}, {"#777777", "#777777", 1}, {"#767676", "#FFFFFF", 4.54}} {
		if got := contrast(lipgloss.Color(c.a), lipgloss.Color(c.b)); math.Abs(got-c.want) > 0.01 {
			t.Errorf("contrast(%s, %s) = %.3f, want %.2f", c.a, c.b, got, c.want)
		}
	}
}

func TestByNameAndValid(t *testing.T) {
	for _, n := range []string{"dark", "light"} {
		if p, ok := ByName(n); !ok || p.Name != n {
			t.Errorf("ByName(%q) = %q, %v", n, p.Name, ok)
		}
	}
	for _, n := range []string{"auto", "Dark", "solarized", ""} {
		if _, ok := ByName(n); ok {
			t.Errorf("ByName(%q) chose a palette", n)
		}
	}
	for n, want := range map[string]bool{"auto": true, "dark": true, "light": true, "Light": false, "": false} {
		if Valid(n) != want {
			t.Errorf("Valid(%q) = %v", n, !want)
		}
	}
}
