package rewind

import (
	"bytes"
	"context"
	"fmt"
	"strings"
)

// Status says how a file differs between two checkpoints.
type Status byte

// The statuses of a Change, with git's letters.
const (
	Added       Status = 'A'
	Modified    Status = 'M'
	Deleted     Status = 'D'
	TypeChanged Status = 'T' // a file became a link, or the other way
)

// String is the status as a word, for lists a person reads.
func (s Status) String() string {
	switch s {
	case Added:
		return "added"
	case Modified:
		return "modified"
	case Deleted:
		return "deleted"
	case TypeChanged:
		return "type changed"
	}
	return string(rune(s))
}

// Change is one file that differs between two checkpoints.
type Change struct {
	// Path is relative to the work tree, with slashes.
	Path   string
	Status Status
}

// String is "M path".
func (c Change) String() string { return string(rune(c.Status)) + " " + c.Path }

// rawChange is one line of git diff-tree: modes and object ids on both
// sides.
type rawChange struct {
	srcMode, dstMode string
	srcID, dstID     string
	status           Status
	path             string
}

func (r rawChange) isTree() bool { return r.srcMode == "040000" || r.dstMode == "040000" }

// diffTrees lists what differs from one tree to another; withTrees adds
// the directories that appeared or went away.
func (s *Store) diffTrees(ctx context.Context, from, to string, withTrees bool) ([]rawChange, error) {
	if from == to {
		return nil, nil
	}
	args := []string{"diff-tree", "-r", "-z", "--no-renames", "--no-commit-id"}
	if withTrees {
		args = append(args, "-t")
	}
	out, err := s.git.run(ctx, nil, append(args, from, to)...)
	if err != nil {
		return nil, fmt.Errorf("rewind: %w", err)
	}
	return parseDiffTree(out)
}

// parseDiffTree reads `git diff-tree -z` output:
// ":srcmode dstmode srcid dstid S\0path\0" per change.
func parseDiffTree(out []byte) ([]rawChange, error) {
	var list []rawChange
	fields := bytes.Split(out, []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		head := strings.Fields(strings.TrimPrefix(string(fields[i]), ":"))
		if len(head) != 5 || head[4] == "" {
			return nil, fmt.Errorf("rewind: unexpected diff line %q", fields[i])
		}
		list = append(list, rawChange{
			srcMode: head[0], dstMode: head[1], srcID: head[2], dstID: head[3],
			status: Status(head[4][0]), path: string(fields[i+1]),
		})
	}
	return list, nil
}

// Diff lists the files that differ from checkpoint a to checkpoint b
// (by their IDs).
func (s *Store) Diff(ctx context.Context, a, b int) ([]Change, error) {
	defer s.line.enter()()
	ca, err := s.byID(a)
	if err != nil {
		return nil, err
	}
	cb, err := s.byID(b)
	if err != nil {
		return nil, err
	}
	return s.changes(ctx, ca.Tree, cb.Tree)
}

func (s *Store) changes(ctx context.Context, from, to string) ([]Change, error) {
	raw, err := s.diffTrees(ctx, from, to, false)
	if err != nil {
		return nil, err
	}
	out := make([]Change, 0, len(raw))
	for _, r := range raw {
		out = append(out, Change{Path: r.path, Status: r.status})
	}
	return out, nil
}

func (s *Store) byID(id int) (Checkpoint, error) {
	if id < 1 || id > len(s.log.all) {
		return Checkpoint{}, fmt.Errorf("rewind: no checkpoint %d (the session has %d)", id, len(s.log.all))
	}
	return s.log.all[id-1], nil
}
