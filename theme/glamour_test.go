package theme

import (
	"reflect"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

// Every colour the Markdown style sets, in both palettes, is readable on
// the palette's backgrounds, and nothing in it paints a background.
func TestGlamourColoursReadOnBothPalettes(t *testing.T) {
	defer Use(current)
	for _, p := range []Palette{Dark, Light} {
		Use(p)
		n := 0
		walkColours(reflect.ValueOf(Glamour()), "", func(path, field, value string) {
			n++
			if field == "BackgroundColor" {
				t.Errorf("%s %s: background %s", p.Name, path, value)
				return
			}
			if !strings.HasPrefix(value, "#") {
				t.Errorf("%s %s: %q is not one of the palette's colours", p.Name, path, value)
				return
			}
			want := minTextContrast
			if path == ".HorizontalRule" {
				want = minBorderContrast // a line, not text
			}
			for _, b := range p.Backgrounds {
				if r := contrast(lipgloss.Color(value), b); r < want {
					t.Errorf("%s %s: %s on %s is %.2f:1, want %.1f:1", p.Name, path, value, hex(b), r, want)
				}
			}
		})
		if n < 10 {
			t.Errorf("%s: only %d colours found; the walk misses the style's fields", p.Name, n)
		}
	}
}

// walkColours calls fn for every Color and BackgroundColor set in v.
func walkColours(v reflect.Value, path string, fn func(path, field, value string)) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			walkColours(v.Elem(), path, fn)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			fv := v.Field(i)
			if (f.Name == "Color" || f.Name == "BackgroundColor") && fv.Kind() == reflect.Pointer && fv.Type().Elem().Kind() == reflect.String {
				if !fv.IsNil() {
					fn(path, f.Name, fv.Elem().String())
				}
				continue
			}
			name := path
			if !f.Anonymous {
				name += "." + f.Name
			}
			walkColours(fv, name, fn)
		}
	}
}
