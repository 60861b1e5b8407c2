package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Some files of a git directory make git read config from somewhere a
// command chose, and so run its fsmonitor, filters and hooks at the
// person's next `git status`, outside any sandbox. They cannot be refused
// in advance (Landlock allows by place, and `git add` must make files in
// .git), so the sandbox looks after every command ends and removes any that
// was not there when the session started; those that were are read-only
// (gitRedirects).

// plantedFiles are the git files a command must not make, per git
// directory, each with what git does with it.
var plantedFiles = []struct{ name, does string }{
	// Only linked worktrees have one: it sends git to another directory
	// for its config.
	{"commondir", "sends git to the directory it names for its config"},
	// Read as config where extensions.worktreeConfig is on, as in every
	// sparse checkout.
	{"config.worktree", "is read by git as this repository's config"},
}

// gitDirsOfRoots are the workspace roots' own git directories and their
// submodules', where a planted commondir would be read.
func gitDirsOfRoots(roots []string) []string {
	var out []string
	for _, root := range roots {
		for _, d := range gitDirs(root) {
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
			out = append(out, moduleGitDirs(filepath.Join(d, "modules"), 0)...)
		}
	}
	return out
}

// existingPlants lists the planted-file paths present now: those there at
// the session's start are the person's and stay.
func existingPlants(roots []string) []string {
	var out []string
	for _, d := range gitDirsOfRoots(roots) {
		for _, f := range plantedFiles {
			p := filepath.Join(d, f.name)
			if _, err := os.Lstat(p); err == nil {
				out = append(out, p)
			}
		}
	}
	return out
}

// sweepGit undoes, once a command ended, what it did that git would run
// outside the sandbox: a planted commondir, a new submodule staged.
func (s *Sandbox) sweepGit() {
	s.sweeping.Lock()
	defer s.sweeping.Unlock()
	s.removePlants()
	s.unstageNewGitlinks()
}

// removePlants removes the planted files that were not there at start and
// keeps a note for each, which PlantNotes hands out.
func (s *Sandbox) removePlants() {
	for _, p := range existingPlants(s.resolved.Roots) {
		if slices.Contains(s.plantsAtStart, p) {
			continue
		}
		what := plantedWhat(p)
		if err := os.Remove(p); err != nil {
			s.addPlantNote(fmt.Sprintf("a command made %s, which %s: your next git command here would run what that config names, outside the sandbox; Workbench could not remove it (%v): remove it before you run git here",
				p, what, err))
			continue
		}
		s.addPlantNote(fmt.Sprintf("a command made %s, which %s: your next git command here would have run what that config names, outside the sandbox; Workbench removed it",
			p, what))
	}
}

// plantedWhat says what git does with the planted file at p, with a
// commondir's target.
func plantedWhat(p string) string {
	for _, f := range plantedFiles {
		if filepath.Base(p) != f.name {
			continue
		}
		if f.name == "commondir" {
			target, _ := os.ReadFile(p)
			return fmt.Sprintf("%s (%q)", f.does, strings.TrimSpace(string(target)))
		}
		return f.does
	}
	return "git reads"
}

func (s *Sandbox) addPlantNote(n string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.plantNotes = append(s.plantNotes, n)
}

// PlantNotes returns, once, what the sandbox removed after commands
// ended because git would have run it outside the sandbox: the result of
// the command that ended says so.
func (s *Sandbox) PlantNotes() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.plantNotes
	s.plantNotes = nil
	return n
}
