package search

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// errLineBreak reports a pattern that needs multiline mode: line-by-line
// search can never see a line break, and ripgrep refuses such patterns too.
var errLineBreak = errors.New(`the pattern matches a line break ("\n"), which line-by-line search never sees; set multiline to true`)

// matcher is a pattern compiled for the Go engine, with what the scanner
// needs to search fast.
type matcher struct {
	re *regexp.Regexp
	// lit, when not nil, is a string every match contains. Files and lines
	// without it are skipped before the regexp runs.
	lit *literal
	// spans is set when a match may cross line breaks (multiline mode with
	// a pattern that can match "\n"). Matches are then found over the whole
	// file and count mode counts matches rather than lines, as ripgrep does;
	// otherwise every match lies within one line.
	spans bool
}

// compile prepares a pattern with ripgrep's semantics. Without multiline the
// search is line by line: "\n" is taken out of every class, `.` never
// matches it, \A and \z mean the start and end of a line, and a pattern that
// can only match a line break is an error. ^ and $ always match at line
// boundaries.
func compile(pattern string, ignoreCase, multiline bool) (*matcher, error) {
	flags := syntax.PerlX | syntax.UnicodeGroups
	if ignoreCase {
		flags |= syntax.FoldCase
	}
	if multiline {
		flags |= syntax.DotNL | syntax.ClassNL
	}
	tree, err := syntax.Parse(pattern, flags)
	if err != nil {
		return nil, fmt.Errorf("invalid pattern: %w", err)
	}
	m := &matcher{}
	if multiline {
		m.spans = canMatchNewline(tree)
	} else if err := lineOnly(tree); err != nil {
		return nil, err
	}
	if m.re, err = regexp.Compile(tree.String()); err != nil {
		return nil, fmt.Errorf("invalid pattern: %w", err)
	}
	if !m.spans {
		// A literal is only usable as a line filter when matches stay
		// within a line.
		m.lit = requiredLiteral(tree.Simplify())
	}
	return m, nil
}

// lineOnly rewrites a parsed pattern so that it cannot match a line break,
// the way ripgrep does for line-oriented search.
func lineOnly(re *syntax.Regexp) error {
	switch re.Op {
	case syntax.OpLiteral:
		if slices.Contains(re.Rune, '\n') {
			return errLineBreak
		}
	case syntax.OpCharClass:
		re.Rune = withoutNewline(re.Rune)
		if len(re.Rune) == 0 {
			return errLineBreak
		}
	case syntax.OpAnyChar:
		re.Op = syntax.OpAnyCharNotNL
	case syntax.OpBeginText:
		re.Op = syntax.OpBeginLine
	case syntax.OpEndText:
		re.Op = syntax.OpEndLine
	}
	for _, sub := range re.Sub {
		if err := lineOnly(sub); err != nil {
			return err
		}
	}
	return nil
}

// withoutNewline removes "\n" from a class given as lo-hi pairs.
func withoutNewline(ranges []rune) []rune {
	out := make([]rune, 0, len(ranges)+2)
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if lo > '\n' || hi < '\n' {
			out = append(out, lo, hi)
			continue
		}
		if lo < '\n' {
			out = append(out, lo, '\n'-1)
		}
		if hi > '\n' {
			out = append(out, '\n'+1, hi)
		}
	}
	return out
}

// canMatchNewline reports whether any part of a pattern can match "\n". It
// may say yes for a pattern that cannot (`\n{0}`), which only costs speed.
func canMatchNewline(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		if slices.Contains(re.Rune, '\n') {
			return true
		}
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				return true
			}
		}
	case syntax.OpAnyChar:
		return true
	}
	for _, sub := range re.Sub {
		if canMatchNewline(sub) {
			return true
		}
	}
	return false
}

// literal is a string that every match contains. With fold set it is
// lower-case ASCII whose every letter matches only its two ASCII cases under
// Unicode case folding, so a byte-level comparison ignoring ASCII case is
// exact.
type literal struct {
	b    []byte
	fold bool
}

// requiredLiteral finds the longest literal that every match of a
// simplified pattern must contain, or nil.
func requiredLiteral(re *syntax.Regexp) *literal {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase == 0 {
			return &literal{b: []byte(string(re.Rune))}
		}
		return foldRun(re.Rune)
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiteral(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiteral(re.Sub[0])
		}
	case syntax.OpConcat:
		var best *literal
		for _, sub := range re.Sub {
			if l := requiredLiteral(sub); l != nil && (best == nil || len(l.b) > len(best.b)) {
				best = l
			}
		}
		return best
	}
	return nil
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
	first := l.b[0]
	other := first
	if 'a' <= first && first <= 'z' {
		other = first - 'a' + 'A'
	}
	n := len(l.b)
	// Two cursors, one per case of the first byte, each advanced with
	// IndexByte, so the scan stays linear.
	nextA, nextB := -2, -2
	for from := 0; from+n <= len(b); {
		if nextA < from && nextA != -1 {
			nextA = indexFrom(b, first, from)
		}
		if other == first {
			nextB = nextA
		} else if nextB < from && nextB != -1 {
			nextB = indexFrom(b, other, from)
		}
		i := nextA
		if i == -1 || (nextB != -1 && nextB < i) {
			i = nextB
		}
		if i == -1 || i+n > len(b) {
			return -1
		}
		if equalFoldASCII(b[i:i+n], l.b) {
			return i
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
