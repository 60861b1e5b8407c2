package agent

import "context"

// Notification is news from background work (a task that ended, a monitor
// pattern that matched) for the model.
type Notification struct {
	// ID names the source ("task_3", "sh_1").
	ID string
	// Text is what the model reads, usually a <task-notification> block.
	Text string
}

// Notifier is where background work leaves notifications; the loop drains
// it at prompt start, after tool turns, and when the model would stop while
// some are pending. The tasks package implements it.
type Notifier interface {
	Drain() []Notification
	Pending() bool
}

// BackgroundWaiter is a Notifier whose sources can say that work is still
// running and will report. A headless run waits for it before it ends, so a
// script's `-p` run finishes with its background tasks' results; the TUI
// does not wait (the person sees the tasks and the next prompt gets the news).
type BackgroundWaiter interface {
	// Active reports that background work is still running.
	Active() bool
	// WaitNotification blocks until a notification is pending, no work is
	// active any more, or ctx ends.
	WaitNotification(ctx context.Context)
}
