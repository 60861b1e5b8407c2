package mcp

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// ProjectPolicy is what the person's own settings say about a project's
// .mcp.json, in Claude Code's keys: enableAllProjectMcpServers,
// enabledMcpjsonServers and disabledMcpjsonServers.
type ProjectPolicy struct {
	// EnableAll trusts every server of the file; Enabled the ones named.
	// They come from the person's own files.
	EnableAll bool
	Enabled   []string
	// AnsweredAll and Answered are the same keys in the project's own
	// files (where the one-time question records its answers, as Claude
	// Code does). A repository could ship them, so each such server starts
	// only when this machine also holds the person's approval of that
	// server as it is now (Trust.ApproveServer): a changed command asks
	// again.
	AnsweredAll bool
	Answered    []string
	// Disabled never start, trusted or not.
	Disabled []string
}

// ProjectServers is a project's .mcp.json split by trust. A project file
// starts programs on the person's machine, and a cloned repository must not
// do that unasked, so nothing in it starts until the person trusts it: by
// the keys of ProjectPolicy, or by approving this exact content (Trust).
type ProjectServers struct {
	// Path and Data are the file as read, for Trust.Approve; Path is empty
	// when the project has no .mcp.json.
	Path string
	Data []byte
	// Start are the servers that may start now; Pending those waiting for
	// the person; Disabled the names turned off by disabledMcpjsonServers.
	Start, Pending Config
	Disabled       []string
	// Err is a file that could not be read or parsed; none of its servers
	// start.
	Err error
}

// LoadProjectServers reads dir/.mcp.json once and decides, for each server,
// whether it may start. trust may be nil (nothing was approved).
func LoadProjectServers(dir string, pol ProjectPolicy, trust *Trust) ProjectServers {
	path := filepath.Join(dir, ProjectFileName)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return ProjectServers{}
	}
	ps := ProjectServers{Path: path, Data: data}
	if err != nil {
		ps.Err = &FileError{Path: path, Msg: err.Error()}
		return ps
	}
	cfg, err := ParseFile(path, data)
	if err != nil {
		ps.Err = err
		return ps
	}
	approved := trust != nil && len(cfg) > 0 && trust.Trusted(path, data)
	for name, c := range cfg {
		switch {
		case slices.Contains(pol.Disabled, name):
			ps.Disabled = append(ps.Disabled, name)
		case approved || pol.EnableAll || slices.Contains(pol.Enabled, name),
			(pol.AnsweredAll || slices.Contains(pol.Answered, name)) && trust != nil && trust.ServerTrusted(path, name, c):
			if ps.Start == nil {
				ps.Start = Config{}
			}
			ps.Start[name] = c
		default:
			if ps.Pending == nil {
				ps.Pending = Config{}
			}
			ps.Pending[name] = c
		}
	}
	sort.Strings(ps.Disabled)
	return ps
}

// PendingNotice tells the person what waits and how to let it start, or ""
// when nothing does. how names the ways open to this entry point (the TUI
// can ask; `workbench tool` cannot).
func (ps ProjectServers) PendingNotice(how string) string {
	if len(ps.Pending) == 0 {
		return ""
	}
	return fmt.Sprintf("%s defines MCP servers (%s) that run commands on this machine; none of them starts until you trust the file: %s",
		ps.Path, strings.Join(ps.Pending.Names(), ", "), how)
}

// Names lists the server names in order.
func (c Config) Names() []string {
	out := make([]string, 0, len(c))
	for n := range c {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
