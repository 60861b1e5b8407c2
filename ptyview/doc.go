// Package ptyview draws terminal panes for the bubbletea UI: a Pane shows a
// live pty.Session (colours, attributes, the cursor, wide characters) and
// turns the person's keys into the bytes a terminal would send, and a
// FilePane follows a background task's output file.
//
// Panes have no event loop of their own, as every UI component here: the
// root model calls their methods and they return values. The root ticks
// at FrameInterval while a pane is visible and calls Refresh, which
// re-renders only when the program changed the screen and a frame's time
// has passed, so a program printing as fast as it can costs at most 60
// renders a second and View in between returns the cached frame.
//
// The pane's size is the terminal's size: SetSize resizes the pty, so a
// full-screen program always draws for exactly the cells the person sees.
package ptyview
