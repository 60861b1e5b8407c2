package sandbox

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/seed92b641c3/workbench/internal/gitindex"
)

// `git status` asks every submodule it finds in the index whether it is
// dirty, by running git inside it with that repository's own config: its
// clean filters and fsmonitor run outside any sandbox, at the person's
// next `git status` in the project. A command can make such a repository
// (`git init sub`, a config of its making) and stage it (`git add sub`),
// all in writable places. So when a command ends, every gitlink in the
// workspace's indexes (and in its submodules', which git recurses into)
// whose repository's config is not what it was when the session started
// is taken out of the index again, and the result says so: the files stay,
// only the staging of the submodule is undone, for the person to redo
// after reading that config.

// maxLinkDepth bounds the walk through submodules of submodules.
const maxLinkDepth = 4

// gitlink is one gitlink of an index: the repository holding it, and the
// digest of the linked repository's config files.
type gitlink struct {
	gitDir, workTree, path string
	digest                 string
}

// workspaceGitlinks lists the gitlinks of the roots' indexes and, for those
// whose repository is checked out, of theirs, keyed by the linked
// directory.
func workspaceGitlinks(roots []string) map[string]gitlink {
	out := map[string]gitlink{}
	for _, root := range roots {
		dirs := gitDirs(root)
		if len(dirs) == 0 {
			continue
		}
		collectGitlinks(out, dirs[0], root, 0)
	}
	return out
}

func collectGitlinks(out map[string]gitlink, gitDir, workTree string, depth int) {
	if depth > maxLinkDepth {
		return
	}
	links, err := gitindex.Gitlinks(filepath.Join(gitDir, "index"))
	if err != nil {
		links = gitlinksFromGit(gitDir, workTree)
	}
	for _, l := range links {
		dir := filepath.Join(workTree, filepath.FromSlash(l))
		if _, seen := out[dir]; seen {
			continue
		}
		dirs := gitDirs(dir)
		if len(dirs) == 0 {
			continue // not checked out: git has nothing to ask there
		}
		out[dir] = gitlink{gitDir: gitDir, workTree: workTree, path: l, digest: configDigest(dirs)}
		collectGitlinks(out, dirs[0], dir, depth+1)
	}
}

// gitlinksFromGit asks git for an index the Go reader does not know.
func gitlinksFromGit(gitDir, workTree string) []string {
	out, err := exec.Command("git", "--git-dir", gitDir, "--work-tree", workTree,
		"-c", "core.fsmonitor=false", "ls-files", "-z", "--stage").Output()
	if err != nil {
		return nil
	}
	return gitindex.ParseLsFiles(out)
}

// configDigest sums what decides what git runs in a repository: its
// config, worktree config and commondir in each of its git directories.
func configDigest(gitDirs []string) string {
	h := sha256.New()
	for _, d := range gitDirs {
		for _, name := range []string{"config", "config.worktree", "commondir"} {
			data, err := os.ReadFile(filepath.Join(d, name))
			fmt.Fprintf(h, "%s\x00%t\x00%d\x00", name, err == nil, len(data))
			h.Write(data)
		}
	}
	return string(h.Sum(nil))
}

// unstageNewGitlinks takes out of their index the gitlinks whose
// repository's config is new since the session started, with a note for
// each.
func (s *Sandbox) unstageNewGitlinks() {
	for dir, l := range workspaceGitlinks(s.resolved.Roots) {
		if before, ok := s.linksAtStart[dir]; ok && before.digest == l.digest {
			continue
		}
		cmd := exec.Command("git", "--git-dir", l.gitDir, "--work-tree", l.workTree,
			"-c", "core.fsmonitor=false", "update-index", "--force-remove", "-z", "--stdin")
		cmd.Stdin = strings.NewReader(l.path + "\x00")
		if out, err := cmd.CombinedOutput(); err != nil {
			s.addPlantNote(fmt.Sprintf("a command staged %s as a submodule with a repository config written since the session started; git status would run that config (its filters, its fsmonitor) outside the sandbox, and Workbench could not unstage it (%v %s): run `git rm --cached %s` before git status",
				dir, err, strings.TrimSpace(string(out)), l.path))
			continue
		}
		s.addPlantNote(fmt.Sprintf("a command staged %s as a submodule with a repository config written since the session started; git status would run that config (its filters, its fsmonitor) outside the sandbox, so Workbench unstaged it (the files are untouched): read %s/.git/config, then `git add %s` yourself",
			dir, dir, l.path))
	}
}
