package sandbox

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"slices"
	"sync"

	"github.com/seed92b641c3/workbench/tasks/proc"
)

// Backend confines commands with one operating system's mechanism. The
// Linux one is namespaces and Landlock; another OS (Seatbelt on macOS) adds
// its own without the callers changing.
type Backend interface {
	// Name says what confines, for the notice and the record.
	Name() string
	// Probe reports why r cannot be enforced here, or nil. It may start a
	// process to find out, so it is called at start, and again before a
	// command while the answer is still open. An error that wraps
	// ErrInconclusive says nothing about the kernel (the check did not
	// finish, or could not start for want of resources): the sandbox then
	// stays in force, and only another error makes it unavailable.
	Probe(r Resolved) error
	// Prepare rewrites cmd so that it starts confined by r. proxy is set
	// when r.Net is NetDomains. release is called once the process has
	// ended (or failed to start) and frees what Prepare set up.
	Prepare(cmd *exec.Cmd, r Resolved, proxy *Proxy) (release func(), err error)
}

// commandServer starts a session's commands from one process that stays
// (the Linux backend's sandbox server), instead of a launcher each.
type commandServer interface {
	// start starts cmd confined by r, as Sandbox.Start does; an error
	// that is errNotServed leaves cmd to the launcher.
	start(cmd *exec.Cmd, r Resolved, proxy *Proxy) (proc.Proc, func(), error)
	// pid is the server's process id.
	pid() int
	// close ends the server and the commands it still runs.
	close()
}

// errNotServed says a command cannot go through the server (it has
// ended, or the command asks for what a request cannot carry): it starts
// through the launcher instead, which refuses what it cannot confine.
var errNotServed = errors.New("not for the sandbox server")

// serverBackend is a Backend that can start a session's server, which
// makes the start-up check as Probe does (slow is SlowProbeEnv's switch).
type serverBackend interface {
	serve(r Resolved, slow bool) (commandServer, error)
}

// ErrUnavailable is returned by Wrap when the sandbox cannot be had and
// sandbox.required is set: the command is refused rather than run bare.
var ErrUnavailable = errors.New("the sandbox is unavailable and sandbox.required is set")

// ErrInconclusive marks a probe that did not find out whether the sandbox
// can be had: on a loaded machine the check can time out, or a process
// cannot be made for the moment. That is not "the kernel cannot do it", so
// it never makes the sandbox unavailable: commands still start through the
// launcher, which refuses to run one it cannot confine, and the check is
// made again before the next command until it answers.
var ErrInconclusive = errors.New("the sandbox check did not finish")

// ErrFoundUnavailable is returned by Wrap when a check after start (the one
// at start was inconclusive) found the sandbox unavailable: the start-up
// notice said commands run in the sandbox, so they are refused rather than
// run without it unannounced.
var ErrFoundUnavailable = errors.New("the sandbox turned out to be unavailable after start; commands are refused rather than run without it unannounced (restart Workbench: the notice at start then says why)")

// ForceUnavailableEnv, when set in Workbench's own environment, makes the
// sandbox unavailable with its value as the reason: the switch tests use to
// reach the unavailable path on a kernel that supports everything.
const ForceUnavailableEnv = "WORKBENCH_SANDBOX_FORCE_UNAVAILABLE"

// Options are the parts of a Sandbox that do not come from settings.
type Options struct {
	// Launcher is the binary that runs the hidden sub-command; empty means
	// this executable. Package tests point it at their test binary, whose
	// TestMain calls Dispatch.
	Launcher string
	// Dial connects the proxy to an allowed domain, applying WebFetch's
	// checks (resolved once, private ranges refused unless a rule names
	// the host). Nil refuses every connection.
	Dial func(ctx context.Context, host string, port string) (net.Conn, error)
	// LayersDir is where the commands' layers over the tool caches go;
	// empty means the user cache directory's workbench/sandbox-layers.
	LayersDir string
}

// Sandbox confines the processes of one session. A nil *Sandbox runs
// everything unconfined, which is what mode off means.
type Sandbox struct {
	policy   Policy
	resolved Resolved
	backend  Backend
	proxy    *Proxy
	// state is whether the sandbox can be had: decided, or still open
	// after an inconclusive check.
	state availability
	// hideNotes say which Read deny rules could not be hidden whole.
	hideNotes []string
	// mu guards ruleHidden: the paths the rules hid for the latest
	// command, which Explain names.
	mu         sync.Mutex
	ruleHidden []hiddenPath
	sealed     []string
	// layers are the private layers over the tool caches.
	layers cacheLayers
	// plantsAtStart are the git redirect files there before any command
	// (gitplant.go); plantNotes say what was removed since (under mu).
	plantsAtStart []string
	plantNotes    []string
	// linksAtStart are the workspace's gitlinks when the session
	// started, with their repositories' config (gitlinks.go).
	linksAtStart map[string]gitlink
	// runLater are the workspace files the person's hooks and MCP
	// servers run outside the sandbox (runlater.go; under mu).
	runLater []string
	// sweeping keeps two commands that end together from sweeping the
	// same index at once.
	sweeping sync.Mutex
	// running counts the confined commands that have not ended, and
	// watching says watchPlants runs (plantwatch.go; both under mu).
	running  int
	watching bool
	// srv is the session's sandbox server, when it runs; set before
	// checked is closed.
	srv commandServer
	// checked is closed once the start-up check has answered (nil when
	// it answered in New); afterCheck are the functions to call first
	// (under afterMu, with answered).
	checked    chan struct{}
	afterMu    sync.Mutex
	afterCheck []func()
	answered   bool
}

// New resolves p and checks that this machine can enforce it. A machine
// that cannot is not an error: the Sandbox then runs commands unconfined
// and says why in Notice, or refuses them when p.Required is set. Only a
// policy that cannot be resolved (a workspace root that does not exist) is.
func New(p Policy, o Options) (*Sandbox, error) {
	r, err := p.Resolve()
	if err != nil {
		return nil, err
	}
	s := &Sandbox{policy: p, resolved: r}
	s.layers.base = o.LayersDir
	if r.Mode == Off {
		return s, nil
	}
	s.plantsAtStart = existingPlants(r.Roots)
	s.linksAtStart = workspaceGitlinks(r.Roots)
	s.backend = newBackend(o.Launcher)
	if r.Net == NetDomains {
		s.proxy = &Proxy{Domains: r.Domains, Dial: o.Dial}
	}
	e := expandHideRules(r.HideRules, r.Roots, r.Hide)
	s.hideNotes = hideNotes(r.HideRules, e)
	r = s.withRuleHides(e)
	sb, ok := s.backend.(serverBackend)
	if !ok || os.Getenv(ForceUnavailableEnv) != "" {
		s.state.settle(s.probe(r), false)
		return s, nil
	}
	// Starting the session's server is the start-up check (its answer is
	// the check's), and it runs in the background, off the first frame's
	// path: every command waits for the answer (decide).
	s.checked = make(chan struct{})
	slow := os.Getenv(SlowProbeEnv) != "" // read now: a test may unset it
	go func() {
		srv, err := sb.serve(r, slow)
		s.srv = srv
		s.state.settle(err, false)
		s.afterMu.Lock()
		s.answered = true
		fns := s.afterCheck
		s.afterCheck = nil
		s.afterMu.Unlock()
		for _, fn := range fns {
			fn()
		}
		close(s.checked)
	}()
	return s, nil
}

// answeredAlready is a closed channel: the check of a sandbox that needs
// none, or that answered in New.
var answeredAlready = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// Checked is closed once the start-up check has answered. Until then the
// sandbox reads as in force (Active, Describe) with no notice, as while a
// check is open: the commands wait for the answer, and start by it.
func (s *Sandbox) Checked() <-chan struct{} {
	if s == nil || s.checked == nil {
		return answeredAlready
	}
	return s.checked
}

// AfterCheck calls fn once the start-up check has answered, before any
// command starts by the answer (so a notice fn shows comes first); at
// once, in this goroutine, when it has answered already.
func (s *Sandbox) AfterCheck(fn func()) {
	if s != nil && s.checked != nil {
		s.afterMu.Lock()
		if !s.answered {
			s.afterCheck = append(s.afterCheck, fn)
			s.afterMu.Unlock()
			return
		}
		s.afterMu.Unlock()
	}
	fn()
}

// Close ends the session's sandbox server, and with it the commands it
// still runs (the server also ends when Workbench does), once the
// start-up check has answered. Commands started afterwards go through the
// launcher.
func (s *Sandbox) Close() {
	if s == nil {
		return
	}
	<-s.Checked()
	if s.srv != nil {
		s.srv.close()
	}
}

// Active reports whether commands run confined: also while the check is
// still open, since they then start through the launcher all the same.
func (s *Sandbox) Active() bool {
	return s != nil && s.resolved.Mode != Off && s.state.get().unavailable == nil
}

// Mode is the configured mode.
func (s *Sandbox) Mode() Mode {
	if s == nil {
		return Off
	}
	return s.resolved.Mode
}

// Required reports whether commands are refused when the sandbox is
// unavailable.
func (s *Sandbox) Required() bool { return s != nil && s.policy.Required }

// Unavailable is why the sandbox cannot be had, or nil (also for mode off,
// which is a choice, not a failure).
func (s *Sandbox) Unavailable() error {
	if s == nil {
		return nil
	}
	return s.state.get().unavailable
}

// Undecided is why the check of whether the sandbox can be had has not
// answered yet (it wraps ErrInconclusive), or nil once it has.
func (s *Sandbox) Undecided() error {
	if s == nil {
		return nil
	}
	return s.state.get().open
}

// Warnings are the policy's non-fatal settings problems, and the Read deny
// rules whose paths could not all be hidden (with what was and was not).
func (s *Sandbox) Warnings() []string {
	if s == nil {
		return nil
	}
	return append(slices.Clone(s.resolved.Warnings), s.hideNotes...)
}

// Resolved is the policy as enforced.
func (s *Sandbox) Resolved() Resolved {
	if s == nil {
		return Resolved{Mode: Off}
	}
	return s.resolved
}

// Notice is the line shown at start when the sandbox is not what the
// settings ask for, or "" when it is.
func (s *Sandbox) Notice() string {
	if s == nil {
		return ""
	}
	st := s.state.get()
	switch {
	case st.open != nil:
		return fmt.Sprintf("sandbox check at start: %v; commands still run in the sandbox (one it cannot confine does not run), and the check is made again before the first", st.open)
	case st.unavailable == nil:
		return ""
	case s.policy.Required:
		return fmt.Sprintf("sandbox unavailable: %v; sandbox.required is set, so commands will not run", st.unavailable)
	}
	return fmt.Sprintf("sandbox unavailable: %v; commands run without it (set sandbox.required to refuse them instead)", st.unavailable)
}

// Description is what the call record says of a command's sandbox.
type Description struct {
	// Mode is the sandbox mode, or "off" ("unavailable" when it could
	// not be had).
	Mode string `json:"mode"`
	// Network is none, open or allowed-domains.
	Network NetworkMode `json:"network,omitempty"`
}

// Describe says how the next command will run.
func (s *Sandbox) Describe() Description {
	switch {
	case s == nil || s.resolved.Mode == Off:
		return Description{Mode: string(Off)}
	case s.state.get().unavailable != nil:
		return Description{Mode: "unavailable"}
	}
	return Description{Mode: string(s.resolved.Mode), Network: s.resolved.Net}
}

// String is the description in one word pair, for the panel.
func (d Description) String() string {
	if d.Network == "" {
		return "sandbox " + d.Mode
	}
	return "sandbox " + d.Mode + ", network " + string(d.Network)
}

// Start starts cmd, which has not started, confined, in place of
// cmd.Start: through the session's sandbox server while it runs, through
// the launcher (Wrap) otherwise or when cmd asks for what a request to the
// server cannot carry. It refuses as Wrap does, and starts cmd as it is
// where Wrap would leave it alone. Its signature is the command wrapper of
// packages tasks and tasks/pty; release is to be called once the process
// and what it left in its group have ended.
func (s *Sandbox) Start(cmd *exec.Cmd) (p proc.Proc, release func(), err error) {
	confine, r, err := s.decide()
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox: %w", err)
	}
	if !confine {
		return proc.Start(cmd, nil)
	}
	r = s.layers.over(r)
	if s.srv != nil {
		p, release, err := s.srv.start(cmd, r, s.proxy)
		switch {
		case err == nil:
			return p, s.ended(r, release), nil
		case !errors.Is(err, errNotServed):
			s.layers.put(r.Layers)
			return nil, nil, err
		}
	}
	prepared, err := s.backend.Prepare(cmd, r, s.proxy)
	if err != nil {
		s.layers.put(r.Layers)
		return nil, nil, fmt.Errorf("sandbox: %w", err)
	}
	return proc.Start(cmd, s.ended(r, prepared))
}

// ended is the release of a confined command started with r: it frees
// what its start set up (freed, then its cache layers) and sweeps what it
// may have left for git, a hook or a server to run outside (removeMade,
// sweepGit).
func (s *Sandbox) ended(r Resolved, freed func()) func() {
	s.commandStarted()
	return func() {
		s.commandEnded()
		freed()
		s.layers.put(r.Layers)
		s.removeMade(r)
		s.sweepGit()
	}
}

// Wrap rewrites cmd, which has not started, so it runs confined through
// the launcher: for a caller that must start the *exec.Cmd itself (an MCP
// stdio server's transport); others use Start. It returns a release
// function to call once the process has ended. When the sandbox is off, or
// unavailable and not required, cmd is left alone; when it is unavailable
// and required, Wrap fails with ErrUnavailable. While the check is still
// open it is made again first; whatever it says short of "unavailable",
// cmd starts through the launcher, and when a check after start finds the
// sandbox unavailable Wrap fails with ErrFoundUnavailable.
func (s *Sandbox) Wrap(cmd *exec.Cmd) (release func(), err error) {
	confine, r, err := s.decide()
	if err != nil {
		return nil, err
	}
	if !confine {
		return func() {}, nil
	}
	r = s.layers.over(r)
	prepared, err := s.backend.Prepare(cmd, r, s.proxy)
	if err != nil {
		s.layers.put(r.Layers)
		return nil, err
	}
	return s.ended(r, prepared), nil
}

// decide says whether the command about to start is confined, with r its
// policy, or refused (err).
func (s *Sandbox) decide() (confine bool, r Resolved, err error) {
	if s == nil || s.resolved.Mode == Off {
		return false, r, nil
	}
	<-s.Checked()
	st := s.state.get()
	if st.unavailable == nil {
		r = s.forCommand()
		st = s.recheck(r)
	}
	switch {
	case st.unavailable != nil && st.late:
		return false, r, fmt.Errorf("%w: %v", ErrFoundUnavailable, st.unavailable)
	case st.unavailable != nil && s.policy.Required:
		return false, r, fmt.Errorf("%w (%v)", ErrUnavailable, st.unavailable)
	case st.unavailable != nil:
		return false, r, nil
	}
	return true, r, nil
}

// forCommand is the policy for the command about to start: the protected
// paths, the pinned directories on the way to them and the sealed roots
// as they are now (a core.hooksPath set or a submodule made since the
// session started is protected from this command on), and what the Read
// deny rules hide now.
func (s *Sandbox) forCommand() Resolved {
	r := s.withRuleHides(s.expandRules())
	r.ReadOnly, r.Sealed = r.protectedNow()
	r.Pin = r.pinnedNow()
	r = s.withRunLater(r)
	s.mu.Lock()
	s.sealed = r.Sealed
	s.mu.Unlock()
	return r
}

// expandRules expands the Read deny rules for the command about to start
// and remembers what they hid, for Explain.
func (s *Sandbox) expandRules() expansion {
	if len(s.resolved.HideRules) == 0 {
		return expansion{}
	}
	e := expandHideRules(s.resolved.HideRules, s.resolved.Roots, s.resolved.Hide)
	s.mu.Lock()
	s.ruleHidden = e.hidden
	s.mu.Unlock()
	return e
}

// withRuleHides is the resolved policy with the paths e hides added.
func (s *Sandbox) withRuleHides(e expansion) Resolved {
	r := s.resolved
	if len(e.hidden) == 0 {
		return r
	}
	r.Hide = slices.Clone(r.Hide)
	for _, h := range e.hidden {
		r.Hide = append(r.Hide, h.path)
	}
	return r
}
