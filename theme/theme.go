// Package theme is the one place Workbench's colours and text styles live,
// so every part of the UI (conversation, pipeline panel, dialogs, panes)
// agrees on what "denied", "running" or "muted" looks like.
package theme

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Palette colours, chosen to read on both dark and light terminals.
var (
	Accent    color.Color = lipgloss.Color("#7D56F4") // focus, selection, the brand
	Text      color.Color = lipgloss.Color("#E4E4E7")
	Muted     color.Color = lipgloss.Color("#8B8B93") // secondary text, durations
	Subtle    color.Color = lipgloss.Color("#3F3F46") // borders, separators
	Success   color.Color = lipgloss.Color("#4ADE80") // ok, allowed, approved
	Warning   color.Color = lipgloss.Color("#FACC15") // ask, pending approval
	Danger    color.Color = lipgloss.Color("#F87171") // error, denied, blocked
	Info      color.Color = lipgloss.Color("#60A5FA") // running, tool names
	Added     color.Color = lipgloss.Color("#22C55E") // diff: added lines
	Removed   color.Color = lipgloss.Color("#EF4444") // diff: removed lines
	AddedBg   color.Color = lipgloss.Color("#12361F")
	RemovedBg color.Color = lipgloss.Color("#3B1515")
)

// Styles used across the UI.
var (
	Base      = lipgloss.NewStyle().Foreground(Text)
	Dim       = lipgloss.NewStyle().Foreground(Muted)
	Bold      = lipgloss.NewStyle().Bold(true)
	Title     = lipgloss.NewStyle().Bold(true).Foreground(Accent)
	ToolName  = lipgloss.NewStyle().Bold(true).Foreground(Info)
	OK        = lipgloss.NewStyle().Foreground(Success)
	Warn      = lipgloss.NewStyle().Foreground(Warning)
	Err       = lipgloss.NewStyle().Foreground(Danger)
	Selected  = lipgloss.NewStyle().Background(Accent).Foreground(lipgloss.Color("#FFFFFF"))
	Border    = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(Subtle)
	Focused   = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(Accent)
	Dialog    = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(Warning).Padding(0, 1)
	UserMsg   = lipgloss.NewStyle().Foreground(Text).Bold(true)
	StatusBar = lipgloss.NewStyle().Foreground(Muted)
	KeyHint   = lipgloss.NewStyle().Foreground(Accent).Bold(true)
	DiffAdd   = lipgloss.NewStyle().Foreground(Added).Background(AddedBg)
	DiffDel   = lipgloss.NewStyle().Foreground(Removed).Background(RemovedBg)
	DiffHunk  = lipgloss.NewStyle().Foreground(Info)
)

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

// GlamourStyle is the glamour style name for Markdown in the conversation.
const GlamourStyle = "dark"
