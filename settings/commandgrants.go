package settings

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/seed92b641c3/workbench/internal/frontmatter"
)

// commandDirs are where a project's slash command files live (package
// commands reads them).
var commandDirs = []string{filepath.Join(".claude", "commands"), filepath.Join(".workbench", "commands")}

// commandGrants are the front matters of the project's slash command files
// that name allowed-tools, by path below the project: such a file lets its
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
			if front, _, ok := frontmatter.Split(data); ok && bytes.Contains(front, []byte("allowed-tools")) {
				rel, _ := filepath.Rel(projectDir, path)
				out[filepath.ToSlash(rel)] = string(front)
			}
			return nil
		})
	}
	return out
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
	return []string{"allowed-tools of slash commands: " + strings.Join(names, ", ")}
}
