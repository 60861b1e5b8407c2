package taskstools

import (
	"testing"

	"go.uber.org/goleak"
)

// Every task a test starts is stopped by its manager's Close, with the
// goroutines that watched it.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
