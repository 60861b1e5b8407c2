package shell

import (
	"testing"

	"github.com/seed92b641c3/workbench/sandbox"
	"go.uber.org/goleak"
)

// Every goroutine a Process starts must have ended by the time Wait returns.
// The test binary is also the sandbox launcher (see sandboxFixture).
func TestMain(m *testing.M) {
	sandbox.Dispatch()
	goleak.VerifyTestMain(m)
}
