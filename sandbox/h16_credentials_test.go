package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The tokens of git, package registries and cloud tools are hidden from
// sandboxed commands by default; allowRead opens one a build needs.
func TestH16_CredentialFilesAreHiddenByDefault(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	files := []string{".git-credentials", ".netrc", ".npmrc", ".pypirc", ".docker/config.json", ".kube/config",
		".config/gcloud/credentials.db", ".cargo/credentials.toml", ".password-store/x.gpg", ".vault-token"}
	for _, rel := range files {
		p := filepath.Join(f.home, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("secret-of-"+rel+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	read := func(s *Sandbox) string {
		var script strings.Builder
		for _, rel := range files {
			script.WriteString("cat " + filepath.Join(f.home, rel) + " 2>/dev/null; ")
		}
		out, _ := run(t, s, f.ws, script.String())
		return out
	}
	if out := read(newSandbox(t, f.policy(), Options{})); strings.Contains(out, "secret-of") {
		t.Errorf("credentials readable in the sandbox:\n%s", out)
	}
	p := f.policy()
	p.AllowRead = []string{"~/.npmrc"}
	out := read(newSandbox(t, p, Options{}))
	if !strings.Contains(out, "secret-of-.npmrc") {
		t.Errorf("allowRead did not open ~/.npmrc:\n%s", out)
	}
	if strings.Count(out, "secret-of") != 1 {
		t.Errorf("allowRead opened more than it named:\n%s", out)
	}
}
