package memory

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Relevance weights. A word in a memory's name says most about what it is
// for, its description next, and its body least, as a body mentions many
// things in passing.
const (
	nameWeight        = 3
	descriptionWeight = 2
	bodyWeight        = 1
	// wholeMatch and prefixMatch scale a weight: a word that matches as
	// written or by stem counts fully, one that only shares a beginning
	// ("config" and "configuration") half, so the closer spelling wins.
	wholeMatch  = 2
	prefixMatch = 1
	// minPrefix is the shortest stem that matches by prefix; shorter ones
	// ("go", "ui") would match too much.
	minPrefix = 3
	// DefaultLimit is how many memories a recall returns when not told: a
	// few relevant notes help, a pile of marginal ones distracts.
	DefaultLimit = 5
)

// stopWords are words too common to say anything about relevance.
var stopWords = map[string]bool{}

func init() {
	for w := range strings.FieldsSeq(`a an and are as at be been but by can could did do does
		for from had has have how i if in into is it its me my no not of on or our should so
		than that the their them then there these they this those to us was we were what when
		where which who why will with would you your about any all also just more some`) {
		stopWords[w] = true
	}
}

// rank scores every memory against query and returns up to limit with a
// score above zero, best first; equal scores go to the newer memory, then
// by name so the order is stable.
func rank(mems []Memory, query string, limit int) []Memory {
	if limit <= 0 {
		limit = DefaultLimit
	}
	q := uniq(terms(query))
	if len(q) == 0 {
		return nil
	}
	type scored struct {
		m     Memory
		score int
	}
	var hits []scored
	for _, m := range mems {
		fields := []struct {
			words  map[string]bool
			weight int
		}{
			{set(terms(m.Name)), nameWeight},
			{set(terms(m.Description)), descriptionWeight},
			{set(terms(m.Body)), bodyWeight},
		}
		score := 0
		for _, t := range q {
			for _, f := range fields {
				score += f.weight * match(t, f.words)
			}
		}
		if score > 0 {
			hits = append(hits, scored{m, score})
		}
	}
	slices.SortStableFunc(hits, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		if c := b.m.Modified.Compare(a.m.Modified); c != 0 {
			return c
		}
		return strings.Compare(a.m.Name, b.m.Name)
	})
	out := make([]Memory, 0, min(limit, len(hits)))
	for _, h := range hits[:min(limit, len(hits))] {
		out = append(out, h.m)
	}
	return out
}

// match says how well term t matches a field's words: wholeMatch when a
// word has the same stem, prefixMatch when one stem starts the other.
func match(t string, words map[string]bool) int {
	if words[t] {
		return wholeMatch
	}
	if utf8.RuneCountInString(t) < minPrefix {
		return 0
	}
	for w := range words {
		if utf8.RuneCountInString(w) >= minPrefix && (strings.HasPrefix(w, t) || strings.HasPrefix(t, w)) {
			return prefixMatch
		}
	}
	return 0
}

// terms splits text into lower-case stemmed words, without stop words and
// single characters.
func terms(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if utf8.RuneCountInString(w) < 2 || stopWords[w] {
			continue
		}
		out = append(out, stem(w))
	}
	return out
}

// stem strips the common English endings, so "tests", "testing" and
// "tested" all become "test". It is deliberately crude: it only has to make
// the same word meet itself, and a stem that is not a real word is fine.
func stem(w string) string {
	if len(w) < 4 {
		return w
	}
	base := w
	switch {
	case strings.HasSuffix(w, "ies"):
		base = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ing"):
		base = verb(w[:len(w)-3])
	case strings.HasSuffix(w, "ed"):
		base = verb(w[:len(w)-2])
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zes"),
		strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		base = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		base = w[:len(w)-1]
	}
	// A final e goes too, so "use" meets "using" and "make" meets "making".
	if len(base) > 3 && strings.HasSuffix(base, "e") {
		base = base[:len(base)-1]
	}
	if len(base) < 3 {
		return w
	}
	return base
}

// verb repairs what is left of a word once -ing or -ed is cut: a doubled
// final consonant goes ("running" to "run", but not "calling"), and a stem
// too short to be a word gets its e back ("using" to "use").
func verb(s string) string {
	n := len(s)
	if n >= 3 && s[n-1] == s[n-2] && !strings.ContainsRune("aeiouylsz", rune(s[n-1])) {
		return s[:n-1]
	}
	if n < 3 {
		return s + "e"
	}
	return s
}

func set(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

func uniq(words []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range words {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}
