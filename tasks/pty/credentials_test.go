package pty

import (
	"strings"
	"testing"
)

// A shell session the agent opens starts without the person's model keys:
// a command there could print them into output the model reads.
func TestH16_ShellSessionsDoNotGetTheModelKeys(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-person-secret")
	t.Setenv("OPENAI_API_KEY", "sk-openai-person-secret")
	t.Setenv("WORKBENCH_TEST_VISIBLE", "visible-value")
	m := newManager(t)
	s := open(t, m, OpenSpec{Command: `env | grep -e person-secret -e visible-value; echo env-listed`})
	sc := waitScreen(t, s, "the environment", func(sc *Screen) bool { return strings.Contains(sc.Text(), "env-listed") })
	if text := sc.Text(); strings.Contains(text, "person-secret") || !strings.Contains(text, "visible-value") {
		t.Errorf("the session's environment:\n%s", text)
	}
}
