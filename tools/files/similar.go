package files

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// maxSuggestions bounds the names offered for a missing file: a few good
// guesses help, a long list is noise.
const maxSuggestions = 3

// similarNames lists entries of path's directory whose names look like a
// mistyped version of path's name: the same name in another case, the same
// stem with another extension, or a name a couple of keystrokes away. The
// names come back as full paths in the form path was given, best first.
func similarNames(path string) []string {
	dir, want := filepath.Split(path)
	entries, err := os.ReadDir(filepath.Clean(dir))
	if err != nil {
		return nil
	}
	lw := strings.ToLower(want)
	stem := strings.TrimSuffix(lw, filepath.Ext(lw))
	// Short names allow fewer typos, or every short name would look alike.
	typos := 1
	switch {
	case len(lw) >= 12:
		typos = 3
	case len(lw) >= 5:
		typos = 2
	}
	type guess struct {
		name  string
		score int
	}
	var guesses []guess
	for _, e := range entries {
		name := e.Name()
		ln := strings.ToLower(name)
		score := -1
		switch {
		case ln == lw:
			score = 0
		case stem != "" && strings.TrimSuffix(ln, filepath.Ext(ln)) == stem:
			score = 1
		default:
			if d := distance(lw, ln, typos); d <= typos {
				score = 1 + d
			}
		}
		if score >= 0 {
			guesses = append(guesses, guess{name, score})
		}
	}
	sort.Slice(guesses, func(i, j int) bool {
		if guesses[i].score != guesses[j].score {
			return guesses[i].score < guesses[j].score
		}
		return guesses[i].name < guesses[j].name
	})
	var out []string
	for _, g := range guesses[:min(len(guesses), maxSuggestions)] {
		out = append(out, filepath.Join(dir, g.name))
	}
	return out
}

// distance is the Levenshtein distance between a and b, or limit+1 once it
// is known to exceed limit.
func distance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
