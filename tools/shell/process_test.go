package shell

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

type failingWriter struct{ calls int }

func (w *failingWriter) Write(p []byte) (int, error) {
	w.calls++
	return 0, errors.New("disk full")
}

func TestProcessKeepsDrainingAfterTheWriterFails(t *testing.T) {
	t.Parallel()
	w := &failingWriter{}
	p, err := Start(t.Context(), Spec{Command: `yes | head -c 10000000`, Output: w})
	if err != nil {
		t.Fatal(err)
	}
	exit := p.Wait()
	if exit.Code != 0 || exit.Bytes != 10000000 {
		t.Errorf("exit %+v: want the command to finish with all its output read", exit)
	}
	if w.calls != 1 || exit.Err == nil || !strings.Contains(exit.Err.Error(), "disk full") {
		t.Errorf("writer called %d times, Err %v: want one call and the error reported", w.calls, exit.Err)
	}
}

func TestProcessStopEndsTheGroupAndCanBeRepeated(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	p, err := Start(t.Context(), Spec{Command: `echo up; exec sleep 100`, Output: &out, Grace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if p.Pid() <= 0 {
		t.Fatalf("pid %d", p.Pid())
	}
	time.Sleep(50 * time.Millisecond)
	p.Stop()
	p.Stop()
	select {
	case <-p.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("Stop did not end the process")
	}
	exit := p.Wait()
	if !exit.Stopped || exit.Signal == 0 || exit.Code != -1 {
		t.Errorf("exit %+v, want stopped by a signal", exit)
	}
	if running(p.Pid()) {
		t.Errorf("pid %d still running", p.Pid())
	}
	p.Stop() // after the end: nothing happens
}

func TestProcessStopAfterExitChangesNothing(t *testing.T) {
	t.Parallel()
	p, err := Start(t.Context(), Spec{Command: `exit 4`})
	if err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	p.Stop()
	if exit := p.Wait(); exit.Stopped || exit.Code != 4 {
		t.Errorf("exit %+v, want code 4, not stopped", exit)
	}
}
