// Package theme is the one place Workbench's colours and text styles live,
// so every part of the UI (conversation, pipeline panel, dialogs, panes)
// agrees on what "denied", "running" or "muted" looks like.
//
// The styles are package variables so that every part of the UI reads the
// current ones when it draws. Use switches them to another palette; it is
// called from the UI's one goroutine (before the program starts, or in
// Update when the terminal reports its background), never while another
// goroutine draws.
package theme

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// The current palette's colours, for styles built elsewhere (a separator
// in Subtle, a mode in Info). Use sets them.
var (
	Accent    color.Color
	Muted     color.Color
	Subtle    color.Color
	Success   color.Color
	Warning   color.Color
	Danger    color.Color
	Info      color.Color
	Added     color.Color
	Removed   color.Color
	AddedBg   color.Color
	RemovedBg color.Color
)

// Styles used across the UI, built from the current palette by Use. Base
// and UserMsg set no colour: body text is the terminal's own.
var (
	Base      lipgloss.Style
	Dim       lipgloss.Style
	Bold      lipgloss.Style
	Title     lipgloss.Style
	ToolName  lipgloss.Style
	OK        lipgloss.Style
	Warn      lipgloss.Style
	Err       lipgloss.Style
	Selected  lipgloss.Style
	Border    lipgloss.Style
	Focused   lipgloss.Style
	Dialog    lipgloss.Style
	UserMsg   lipgloss.Style
	StatusBar lipgloss.Style
	KeyHint   lipgloss.Style
	DiffAdd   lipgloss.Style
	DiffDel   lipgloss.Style
	DiffHunk  lipgloss.Style
)

// current is the palette the styles were built from.
var current Palette

func init() { Use(Dark) }

// Current returns the palette in use.
func Current() Palette { return current }

// Use makes p the palette of every style. Parts of the UI that cache
// rendered text must render again afterwards (the UI root tells them).
func Use(p Palette) {
	current = p
	Accent, Muted, Subtle = p.Accent, p.Muted, p.Subtle
	Success, Warning, Danger, Info = p.Success, p.Warning, p.Danger, p.Info
	Added, Removed, AddedBg, RemovedBg = p.Added, p.Removed, p.AddedBg, p.RemovedBg

	Base = lipgloss.NewStyle()
	Dim = lipgloss.NewStyle().Foreground(p.Muted)
	Bold = lipgloss.NewStyle().Bold(true)
	Title = lipgloss.NewStyle().Bold(true).Foreground(p.Accent)
	ToolName = lipgloss.NewStyle().Bold(true).Foreground(p.Info)
	OK = lipgloss.NewStyle().Foreground(p.Success)
	Warn = lipgloss.NewStyle().Foreground(p.Warning)
	Err = lipgloss.NewStyle().Foreground(p.Danger)
	Selected = lipgloss.NewStyle().Background(p.SelectedBg).Foreground(p.SelectedFg)
	Border = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.Subtle)
	Focused = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.Accent)
	Dialog = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.Warning).Padding(0, 1)
	UserMsg = lipgloss.NewStyle().Bold(true)
	StatusBar = lipgloss.NewStyle().Foreground(p.Muted)
	KeyHint = lipgloss.NewStyle().Foreground(p.Accent).Bold(true)
	DiffAdd = lipgloss.NewStyle().Foreground(p.Added).Background(p.AddedBg)
	DiffDel = lipgloss.NewStyle().Foreground(p.Removed).Background(p.RemovedBg)
	DiffHunk = lipgloss.NewStyle().Foreground(p.Info)
}

// TextStyles names every style that draws text. A style without a
// background of its own is read against the terminal's; the contrast test
// walks this list, so a style added here is measured on both palettes.
func TextStyles() map[string]lipgloss.Style {
	return map[string]lipgloss.Style{
		"Base": Base, "Dim": Dim, "Bold": Bold, "Title": Title, "ToolName": ToolName,
		"OK": OK, "Warn": Warn, "Err": Err, "Selected": Selected, "UserMsg": UserMsg,
		"StatusBar": StatusBar, "KeyHint": KeyHint, "DiffAdd": DiffAdd, "DiffDel": DiffDel,
		"DiffHunk": DiffHunk,
	}
}

// BorderStyles names the styles that draw only lines around things; they
// are held to the 3:1 WCAG asks of graphics, not to text's 4.5:1.
func BorderStyles() map[string]lipgloss.Style {
	return map[string]lipgloss.Style{"Border": Border, "Focused": Focused, "Dialog": Dialog}
}

// Outcome styles a pipeline stage outcome the same way everywhere.
func Outcome(outcome string) lipgloss.Style {
	switch outcome {
	case "ok", "allow", "approved", "start":
		return OK
	case "ask", "rewrite", "truncated", "spilled":
		return Warn
	case "error", "deny", "rejected", "block", "panic", "cancelled":
		return Err
	default:
		return Dim
	}
}

// Symbols shared by the conversation and the panel.
const (
	SymbolRunning = "●"
	SymbolOK      = "✓"
	SymbolError   = "✗"
	SymbolAsk     = "?"
	SymbolSkipped = "·"
)
