package theme

import (
	"fmt"
	"image/color"
	"reflect"
	"testing"
)

// Every colour the Markdown style sets, in both palettes, is readable on
// the palette's backgrounds: text at 4.5:1, the lines (quote bar, rule,
// table borders) at the 3:1 of graphics. Mark has no background field, so
// nothing in the style can paint one.
func TestMarkdownColoursReadOnBothPalettes(t *testing.T) {
	defer Use(current)
	lines := map[string]bool{".QuoteBar": true, ".Rule": true, ".TableBorder": true}
	for _, p := range []Palette{Dark, Light} {
		Use(p)
		n := 0
		walkMarks(reflect.ValueOf(Markdown()), "", func(path string, m Mark) {
			if m.Color == nil {
				return
			}
			n++
			want := minTextContrast
			if lines[path] {
				want = minBorderContrast
			}
			for _, b := range p.Backgrounds {
				if r := contrast(m.Color, b); r < want {
					t.Errorf("%s %s: %s on %s is %.2f:1, want %.1f:1", p.Name, path, hex(m.Color), hex(b), r, want)
				}
			}
		})
		if n < 20 {
			t.Errorf("%s: only %d colours found; the walk misses the style's fields", p.Name, n)
		}
	}
}

// walkMarks calls fn for every Mark in v, named by its path.
func walkMarks(v reflect.Value, path string, fn func(path string, m Mark)) {
	if m, ok := v.Interface().(Mark); ok {
		fn(path, m)
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			walkMarks(v.Field(i), path+"."+v.Type().Field(i).Name, fn)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walkMarks(v.Index(i), fmt.Sprintf("%s[%d]", path, i), fn)
		}
	}
}

// hex writes a colour as #RRGGBB for messages.
func hex(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8)
}
