package settings

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"go.yaml.in/yaml/v3"

	"github.com/seed92b641c3/workbench/internal/frontmatter"
)

// commandDirs are where a project's slash command files live (package
// commands reads them), skillDirs where its skills do (tools/skill):
// both may name allowed-tools.
var (
	commandDirs = []string{filepath.Join(".claude", "commands"), filepath.Join(".workbench", "commands")}
	skillDirs   = []string{filepath.Join(".claude", "skills"), filepath.Join(".workbench", "skills")}
)

// commandGrants are the front matters of the project's slash command and
// skill files that name allowed-tools, by path below the project: such a file lets its
// run use those tools without asking, a power like an allow rule, so trust
// covers it, and a `git pull` that adds or changes one asks again. The
// whole front matter counts, as written, so no reading of it can differ
// from what the commands package grants. Files without allowed-tools, and
// every command's body, change nothing.
func commandGrants(projectDir string) map[string]string {
	out := map[string]string{}
	for _, d := range commandDirs {
		filepath.WalkDir(filepath.Join(projectDir, d), func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(e.Name(), ".md") {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil {
				out[path] = "unreadable"
				return nil
			}
			if front, _, ok := frontmatter.Split(data); ok && mayGrant(front) {
				rel, _ := filepath.Rel(projectDir, path)
				out[filepath.ToSlash(rel)] = string(front)
			}
			return nil
		})
	}
	for _, d := range skillDirs {
		// As the skill loader reads them: each entry of the directory,
		// followed if it is a link, and the SKILL.md in it.
		entries, _ := os.ReadDir(filepath.Join(projectDir, d))
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			rel := filepath.ToSlash(filepath.Join(d, e.Name(), "SKILL.md"))
			data, err := os.ReadFile(filepath.Join(projectDir, d, e.Name(), "SKILL.md"))
			if err != nil {
				if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
					out[rel] = "unreadable"
				}
				continue
			}
			if front, _, ok := frontmatter.Split(data); ok && mayGrant(front) {
				out[rel] = string(front)
			}
		}
	}
	return out
}

// mayGrant reports whether a command or skill file's front matter may
// name allowed-tools as their loaders read it: a top-level key whose YAML
// value is allowed-tools, however it is spelled ("allowed\x2dtools" is
// that key to a YAML parser, not to a search for the text). A front matter
// that is not YAML may still be read by the commands package's fallback,
// so it counts when the text appears anywhere in it.
func mayGrant(front []byte) bool {
	var doc yaml.Node
	if yaml.Unmarshal(front, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return bytes.Contains(front, []byte("allowed-tools"))
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "allowed-tools" {
			return true
		}
	}
	return false
}

// commandGrantsWithheld is the notice part for an untrusted project's
// command files that name allowed-tools.
func commandGrantsWithheld(projectDir string) []string {
	g := commandGrants(projectDir)
	if len(g) == 0 {
		return nil
	}
	var names []string
	for k := range g {
		names = append(names, k)
	}
	sort.Strings(names)
	return []string{"allowed-tools of slash commands and skills: " + strings.Join(names, ", ")}
}
