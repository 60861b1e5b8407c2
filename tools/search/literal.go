package search

import (
	"bytes"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxNeedles bounds the literals of an alternation that a prefilter tracks;
// past it, checking every literal costs more than the regexp.
const maxNeedles = 12

// literal is a string that a match contains. With fold set it is lower-case
// ASCII whose every letter matches only its two ASCII cases under Unicode
// case folding, so comparing bytes while ignoring ASCII case is exact.
type literal struct {
	b    []byte
	fold bool
}

// prefilter is a set of literals one of which every match contains (one
// literal for most patterns, one per branch for an alternation).
type prefilter []*literal

// lineFilter is what a pattern needs of a line, taken from its literals:
// scan finds candidate lines and each set in also must occur in a candidate
// too before the regexp runs on it.
type lineFilter struct {
	scan prefilter
	also []prefilter
}

// maxAlso bounds the extra sets checked per candidate line.
const maxAlso = 3

// newLineFilter builds the filter of a simplified pattern, or nil when no
// literal is required.
func newLineFilter(re *syntax.Regexp) *lineFilter {
	sets := requiredSets(re)
	if len(sets) == 0 {
		return nil
	}
	slices.SortStableFunc(sets, func(a, b prefilter) int {
		switch {
		case a.better(b):
			return -1
		case b.better(a):
			return 1
		}
		return 0
	})
	return &lineFilter{scan: sets[0], also: sets[1:min(len(sets), 1+maxAlso)]}
}

// accepts reports whether a candidate line holds every other required set.
func (f *lineFilter) accepts(line []byte) bool {
	for _, set := range f.also {
		found := false
		for _, l := range set {
			if l.index(line) >= 0 {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// requiredSets lists literal sets that every match must contain, each set
// satisfied by any one of its literals.
func requiredSets(re *syntax.Regexp) []prefilter {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase == 0 {
			return []prefilter{{{b: []byte(string(re.Rune))}}}
		}
		if l := foldRun(re.Rune); l != nil {
			return []prefilter{{l}}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return requiredSets(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredSets(re.Sub[0])
		}
	case syntax.OpConcat:
		var all []prefilter
		for _, sub := range re.Sub {
			all = append(all, requiredSets(sub)...)
		}
		return all
	case syntax.OpAlternate:
		// Each branch contributes its best set; the union is required.
		var union prefilter
		for _, sub := range re.Sub {
			var best prefilter
			for _, set := range requiredSets(sub) {
				if best == nil || set.better(best) {
					best = set
				}
			}
			if best == nil || len(union)+len(best) > maxNeedles {
				return nil
			}
			union = append(union, best...)
		}
		return []prefilter{union}
	}
	return nil
}

// better prefers the set whose weakest literal is longer, then rarer, then
// the set with fewer literals.
func (p prefilter) better(q prefilter) bool {
	if a, b := p.shortest(), q.shortest(); a != b {
		return a > b
	}
	if a, b := p.rarity(), q.rarity(); a != b {
		return a > b
	}
	return len(p) < len(q)
}

func (p prefilter) shortest() int {
	n := -1
	for _, l := range p {
		if n < 0 || len(l.b) < n {
			n = len(l.b)
		}
	}
	return n
}

// rarity scores the weakest literal of the set by its rarest byte.
func (p prefilter) rarity() int {
	r := -1
	for _, l := range p {
		best := 0
		for _, c := range l.b {
			best = max(best, byteRarity(c))
		}
		if r < 0 || best < r {
			r = best
		}
	}
	return r
}

// commonBytes lists the bytes most frequent in source code and prose, most
// frequent first; a byte not listed counts as rare.
const commonBytes = " etaoinsrlcd\nu\tmph_.(),fg\"=;bvy/:*w-xk0{}1'>[]<T#S2E&!AjRCzq"

func byteRarity(c byte) int {
	if c >= 'A' && c <= 'Z' {
		// Lower-case letters are listed; capitals are rarer but not rare.
		if i := strings.IndexByte(commonBytes, c+'a'-'A'); i >= 0 {
			return len(commonBytes) + i
		}
	}
	if i := strings.IndexByte(commonBytes, c); i >= 0 {
		return i
	}
	return 2 * len(commonBytes)
}

// find returns the first position at or after from where one of the
// literals starts, or -1. next caches, per literal, its next position in buf
// (-2: not looked for yet, -1: none left), so a literal far ahead is not
// searched for again at every candidate another literal yields.
func (p prefilter) find(buf []byte, from int, next []int) int {
	best := -1
	for i, l := range p {
		if next[i] == -1 {
			continue
		}
		if next[i] < from {
			j := l.index(buf[from:])
			if j < 0 {
				next[i] = -1
				continue
			}
			next[i] = from + j
		}
		if best < 0 || next[i] < best {
			best = next[i]
		}
	}
	return best
}

// foldRun picks the longest run of a case-folded literal whose runes fold
// only within ASCII (not k or s, which have non-ASCII partners).
func foldRun(rs []rune) *literal {
	var best, cur []byte
	for _, r := range rs {
		if !asciiFoldOnly(r) {
			cur = nil
			continue
		}
		cur = append(cur, byte(unicode.ToLower(r)))
		if len(cur) > len(best) {
			best = append(best[:0], cur...)
		}
	}
	if len(best) == 0 {
		return nil
	}
	return &literal{b: best, fold: true}
}

func asciiFoldOnly(r rune) bool {
	if r >= utf8.RuneSelf {
		return false
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// index returns the first position of the literal in b, or -1.
func (l *literal) index(b []byte) int {
	if !l.fold {
		return bytes.Index(b, l.b)
	}
	// Look for the rarest byte of the literal in both its cases, each with
	// its own IndexByte cursor so the scan stays linear, and compare the
	// whole literal around each hit.
	k := 0
	for i, c := range l.b {
		if byteRarity(c) > byteRarity(l.b[k]) {
			k = i
		}
	}
	lower, upper := l.b[k], l.b[k]
	if 'a' <= lower && lower <= 'z' {
		upper = lower - 'a' + 'A'
	}
	n := len(l.b)
	nextL, nextU := -2, -2
	for from := k; from+n-k <= len(b); {
		if nextL < from && nextL != -1 {
			nextL = indexFrom(b, lower, from)
		}
		if upper == lower {
			nextU = nextL
		} else if nextU < from && nextU != -1 {
			nextU = indexFrom(b, upper, from)
		}
		i := nextL
		if i == -1 || (nextU != -1 && nextU < i) {
			i = nextU
		}
		if i == -1 || i-k+n > len(b) {
			return -1
		}
		if equalFoldASCII(b[i-k:i-k+n], l.b) {
			return i - k
		}
		from = i + 1
	}
	return -1
}

func indexFrom(b []byte, c byte, from int) int {
	i := bytes.IndexByte(b[from:], c)
	if i < 0 {
		return -1
	}
	return from + i
}

// equalFoldASCII compares s with the lower-case ASCII lit, ignoring ASCII case.
func equalFoldASCII(s, lit []byte) bool {
	for i, c := range s {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lit[i] {
			return false
		}
	}
	return true
}
