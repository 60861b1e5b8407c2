package main

import (
	"os"
	"testing"
)

// TestMain lets the test binary stand in for the workbench binary: a test
// that needs a real process (kill -9, signals) runs os.Args[0] with
// WORKBENCH_TEST_MAIN=1.
func TestMain(m *testing.M) {
	if os.Getenv("WORKBENCH_TEST_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
