package commands

// Builtin are the TUI's own commands. A command file of one of these names
// is not loaded (a notice says so): the built-in wins, as in Claude Code,
// so a repository cannot put its own prompt behind /clear or /quit. The
// ui package's test keeps this list and its commands the same.
var Builtin = []string{
	"help", "mode", "model", "clear", "compact", "context", "rewind", "resume",
	"tasks", "shell", "open", "trace", "mcp", "quit", "exit",
}
