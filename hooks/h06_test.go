//go:build unix

package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// slow is far longer than any hook under test may take; a test that waits
// this long has found a hang.
const slow = 20 * time.Second

// readPid reads a pid a hook script wrote, waiting for the file to appear.
func readPid(t *testing.T, p string) int {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(p)
		if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && perr == nil {
			return pid
		}
	}
	t.Fatalf("no pid in %s", p)
	return 0
}

// alive reports whether pid is a running process (a zombie waiting for its
// reaper counts as gone).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(f) == 0 || f[0] != "Z"
}

func assertGone(t *testing.T, what string, pid int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !alive(pid) {
			return
		}
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	t.Errorf("%s (pid %d) outlived the hook", what, pid)
}

func TestH06_HangingHookTimesOut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	shPid, sleepPid := filepath.Join(dir, "sh.pid"), filepath.Join(dir, "sleep.pid")
	c := Command{
		Command: script(t, fmt.Sprintf("echo $$ > %s\nsleep 30 &\necho $! > %s\nwait", shq(shPid), shq(sleepPid))),
		Timeout: time.Second,
	}
	r := NewRegistry()
	mustAdd(t, r, PreToolUse, "", c)

	start := time.Now()
	v := r.PreToolUse(context.Background(), bashInput("ls"))
	if d := time.Since(start); d > slow {
		t.Fatalf("PreToolUse returned after %s; the hook's timeout was 1s", d)
	}
	if !v.Block || !errors.Is(v.Outcomes[0].Err, ErrTimeout) {
		t.Fatalf("a timed-out PreToolUse hook must block: %+v", v)
	}
	if !strings.Contains(v.Reason, c.Command) || !strings.Contains(v.Reason, "timed out") {
		t.Errorf("reason %q should name the hook and the timeout", v.Reason)
	}
	assertGone(t, "the hook's shell", readPid(t, shPid))
	assertGone(t, "the hook's sleep child", readPid(t, sleepPid))
}

func TestH06_RegistryTimeoutAppliesToCommands(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	r.SetTimeout(300 * time.Millisecond)
	mustAdd(t, r, PostToolUse, "", Command{Command: "sleep 30"})
	start := time.Now()
	out := r.Post(context.Background(), bashInput("ls"), false)
	if time.Since(start) > slow || !errors.Is(out[0].Err, ErrTimeout) {
		t.Errorf("outcome = %+v", out[0])
	}
}

func TestH06_BackgroundChildrenDoNotOutliveAHook(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	r := NewRegistry()
	mustAdd(t, r, PreToolUse, "", Command{Command: script(t, fmt.Sprintf(
		"sleep 1000 &\necho $! > %s\necho '{\"decision\":\"approve\"}'", shq(pidFile)))})

	start := time.Now()
	v := r.PreToolUse(context.Background(), bashInput("ls"))
	if d := time.Since(start); d > slow {
		t.Fatalf("a child holding the pipes made the hook take %s", d)
	}
	if v.Block {
		t.Fatalf("blocked: %s", v.Reason)
	}
	assertGone(t, "the background child", readPid(t, pidFile))
}

func TestH06_EscapedChildCannotHoldTheHook(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	r := NewRegistry()
	// The script waits until the child has left its session, so the
	// group kill after the shell exits cannot catch it first.
	mustAdd(t, r, PostToolUse, "", Command{Command: script(t, fmt.Sprintf(
		"P=%s; export P\nsetsid sh -c 'echo $$ > \"$P\"; exec sleep 1000' &\nwhile [ ! -s \"$P\" ]; do sleep 0.01; done", shq(pidFile)))})

	start := time.Now()
	out := r.Post(context.Background(), bashInput("ls"), false)
	pid := readPid(t, pidFile)
	_ = syscall.Kill(pid, syscall.SIGKILL) // it left our group; clean up by hand
	if d := time.Since(start); d > slow {
		t.Fatalf("a child outside the group held the hook for %s", d)
	}
	if out[0].Err != nil {
		t.Errorf("outcome = %+v", out[0])
	}
	if d := time.Since(start); d < drainGrace {
		t.Logf("returned after %s: the child did not hold the pipes, so this run proved little", d)
	}
}

func TestH06_IsolatedHookIgnoringContextIsAbandoned(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) }) // lets the abandoned goroutine end before goleak looks
	r := NewRegistry()
	r.SetTimeout(200 * time.Millisecond)
	r.OnIsolated(PreToolUse, "", "stubborn", func(context.Context, Input) Outcome {
		<-release
		return Outcome{}
	})
	start := time.Now()
	v := r.PreToolUse(context.Background(), bashInput("ls"))
	if time.Since(start) > slow {
		t.Fatal("Run waited for an isolated hook that ignores its context")
	}
	if !v.Block || v.Hook != "stubborn" || !errors.Is(v.Outcomes[0].Err, ErrTimeout) {
		t.Errorf("verdict = %+v", v)
	}
}

func TestH06_IsolatedHookCancelledWithTheSession(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	r := NewRegistry()
	r.OnIsolated(PostToolUse, "", "stubborn", func(context.Context, Input) Outcome {
		<-release
		return Outcome{}
	})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	out := r.Post(ctx, bashInput("ls"), false)
	if len(out) != 1 || !errors.Is(out[0].Err, context.Canceled) {
		t.Errorf("outcomes = %+v, want the hook abandoned with the session's cancellation", out)
	}
}

func TestH06_InProcessHookSeesItsDeadline(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	r.SetTimeout(100 * time.Millisecond)
	r.On(PreToolUse, "", "patient", func(ctx context.Context, _ Input) Outcome {
		d, ok := ctx.Deadline()
		if !ok || time.Until(d) > 200*time.Millisecond {
			return Outcome{Block: true, Reason: fmt.Sprintf("deadline %v %v", d, ok)}
		}
		<-ctx.Done() // a well-behaved hook waiting on something slow
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return Outcome{Block: true, Reason: fmt.Sprint("err ", ctx.Err())}
		}
		return Outcome{}
	})
	v := r.PreToolUse(context.Background(), bashInput("ls"))
	if !v.Block || !errors.Is(v.Outcomes[0].Err, ErrTimeout) {
		t.Fatalf("a hook that waited out its deadline must time out and block: %+v", v)
	}
}

func TestH06_LateVerdictIsDropped(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	r.SetTimeout(50 * time.Millisecond)
	// Ignores its context but does return: its "allow" arrived too late to
	// count, so the call is blocked as if it had hung.
	r.On(PreToolUse, "", "sluggish", func(context.Context, Input) Outcome {
		time.Sleep(150 * time.Millisecond)
		return Outcome{PermissionDecision: "allow"}
	})
	v := r.PreToolUse(context.Background(), bashInput("ls"))
	if !v.Block || v.Hook != "sluggish" || !errors.Is(v.Outcomes[0].Err, ErrTimeout) {
		t.Fatalf("verdict = %+v", v)
	}
	if !strings.Contains(v.Reason, "late") {
		t.Errorf("reason %q should say the verdict came late", v.Reason)
	}
}

func TestH06_HookContextEndsWithTheSession(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	ctx, cancel := context.WithCancel(context.Background())
	r.On(PreToolUse, "", "waiter", func(hctx context.Context, _ Input) Outcome {
		time.AfterFunc(20*time.Millisecond, cancel)
		<-hctx.Done()
		return Outcome{Err: hctx.Err()}
	})
	start := time.Now()
	v := r.PreToolUse(ctx, bashInput("ls"))
	if time.Since(start) > slow || !v.Block || !errors.Is(v.Outcomes[0].Err, context.Canceled) {
		t.Errorf("verdict = %+v", v)
	}
}

func TestH06_PanickingHookRecovered(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	r.On(PreToolUse, "", "boomer", func(context.Context, Input) Outcome { panic("index out of range") })
	r.OnIsolated(PostToolUse, "", "boomer", func(context.Context, Input) Outcome { panic(errors.New("nil map")) })

	v := r.PreToolUse(context.Background(), bashInput("ls"))
	if !v.Block || !errors.Is(v.Outcomes[0].Err, ErrPanic) {
		t.Fatalf("a panicking PreToolUse hook must block: %+v", v)
	}
	if !strings.Contains(v.Reason, "boomer") || !strings.Contains(v.Reason, "index out of range") {
		t.Errorf("reason %q should name the hook and the panic", v.Reason)
	}
	out := r.Post(context.Background(), bashInput("ls"), false)
	if len(out) != 1 || !errors.Is(out[0].Err, ErrPanic) || out[0].Block {
		t.Errorf("post outcomes = %+v", out)
	}
}

func TestH06_GarbageOutputBlocksPreToolUse(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	c := printing(t, `{"decision": "block", oops`)
	mustAdd(t, r, PreToolUse, "", c)
	v := r.PreToolUse(context.Background(), bashInput("ls"))
	if !v.Block || !errors.Is(v.Outcomes[0].Err, ErrInvalidOutput) {
		t.Fatalf("verdict = %+v", v)
	}
	if !strings.Contains(v.Reason, "hook printed invalid JSON") || !strings.Contains(v.Reason, c.Command) {
		t.Errorf("reason = %q", v.Reason)
	}

	// The same output after the call is only reported.
	r = NewRegistry()
	mustAdd(t, r, PostToolUse, "", c)
	out := r.Post(context.Background(), bashInput("ls"), false)
	if out[0].Block || !errors.Is(out[0].Err, ErrInvalidOutput) {
		t.Errorf("post outcome = %+v", out[0])
	}
}

func TestH06_ParallelCallsSafe(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	var observed atomic.Int64
	r.Observe(func(Input, Outcome) { observed.Add(1) })
	r.On(PreToolUse, "Bash", "tagger", func(_ context.Context, in Input) Outcome {
		var m map[string]string
		if err := json.Unmarshal(in.ToolInput, &m); err != nil {
			return Outcome{Err: err}
		}
		b, _ := json.Marshal(map[string]string{"command": m["command"] + " #" + in.ToolUseID})
		return Outcome{UpdatedInput: b}
	})
	mustAdd(t, r, PreToolUse, "", printing(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"seen"}}`))

	const calls = 48
	var wg sync.WaitGroup
	errs := make(chan error, calls)
	for i := range calls {
		wg.Go(func() {
			in := bashInput(fmt.Sprintf("echo %d", i))
			in.ToolUseID = fmt.Sprintf("toolu_%d", i)
			v := r.PreToolUse(context.Background(), in)
			want := fmt.Sprintf(`{"command":"echo %d #toolu_%d"}`, i, i)
			if v.Block || string(v.UpdatedInput) != want || v.AdditionalContext != "seen" {
				errs <- fmt.Errorf("call %d: %+v (updated %s)", i, v, v.UpdatedInput)
			}
		})
		// Registration may go on while calls run; these never match Bash.
		r.On(PreToolUse, "Read", fmt.Sprintf("late%d", i), func(context.Context, Input) Outcome { return Outcome{Block: true} })
		_ = r.Has(PreToolUse)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := observed.Load(); n != 2*calls {
		t.Errorf("observed %d outcomes, want %d", n, 2*calls)
	}
}

func TestH06_PostToolUseFailureIsReported(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := NewRegistry()
	okIn, failIn := filepath.Join(dir, "post.json"), filepath.Join(dir, "failure.json")
	mustAdd(t, r, PostToolUse, "", Command{Command: "cat > " + shq(okIn)})
	mustAdd(t, r, PostToolUseFailure, "", Command{Command: "cat > " + shq(failIn) + "; echo 'disk full' >&2; exit 3"})

	in := bashInput("make")
	in.ToolResponse = json.RawMessage(`{"stderr":"boom"}`)

	out := r.Post(context.Background(), in, false)
	if len(out) != 1 || exists(failIn) {
		t.Fatalf("a successful call ran %d hooks; the failure hook ran: %v", len(out), exists(failIn))
	}

	out = r.Post(context.Background(), in, true)
	if len(out) != 2 || out[0].Err != nil {
		t.Fatalf("outcomes = %+v", out)
	}
	var exit *ExitError
	if !errors.As(out[1].Err, &exit) || exit.Code != 3 || exit.Stderr != "disk full" || out[1].Block {
		t.Errorf("failure hook outcome = %+v", out[1])
	}
	var got Input
	raw, _ := os.ReadFile(failIn)
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if got.HookEventName != PostToolUseFailure || !got.IsError || string(got.ToolResponse) != `{"stderr":"boom"}` {
		t.Errorf("failure hook saw %s", raw)
	}
}

// A guard that refuses a command hook keeps it from starting: the outcome
// carries the guard's error (so a PreToolUse call is blocked, as for a
// failed hook), and in-process hooks are not asked about.
func TestH06_AGuardedCommandHookDoesNotStart(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	r := NewRegistry()
	inproc := false
	r.On(PreToolUse, "Bash", "own", func(context.Context, Input) Outcome { inproc = true; return Outcome{} })
	if err := r.AddCommand(PreToolUse, "Bash", Command{Command: "touch " + marker}); err != nil {
		t.Fatal(err)
	}
	var asked []string
	r.SetGuard(func(cmd string) error {
		asked = append(asked, cmd)
		return errors.New("refused")
	})
	v := r.PreToolUse(context.Background(), Input{Cwd: dir, ToolName: "Bash"})
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a refused hook ran")
	}
	if !v.Block {
		t.Errorf("a refused PreToolUse hook did not block its call: %+v", v)
	}
	if len(asked) != 1 || asked[0] != "touch "+marker {
		t.Errorf("the guard was asked about %q", asked)
	}
	if !inproc {
		t.Error("the in-process hook did not run")
	}
}
