package tasks

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The agent's commands and background tasks start without the person's
// model keys; the settings' env (the caller's extras) can put one back.
func TestH16_CommandsDoNotGetTheModelKeys(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-person-secret")
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "token-person-secret")
	t.Setenv("OPENAI_API_KEY", "sk-openai-person-secret")
	t.Setenv("WORKBENCH_TEST_VISIBLE", "visible-value")
	var out bytes.Buffer
	p, err := StartProcess(context.Background(), ProcessSpec{Command: "env", Output: &out, Env: []string{"OPENAI_API_KEY=sk-project-own"}})
	if err != nil {
		t.Fatal(err)
	}
	p.Wait()
	env := out.String()
	if strings.Contains(env, "person-secret") || !strings.Contains(env, "visible-value") || !strings.Contains(env, "OPENAI_API_KEY=sk-project-own") {
		t.Errorf("the command's environment:\n%s", env)
	}
}
