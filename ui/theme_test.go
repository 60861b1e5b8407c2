package ui

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/seed92b641c3/workbench/theme"
)

// sgrFg is the true-colour foreground sequence of a palette colour, as
// View writes it.
func sgrFg(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("38;2;%d;%d;%d", r>>8, g>>8, b>>8)
}

// These tests switch the process-wide palette, so they do not run in
// parallel, and each puts the dark one back.
func TestThemeAutoFollowsTheReportedBackground(t *testing.T) {
	t.Cleanup(func() { theme.Use(theme.Dark) })
	a := newApp(t, `{"turns":[{"text":"hi"}]}`, 80, 20, appOptions{})
	dark := a.m.View().Content
	if !strings.Contains(dark, sgrFg(theme.Dark.Muted)) {
		t.Fatalf("the status line is not in the dark palette's muted colour:\n%q", dark)
	}
	a.send(tea.BackgroundColorMsg{Color: color.White})
	if theme.Current().Name != "light" {
		t.Fatalf("a white background chose %q", theme.Current().Name)
	}
	light := a.m.View().Content
	if !strings.Contains(light, sgrFg(theme.Light.Muted)) || strings.Contains(light, sgrFg(theme.Dark.Muted)) {
		t.Fatalf("after a white background the screen is not in the light palette:\n%q", light)
	}
	// The input paints no background of its own (the textarea's default
	// is a black line under the person's text).
	for _, bg := range []string{"48;5;0m", "48;2;0;0;0", "\x1b[40m"} {
		if strings.Contains(light, bg) || strings.Contains(dark, bg) {
			t.Errorf("the screen forces a black background (%q)", bg)
		}
	}
	a.send(tea.BackgroundColorMsg{Color: color.RGBA{0x1e, 0x1e, 0x1e, 0xff}})
	if theme.Current().Name != "dark" {
		t.Fatalf("a dark background chose %q", theme.Current().Name)
	}
}

func TestThemeSettingWinsOverTheTerminal(t *testing.T) {
	t.Cleanup(func() { theme.Use(theme.Dark) })
	a := newApp(t, `{"turns":[{"text":"hi"}]}`, 80, 20, appOptions{theme: "light"})
	if theme.Current().Name != "light" {
		t.Fatalf("theme light gave %q before any message", theme.Current().Name)
	}
	a.send(tea.BackgroundColorMsg{Color: color.Black})
	if theme.Current().Name != "light" {
		t.Fatalf("a black background overrode theme light: %q", theme.Current().Name)
	}
	theme.Use(theme.Light)
	b := newApp(t, `{"turns":[{"text":"hi"}]}`, 80, 20, appOptions{theme: "dark"})
	b.send(tea.BackgroundColorMsg{Color: color.White})
	if theme.Current().Name != "dark" {
		t.Fatalf("theme dark gave %q after a white background", theme.Current().Name)
	}
}
