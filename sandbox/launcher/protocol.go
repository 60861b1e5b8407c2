package launcher

// The session's sandbox server (`workbench __sandbox serve SERVERSPEC`) is
// a launcher that stays: started once per session in the session's user,
// mount and network namespaces, it starts each sandboxed command itself,
// so a command no longer pays for new namespaces and a Go runtime's start
// (about 20 ms of CPU). Workbench talks to it over a Unix seqpacket socket
// (descriptor ControlFD in the server): a Request with the command's
// descriptors attached, answered by Replies.

// ServeArg follows Subcommand to start the server rather than launch one
// command.
const ServeArg = "serve"

// ControlFD is the server's end of the control socket.
const ControlFD = 3

// MaxMessage bounds one message on the control socket: a request carries
// the command's environment and the spec's paths, which the launcher's
// argument (one argument at most 128 KiB) bounded before.
const MaxMessage = 1 << 20

// MaxFiles bounds the descriptors one request carries: the command's
// standard three, its extra files and the proxy's socket.
const MaxFiles = 64

// ServerSpec is what the server is started with.
type ServerSpec struct {
	// Net is the session's network: with anything but NetOpen the server
	// is in a network namespace of its own, whose loopback it brings up.
	Net NetworkMode `json:"net"`
}

// Request asks the server to start one command in a sandbox made for it
// alone (Spec), or with Spec.Probe only to set that sandbox up and answer.
type Request struct {
	// ID names the request in its replies.
	ID uint64 `json:"id"`
	// Spec is the command's sandbox, computed for this command.
	Spec Spec `json:"spec"`
	// Path is the program to execute; Argv its arguments from the zeroth.
	Path string   `json:"path"`
	Argv []string `json:"argv"`
	// Env is the program's whole environment.
	Env []string `json:"env"`
	// Dir is the program's working directory, absolute.
	Dir string `json:"dir"`
	// Files is how many descriptors came with the request: the program's
	// 0, 1, 2 and extra files in order, then, when Spec.ProxyFD is set,
	// the proxy's socket at that index (not passed to the program).
	Files int `json:"files"`
	// Setsid, Setpgid (with Pgid), Setctty (with Ctty, a descriptor of
	// the program) and Noctty are syscall.SysProcAttr's.
	Setsid  bool `json:"setsid,omitempty"`
	Setpgid bool `json:"setpgid,omitempty"`
	Pgid    int  `json:"pgid,omitempty"`
	Setctty bool `json:"setctty,omitempty"`
	Noctty  bool `json:"noctty,omitempty"`
	Ctty    int  `json:"ctty,omitempty"`
}

// Reply answers a request: first whether the command started (Pid, or
// Err), then, for a started command, how it ended (Done).
type Reply struct {
	// ID is the request's.
	ID uint64 `json:"id"`
	// Pid is the started program's process id (also its process group
	// and session with Setsid).
	Pid int `json:"pid,omitempty"`
	// Err says why nothing was started; Refused that the kernel refused
	// the set-up (a probe's answer), rather than a shortage that may pass.
	Err     string `json:"err,omitempty"`
	Refused bool   `json:"refused,omitempty"`
	// Done marks the last reply: the program ended with wait status
	// Status, having used UserUsec and SysUsec microseconds of CPU (with
	// the children it waited for).
	Done     bool   `json:"done,omitempty"`
	Status   uint32 `json:"status,omitempty"`
	UserUsec int64  `json:"userUsec,omitempty"`
	SysUsec  int64  `json:"sysUsec,omitempty"`
}
