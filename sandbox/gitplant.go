package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A git directory's commondir file sends git to another directory for its
// config, and so for its fsmonitor, filters and hooks: one a command makes
// in the workspace's .git would run what it names at the person's next
// `git status`, outside any sandbox. Only linked worktrees have one, and
// it cannot be refused in advance (Landlock allows by place, and `git add`
// must make files in .git), so the sandbox looks after every command ends
// and removes any that was not there when the session started; those that
// were are read-only (gitRedirects).

// plantedFiles are the git files a command must not make, per git
// directory.
var plantedFiles = []string{"commondir"}

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
		for _, name := range plantedFiles {
			p := filepath.Join(d, name)
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
		target, _ := os.ReadFile(p)
		if err := os.Remove(p); err != nil {
			s.addPlantNote(fmt.Sprintf("a command made %s, which sends git to %q for its config (and the commands it names), outside the sandbox; Workbench could not remove it (%v): remove it before you run git here",
				p, strings.TrimSpace(string(target)), err))
			continue
		}
		s.addPlantNote(fmt.Sprintf("a command made %s, which would send git to %q for its config (and the commands it names) at your next git command, outside the sandbox; Workbench removed it",
			p, strings.TrimSpace(string(target))))
	}
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
