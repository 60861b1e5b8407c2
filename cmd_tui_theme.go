package main

import (
	"strconv"
	"strings"

	"github.com/seed92b641c3/workbench/theme"
)

// startTheme decides the TUI's theme setting (--theme wins over the theme
// in settings; neither means auto) and, for auto, the palette of the first
// frames, before the terminal answers the question about its background:
// the light one when COLORFGBG (set by rxvt, Konsole and others) names a
// light background, else the dark one. A terminal that never answers keeps
// that first guess.
func startTheme(flag, setting, colorfgbg string) string {
	name := setting
	if flag != "" {
		name = flag
	}
	if name == "" {
		name = "auto"
	}
	if name == "auto" && lightBackground(colorfgbg) {
		theme.Use(theme.Light)
	}
	return name
}

// lightBackground reads COLORFGBG ("15;0", "0;default;15"): its last field
// is the background's colour number in the 16-colour table, where 7 (light
// grey) and 9 to 15 (the bright colours) are light and 8 dark grey is not.
func lightBackground(colorfgbg string) bool {
	f := strings.Split(colorfgbg, ";")
	n, err := strconv.Atoi(f[len(f)-1])
	if err != nil || len(f) < 2 {
		return false
	}
	return n == 7 || (n >= 9 && n <= 15)
}
