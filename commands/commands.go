// Package commands loads custom slash commands: Markdown files in
// .claude/commands (and ~/.claude/commands, .workbench/commands) whose body
// becomes the prompt when a person types /name. It reads and expands the
// files only; running their !`command` lines and reading their @path
// references goes through the session's tool pipeline (session/commands.go),
// so a command file can do nothing the person's rules would not allow.
package commands

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// maxFileBytes bounds a command file: a prompt template that large is data,
// not instructions, and would crowd out the conversation.
const maxFileBytes = 256 << 10

// Dir is one place commands are looked for.
type Dir struct {
	// Path is the directory; subdirectories below it namespace commands.
	Path string
	// Scope is "project" or "user", shown with the description as Claude
	// Code does ("(project:frontend)").
	Scope string
	// Granting says the files here may grant their allowed-tools: the
	// person's own directories, or a project the person trusts. A command
	// file that came with an untrusted repository gets no grant.
	Granting bool
}

// Command is one loaded command file.
type Command struct {
	// Name is what follows the slash: the file name without .md.
	Name string
	// Namespace is the subdirectory path joined with ":" ("frontend"),
	// empty at the top. /namespace:name reaches the command too.
	Namespace string
	// Description is the front matter's, or the body's first line.
	Description string
	// ArgumentHint is shown after the name while completing.
	ArgumentHint string
	// AllowedTools are permission rules the command's run may use without
	// asking; only granted when Granting is true.
	AllowedTools []string
	// Granting is the Dir's: whether AllowedTools may be granted.
	Granting bool
	// Scope is the Dir's scope.
	Scope string
	// Body is the prompt template after the front matter.
	Body string
	// Path is the file, for messages that point a person at it.
	Path string
}

// Label is the description with where the command came from, the way
// Claude Code lists it: "Review the diff (project:git)".
func (c Command) Label() string {
	where := c.Scope
	if c.Namespace != "" {
		where += ":" + c.Namespace
	}
	if c.Description == "" {
		return "(" + where + ")"
	}
	return c.Description + " (" + where + ")"
}

// Set is the commands of a session, found by name. It is built before the
// session starts and only read afterwards, so any goroutine may use it.
type Set struct {
	list  []Command
	index map[string]int
}

// DefaultDirs are where a project's commands come from, in the order they
// win a clash: the project's .workbench/commands and .claude/commands,
// then the person's ~/.claude/commands. The project's come first, as in
// Claude Code, where a project command hides a user command of its name.
func DefaultDirs(projectDir, home string, projectTrusted bool) []Dir {
	dirs := []Dir{
		{Path: filepath.Join(projectDir, ".workbench", "commands"), Scope: "project", Granting: projectTrusted},
		{Path: filepath.Join(projectDir, ".claude", "commands"), Scope: "project", Granting: projectTrusted},
	}
	if home != "" {
		dirs = append(dirs, Dir{Path: filepath.Join(home, ".claude", "commands"), Scope: "user", Granting: true})
	}
	return dirs
}

// Load reads every *.md below each dir. A missing dir is no error. A file
// that cannot be read or parsed is a notice with its path (and line), and
// the others load regardless; nothing here ever stops a session. reserved
// names the built-in commands, which win a clash with a notice.
func Load(reserved []string, dirs ...Dir) (*Set, []string) {
	s := &Set{index: map[string]int{}}
	var notes []string
	taken := map[string]bool{}
	for _, r := range reserved {
		taken[strings.TrimPrefix(r, "/")] = true
	}
	for _, d := range dirs {
		files, err := markdownFiles(d.Path)
		if err != nil {
			notes = append(notes, fmt.Sprintf("commands %s: %v", d.Path, err))
			continue
		}
		for _, f := range files {
			c, fileNotes, err := loadFile(d, f)
			notes = append(notes, fileNotes...)
			if err != nil {
				notes = append(notes, err.Error())
				continue
			}
			if taken[c.Name] {
				notes = append(notes, fmt.Sprintf("%s: /%s is a built-in command, which wins; rename the file to use it", c.Path, c.Name))
				continue
			}
			s.add(c, &notes)
		}
	}
	return s, notes
}

// add indexes c by its name and by namespace:name. The first file to claim
// a name keeps it: a project's command hides a person's of the same name.
func (s *Set) add(c Command, notes *[]string) {
	keys := []string{c.Name}
	if c.Namespace != "" {
		keys = append(keys, c.Namespace+":"+c.Name)
	}
	added := false
	for _, k := range keys {
		if i, ok := s.index[k]; ok {
			if k == c.Name {
				*notes = append(*notes, fmt.Sprintf("%s: /%s is also %s, which wins", c.Path, k, s.list[i].Path))
			}
			continue
		}
		if !added {
			s.list = append(s.list, c)
			added = true
		}
		s.index[k] = len(s.list) - 1
	}
}

// markdownFiles lists dir's *.md files at any depth, sorted, following no
// symbolic link to a directory (a loop would never end).
func markdownFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			if path == dir && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		if e.IsDir() && path != dir && strings.HasPrefix(e.Name(), ".") {
			return fs.SkipDir
		}
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".md") {
			out = append(out, path)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// loadFile reads and parses one command file.
func loadFile(d Dir, path string) (Command, []string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Command{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return Command{}, nil, fmt.Errorf("%s: not a regular file", path)
	}
	if fi.Size() > maxFileBytes {
		return Command{}, nil, fmt.Errorf("%s: %d bytes is over the %d-byte limit for a command", path, fi.Size(), maxFileBytes)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Command{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	rel, _ := filepath.Rel(d.Path, path)
	parts := strings.Split(filepath.ToSlash(strings.TrimSuffix(rel, ".md")), "/")
	c, notes, err := parse(path, data)
	if err != nil {
		return Command{}, notes, err
	}
	c.Name = parts[len(parts)-1]
	c.Namespace = strings.Join(parts[:len(parts)-1], ":")
	c.Scope, c.Granting, c.Path = d.Scope, d.Granting, path
	if strings.ContainsAny(c.Name, " \t") || c.Name == "" {
		return Command{}, notes, fmt.Errorf("%s: a command name cannot hold spaces", path)
	}
	if len(c.AllowedTools) > 0 && !c.Granting {
		notes = append(notes, fmt.Sprintf("%s: allowed-tools is not granted: the file came with a project you have not trusted (workbench trust), so its commands ask as any call would", path))
	}
	return c, notes, nil
}

// Get finds a command by name or namespace:name, with or without the slash.
func (s *Set) Get(name string) (Command, bool) {
	if s == nil {
		return Command{}, false
	}
	i, ok := s.index[strings.TrimPrefix(name, "/")]
	if !ok {
		return Command{}, false
	}
	return s.list[i], true
}

// List returns the commands in load order.
func (s *Set) List() []Command {
	if s == nil {
		return nil
	}
	return s.list
}
