// Package tasks runs shell commands that outlive a turn: background commands
// and monitors, each in its own process group, their output streamed to a
// file in the session directory as it arrives (H9). When a background task
// ends, or a monitor's pattern shows up, a notification is queued for the
// agent loop to hand to the model; an event stream lets the UI follow every
// task. Closing the manager stops every process group it started (H14).
//
// It also holds the process runner (StartProcess) that foreground Bash
// calls use, so a command stops the same way whichever path started it. The
// package depends on nothing else of Workbench.
package tasks

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Errors callers tell apart with errors.Is.
var (
	// ErrUnknownTask is returned for an id the manager does not hold: never
	// started, or forgotten after a foreground run.
	ErrUnknownTask = errors.New("unknown task")
	// ErrNotRunning is returned when stopping a task that already ended.
	ErrNotRunning = errors.New("task is not running")
	// ErrClosed is returned by Spawn once the manager is closed.
	ErrClosed = errors.New("task manager is closed")
)

// Options configures a Manager.
type Options struct {
	// OutputCap is the most output one task may write; a task that goes
	// over is stopped with a notice. Zero means DefaultOutputCap.
	OutputCap int64
	// Env holds KEY=VALUE entries every task gets on top of the inherited
	// and non-interactive environment.
	Env []string
	// Shell is the shell's path; empty means bash, or /bin/sh without it.
	Shell string
	// Grace is the time between SIGTERM and SIGKILL when a task is
	// stopped; zero means DefaultGrace.
	Grace time.Duration
	// Wrap puts every task into the session's sandbox unless its Spec
	// says otherwise; nil runs them as they are.
	Wrap Wrapper
	// Explain reads the output of a task that ran under Wrap for a
	// refusal of the sandbox, for its notifications (Spec.Explain).
	Explain Explainer
}

// Manager owns a session's tasks. Its processes are tied to the manager, not
// to the turn or call that started them, and end at the latest with Close.
// All methods are safe for concurrent use.
type Manager struct {
	dir    string
	opts   Options
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup // one per task's run goroutine
	once   sync.Once

	mu     sync.Mutex
	seq    int
	tasks  map[string]*Task
	order  []*Task
	closed bool

	qmu   sync.Mutex
	queue []Notification

	smu  sync.Mutex
	subs map[*subscriber]struct{}
}

// NewManager makes the manager of a session whose task files go into dir
// (`<session dir>/tasks`), created with mode 0700. Numbering continues after
// the highest `task_N.output` already there, so a resumed session never
// overwrites an earlier task's output.
func NewManager(dir string, opts Options) (*Manager, error) {
	if dir == "" {
		return nil, errors.New("tasks: no directory")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("tasks directory: %w", err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("tasks directory: %w", err)
	}
	if opts.OutputCap <= 0 {
		opts.OutputCap = DefaultOutputCap
	}
	m := &Manager{
		dir: abs, opts: opts, seq: highestID(abs),
		tasks: map[string]*Task{}, subs: map[*subscriber]struct{}{},
	}
	m.ctx, m.cancel = context.WithCancel(context.Background())
	return m, nil
}

// highestID finds the largest N of the task_N.output files in dir.
func highestID(dir string) int {
	entries, _ := os.ReadDir(dir)
	n := 0
	for _, e := range entries {
		name, ok := strings.CutPrefix(e.Name(), "task_")
		if !ok {
			continue
		}
		name, ok = strings.CutSuffix(name, ".output")
		if k, err := strconv.Atoi(name); ok && err == nil && k > n {
			n = k
		}
	}
	return n
}

// Dir is the directory the output files are in.
func (m *Manager) Dir() string { return m.dir }

// OutputCap is the effective per-task output cap in bytes.
func (m *Manager) OutputCap() int64 { return m.opts.OutputCap }

// Spawn starts a task. Its output file exists when Spawn returns. A task
// with Background set (and every monitor) notifies when it ends; any other
// is the caller's to wait for, and notifies only if moved to the
// background (see Background).
func (m *Manager) Spawn(spec Spec) (*Task, error) {
	if strings.TrimSpace(spec.Command) == "" {
		return nil, errors.New("tasks: empty command")
	}
	switch spec.Kind {
	case "":
		spec.Kind = KindBash
	case KindBash, KindMonitor:
	default:
		return nil, fmt.Errorf("tasks: unknown kind %q", spec.Kind)
	}
	if len(spec.Watch) > 0 && spec.Kind != KindMonitor {
		return nil, errors.New("tasks: only a monitor watches its output")
	}
	if spec.Kind == KindMonitor {
		spec.Background = true
	}
	spec.Watch = slices.Clone(spec.Watch)

	// The lock is held while the process starts, so Close cannot miss a
	// task that is being born.
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	id, file, f, err := m.newOutputFile()
	if err != nil {
		return nil, err
	}
	t := &Task{
		m: m, id: id, spec: spec, file: file, done: make(chan struct{}),
		status: StatusRunning, background: spec.Background,
	}
	t.out = &output{t: t, f: f, limit: m.opts.OutputCap, capHit: make(chan struct{}), sink: spec.Sink}
	if len(spec.Watch) > 0 {
		t.out.mon = newMonitor(t)
	}
	t.start = time.Now()
	t.out.event = t.start // the first output event comes after the started one
	env := append(slices.Clone(m.opts.Env), spec.Env...)
	wrapper, explain := m.opts.Wrap, m.opts.Explain
	if spec.Wrap != nil {
		wrapper, explain = spec.Wrap, spec.Explain
	}
	if explain != nil {
		dir := spec.WorkDir
		t.explain = func(out string) string { return explain(out, dir) }
	}
	p, err := StartProcess(m.ctx, ProcessSpec{
		Command: spec.Command, Shell: m.opts.Shell, Dir: spec.WorkDir, Env: env,
		Output: t.out, Grace: m.opts.Grace, Wrap: wrapper,
	})
	if err != nil {
		f.Close()
		os.Remove(file)
		return nil, err
	}
	t.proc = p
	m.tasks[id] = t
	m.order = append(m.order, t)
	m.wg.Add(1)
	go t.run()
	m.publish(TaskEvent{Kind: EventStarted, Task: t.Snapshot()})
	return t, nil
}

// newOutputFile picks the next id and creates its output file, never opening
// an existing one. Called with m.mu held.
func (m *Manager) newOutputFile() (string, string, *os.File, error) {
	for range 100 {
		m.seq++
		id := "task_" + strconv.Itoa(m.seq)
		file := filepath.Join(m.dir, id+".output")
		f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", "", nil, fmt.Errorf("task output file: %w", err)
		}
		return id, file, f, nil
	}
	return "", "", nil, fmt.Errorf("task output file: no free name in %s", m.dir)
}

// run waits for the task's process and records how it ended. It is the only
// goroutine that moves a task out of running.
func (t *Task) run() {
	defer t.m.wg.Done()
	select {
	case <-t.out.capHit:
		t.proc.Stop()
	case <-t.proc.Done():
	}
	exit := t.proc.Wait()
	last := lastLine(t.file, t.out.written)
	var refusal string
	if t.explain != nil && (exit.Code != 0 || exit.Signal != 0) {
		refusal = t.explain(tail(t.file, t.out.written, refusalWindow))
	}
	t.out.finish()
	if t.out.mon != nil {
		t.out.mon.close() // pending matches are queued before the final notice
	}

	t.mu.Lock()
	t.end = time.Now()
	t.exitCode = exit.Code
	t.refusal = refusal
	if exit.Signal != 0 {
		t.exitCode = 128 + int(exit.Signal)
		t.signal = exit.Signal.String()
	}
	switch {
	case t.out.capped:
		t.status, t.reason = StatusFailed, ReasonOutputCap
	case exit.Stopped:
		t.status, t.reason = StatusKilled, t.stopReason
		if t.reason == "" {
			t.reason = ReasonClosed // only the manager's context stops without a reason
		}
	case exit.Err != nil:
		t.status, t.reason = StatusFailed, exit.Err.Error()
	case exit.Code == 0 && exit.Signal == 0:
		t.status = StatusCompleted
	default:
		t.status = StatusFailed
	}
	if t.out.werr != nil {
		t.reason = strings.TrimPrefix(t.reason+"; ", "; ") + "output file: " + t.out.werr.Error()
	}
	notify := t.background && !t.notified && !t.forgotten
	t.notified = t.notified || notify
	snap := t.snapshotLocked()
	t.lastLine = last
	// The notification is queued before the lock lets anyone see the task
	// ended, so no one finds it finished with its news not yet pending (a
	// headless run deciding whether to wait for background work), and
	// before done is closed, so whoever waited for the end finds it.
	// Subscribers hear of the end first.
	var notice TaskEvent
	if notify {
		notice = t.m.queueOnly(snap, renderEnd(snap, last, t.suppressed))
	}
	t.mu.Unlock()
	close(t.done)
	t.m.publish(TaskEvent{Kind: EventEnded, Task: snap})
	if notify {
		t.m.publish(notice)
	}
}

// task looks a task up by id.
func (m *Manager) task(id string) (*Task, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	return t, ok
}

// Task returns the live task with this id, for callers that wait on Done.
func (m *Manager) Task(id string) (*Task, bool) { return m.task(id) }

// Get returns a snapshot of one task.
func (m *Manager) Get(id string) (Snapshot, bool) {
	t, ok := m.task(id)
	if !ok {
		return Snapshot{}, false
	}
	return t.Snapshot(), true
}

// List returns every task the manager holds, in the order they started.
func (m *Manager) List() []Snapshot {
	m.mu.Lock()
	order := slices.Clone(m.order)
	m.mu.Unlock()
	out := make([]Snapshot, len(order))
	for i, t := range order {
		out[i] = t.Snapshot()
	}
	return out
}

// Wait blocks until the task ends, timeout passes (zero: no limit) or ctx
// ends, and returns the task's state then. Only an unknown id or the end of
// ctx is an error; after a timeout the snapshot simply says running.
func (m *Manager) Wait(ctx context.Context, id string, timeout time.Duration) (Snapshot, error) {
	t, ok := m.task(id)
	if !ok {
		return Snapshot{}, fmt.Errorf("%w: %s", ErrUnknownTask, id)
	}
	var expired <-chan time.Time
	if timeout > 0 {
		timer := time.NewTimer(timeout)
		defer timer.Stop()
		expired = timer.C
	}
	select {
	case <-t.done:
	case <-expired:
	case <-ctx.Done():
		return t.Snapshot(), ctx.Err()
	}
	return t.Snapshot(), nil
}

// Background moves a task to the background: its foreground sink is
// detached (no write to it is in progress when Background returns) and it
// will notify when it ends, or at once if it has already ended.
func (m *Manager) Background(id string) error {
	t, ok := m.task(id)
	if !ok {
		return fmt.Errorf("%w: %s", ErrUnknownTask, id)
	}
	t.out.detach()
	t.mu.Lock()
	t.background = true
	notify := t.status != StatusRunning && !t.notified && !t.forgotten
	t.notified = t.notified || notify
	snap := t.snapshotLocked()
	last, suppressed := t.lastLine, t.suppressed
	t.mu.Unlock()
	if notify {
		m.enqueue(snap, renderEnd(snap, last, suppressed))
	}
	return nil
}

// Forget drops an ended task and deletes its output file, for a foreground
// run whose output the caller already has. A running task cannot be
// forgotten: stop it first.
func (m *Manager) Forget(id string) error {
	t, ok := m.task(id)
	if !ok {
		return fmt.Errorf("%w: %s", ErrUnknownTask, id)
	}
	t.mu.Lock()
	if t.status == StatusRunning {
		t.mu.Unlock()
		return fmt.Errorf("forget %s: %w", id, errors.New("task is still running"))
	}
	t.forgotten = true
	t.mu.Unlock()
	m.mu.Lock()
	delete(m.tasks, id)
	m.order = slices.DeleteFunc(m.order, func(o *Task) bool { return o == t })
	m.mu.Unlock()
	if err := os.Remove(t.file); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("forget %s: %w", id, err)
	}
	return nil
}

// Kill stops a task's whole process group (SIGTERM, then SIGKILL after the
// grace period) and returns once it has ended. The task ends as killed and,
// if it was in the background, still notifies, so the model learns of
// every end. Killing an ended task returns ErrNotRunning.
func (m *Manager) Kill(id string) error {
	t, ok := m.task(id)
	if !ok {
		return fmt.Errorf("%w: %s", ErrUnknownTask, id)
	}
	if !t.requestStop(ReasonStopped) {
		return fmt.Errorf("%w: %s has %s", ErrNotRunning, id, t.Snapshot().Status)
	}
	<-t.done
	return nil
}

// KillAll stops every running task at once, waits until all have ended and
// returns their final states.
func (m *Manager) KillAll() []Snapshot {
	return m.stopAll(ReasonStopped)
}

func (m *Manager) stopAll(reason string) []Snapshot {
	m.mu.Lock()
	order := slices.Clone(m.order)
	m.mu.Unlock()
	var stopped []*Task
	for _, t := range order {
		if t.requestStop(reason) {
			stopped = append(stopped, t)
		}
	}
	out := make([]Snapshot, len(stopped))
	for i, t := range stopped {
		<-t.done
		out[i] = t.Snapshot()
	}
	return out
}

// Close stops every task's process group and waits until each has ended and
// all the manager's goroutines are gone; then it ends every subscription.
// Spawn fails afterwards. Output files stay, as evidence in the session
// directory. Calling Close again does nothing.
func (m *Manager) Close() error {
	m.once.Do(func() {
		m.mu.Lock()
		m.closed = true
		m.mu.Unlock()
		m.stopAll(ReasonClosed)
		m.cancel()
		m.wg.Wait()
		m.smu.Lock()
		subs := m.subs
		m.subs = nil // later subscriptions start closed
		m.smu.Unlock()
		for s := range subs {
			s.stop()
		}
	})
	return nil
}
