// Package memory keeps what a model learns across sessions as Markdown files
// a person can read, edit and delete: one file per memory, with YAML front
// matter for its name, description and type. Project memories live in the
// project (.workbench/memory) so they can be shared with it; a person's own
// live under $XDG_CONFIG_HOME/workbench/memory and follow them everywhere.
// RecallMemory finds the few memories relevant to a query by keyword;
// RecordMemory writes one.
package memory

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The memory types. They say what kind of knowledge a memory holds, which
// decides where it is kept when no scope is given.
const (
	// TypeUser is about the person: their role, skills and preferences.
	TypeUser = "user"
	// TypeFeedback is guidance the person gave on how to work.
	TypeFeedback = "feedback"
	// TypeProject is knowledge about the project not evident from its files.
	TypeProject = "project"
	// TypeReference points at where something lives outside the project.
	TypeReference = "reference"
)

// Types lists the valid memory types, in the order help shows them.
var Types = []string{TypeUser, TypeFeedback, TypeProject, TypeReference}

// The scopes, which say which directory a memory lives in.
const (
	// ScopeProject memories are kept in the project, beside its code.
	ScopeProject = "project"
	// ScopeUser memories are kept in the person's config directory and
	// apply to every project.
	ScopeUser = "user"
)

// Memory is one memory file.
type Memory struct {
	// Name identifies the memory; saving under the same name updates it.
	Name string
	// Description is a line saying what the memory is about; recall weighs
	// it above the body.
	Description string
	// Type is one of Types.
	Type string
	// Body is the Markdown after the front matter.
	Body string
	// Path is the file. Save ignores it: the file follows from the name.
	Path string
	// Scope is ScopeProject or ScopeUser: the directory the memory is in,
	// or, for Save, the directory to write to (empty chooses by type).
	Scope string
	// Modified is the file's modification time; recall prefers newer
	// memories when relevance ties.
	Modified time.Time
}

// Store is where memories are kept. Either directory may be empty, which
// disables that scope (a user directory cannot be found without a home).
type Store struct {
	ProjectDir string
	UserDir    string
}

// DefaultStore returns the store of a project: <project>/.workbench/memory
// and $XDG_CONFIG_HOME/workbench/memory (~/.config when the variable is unset
// or relative), beside the person's settings.
func DefaultStore(projectDir string) *Store {
	s := &Store{ProjectDir: filepath.Join(projectDir, ".workbench", "memory")}
	if cfg := configDir(); cfg != "" {
		s.UserDir = filepath.Join(cfg, "workbench", "memory")
	}
	return s
}

// configDir is $XDG_CONFIG_HOME, or ~/.config when it is unset or relative
// (the XDG spec says to ignore a relative value), as settings use.
func configDir() string {
	cfg := os.Getenv("XDG_CONFIG_HOME")
	if cfg == "" || !filepath.IsAbs(cfg) {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		cfg = filepath.Join(home, ".config")
	}
	return cfg
}

// dir returns the directory of a scope.
func (s *Store) dir(scope string) string {
	if scope == ScopeUser {
		return s.UserDir
	}
	return s.ProjectDir
}

// List reads every memory, project ones first, each scope in file-name
// order. A file that cannot be read or parsed is reported and skipped, so
// one bad edit does not hide the other memories. A missing directory holds
// no memories and is not an error.
func (s *Store) List() ([]Memory, []error) {
	var out []Memory
	var errs []error
	for _, scope := range []string{ScopeProject, ScopeUser} {
		m, e := listDir(s.dir(scope), scope)
		out = append(out, m...)
		errs = append(errs, e...)
	}
	return out, errs
}

// listDir reads the memories of one directory. Only regular *.md files are
// read: a symlink is skipped, so a memory directory that came with a cloned
// project cannot make recall read files outside it.
func listDir(dir, scope string) ([]Memory, []error) {
	if dir == "" {
		return nil, nil
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{fmt.Errorf("memory %s: %w", dir, err)}
	}
	var out []Memory
	var errs []error
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".") || !e.Type().IsRegular() {
			continue
		}
		m, err := readFile(filepath.Join(dir, name), scope)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, m)
	}
	return out, errs
}

// Recall returns up to limit memories relevant to query, most relevant
// first (limit 0 or less means 5). Relevance is by keyword: see rank. Files
// that cannot be read are left out; List reports them.
func (s *Store) Recall(query string, limit int) []Memory {
	all, _ := s.List()
	return rank(all, query, limit)
}

// Save writes m and returns the file it wrote. A memory of the same name
// (ignoring case and spacing) in the target directory is updated in place,
// whatever its file is called, so a person's renamed file keeps its name.
// Without a scope, an existing memory of that name in either directory is
// updated where it is; a new one goes by type: user and feedback memories
// to the user directory, as they are about the person and hold in every
// project, project and reference memories to the project. The file is
// replaced atomically, so a reader never sees half a memory.
func (s *Store) Save(m Memory) (string, error) {
	m, path, err := s.resolve(m)
	if err != nil {
		return "", err
	}
	if err := writeAtomic(path, format(m)); err != nil {
		return "", fmt.Errorf("save memory %q: %w", m.Name, err)
	}
	return path, nil
}

// PathFor says which file Save would write for m, so a permission check can
// name the file before anything is written.
func (s *Store) PathFor(m Memory) (string, error) {
	_, path, err := s.resolve(m)
	return path, err
}

// resolve validates and normalises m and picks its file.
func (s *Store) resolve(m Memory) (Memory, string, error) {
	m.Name = strings.Join(strings.Fields(m.Name), " ")
	if m.Name == "" {
		return m, "", errors.New("a memory needs a name")
	}
	m.Description = strings.Join(strings.Fields(m.Description), " ")
	if m.Description == "" {
		m.Description = firstLine(m.Body)
	}
	m.Type = strings.ToLower(strings.TrimSpace(m.Type))
	if m.Type == "" {
		m.Type = TypeProject
	}
	if !slices.Contains(Types, m.Type) {
		return m, "", fmt.Errorf("memory type %q is not one of %s", m.Type, strings.Join(Types, ", "))
	}
	switch m.Scope {
	case ScopeProject, ScopeUser:
	case "":
		for _, scope := range []string{ScopeProject, ScopeUser} {
			if p := s.find(scope, m.Name); p != "" {
				m.Scope = scope
				return m, p, nil
			}
		}
		m.Scope = ScopeProject
		if m.Type == TypeUser || m.Type == TypeFeedback {
			m.Scope = ScopeUser
		}
	default:
		return m, "", fmt.Errorf("memory scope %q is not %s or %s", m.Scope, ScopeProject, ScopeUser)
	}
	dir := s.dir(m.Scope)
	if dir == "" {
		return m, "", fmt.Errorf("no %s memory directory is configured", m.Scope)
	}
	if p := s.find(m.Scope, m.Name); p != "" {
		return m, p, nil
	}
	return m, freePath(dir, slug(m.Name)), nil
}

// find returns the file of the memory called name in a scope, or "".
func (s *Store) find(scope, name string) string {
	mems, _ := listDir(s.dir(scope), scope)
	for _, m := range mems {
		if sameName(m.Name, name) {
			return m.Path
		}
	}
	return ""
}

// freePath returns dir/base.md, or dir/base-2.md and so on when that file
// exists: it then holds a memory of another name whose slug is the same
// ("Go tests" and "go-tests"), which must not be overwritten.
func freePath(dir, base string) string {
	p := filepath.Join(dir, base+".md")
	for i := 2; ; i++ {
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			return p
		}
		p = filepath.Join(dir, fmt.Sprintf("%s-%d.md", base, i))
	}
}

func sameName(a, b string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " "))
}
