// Package mcp connects a session to Model Context Protocol servers and offers
// their tools as ordinary workbench tools, so every MCP call goes through the
// same pipeline, rules and hooks as a built-in tool (H13). Servers come from
// the `mcpServers` key of settings and from a project's .mcp.json; a server
// that cannot start is recorded, never fatal, so the session can say what is
// missing (H12).
package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// ProjectFileName is the project file other coding agents already read, so a
// repository configures its servers once for all of them.
const ProjectFileName = ".mcp.json"

// Transport names, as written in a server entry's "type" and shown in
// ServerStatus.Transport.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
)

// ServerConfig is one server entry in the shape shared by settings and
// .mcp.json: a command for a local (stdio) server, or a URL for a remote
// (streamable HTTP) one.
type ServerConfig struct {
	// Command and Args start a stdio server. Command is looked up in PATH
	// and resolved against the project directory when relative.
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	// Env holds the only variables a stdio server gets besides PATH, HOME
	// and LANG (H13). Values may reference host variables as ${VAR} or
	// ${VAR:-default}; nothing else of the host environment is passed.
	Env map[string]string `json:"env,omitempty"`
	// URL is the endpoint of a streamable HTTP server.
	URL string `json:"url,omitempty"`
	// Headers are sent with every request to an HTTP server; values may
	// reference host variables like Env values, which keeps tokens out of
	// files that are checked in.
	Headers map[string]string `json:"headers,omitempty"`
	// Type is "stdio" or "http"; when empty it is inferred from which of
	// Command and URL is set.
	Type string `json:"type,omitempty"`
	// Sandbox starts a stdio server inside the session's sandbox, with the
	// launcher and policy of the agent's commands (H16); where there is
	// none (Options.Sandbox nil, or it refuses) the server does not start.
	Sandbox bool `json:"sandbox,omitempty"`
}

// Config maps server names to their entries, as under "mcpServers".
type Config map[string]ServerConfig

// Transport reports how the server is reached, inferring it when Type is
// empty, or an error saying what the entry lacks. It is the check Manager
// applies before starting a server, exposed so settings can reject a broken
// entry early if the lead prefers.
func (c ServerConfig) Transport() (string, error) {
	t := c.Type
	if t == "" {
		switch {
		case c.Command != "" && c.URL != "":
			return "", errors.New(`has both "command" and "url"; set "type" to say which to use`)
		case c.Command != "":
			t = TransportStdio
		case c.URL != "":
			t = TransportHTTP
		default:
			return "", errors.New(`needs "command" (a local stdio server) or "url" (a streamable HTTP server)`)
		}
	}
	switch t {
	case TransportStdio:
		if c.Command == "" {
			return "", errors.New(`type "stdio" needs "command"`)
		}
		for k := range c.Env {
			if k == "" || strings.ContainsAny(k, "=\x00") {
				return "", fmt.Errorf("env name %q is not a valid variable name", k)
			}
		}
	case TransportHTTP:
		if c.URL == "" {
			return "", errors.New(`type "http" needs "url"`)
		}
		u, err := url.Parse(c.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return "", fmt.Errorf("url %q is not an http or https URL", c.URL)
		}
	case "sse":
		return "", errors.New(`type "sse" (the deprecated HTTP+SSE transport) is not supported; use a streamable "http" endpoint`)
	default:
		return "", fmt.Errorf("unknown type %q (stdio or http)", t)
	}
	return t, nil
}

// FileError is a problem in a .mcp.json file with its position, so the
// person can go straight to the line to fix.
type FileError struct {
	Path   string
	Line   int // 1-based; 0 when the position is unknown
	Column int
	Msg    string
}

// Error renders path:line:col: message, the form editors jump to.
func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// LoadProjectFile reads dir/.mcp.json. A project without the file has no
// servers, which is not an error (the Config is nil). Callers that must check
// trust on the same bytes they start read the file once and use ParseFile.
func LoadProjectFile(dir string) (Config, error) {
	path := filepath.Join(dir, ProjectFileName)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &FileError{Path: path, Msg: err.Error()}
	}
	return ParseFile(path, data)
}

// ParseFile reads a document of the form {"mcpServers": {...}}. JSON that is
// malformed or of the wrong shape is an error with its line and column; keys
// other than mcpServers, and unknown keys inside an entry, are ignored,
// because the same file is read by other programs that define their own.
// Entries are not checked here: a broken entry fails alone when started
// (see ServerConfig.Transport), so one bad server does not hide the others.
func ParseFile(path string, data []byte) (Config, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var doc struct {
		MCPServers Config `json:"mcpServers"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, at(path, data, se.Offset, "invalid JSON: "+se.Error())
		case errors.As(err, &te):
			field := te.Field
			if field == "" {
				field = "the document"
			}
			return nil, at(path, data, te.Offset, fmt.Sprintf("%s: expected %s, found JSON %s", field, te.Type, te.Value))
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, at(path, data, int64(len(data)), "invalid JSON: unexpected end of file")
		default:
			return nil, &FileError{Path: path, Msg: err.Error()}
		}
	}
	if dec.More() {
		return nil, at(path, data, dec.InputOffset(), "extra data after the JSON object")
	}
	return doc.MCPServers, nil
}

// at builds a FileError for a byte offset.
func at(path string, data []byte, off int64, msg string) *FileError {
	line, col := position(data, off)
	return &FileError{Path: path, Line: line, Column: col, Msg: msg}
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}
