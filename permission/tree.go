package permission

import (
	"fmt"
	"path"
	"strings"
)

// Some programs write beneath the directory they are given, at names the
// line does not show: a recursive rm, chmod, chown or chgrp, find
// -delete, an archive extracted (tar -x, unzip, ar x), a recursive copy's
// destination (`cp -r src/t/. .` merges t into the project, a .git in it
// included), a compressor's -r, 7z x. Such a directory that holds a protected
// place (the project root holds .git, .workbench and .claude) is written
// as that place is: `tar -xf e.tar` in the root, whose members may be
// .git/hooks/pre-commit, asks like writing there, and `rm -rf $PWD`
// like removing the settings.

// treeWrites records the directories words (a command, wrappers removed)
// writes beneath.
func (w *walker) treeWrites(words []string, d dirs) {
	if len(words) < 2 {
		return
	}
	by := path.Base(words[0])
	for _, t := range treeTargets(by, words) {
		w.treeTarget(t, by, d)
	}
}

// treeTarget records t as a directory written beneath.
func (w *walker) treeTarget(t, by string, d dirs) {
	n := len(w.a.writes)
	w.writeTarget(t, by, d, nil)
	for i := n; i < len(w.a.writes); i++ {
		w.a.writes[i].tree = true
	}
}

// treeTargets returns the directories the program prog writes beneath.
func treeTargets(prog string, words []string) []string {
	args := words[1:]
	switch prog {
	case "rm":
		if recursiveRm(args) {
			files, _, _ := argWrites(words)
			return files
		}
	case "chmod", "chown", "chgrp":
		if hasShort(args, 'R', "recursive") {
			files, _, _ := argWrites(words)
			return files
		}
	case "cp":
		if hasShort(args, 'r', "recursive") || hasShort(args, 'R', "") || hasShort(args, 'a', "archive") {
			return copyTrees(fileWriters["cp"], args, false)
		}
	case "rsync":
		if hasShort(args, 'r', "recursive") || hasShort(args, 'a', "archive") {
			return copyTrees(fileWriters["rsync"], args, true)
		}
	case "tar", "bsdtar":
		if t := readTar(args); t.extracts {
			return []string{t.dir}
		}
	case "unzip":
		if files, _ := unzipWrites(args); len(files) > 0 {
			return files[len(files)-1:]
		}
	case "7z", "7za", "7zr":
		if _, dir, _ := sevenZip(args); dir != "" {
			return []string{dir}
		}
	case "ar":
		if ops := operandsOf(optionSpec{}, args); len(ops) > 0 && strings.ContainsRune(ops[0], 'x') {
			files, _ := arWrites(args)
			return files
		}
	}
	if _, ok := compressors[prog]; ok && hasShort(args, 'r', "recursive") {
		return operandsOf(optionSpec{}, args)
	}
	return nil
}

// copyTrees returns where a recursive copy puts each source: in its
// destination under the source's name, or the destination itself for a
// source that names its contents (src/. and, for rsync, src/) or with -T.
func copyTrees(wr writer, args []string, slashContents bool) []string {
	spec := optionSpec{short: wr.short, long: wr.long}
	ops := operandsOf(spec, args)
	var dest string
	gnuOptionValues(spec, args, func(name, val string) {
		if name == "t" || name == "target-directory" {
			dest = val
		}
	})
	if dest == "" {
		if len(ops) < 2 {
			return nil
		}
		dest, ops = ops[len(ops)-1], ops[:len(ops)-1]
	}
	if hasShort(args, 'T', "no-target-directory") {
		return []string{dest}
	}
	var out []string
	for _, s := range ops {
		name := path.Base(s)
		if slashContents && strings.HasSuffix(s, "/") {
			name = "."
		}
		out = append(out, path.Join(dest, name))
	}
	return out
}

// hasShort reports whether args hold the short option c (in a cluster of
// letters, before any --) or the long option long (exactly or by a
// prefix of three letters or more).
func hasShort(args []string, c byte, long string) bool {
	for _, a := range args {
		switch {
		case a == "--":
			return false
		case strings.HasPrefix(a, "--"):
			name, _, _ := strings.Cut(a[2:], "=")
			if long != "" && len(name) >= 3 && strings.HasPrefix(long, name) {
				return true
			}
		case len(a) > 1 && a[0] == '-' && strings.IndexByte(a[1:], c) >= 0:
			return true
		}
	}
	return false
}

// heldReason says why writing beneath the directory f writes a protected
// place, or "": one of them is at or below it.
func (p *Policy) heldReason(f pathForms) string {
	var places []string
	for _, r := range p.roots {
		for _, n := range []string{".git", ".claude", ".workbench", ".mcp.json"} {
			places = append(places, r+"/"+n)
		}
	}
	for _, list := range [][]string{p.protected, p.hookDirs, p.runLater} {
		places = append(places, list...)
	}
	for _, pl := range places {
		for _, loc := range []string{pl, resolvePath(pl)} {
			if within(loc, f.real) || within(loc, f.lit) {
				why := p.protectedReason(pathForms{given: loc, lit: loc, real: resolvePath(loc)})
				return "it holds " + loc + ", which the command may write beneath it: " + why
			}
		}
	}
	return ""
}

// protectedBases are the names of the protected places a deletion beneath
// a directory could remove (the settings files hold its deny rules).
var protectedBases = []string{".git", ".claude", ".workbench", ".mcp.json", "settings.json", "settings.local.json"}

// findSparesProtected reports whether a find's expression deletes only
// names that no protected place has: a plain conjunction (no -o, !, or
// parentheses) with a -name or -iname test no protected name matches
// (`find . -name '*.o' -delete`).
func findSparesProtected(args []string) bool {
	spares := false
	for i, a := range args {
		switch a {
		case "-o", "-or", "!", "-not", ",", "(", ")":
			return false
		case "-name", "-iname":
			if i+1 >= len(args) {
				return false
			}
			pattern, fold := args[i+1], a == "-iname"
			if fold {
				pattern = strings.ToLower(pattern)
			}
			matches := false
			for _, n := range protectedBases {
				if ok, err := path.Match(pattern, n); ok || err != nil {
					matches = true
				}
			}
			spares = spares || !matches
		}
	}
	return spares
}

// treeRules asks when an Edit or Write deny or ask rule may match a file
// written beneath a tree write's directory: `tar -xf e.tar -C src` under
// Edit(./src/keys/**) may write src/keys/k, at a name the line does not
// show. Like a write whose name is only known when the line runs, it asks
// rather than denies.
func (p *Policy) treeRules(e *evaluation) (Decision, bool) {
	for _, rules := range [][]compiledRule{p.cdeny, p.cask} {
		for i := range rules {
			r := &rules[i]
			if r.kind == specNone || !r.pathRule(e.req.Tool, AccessWrite) {
				continue
			}
			for j, f := range e.writes {
				if e.tree[j] && (r.path.mightMatchBeneath(f.real) || r.path.mightMatchBeneath(f.lit)) {
					return Decision{Behavior: Ask, Rule: r.Raw, Message: fmt.Sprintf(
						"rule %s%s may match what %s writes beneath %s, at names the line does not show, so it asks",
						r.Raw, from(r.Source), describe(e), f.given)}, true
				}
			}
		}
	}
	return Decision{}, false
}

// mightMatchBeneath reports whether the pattern could match dir or a path
// below it: a bare name matches at any depth, and a pattern whose fixed
// leading directories lie at, above or below dir may.
func (m *pathMatcher) mightMatchBeneath(dir string) bool {
	if !m.valid {
		return false
	}
	if m.component != "" {
		return true
	}
	for _, pat := range m.patterns {
		fixed := pat
		if i := strings.IndexAny(pat, `*?[{\`); i >= 0 {
			fixed = pat[:i]
			if j := strings.LastIndexByte(fixed, '/'); j >= 0 {
				fixed = fixed[:j]
			}
		}
		if fixed == "" || within(fixed, dir) || within(dir, fixed) {
			return true
		}
	}
	return false
}
