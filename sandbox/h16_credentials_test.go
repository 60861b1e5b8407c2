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

// With XDG_CONFIG_HOME set, the Workbench settings directory there (user
// settings, trust record, the person's files per project) is hidden like
// ~/.config/workbench, even where it lies under a writable place.
func TestH16_SettingsUnderXDGConfigHomeAreHidden(t *testing.T) {
	f := newFixture(t)
	cfg := filepath.Join(os.TempDir(), "wb-xdg-"+filepath.Base(f.ws)+"-"+filepath.Base(filepath.Dir(f.ws)))
	t.Cleanup(func() { os.RemoveAll(cfg) })
	settingsFile := filepath.Join(cfg, "workbench", "settings.json")
	os.MkdirAll(filepath.Dir(settingsFile), 0o755)
	os.WriteFile(settingsFile, []byte(`{"permissions":{"allow":["Bash"]}}`), 0o644)
	t.Setenv("XDG_CONFIG_HOME", cfg)
	s := newSandbox(t, f.policy(), Options{})
	if out, _ := run(t, s, f.ws, `cat `+settingsFile); strings.Contains(out, "allow") {
		t.Errorf("the user settings were readable: %q", out)
	}
	mustFail(t, s, f.ws, `echo '{}' > `+settingsFile)
	if data, _ := os.ReadFile(settingsFile); !strings.Contains(string(data), "allow") {
		t.Errorf("the user settings were changed: %q", data)
	}
}
