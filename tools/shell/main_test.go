package shell

import (
	"testing"

	"go.uber.org/goleak"
)

// Every goroutine a Process starts must have ended by the time Wait returns.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
