// Package hooks runs the user's and the host's hooks at fixed points of a
// session: before and after a tool call, when a prompt is submitted, when a
// session starts or ends, when the model wants to stop, and when a subagent
// starts.
//
// A hook is either a shell command from settings, fed the event as JSON on
// stdin in the shape existing coding-agent hook scripts already read, or an
// in-process Func. Every hook runs under a timeout, a panicking Func is
// recovered, and a command's whole process group is killed when it overruns,
// so no hook can hang or crash the session (H6). An in-process Func runs on
// the caller's goroutine and is trusted to honour its context's deadline,
// as tools are; a verdict that comes late is dropped, and a Func the host
// cannot vouch for is registered with OnIsolated and abandoned when it
// overruns. A PreToolUse hook that
// fails in any way blocks the call: a hook that could not give its verdict
// has not approved anything.
//
// The package depends on nothing else in Workbench; settings loading, the
// tool pipeline and the agent loop call into it.
package hooks
