package hooks

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// pipedResult is what a finished hook process left behind.
type pipedResult struct {
	waitErr   error
	stdout    []byte
	stdoutCut bool // stdout was longer than outputCap
	stderr    []byte
}

// runPiped runs cmd with stdin, stdout and stderr connected to pipes we
// own. exec.Cmd would copy through pipes of its own and make Wait wait
// until every process holding them has exited, background children
// included; with our own pipes Wait returns when the shell exits, we kill
// what is left of its group, and only then drain the pipes. The error is
// non-nil only when the process could not be started.
func runPiped(cmd *exec.Cmd, stdin []byte) (pipedResult, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return pipedResult{}, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return pipedResult{}, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return pipedResult{}, err
	}
	defer closeAll(inW, outR, errR)

	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	err = cmd.Start()
	// The child has its own copies now; ours would keep the pipes open.
	closeAll(inR, outW, errW)
	if err != nil {
		return pipedResult{}, err
	}

	var res pipedResult
	var wg sync.WaitGroup
	wg.Go(func() {
		// A hook may exit without reading its input; the write then fails
		// with EPIPE, which is not the hook's failure.
		_, _ = inW.Write(stdin)
		_ = inW.Close()
	})
	wg.Go(func() { res.stdout, res.stdoutCut = readCapped(outR, outputCap) })
	wg.Go(func() { res.stderr, _ = readCapped(errR, outputCap) })

	res.waitErr = cmd.Wait()
	// Children the shell left behind belong to its group; end them so they
	// release the pipes and do not outlive the hook.
	_ = killGroup(cmd.Process)

	drained := make(chan struct{})
	go func() {
		wg.Wait()
		close(drained)
	}()
	select {
	case <-drained:
	case <-time.After(drainGrace):
		// Something outside the group still holds the pipes. Closing our
		// ends wakes the blocked reads and write.
		closeAll(inW, outR, errR)
		<-drained
	}
	return res, nil
}

// readCapped reads r to the end, keeping the first limit bytes. It reports
// whether anything was dropped.
func readCapped(r io.Reader, limit int) ([]byte, bool) {
	var kept []byte
	cut := false
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if room := limit - len(kept); n > room {
			kept = append(kept, buf[:room]...)
			cut = true
		} else {
			kept = append(kept, buf[:n]...)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				cut = true
			}
			return kept, cut
		}
	}
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		_ = f.Close()
	}
}
