package memory

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"github.com/seed92b641c3/workbench/internal/atomicfile"
	"github.com/seed92b641c3/workbench/internal/frontmatter"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// File limits and modes.
const (
	// maxFileBytes bounds a memory file: memories are notes, and a file
	// that large would crowd a recall result out of the conversation.
	maxFileBytes = 256 << 10
	// fileMode lets the person's other tools read memories, as any note.
	fileMode fs.FileMode = 0o644
	// dirMode is the mode of a memory directory Save creates.
	dirMode fs.FileMode = 0o755
	// maxSlug bounds the file name made from a memory's name.
	maxSlug = 64
	// maxDescription bounds a description taken from a body's first line.
	maxDescription = 150
)

// frontMatter is the YAML at the top of a memory file, in the order written.
type frontMatter struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description,omitempty"`
	Type        string `yaml:"type"`
}

// readFile reads one memory. A file without front matter is still a memory
// (a person may drop a plain note in the directory): its name is the file
// name and its type the scope's own. Front matter that does not parse is an
// error naming the file and line.
func readFile(path, scope string) (Memory, error) {
	f, err := os.Open(path)
	if err != nil {
		return Memory{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Memory{}, err
	}
	if fi.Size() > maxFileBytes {
		return Memory{}, fmt.Errorf("%s: %d bytes is over the %d-byte limit for a memory", path, fi.Size(), maxFileBytes)
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(f); err != nil {
		return Memory{}, fmt.Errorf("%s: %w", path, err)
	}
	m := Memory{Path: path, Scope: scope, Modified: fi.ModTime()}
	front, body, ok := splitFrontMatter(buf.Bytes())
	if !ok {
		body = buf.Bytes()
	} else {
		var fm frontMatter
		if err := yaml.Unmarshal(front, &fm); err != nil {
			// The opening --- is kept as a blank line, so the line in
			// yaml's message is the file's line.
			return Memory{}, fmt.Errorf("%s: front matter: %w", path, err)
		}
		m.Name, m.Description, m.Type = strings.TrimSpace(fm.Name), strings.TrimSpace(fm.Description), strings.ToLower(strings.TrimSpace(fm.Type))
	}
	m.Body = strings.TrimSpace(string(body))
	if m.Name == "" {
		m.Name = strings.TrimSuffix(filepath.Base(path), ".md")
	}
	if m.Type == "" {
		m.Type = TypeProject
		if scope == ScopeUser {
			m.Type = TypeUser
		}
	}
	if !slices.Contains(Types, m.Type) {
		return Memory{}, fmt.Errorf("%s: type %q is not one of %s", path, m.Type, strings.Join(Types, ", "))
	}
	return m, nil
}

// format renders a memory as its file.
func format(m Memory) []byte {
	fm, err := yaml.Marshal(frontMatter{Name: m.Name, Description: m.Description, Type: m.Type})
	if err != nil {
		// Three strings always marshal; this cannot happen.
		panic(err)
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	b.Write(fm)
	b.WriteString("---\n\n")
	if body := strings.TrimSpace(m.Body); body != "" {
		b.WriteString(body + "\n")
	}
	return b.Bytes()
}

// splitFrontMatter splits a file into its front matter and the rest.
func splitFrontMatter(data []byte) (front, body []byte, ok bool) {
	return frontmatter.Split(data)
}

// writeAtomic replaces path with data; a symlink at path is replaced, not
// followed, so a save never writes outside the directory.
func writeAtomic(path string, data []byte) error {
	return atomicfile.Write(path, data, fileMode, dirMode)
}

// slug turns a name into a file name: lower-case ASCII letters and digits
// joined by hyphens. A name with none of those (one in another script) gets
// a name from its hash, so no path is ever built from unchecked input.
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	s := b.String()
	if len(s) > maxSlug {
		s = strings.TrimRight(s[:maxSlug], "-")
	}
	if s == "" {
		sum := sha256.Sum256([]byte(name))
		s = "memory-" + hex.EncodeToString(sum[:4])
	}
	return s
}

// firstLine is the first non-empty line of a body without Markdown heading
// marks, clipped: a description for a memory recorded without one.
func firstLine(body string) string {
	for line := range strings.SplitSeq(body, "\n") {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#>-* "))
		if line != "" {
			return clip(line, maxDescription)
		}
	}
	return ""
}

// clip shortens s to at most n characters, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
