package askuser

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// FileAnswers answers questions from a JSON file written before the run, so
// a headless session (--answers FILE) can take a path that needs a person's
// choice without one being there:
//
//	{"answers": [{"question": "database", "select": ["Postgres"], "other": "use v16"}]}
//
// A question is matched by its text: an entry equal to it first, otherwise
// the longest entry contained in it, ignoring case; entries tie in file
// order. A label matches an option exactly or, failing that, ignoring case.
// A FileAnswers never changes after LoadAnswers, so it is safe for
// concurrent use and an entry can answer any number of questions.
type FileAnswers struct {
	path    string
	entries []fileEntry
}

type fileEntry struct {
	Question string   `json:"question"`
	Select   []string `json:"select"`
	Other    string   `json:"other"`
}

type answersDoc struct {
	Answers []fileEntry `json:"answers"`
}

// LoadAnswers reads and checks an answers file. Its errors name the file
// and, for bad JSON, the line and column, because the person fixing it has
// only the message to go on.
func LoadAnswers(path string) (*FileAnswers, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("answers file: %w", err)
	}
	doc, err := parseAnswers(data)
	if err != nil {
		return nil, fmt.Errorf("answers file %s: %w", path, err)
	}
	for i, e := range doc.Answers {
		if err := e.check(); err != nil {
			return nil, fmt.Errorf("answers file %s: answers[%d]: %w", path, i, err)
		}
	}
	return &FileAnswers{path: path, entries: doc.Answers}, nil
}

func parseAnswers(data []byte) (answersDoc, error) {
	var doc answersDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.Is(err, io.EOF):
			return doc, errors.New(`the file is empty; it must hold {"answers": [...]}`)
		case errors.As(err, &syn):
			return doc, fmt.Errorf("%s: %v", position(data, syn.Offset-1), syn) // Offset is just past the bad byte
		case errors.As(err, &typ):
			return doc, fmt.Errorf("%s: %s must be %s, not %s", position(data, typ.Offset), fieldName(typ.Field), typ.Type, typ.Value)
		case errors.Is(err, io.ErrUnexpectedEOF):
			return doc, errors.New("the JSON ends too soon (an unclosed bracket or string?)")
		}
		// What is left is an unknown field: say which ones there are.
		return doc, fmt.Errorf(`%w (the file holds {"answers": [...]} and each answer has only "question", "select" and "other")`, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return doc, fmt.Errorf("%s: unexpected data after the JSON object", position(data, dec.InputOffset()))
	}
	if len(doc.Answers) == 0 {
		return doc, errors.New(`it has no answers; write {"answers": [{"question": "...", "select": ["..."]}]}`)
	}
	return doc, nil
}

func (e fileEntry) check() error {
	if strings.TrimSpace(e.Question) == "" {
		return errors.New(`"question" is empty; it must hold the question's text or a part of it`)
	}
	if len(e.Select) == 0 && strings.TrimSpace(e.Other) == "" {
		return fmt.Errorf(`the answer to %q has neither "select" labels nor "other" text`, e.Question)
	}
	for k, l := range e.Select {
		if strings.TrimSpace(l) == "" {
			return fmt.Errorf("select[%d] is empty", k)
		}
	}
	return nil
}

// position turns a byte offset into the line:column an editor shows.
func position(data []byte, off int64) string {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

func fieldName(f string) string {
	if f == "" {
		return "the document"
	}
	return fmt.Sprintf("%q", f)
}

// Ask answers every question from the file, or fails naming each question
// the file does not answer; a partly answered set is never returned, since
// the model would act on a guess for the rest.
func (f *FileAnswers) Ask(ctx context.Context, qs []Question) ([]Answer, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]Answer, len(qs))
	var problems []string
	for i, q := range qs {
		e, ok := f.match(q.Question)
		if !ok {
			problems = append(problems, fmt.Sprintf("no answer for the question %q", q.Question))
			continue
		}
		a, err := e.answer(q)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		out[i] = a
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("answers file %s: %s", f.path, strings.Join(problems, "; "))
	}
	return out, nil
}

// match finds the entry for a question text: an exact match first, then
// the longest entry found in the text ignoring case, since a longer entry
// names the question more precisely.
func (f *FileAnswers) match(question string) (fileEntry, bool) {
	q := strings.TrimSpace(question)
	for _, e := range f.entries {
		if strings.TrimSpace(e.Question) == q {
			return e, true
		}
	}
	lq := strings.ToLower(q)
	best, found := fileEntry{}, false
	for _, e := range f.entries {
		key := strings.ToLower(strings.TrimSpace(e.Question))
		if strings.Contains(lq, key) && (!found || len(key) > len(strings.TrimSpace(best.Question))) {
			best, found = e, true
		}
	}
	return best, found
}

// answer turns an entry into an Answer to q: its labels become the options'
// own labels, in the options' order, and any label q does not offer is an
// error, so a stale answers file fails loudly instead of answering wrong.
func (e fileEntry) answer(q Question) (Answer, error) {
	var picked []int
	for _, l := range e.Select {
		k := optionIndex(q.Options, l)
		if k < 0 {
			labels := make([]string, len(q.Options))
			for j, o := range q.Options {
				labels[j] = o.Label
			}
			return Answer{}, fmt.Errorf("the answer to %q selects %q, which is not one of its options (%s)",
				q.Question, l, strings.Join(labels, ", "))
		}
		if !slices.Contains(picked, k) {
			picked = append(picked, k)
		}
	}
	if len(picked) > 1 && !q.MultiSelect {
		return Answer{}, fmt.Errorf("the answer to %q selects %d options, but the question takes one", q.Question, len(picked))
	}
	slices.Sort(picked)
	a := Answer{Question: q.Question, Other: strings.TrimSpace(e.Other)}
	for _, k := range picked {
		a.Selected = append(a.Selected, q.Options[k].Label)
	}
	return a, nil
}

func optionIndex(opts []Option, label string) int {
	label = strings.TrimSpace(label)
	for i, o := range opts {
		if o.Label == label {
			return i
		}
	}
	for i, o := range opts {
		if strings.EqualFold(strings.TrimSpace(o.Label), label) {
			return i
		}
	}
	return -1
}
