package session

import (
	"path/filepath"
	"strings"

	"github.com/seed92b641c3/workbench/tools/skill"
)

// grantSkill lets a loaded skill's allowed-tools run without asking until
// the run ends (endSkillGrants), as Claude Code's allowed-tools do. The
// grant is an allow rule like any other: deny and ask rules, hard deny, the
// workspace boundary and protected files still come first. It returns the
// line the model reads about it.
func (s *Session) grantSkill(sk skill.Skill) string {
	if len(sk.AllowedTools) == 0 {
		return ""
	}
	if !s.Config.ProjectTrusted && s.projectSkill(sk) {
		// A repository's skill granting itself tools is an allow rule
		// from the repository: it waits for trust as those do.
		return "Its allowed-tools were not granted: the skill came with a project you have not trusted (workbench trust), so its calls ask as any would."
	}
	revoke, err := s.Config.Policy.GrantScoped("skill "+sk.Name, sk.AllowedTools...)
	if err != nil {
		return "Its allowed-tools were not granted: " + err.Error()
	}
	s.skillMu.Lock()
	s.skillGrants = append(s.skillGrants, revoke)
	s.skillMu.Unlock()
	return "While this skill runs, these need no approval: " + strings.Join(sk.AllowedTools, ", ")
}

// endSkillGrants takes back every skill grant of the run that ended.
func (s *Session) endSkillGrants() {
	s.skillMu.Lock()
	grants := s.skillGrants
	s.skillGrants = nil
	s.skillMu.Unlock()
	for _, revoke := range grants {
		revoke()
	}
}

// projectSkill reports whether sk came with the project (its .claude or
// .workbench skills), not from the person's own directories.
func (s *Session) projectSkill(sk skill.Skill) bool {
	for _, d := range []string{".claude", ".workbench"} {
		root := filepath.Join(s.Config.ProjectDir, d, "skills")
		if rel, err := filepath.Rel(root, sk.Dir); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return true
		}
	}
	return false
}
