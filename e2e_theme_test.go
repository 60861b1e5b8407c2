package main

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seed92b641c3/workbench/theme"
)

// sgrCell is one character drawn on a captured screen with the colours it
// was drawn in (nil: the terminal's default).
type sgrCell struct {
	r      rune
	fg, bg color.Color
	line   int
}

// screenCells reads a `tmux capture-pane -e` capture: text and SGR
// sequences, whose state carries across lines as tmux writes it.
func screenCells(s string) []sgrCell {
	var cells []sgrCell
	var fg, bg color.Color
	reverse, line := false, 1
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], "\x1b[") {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			if j < len(s) && s[j] == 'm' {
				fg, bg, reverse = applySGR(s[i+2:j], fg, bg, reverse)
			}
			i = j + 1
			continue
		}
		r, n := []rune(s[i:min(i+4, len(s))])[0], len(string([]rune(s[i:min(i+4, len(s))])[0]))
		i += n
		if r == '\n' {
			line++
			continue
		}
		f, b := fg, bg
		if reverse {
			f, b = b, f
			if f == nil {
				f = termDefaultBg
			}
			if b == nil {
				b = termDefaultFg
			}
		}
		cells = append(cells, sgrCell{r: r, fg: f, bg: b, line: line})
	}
	return cells
}

// The pane's own colours, as the test's tmux sets them (window-style).
var termDefaultFg, termDefaultBg color.Color

func applySGR(params string, fg, bg color.Color, reverse bool) (color.Color, color.Color, bool) {
	p := strings.Split(params, ";")
	for k := 0; k < len(p); k++ {
		n, _ := strconv.Atoi(p[k])
		switch {
		case p[k] == "" || n == 0:
			fg, bg, reverse = nil, nil, false
		case n == 7:
			reverse = true
		case n == 27:
			reverse = false
		case n >= 30 && n <= 37:
			fg = xterm256(n - 30)
		case n >= 90 && n <= 97:
			fg = xterm256(n - 90 + 8)
		case n >= 40 && n <= 47:
			bg = xterm256(n - 40)
		case n >= 100 && n <= 107:
			bg = xterm256(n - 100 + 8)
		case n == 39:
			fg = nil
		case n == 49:
			bg = nil
		case (n == 38 || n == 48) && k+1 < len(p):
			var c color.Color
			if p[k+1] == "5" && k+2 < len(p) {
				v, _ := strconv.Atoi(p[k+2])
				c, k = xterm256(v), k+2
			} else if p[k+1] == "2" && k+4 < len(p) {
				r, _ := strconv.Atoi(p[k+2])
				g, _ := strconv.Atoi(p[k+3])
				b, _ := strconv.Atoi(p[k+4])
				c, k = color.RGBA{uint8(r), uint8(g), uint8(b), 255}, k+4
			}
			if n == 38 {
				fg = c
			} else {
				bg = c
			}
		}
	}
	return fg, bg, reverse
}

// xterm256 is xterm's default colour for a 256-colour index.
func xterm256(n int) color.Color {
	base := []uint32{0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
		0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff}
	switch {
	case n < 16:
		v := base[n]
		return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}
	case n < 232:
		n -= 16
		lv := func(i int) uint8 {
			if i == 0 {
				return 0
			}
			return uint8(55 + 40*i)
		}
		return color.RGBA{lv(n / 36), lv(n / 6 % 6), lv(n % 6), 255}
	default:
		v := uint8(8 + 10*(n-232))
		return color.RGBA{v, v, v, 255}
	}
}

func wcagContrast(a, b color.Color) float64 {
	lum := func(c color.Color) float64 {
		r, g, bl, _ := c.RGBA()
		lin := func(v uint32) float64 {
			x := float64(v>>8) / 255
			if x <= 0.04045 {
				return x / 12.92
			}
			return math.Pow((x+0.055)/1.055, 2.4)
		}
		return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(bl)
	}
	x, y := lum(a), lum(b)
	if x < y {
		x, y = y, x
	}
	return (x + 0.05) / (y + 0.05)
}

// The whole screen as a person sees it on a white and on a black terminal:
// the palette follows the background the terminal reports, and every
// character drawn is readable against what is behind it (WCAG AA: 4.5:1
// for text, 3:1 for the lines of borders), the conversation's Markdown,
// the tool calls, the approval dialog, the input and the status line
// included; and nothing paints a background behind the person's text.
func TestE2E_TmuxThemeFollowsTheTerminalBackground(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	if testing.Short() {
		t.Skip("drives a terminal")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	os.WriteFile(filepath.Join(project, "notes.txt"), []byte("one\ntwo\n"), 0o644)
	scriptPath := filepath.Join(t.TempDir(), "session.json")
	script := `{"turns":[
	  {"text":"# Plan\n\nI will **read** the notes, then run ` + "`wc -l`" + `:\n\n- read notes.txt\n- count its lines\n\n> a quote\n\n[a link](https://example.com)","tool_calls":[{"id":"r","name":"Read","input":{"file_path":"notes.txt"}}]},
	  {"text":"Counting.","tool_calls":[{"id":"b","name":"Bash","input":{"command":"wc -l notes.txt"}}]},
	  {"text":"Done."}]}`
	if err := os.WriteFile(scriptPath, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name           string
		style          string
		fg, bg         color.Color
		wantDarkOrLite string
	}{
		{"white", "bg=white,fg=black", color.Black, color.White, "light"},
		{"black", "bg=black,fg=white", color.White, color.Black, "dark"},
	} {
		t.Run(c.name, func(t *testing.T) {
			termDefaultFg, termDefaultBg = c.fg, c.bg
			term := &tmuxTerm{t: t, socket: fmt.Sprintf("wbtheme-%d-%d", os.Getpid(), time.Now().UnixNano())}
			t.Cleanup(func() { term.cmd("kill-server") })
			command := fmt.Sprintf("%s --cwd %s --script %s", shellQuote(self), shellQuote(project), shellQuote(scriptPath))
			term.must("-f", "/dev/null", "new-session", "-d", "-s", "wb", "-x", "80", "-y", "40",
				"-e", "WORKBENCH_TEST_MAIN=1", "-e", "XDG_STATE_HOME="+t.TempDir(), "-e", "XDG_CONFIG_HOME="+t.TempDir(),
				"-e", "HOME="+t.TempDir(), "-e", "ANTHROPIC_API_KEY=", "-e", "OPENAI_API_KEY=", "-e", "TERM=xterm-256color",
				"-e", "COLORTERM=", "-e", "COLORFGBG=",
				";", "set", "-g", "window-style", c.style, ";", "set", "-g", "default-terminal", "xterm-256color", ";",
				"set", "-g", "remain-on-exit", "on", ";", "respawn-pane", "-k", "-t", "wb", command)
			term.waitFor("the input line", func(s string) bool { return strings.Contains(s, "Ask the agent") }, nil)
			term.keys("-l", "go")
			term.keys("Enter")
			term.waitFor("the approval dialog", func(s string) bool { return strings.Contains(s, "wants to run") }, nil)
			checkScreenContrast(t, term.must("capture-pane", "-p", "-e", "-t", "wb"))
			time.Sleep(500 * time.Millisecond) // keys within 400 ms of the dialog opening are ignored
			term.keys("y")
			screen := term.waitFor("the end of the run", func(s string) bool { return strings.Contains(s, "Done.") }, nil)
			for _, want := range []string{"a quote", "✓ Read(notes.txt)", "✓ Bash(wc -l notes.txt)"} {
				if !strings.Contains(screen, want) {
					t.Fatalf("%q is not on screen:\n%s", want, screen)
				}
			}
			checkScreenContrast(t, term.must("capture-pane", "-p", "-e", "-t", "wb"))
		})
	}
}

func checkScreenContrast(t *testing.T, capture string) {
	t.Helper()
	bad := map[string]bool{}
	type lineBg struct {
		line int
		bg   color.Color
	}
	blankUnder, textOn := map[lineBg]bool{}, map[lineBg]bool{}
	for _, cell := range screenCells(capture) {
		if cell.bg != nil {
			if cell.r == ' ' || cell.r == '\u00a0' {
				blankUnder[lineBg{cell.line, cell.bg}] = true
			} else {
				textOn[lineBg{cell.line, cell.bg}] = true
			}
		}
		if cell.r == ' ' {
			continue
		}
		fg, bg := cell.fg, cell.bg
		if fg == nil {
			fg = termDefaultFg
		}
		if bg == nil {
			bg = termDefaultBg
		}
		want := 4.5
		if cell.r >= 0x2500 && cell.r <= 0x257f {
			want = 3 // a border's line, not text
		}
		if r := wcagContrast(fg, bg); r < want {
			bad[fmt.Sprintf("line %d: %q in %v on %v: %.2f:1, want %.1f:1", cell.line, cell.r, fg, bg, r, want)] = true
		}
	}
	// A background is a mark on text (a selection, a diff line), padded
	// to its end; on a line with no text on it, it is a canvas forced
	// behind the screen.
	for k := range blankUnder {
		if !textOn[k] {
			bad[fmt.Sprintf("line %d: a background %v with no text on it", k.line, k.bg)] = true
		}
	}
	if len(bad) > 0 {
		var list []string
		for b := range bad {
			list = append(list, b)
		}
		t.Errorf("%d unreadable cells:\n%s\nscreen:\n%s", len(list), strings.Join(list, "\n"), capture)
	}
}

// A theme Workbench does not have is refused before anything runs, from
// the command line and from settings (with the file, line and field).
func TestThemeUnknownValuesAreRefused(t *testing.T) {
	c := newCLI(t)
	code, _, errb := c.run("", "--cwd", c.project, "--theme", "solarized", "-p", "hi")
	if code != exitUsage || !strings.Contains(errb, `--theme "solarized"`) || !strings.Contains(errb, "auto, dark, light") {
		t.Errorf("--theme solarized: exit %d, stderr %q", code, errb)
	}
	c.write(".workbench/settings.json", "{\n  \"theme\": \"Dark\"\n}")
	code, _, errb = c.run("", "--cwd", c.project, "-p", "hi")
	if code != exitUsage || !strings.Contains(errb, "settings.json:2:") || !strings.Contains(errb, "theme: unknown theme \"Dark\"") {
		t.Errorf("theme Dark in settings: exit %d, stderr %q", code, errb)
	}
}

func TestStartThemeChoosesTheSettingAndGuessesFromCOLORFGBG(t *testing.T) {
	defer theme.Use(theme.Dark)
	for _, c := range []struct{ flag, setting, want string }{
		{"", "", "auto"}, {"", "light", "light"}, {"dark", "light", "dark"}, {"auto", "dark", "auto"},
	} {
		if got := startTheme(c.flag, c.setting, ""); got != c.want {
			t.Errorf("startTheme(%q, %q) = %q, want %q", c.flag, c.setting, got, c.want)
		}
	}
	for v, light := range map[string]bool{"15;0": false, "0;15": true, "0;default;15": true, "0;7": true, "7;8": false, "": false, "x": false, "0;12": true} {
		if lightBackground(v) != light {
			t.Errorf("COLORFGBG=%q: light %v, want %v", v, !light, light)
		}
	}
	theme.Use(theme.Dark)
	startTheme("", "", "0;15")
	if theme.Current().Name != "light" {
		t.Errorf("auto with COLORFGBG=0;15 starts in %q", theme.Current().Name)
	}
}
