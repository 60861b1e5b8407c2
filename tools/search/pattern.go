package search

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
)

// errLineBreak reports a pattern that needs multiline mode: line-by-line
// search can never see a line break, and ripgrep refuses such patterns too.
var errLineBreak = errors.New(`the pattern matches a line break ("\n"), which line-by-line search never sees; set multiline to true`)

// matcher is a pattern compiled for the Go engine, with what the scanner
// needs to search fast.
type matcher struct {
	re *regexp.Regexp
	// filter, when not nil, holds literals that every match contains;
	// lines without them are skipped before the regexp runs.
	filter *lineFilter
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
		// Literals are only usable as a line filter when matches stay
		// within a line.
		m.filter = newLineFilter(tree.Simplify())
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
