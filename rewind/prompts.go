package rewind

import (
	"context"
	"time"
)

// Prompt is one prompt of the person as a rewind offers it: when it ran,
// what it said, and the files that changed while it ran.
type Prompt struct {
	N     int
	Time  time.Time
	Label string
	// Checkpoint is the state before the prompt, where a rewind to it
	// goes back to.
	Checkpoint Checkpoint
	// Files changed from the prompt's start to its end (or, for a run cut
	// off before its end, to the next checkpoint).
	Files []Change
}

// Prompts lists the session's prompts, first to last.
func (s *Store) Prompts(ctx context.Context) ([]Prompt, error) {
	defer s.line.enter()()
	all := s.log.all
	var out []Prompt
	for i, c := range all {
		if c.Kind != KindPrompt {
			continue
		}
		end := c
		for j := i + 1; j < len(all); j++ {
			n := all[j]
			if n.Kind == KindEnd && n.Prompt == c.Prompt {
				end = n
				break
			}
			if n.Kind == KindPrompt || n.Kind == KindRestore {
				// Cut off before its end: the next state shows what it did.
				end = n
				break
			}
			end = n
		}
		files, err := s.changes(ctx, c.Tree, end.Tree)
		if err != nil {
			return nil, err
		}
		out = append(out, Prompt{N: c.Prompt, Time: c.Time, Label: c.Label, Checkpoint: c, Files: files})
	}
	return out, nil
}
