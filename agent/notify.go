package agent

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
