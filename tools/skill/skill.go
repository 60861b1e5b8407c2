// Package skill loads skills and offers them to a model through the Skill
// tool. A skill is a folder holding a SKILL.md: YAML front matter that says
// what the skill is for, then Markdown instructions a model follows when the
// task calls for them. Only the front matter is shown up front; the
// instructions enter the conversation when the model asks for the skill, so
// many skills cost little context until one is used.
package skill

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// FileName is the file that makes a folder a skill. It is spelled in capitals
// so it stands out among the scripts and templates beside it.
const FileName = "SKILL.md"

// maxFileBytes bounds a SKILL.md: a file that large is not instructions but
// data that would crowd out the conversation when loaded.
const maxFileBytes = 256 << 10

// namePattern is what a skill name may look like: short, lower-case and safe
// in a folder name, a command line and a permission rule alike.
var namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// Skill is one loaded SKILL.md.
type Skill struct {
	// Name is how the model asks for the skill; it equals the folder name.
	Name string
	// Description says what the skill does; the model picks skills by it.
	Description string
	// WhenToUse, when set, adds the situations that call for the skill.
	WhenToUse string
	// Dir is the absolute folder of the skill. Instructions may refer to
	// files in it as ${SKILL_DIR}/..., replaced when the skill is loaded.
	Dir string
	// Body is the Markdown after the front matter: the instructions.
	Body string
	// Unlocks lists deferred tool names or globs that become callable once
	// the skill is loaded (front matter `unlocks` or `tools`). The session
	// applies them through Registry.OnInvoke; this package only reads them.
	Unlocks []string
	// AllowedTools are permission rules (front matter `allowed-tools`, as
	// in Claude Code) for the tools the skill may use without asking while
	// it runs; the session grants them through Registry.OnInvoke.
	AllowedTools []string
	// Path is the SKILL.md file, for messages that point a person at it.
	Path string
}

// Registry holds the skills of a session in load order. It is built by Load
// before a session starts; afterwards it is only read, so the Skill tool may
// use it from any goroutine. Set OnInvoke before the session starts too.
type Registry struct {
	// OnInvoke, when set, is called each time the model loads a skill. The
	// session uses it to unlock the skill's deferred tools; the text it
	// returns is added to the tool result so the model learns what changed.
	OnInvoke func(Skill) string

	skills []Skill
	index  map[string]int
	dirs   []string
}

// DefaultDirs returns where a project's skills are looked for, in the order
// they win a name clash: the project's own .workbench/skills, then
// .claude/skills (so skills written for Claude Code work unchanged), then the
// person's skills under $XDG_CONFIG_HOME/workbench/skills and ~/.claude/skills.
// Project skills come first because they are the most specific to the work
// at hand.
func DefaultDirs(projectDir string) []string {
	dirs := []string{
		filepath.Join(projectDir, ".workbench", "skills"),
		filepath.Join(projectDir, ".claude", "skills"),
	}
	if cfg := configDir(); cfg != "" {
		dirs = append(dirs, filepath.Join(cfg, "workbench", "skills"))
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		dirs = append(dirs, filepath.Join(home, ".claude", "skills"))
	}
	return dirs
}

// configDir is $XDG_CONFIG_HOME, or ~/.config when it is unset or relative
// (the XDG spec says to ignore a relative value). It matches where settings
// look, so a person keeps all of Workbench's files in one place.
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

// Load reads every <dir>/<skill-name>/SKILL.md. A missing dir is not an
// error, since most projects have no skills. A file that cannot be loaded is
// reported with its path and, when known, its line, and the other skills load
// regardless: one broken skill must not take the rest away. When two dirs
// hold a skill of the same name, the one in the earlier dir is kept and the
// later one is skipped without an error, so a project can override a
// person's skill on purpose.
func Load(dirs ...string) (*Registry, []error) {
	r := &Registry{index: map[string]int{}}
	var errs []error
	for _, dir := range dirs {
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		r.dirs = append(r.dirs, dir)
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("skills %s: %w", dir, err))
			continue
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			s, found, err := loadOne(filepath.Join(dir, e.Name()))
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if !found {
				continue
			}
			if _, taken := r.index[s.Name]; taken {
				continue
			}
			r.index[s.Name] = len(r.skills)
			r.skills = append(r.skills, s)
		}
	}
	return r, errs
}

// loadOne loads the skill in folder. found is false when the folder holds no
// SKILL.md (a folder of shared files, say), which is not an error. Symlinked
// skill folders are followed, as people link skills from a shared checkout.
func loadOne(folder string) (s Skill, found bool, err error) {
	if fi, err := os.Stat(folder); err != nil || !fi.IsDir() {
		return Skill{}, false, nil
	}
	path := filepath.Join(folder, FileName)
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Skill{}, false, nil
	}
	if err != nil {
		return Skill{}, false, fmt.Errorf("%s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return Skill{}, false, fmt.Errorf("%s: not a regular file", path)
	}
	if fi.Size() > maxFileBytes {
		return Skill{}, false, fmt.Errorf("%s: %d bytes is over the %d-byte limit for a skill", path, fi.Size(), maxFileBytes)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Skill{}, false, fmt.Errorf("%s: %w", path, err)
	}
	s, err = parse(path, filepath.Base(folder), data)
	if err != nil {
		return Skill{}, false, err
	}
	s.Dir = folder
	return s, true, nil
}

// List returns the skills in load order: earlier dirs first, and within a
// dir by folder name. A nil Registry has no skills.
func (r *Registry) List() []Skill {
	if r == nil {
		return nil
	}
	return append([]Skill(nil), r.skills...)
}

// Get finds a skill by name.
func (r *Registry) Get(name string) (Skill, bool) {
	if r == nil {
		return Skill{}, false
	}
	i, ok := r.index[name]
	if !ok {
		return Skill{}, false
	}
	return r.skills[i], true
}

// Dirs returns the folders Load looked in, absolute, so a message can tell a
// person where to put a skill.
func (r *Registry) Dirs() []string {
	if r == nil {
		return nil
	}
	return append([]string(nil), r.dirs...)
}

// Names returns the skill names in load order.
func (r *Registry) Names() []string {
	if r == nil {
		return nil
	}
	names := make([]string, len(r.skills))
	for i, s := range r.skills {
		names[i] = s.Name
	}
	return names
}
