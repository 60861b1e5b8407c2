package pty

import (
	"fmt"
	"strings"
	"syscall"

	"github.com/seed92b641c3/workbench/tasks"
)

// endCommandMax bounds the command quoted in a session's end line, so the
// line fits a narrow screen beside its status.
const endCommandMax = 40

// EndLine is the one-line news of a session whose program ended, for the
// person ("sh_2 npm run dev · exited 1 after 12.3s"), as a background
// task's end is told. ok is false while it runs and for a session that
// was closed (whoever closed it knows).
func EndLine(s *Session) (line string, ok bool) {
	s.mu.Lock()
	state, code, ended := s.state, s.code, s.ended
	s.mu.Unlock()
	if state != Exited {
		return "", false
	}
	how := fmt.Sprintf("exited %d", code)
	if code > 128 && code < 128+65 {
		how = fmt.Sprintf("ended by %s (exit %d)", signalName(syscall.Signal(code-128)), code)
	}
	cmd := strings.Join(strings.Fields(s.Command()), " ")
	if r := []rune(cmd); len(r) > endCommandMax {
		cmd = string(r[:endCommandMax-1]) + "…"
	}
	return fmt.Sprintf("%s %s · %s after %s", s.id, cmd, how, tasks.FormatDuration(ended.Sub(s.started))), true
}

func signalName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGABRT:
		return "SIGABRT"
	}
	return fmt.Sprintf("signal %d", int(sig))
}
