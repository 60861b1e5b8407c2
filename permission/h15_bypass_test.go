package permission

import (
	"path/filepath"
	"testing"
)

// bypassPermissions allows what no rule stops, but the workspace boundary
// still holds for a file known only when the line runs: such a call asks in
// every mode, whatever the rules allow.
func TestH15_BypassDoesNotSkipTheBoundaryForRunTimeTargets(t *testing.T) {
	t.Parallel()
	project, outside := workspace(t)
	out := filepath.Join(outside, "x")
	p := newPolicy(t, []string{project}, rules{allow: []string{"Bash", "*"}})
	lines := []string{
		`f=` + out + `; touch "$f"`,
		`touch "$TARGET"`,
		`echo hi > "$f"`,
		`cd "$DIR" && touch x`,
		`cd "$(cat where)" && echo hi > x`,
		`cd src && touch x`, // CDPATH may send cd anywhere
		`cd - && touch x`,
		`pushd "$d"; rm -rf build`,
		`rm -rf "$BUILD_DIR"`,
		`cp a.txt "$(mktemp -d)"`,
		`tee "$LOG" < input`,
		`for d in $(ls); do touch "$d/x"; done`,
		`mv a.txt ~-/b.txt`,
		`sed -i s/a/b/ "$F"`,
		`cd ` + outside + ` && touch x`,
		`cd ` + outside + `; touch x`,
		`cd ` + outside + ` || true; echo hi > y`,
		`(cd ` + outside + ` && echo hi > y)`,
		`cd escape && touch x`,
		`cd ./escape && touch x`,
		`touch ` + out,
	}
	for _, mode := range []Mode{ModeBypass, ModeDefault, ModeAcceptEdits} {
		for _, s := range lines {
			req := bash(s)
			req.WorkDir, req.Mode = project, mode
			if d := p.Evaluate(req); d.Behavior != Ask || (d.Rule != "unknown-target" && d.Rule != "workspace" && d.Rule != "unknown") {
				t.Errorf("%s in %s: got %s by %q (%s), want ask", s, mode, d.Behavior, d.Rule, d.Message)
			}
		}
	}
	// dontAsk and auto turn those asks into denials.
	for _, mode := range []Mode{ModeDontAsk, ModeAuto} {
		req := bash(`touch "$TARGET"`)
		req.WorkDir, req.Mode = project, mode
		if d := p.Evaluate(req); d.Behavior != Deny {
			t.Errorf("%s: got %s by %q, want deny", mode, d.Behavior, d.Rule)
		}
	}
	// What is known and inside stays allowed.
	for _, s := range []string{`touch x`, `cd ./src && touch x`, `echo hi > out.txt`, `(cd ./src; make > log)`, `cd ` + project + ` && touch y`} {
		req := bash(s)
		req.WorkDir, req.Mode = project, ModeBypass
		if d := p.Evaluate(req); d.Behavior != Allow {
			t.Errorf("%s: got %s by %q (%s), want allow", s, d.Behavior, d.Rule, d.Message)
		}
	}
}
