// Package web holds the tools that reach outside the machine over HTTP:
// WebFetch, which reads one URL inside an address scope (H11), and
// WebSearch, which asks a configured search backend. Both ask a person
// before anything leaves the machine unless a rule allows it, and both
// refuse to start quietly broken: WebSearch fails at construction when its
// backend is misconfigured (H12), and a WebFetch proxy that fails is an
// error, never a silent direct retry.
package web

import (
	"encoding/json"
	"fmt"
	"strings"
)

// defaultVersion names the build in the User-Agent when the session gives
// none, so a server log still says which client called.
const defaultVersion = "dev"

// userAgent is the User-Agent both tools send: servers and backends see who
// is calling, and a person reading their logs can tell Workbench apart.
func userAgent(version string) string {
	if version == "" {
		version = defaultVersion
	}
	return "Workbench/" + version
}

// decode reads a tool's input, already validated against its schema.
func decode[T any](input json.RawMessage) (T, error) {
	var v T
	if err := json.Unmarshal(input, &v); err != nil {
		return v, fmt.Errorf("input: %w", err)
	}
	return v, nil
}

// oneLine keeps text meant for a header line or a prompt on one line, so a
// newline in model input cannot forge a line of the result.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
