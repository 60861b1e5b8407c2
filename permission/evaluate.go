package permission

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Request describes one tool call to Evaluate.
type Request struct {
	// Tool is the name the call runs under (for deferred tools, the
	// target's own name).
	Tool string
	// Mode is the session's permission mode; empty means default.
	Mode Mode
	// ReadOnly is the tool's promise that this call changes nothing.
	ReadOnly bool
	// Own is the tool's own verdict on its input (zero when it has none).
	Own Decision
	// Target is what the call touches.
	Target Target
	// WorkDir is the directory relative paths are resolved against; empty
	// means the policy's WorkDir.
	WorkDir string
}

// editTools are the tools acceptEdits lets run without asking. Unlike the
// reference harness, MultiEdit is one of them: it is several Edits.
var editTools = map[string]bool{"Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true}

// evaluation is one request with its commands split and paths resolved.
type evaluation struct {
	req      Request
	cmds     []*analysis
	parseErr bool
	paths    []pathForms
	host     string
	// programs are the first words of every spelling of every command
	// part, to pass over rules about other programs.
	programs []string
	// writes are the files the commands write that the policy can see
	// (redirections, the files named to rm, cp, tee...), resolved, with
	// what writes them; blindWrite says one cannot be known before the line
	// runs.
	writes  []pathForms
	writers []string
	// reads are the files the commands name, resolved, when a Read rule
	// could hide one (see reads.go).
	reads []pathForms
	// recursive marks the writes that are targets of a recursive rm.
	recursive []bool
	// tree marks the directories written beneath (tree.go).
	tree       []bool
	blindWrite bool
	// anyProgram is set when a part's program is only known at run time,
	// so no rule can be passed over by its program.
	anyProgram bool
	// unknown says why a line cannot be judged before it runs, "" when
	// every line can.
	unknown string
}

// Evaluate decides whether a call may run. The stages, first verdict wins:
// hard deny; deny rules; the tool's own Deny; ask rules; the workspace
// boundary and protected files; the mode (bypass allows, plan allows only
// read-only calls); allow rules, acceptEdits, read-only, the tool's own
// Allow; otherwise ask. Deny and ask rules therefore win in every mode,
// bypass included, and nothing allows a hard-denied command. In dontAsk and
// auto modes an ask becomes a deny that says what asked. Decision.Rule
// always names what decided.
func (p *Policy) Evaluate(req Request) Decision {
	if _, ok := ParseMode(string(req.Mode)); !ok {
		req.Mode = ModeDefault // an unknown mode gets the cautious default
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	// Backing arrays on the caller's stack, so a usual call allocates no
	// slices; inside e they would move e to the heap.
	var cmdBuf [4]*analysis
	var programBuf [8]string
	e := evaluation{cmds: cmdBuf[:0], programs: programBuf[:0]}
	p.prepare(&e, req)
	d := p.decide(&e)
	if d.Behavior == Ask && (req.Mode == ModeDontAsk || req.Mode == ModeAuto) {
		d = forbidAsk(req.Mode, d, &e)
	}
	if len(e.paths) > 0 {
		d.Checked = make([]CheckedPath, len(e.paths))
		for i, f := range e.paths {
			d.Checked[i] = CheckedPath{Path: req.Target.Paths[i], Real: f.real}
			if d.Behavior == Allow {
				d.Checked[i].AllowedBy = d.Rule
			}
			if req.Target.Access == AccessWrite {
				d.Checked[i].Protected = p.protectedReason(f)
			}
		}
	}
	return d
}

// prepare fills e for req: commands analysed (from the cache), paths
// resolved, host normalised.
func (p *Policy) prepare(e *evaluation, req Request) {
	e.req, e.host = req, normalizeHost(req.Target.Host)
	e.unknown = req.Target.Unknown
	for _, c := range req.Target.Commands {
		a := cachedAnalysisIn(c, req.Target.Persistent)
		e.cmds = append(e.cmds, a)
		if a.err != nil {
			e.parseErr = true
		}
	}
	for _, a := range e.cmds {
		e.anyProgram = e.anyProgram || a.anyProgram || a.err != nil
		if e.unknown == "" {
			e.unknown = a.unknown
		}
		for _, pt := range a.parts {
			e.programs = append(e.programs, firstWord(pt.text))
			if pt.alt != "" {
				e.programs = append(e.programs, firstWord(pt.alt))
			}
			for _, x := range pt.extra {
				e.programs = append(e.programs, firstWord(x))
			}
		}
		for _, x := range a.hidden {
			e.programs = append(e.programs, firstWord(x))
		}
	}
	base := func() string {
		if req.WorkDir != "" {
			return absPath(req.WorkDir, p.root0(), p.home)
		}
		return p.work()
	}
	for _, s := range req.Target.Paths {
		e.paths = append(e.paths, resolveForms(s, base(), p.home))
	}
	if len(e.cmds) > 0 && p.hidesReadsLocked() {
		known := append([]string{base()}, p.roots...)
		for _, a := range e.cmds {
			for _, r := range a.reads {
				for _, f := range expandWrite(r, base()) {
					// Resolved as the kernel resolves it, before any
					// cleaning: src/outlink/../x follows the link, then
					// climbs from where it leads.
					abs := absPath(f, base(), p.home)
					read := pathForms{given: f, lit: filepath.Clean(abs), real: resolveUnder(abs, known)}
					if seenRead(e.reads, read) {
						continue
					}
					e.reads = append(e.reads, read)
				}
			}
		}
	}
	for _, a := range e.cmds {
		if e.unknown == "" && len(a.gitRuns) > 0 {
			e.unknown = p.gitRepoUnknown(a, base())
		}
	}
	for _, a := range e.cmds {
		e.blindWrite = e.blindWrite || a.blindWrite
		for _, w := range a.writes {
			for _, f := range expandWrite(w, base()) {
				e.writes = append(e.writes, resolveForms(f, base(), p.home))
				e.writers = append(e.writers, w.by)
				e.recursive = append(e.recursive, w.recursive)
				e.tree = append(e.tree, w.tree)
			}
		}
	}
}

func (p *Policy) decide(e *evaluation) Decision {
	req := e.req
	for i, a := range e.cmds {
		if a.deny != "" {
			return Decision{Behavior: Deny, Rule: "hard-deny",
				Message: fmt.Sprintf("%q is refused in every mode because %s", req.Target.Commands[i], a.deny)}
		}
	}
	for i, f := range e.writes {
		if !e.recursive[i] {
			continue
		}
		if what := catastrophicTarget(f.lit); what != "" {
			return Decision{Behavior: Deny, Rule: "hard-deny",
				Message: fmt.Sprintf("%s is refused in every mode because it recursively deletes %s", describe(e), what)}
		}
	}
	if r := p.firstMatch(p.cdeny, e); r != nil {
		return Decision{Behavior: Deny, Rule: r.Raw,
			Message: fmt.Sprintf("%s is denied by rule %s%s", describe(e), r.Raw, from(r.Source))}
	}
	if d, ok := p.commandReads(e, Deny); ok {
		return d
	}
	if d, ok := p.editReads(e, Deny); ok {
		return d
	}
	if req.Own.Behavior == Deny {
		d := withRule(req.Own, "tool")
		if d.Message == "" {
			d.Message = req.Tool + " refused this input"
		}
		return d
	}
	if r := p.firstMatch(p.cask, e); r != nil {
		return Decision{Behavior: Ask, Rule: r.Raw,
			Message: fmt.Sprintf("rule %s%s asks before %s runs", r.Raw, from(r.Source), describe(e))}
	}
	if d, ok := p.commandReads(e, Ask); ok {
		return d
	}
	if d, ok := p.editReads(e, Ask); ok {
		return d
	}
	if d, ok := p.treeRules(e); ok {
		return d
	}
	if d, ok := p.boundary(e); ok {
		return d
	}
	if req.Mode != ModePlan {
		// What cannot be seen before it runs asks in every mode, bare
		// rules and bypassPermissions included (H15); plan mode denies
		// it below like any other call that changes something.
		if e.unknown != "" {
			return Decision{Behavior: Ask, Rule: "unknown",
				Message: describe(e) + " cannot be judged before it runs: " + e.unknown + ", so it asks every time"}
		}
		if e.blindWrite {
			return Decision{Behavior: Ask, Rule: "unknown-target",
				Message: describe(e) + " writes to a file whose name is only known when it runs (a variable, or a relative name after cd), so no rule can allow it in advance"}
		}
	}
	switch req.Mode {
	case ModeBypass:
		return Decision{Behavior: Allow, Rule: "mode:" + string(ModeBypass),
			Message: "bypassPermissions mode allows what no rule denies or asks"}
	case ModePlan:
		if req.ReadOnly {
			return Decision{Behavior: Allow, Rule: "mode:" + string(ModePlan),
				Message: "plan mode allows read-only tools"}
		}
		return Decision{Behavior: Deny, Rule: "mode:" + string(ModePlan),
			Message: "plan mode allows read-only tools only"}
	}
	if rules := p.allowedBy(e); rules == builtinsRule {
		return Decision{Behavior: Allow, Rule: rules,
			Message: describe(e) + " runs only builtins that change nothing ([, test, true, false, :), which need no rule"}
	} else if rules != "" {
		return Decision{Behavior: Allow, Rule: rules, Message: describe(e) + " is allowed by " + rules}
	}
	if req.Mode == ModeAcceptEdits && req.Target.Access == AccessWrite && editTools[req.Tool] &&
		len(e.paths) > 0 && p.allInside(e) {
		return Decision{Behavior: Allow, Rule: "mode:" + string(ModeAcceptEdits),
			Message: "acceptEdits mode allows file edits inside the workspace"}
	}
	if req.ReadOnly {
		return Decision{Behavior: Allow, Rule: "read-only", Message: req.Tool + " changes nothing"}
	}
	if req.Own.Behavior == Allow {
		return withRule(req.Own, "tool")
	}
	d := Decision{Behavior: Ask, Rule: "mode:" + string(req.Mode), Message: "approve " + req.Tool + "?"}
	if req.Own.Behavior == Ask {
		d = withRule(req.Own, "tool")
		if d.Message == "" {
			d.Message = "approve " + req.Tool + "?"
		}
	}
	if d.Suggestion == "" {
		d.Suggestion = strings.Join(p.suggestUncovered(e), ", ")
	}
	return d
}

// builtinsRule names what allows a line of read-only builtins alone.
const builtinsRule = "read-only builtin"

// withRule returns d with Rule set to def when the tool left it empty.
func withRule(d Decision, def string) Decision {
	if d.Rule == "" {
		d.Rule = def
	}
	return d
}

func from(source string) string {
	if source == "" {
		return ""
	}
	return " (from " + source + ")"
}

// describe names the call for messages: the tool and what it touches. It
// runs on every decision, so it concatenates rather than formats.
func describe(e *evaluation) string {
	t := e.req.Target
	switch {
	case len(t.Commands) > 0:
		return e.req.Tool + " `" + strings.Join(t.Commands, "; ") + "`"
	case len(t.Paths) > 0:
		return e.req.Tool + " " + strings.Join(t.Paths, ", ")
	case t.Host != "":
		return e.req.Tool + " " + t.Host
	}
	return e.req.Tool
}

// forbidAsk turns an ask into the deny dontAsk and auto modes give, saying
// what asked and, when there is one, which rule would allow the call.
func forbidAsk(m Mode, d Decision, e *evaluation) Decision {
	var msg string
	if strings.HasPrefix(d.Rule, "mode:") {
		msg = fmt.Sprintf("no rule allows %s and %s mode never asks, so the call is denied", describe(e), m)
	} else {
		msg = fmt.Sprintf("%s asked for approval (%s), but %s mode never asks, so the call is denied",
			d.Rule, d.Message, m)
	}
	if d.Suggestion != "" {
		msg += "; an allow rule such as " + d.Suggestion + " would let it run"
	}
	return Decision{Behavior: Deny, Rule: "mode:" + string(m), Message: msg, Suggestion: d.Suggestion}
}

// firstMatch returns the first rule that matches anything the call touches:
// a bare rule for the tool, or a specifier matching any command part (in any
// spelling), any path (as written or resolved), or the host. One matching
// part is enough, so one denied part denies a compound command.
func (p *Policy) firstMatch(rules []compiledRule, e *evaluation) *compiledRule {
	for i := range rules {
		r := &rules[i]
		if !e.anyProgram && !r.aboutPrograms(e.programs) {
			continue
		}
		if r.wholeTool(e) {
			return r
		}
		if r.kind == specNone {
			continue
		}
		if r.commandRule(e.req.Tool) {
			for _, a := range e.cmds {
				for _, pt := range a.parts {
					if r.matchesCommand(pt.text) {
						return r
					}
					for _, x := range pt.extra {
						if r.matchesCommand(x) {
							return r
						}
					}
				}
				for _, x := range a.hidden {
					if r.matchesCommand(x) {
						return r
					}
				}
			}
		}
		if r.pathRule(e.req.Tool, e.req.Target.Access) {
			for _, f := range e.paths {
				if r.path.match(f.real, p.roots) || r.path.match(f.lit, p.roots) {
					return r
				}
			}
		}
		if len(e.writes) > 0 && r.pathRule(e.req.Tool, AccessWrite) {
			for _, f := range e.writes {
				if r.path.match(f.real, p.roots) || r.path.match(f.lit, p.roots) {
					return r
				}
			}
		}
		if e.host != "" && r.hostRule(e.req.Tool) && r.host.match(e.host) {
			return r
		}
	}
	return nil
}

// boundary applies H4: writes to .git internals and protected files always
// ask; a path outside every root asks unless an allow rule with a path
// specifier names it.
func (p *Policy) boundary(e *evaluation) (Decision, bool) {
	// A place is a path the call touches and how.
	type place struct {
		f      pathForms
		access Access
		by     string // what in a command line writes it, for messages
	}
	places := make([]place, 0, len(e.paths)+len(e.writes))
	for _, f := range e.paths {
		places = append(places, place{f, e.req.Target.Access, ""})
	}
	for i, f := range e.writes {
		by := "the command's redirection"
		if e.writers[i] != "" {
			by = e.writers[i]
		}
		places = append(places, place{f, AccessWrite, by})
	}
	for n, pl := range places {
		if pl.access != AccessWrite {
			continue
		}
		why := p.protectedReason(pl.f)
		if i := len(places) - len(e.writes); why == "" && n >= i && e.tree[n-i] {
			why = p.heldReason(pl.f)
		}
		if why != "" {
			return Decision{Behavior: Ask, Rule: "protected",
				Message: fmt.Sprintf("writing %s%s always needs approval: %s", pl.f.given, writtenBy(pl.by), why)}, true
		}
	}
	var outside []place
	for _, pl := range places {
		if containingRoot(pl.f.real, p.roots) == "" && p.pathAllowRule(e, pl.f, pl.access) == nil {
			outside = append(outside, pl)
		}
	}
	if len(outside) == 0 {
		return Decision{}, false
	}
	f := outside[0].f
	where := f.real
	if f.real != f.lit {
		where = fmt.Sprintf("%s (really %s)", f.given, f.real)
	}
	var rules []string
	for _, o := range outside {
		rules = append(rules, pathRules(o.access, []string{o.f.real}, p.root0(), p.work(), p.home)...)
	}
	return Decision{Behavior: Ask, Rule: "workspace",
		Message:    fmt.Sprintf("%s%s is outside the workspace (%s)", where, writtenBy(outside[0].by), p.rootList()),
		Suggestion: strings.Join(dedupe(rules), ", ")}, true
}

// writtenBy says, in a message about a path, what in a command line
// writes it.
func writtenBy(by string) string {
	if by == "" {
		return ""
	}
	return ", written by " + by + ","
}

// pathAllowRule returns the allow rule whose path specifier covers f's
// resolved path, or nil. Only such a rule opens a path outside the
// workspace: a bare name, `*` or a mode is not specific enough.
func (p *Policy) pathAllowRule(e *evaluation, f pathForms, access Access) *compiledRule {
	for i := range p.callow {
		r := &p.callow[i]
		if r.pathRule(e.req.Tool, access) && r.path.match(f.real, p.roots) {
			return r
		}
	}
	return nil
}

func (p *Policy) allInside(e *evaluation) bool {
	for _, f := range e.paths {
		if containingRoot(f.real, p.roots) == "" {
			return false
		}
	}
	return true
}

// allowedBy returns the allow rules that together cover the call, joined by
// ", ", or "". A bare rule for the tool covers everything; otherwise every
// command part, every path and the host must each be covered by some rule
// with a specifier, and a command that does not parse cannot be.
func (p *Policy) allowedBy(e *evaluation) string {
	for i := range p.callow {
		if p.callow[i].wholeTool(e) {
			return p.callow[i].Raw
		}
	}
	if e.parseErr || e.blindWrite || e.unknown != "" {
		return ""
	}
	var used []string
	items := 0
	use := func(r *compiledRule) bool {
		if r == nil {
			return false
		}
		if !contains(used, r.Raw) {
			used = append(used, r.Raw)
		}
		return true
	}
	for _, a := range e.cmds {
		if a.envTaint {
			return "" // the line sets a variable that is not inert
		}
		for _, pt := range a.parts {
			items++
			if pt.builtin && !pt.envPrefix {
				continue // changes nothing, needs no rule
			}
			if pt.envPrefix || !use(p.partAllowRule(e, pt)) {
				return ""
			}
		}
	}
	for _, f := range e.paths {
		items++
		if !use(p.pathAllowRule(e, f, e.req.Target.Access)) {
			return ""
		}
	}
	if e.host != "" {
		items++
		if !use(p.hostAllowRule(e)) {
			return ""
		}
	}
	if items == 0 {
		return ""
	}
	if len(used) == 0 {
		return builtinsRule // every part was a read-only builtin
	}
	return strings.Join(used, ", ")
}

// partAllowRule returns the allow rule matching a part as written or by the
// base name of a program in a system directory, or nil.
func (p *Policy) partAllowRule(e *evaluation, pt part) *compiledRule {
	if r := p.commandAllowRule(e, pt.text); r != nil || pt.alt == "" {
		return r
	}
	return p.commandAllowRule(e, pt.alt)
}

func (p *Policy) commandAllowRule(e *evaluation, text string) *compiledRule {
	program := firstWord(text)
	for i := range p.callow {
		r := &p.callow[i]
		if r.program != "" && r.program != program {
			continue
		}
		if r.commandRule(e.req.Tool) && r.cmd.match(text) {
			return r
		}
	}
	return nil
}

func (p *Policy) hostAllowRule(e *evaluation) *compiledRule {
	for i := range p.callow {
		r := &p.callow[i]
		if r.hostRule(e.req.Tool) && r.host.match(e.host) {
			return r
		}
	}
	return nil
}

// suggestUncovered proposes session rules for what no allow rule covers yet.
func (p *Policy) suggestUncovered(e *evaluation) []string {
	var out []string
	for _, a := range e.cmds {
		if a.err != nil {
			continue
		}
		for _, pt := range a.parts {
			if !pt.builtin && p.partAllowRule(e, pt) == nil {
				if r := commandRule(pt); r != "" {
					out = append(out, r)
				}
			}
		}
	}
	var paths []string
	for _, f := range e.paths {
		if p.pathAllowRule(e, f, e.req.Target.Access) == nil {
			paths = append(paths, f.real)
		}
	}
	out = append(out, pathRules(e.req.Target.Access, paths, p.root0(), p.work(), p.home)...)
	if e.host != "" && p.hostAllowRule(e) == nil {
		out = append(out, hostRule(e.host))
	}
	if len(e.cmds) == 0 && len(e.paths) == 0 && e.host == "" {
		out = append(out, e.req.Tool)
	}
	return dedupe(out)
}

// seenRead reports whether reads already holds the file f, as written
// and as it resolves.
func seenRead(reads []pathForms, f pathForms) bool {
	for _, r := range reads {
		if r.lit == f.lit && r.real == f.real {
			return true
		}
	}
	return false
}
