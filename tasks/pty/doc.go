// Package pty runs programs in pseudo-terminals and keeps a live screen of
// each: the shell sessions the model drives with the shell_* tools and the
// panes a person types into are the same Session, read under the same lock.
//
// A Session owns its process (a session and process group of its own), the
// pty master and a vt10x terminal. One goroutine reads the pty; it keeps the
// raw output in a ring buffer (the stream view, with absolute cursors) and
// feeds the terminal (the screen view), so the screen is current whenever
// the program stops writing. Between the pty and vt10x sits a feeder that
// works around the emulator's measured bugs (a character split across reads,
// panicking and hanging parameters, a stray alternate-screen reset, lost tab
// stops, unanswered device-attribute queries) and skips the text of a flood
// of plain lines that would scroll past anyway, which is what lets a session
// keep up with a program printing tens of megabytes a second.
//
// The package depends on nothing else in Workbench: the tools in
// tools/ptytools and the UI both build on it.
package pty
