package permission

import (
	"fmt"
	"sync"
	"testing"
)

func TestGrantWhileEvaluating(t *testing.T) {
	t.Parallel()
	p := newPolicy(t, []string{t.TempDir()}, rules{deny: []string{"Bash(rm:*)"}})
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				d := p.Evaluate(bash(fmt.Sprintf("cmd%d x && rm y", i%20)))
				if d.Behavior != Deny {
					t.Errorf("a grant let a denied part through: %+v", d)
					return
				}
			}
		}()
	}
	for i := 0; i < 20; i++ {
		if err := p.Grant(fmt.Sprintf("Bash(cmd%d:*)", i)); err != nil {
			t.Fatal(err)
		}
		_ = p.Rules(Allow)
		_ = p.Roots()
	}
	wg.Wait()
	if d := p.Evaluate(bash("cmd7 x")); d.Behavior != Allow {
		t.Fatalf("granted command got %s", d.Behavior)
	}
}
