//go:build !unix

package mcp

import "os/exec"

// ownGroup does nothing where process groups do not exist; the SDK still
// stops the server itself.
func ownGroup(*exec.Cmd) {}

// killGroup does nothing where process groups do not exist.
func killGroup(int) {}
