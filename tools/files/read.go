package files

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/seed92b641c3/workbench/permission"
	"github.com/seed92b641c3/workbench/tools"
)

//go:embed read.md
var readPrompt string

const readSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "description": "The file to read: absolute, or relative to the working directory."},
    "offset": {"type": "integer", "minimum": 1, "default": 1, "description": "The 1-based line number to start reading at."},
    "limit": {"type": "integer", "minimum": 1, "default": 2000, "description": "The most lines to return."}
  },
  "required": ["file_path"],
  "additionalProperties": false
}`

// Tuning numbers of Read.
const (
	// maxLineRunes cuts a line that long: minified code and data lines would
	// otherwise fill a result with one line.
	maxLineRunes = 2000
	// binarySniff is how much of a file is searched for a NUL byte to tell
	// binary from text, as git and grep do.
	binarySniff = 8000
	// readBuffer is the read buffer; lines longer than it are read in
	// pieces, so memory does not grow with line length.
	readBuffer = 64 << 10
	// noticeRoom keeps room under the output cap for the continuation notice.
	noticeRoom = 256
	// defaultLimit is the window when the input gives no limit; the schema
	// states the same default.
	defaultLimit = 2000
)

type readInput struct {
	FilePath string `json:"file_path"`
	Offset   int    `json:"offset"`
	Limit    int    `json:"limit"`
}

// Read shows a text file with numbered lines, a window at a time.
func Read() tools.Tool {
	return tools.Build(tools.Spec{
		Name:            "Read",
		Description:     "Read a text file from the local filesystem, with line numbers. Reads up to 2000 lines from the start unless offset and limit say otherwise.",
		Prompt:          readPrompt,
		Schema:          readSchema,
		ReadOnly:        tools.Always,
		ConcurrencySafe: tools.Always,
		Permission:      tools.AllowSelf,
		Target: func(input json.RawMessage, tc *tools.Context) permission.Target {
			in, err := decode[readInput](input)
			if err != nil {
				return permission.Target{Access: permission.AccessRead}
			}
			return permission.Target{Paths: []string{tc.Abs(in.FilePath)}, Access: permission.AccessRead}
		},
		Run: runRead,
	})
}

func runRead(ctx context.Context, input json.RawMessage, tc *tools.Context) (tools.Result, error) {
	in, err := decode[readInput](input)
	if err != nil {
		return tools.Result{}, err
	}
	if in.Offset < 1 {
		in.Offset = 1
	}
	if in.Limit < 1 {
		in.Limit = defaultLimit
	}
	path := tc.Abs(in.FilePath)
	display := shown(tc, path)
	target, err := checkedTarget(tc, path)
	if err != nil {
		return tools.Error(fmt.Sprintf("Cannot read %s: %v", display, err)), nil
	}
	if fi, err := os.Stat(target.real); err == nil && !fi.IsDir() && !fi.Mode().IsRegular() {
		// Opening a device can have effects of its own; the descriptor is
		// checked again after the open.
		return tools.Error(fmt.Sprintf("%s is not a regular file (a device, pipe or socket); Read only reads files.", display)), nil
	}
	f, err := target.openRead()
	if errors.Is(err, fs.ErrNotExist) {
		msg := fmt.Sprintf("File does not exist: %s.", display)
		var guesses []string
		for _, g := range similarNames(path) {
			// A name a Read rule hides is not offered either.
			if ok, _ := tc.Readable(g); ok {
				guesses = append(guesses, shown(tc, g))
			}
		}
		if len(guesses) > 0 {
			msg += " Did you mean " + strings.Join(guesses, ", ") + "?"
		}
		return tools.Error(msg), nil
	}
	if err != nil {
		return tools.Error(fmt.Sprintf("Cannot read %s: %v", display, err)), nil
	}
	defer f.Close()
	// The file opened is the one checked; a deny rule on where it really
	// is still refuses (an ask was answered at the check).
	if tc.Paths != nil {
		if b, rule := tc.Paths.Readable(target.real); b == permission.Deny {
			return tools.Error(fmt.Sprintf("Cannot read %s: Read rule %s denies it.", display, rule)), nil
		}
	}
	fi, err := f.Stat()
	if err != nil {
		return tools.Error(fmt.Sprintf("Cannot read %s: %v", display, err)), nil
	}
	if fi.IsDir() {
		return tools.Error(fmt.Sprintf("%s is a directory. Use LS to list its entries or Glob to find files in it.", display)), nil
	}
	if !fi.Mode().IsRegular() {
		return tools.Error(fmt.Sprintf("%s is not a regular file (a device, pipe or socket); Read only reads files.", display)), nil
	}

	br := readers.Get().(*bufio.Reader)
	br.Reset(f)
	defer func() { br.Reset(nil); readers.Put(br) }()
	head, err := br.Peek(binarySniff)
	if err != nil && !errors.Is(err, io.EOF) {
		return tools.Error(fmt.Sprintf("Cannot read %s: %v", display, err)), nil
	}
	if len(head) == 0 {
		return tools.Text(fmt.Sprintf("(%s is an empty file)", display)), nil
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return tools.Text(fmt.Sprintf("[%s looks binary (%d bytes); its content is not shown]", display, fi.Size())), nil
	}

	p, err := readPage(ctx, br, in.Offset, in.Limit, tc.Cap()-noticeRoom)
	if err != nil {
		return tools.Result{}, fmt.Errorf("read %s: %w", display, err)
	}
	if p.shown == 0 {
		return tools.Error(fmt.Sprintf("%s has %s; offset %d is past its end.", display, plural(p.seen, "line", "lines"), in.Offset)), nil
	}
	res := tools.Result{Text: p.text}
	last := in.Offset + p.shown - 1
	switch {
	case p.capped:
		res.Text += fmt.Sprintf("\n(Read stopped at line %d to stay within the result size; call Read with offset=%d to continue.)", last, last+1)
		res.Captured = true
	case p.more:
		res.Text += fmt.Sprintf("\n(Showing lines %d-%d; the file goes on. Call Read with offset=%d for more.)", in.Offset, last, last+1)
	}
	return res, nil
}

// readers keeps Read's buffers between calls: a session reads files
// thousands of times, and a fresh 64 KiB buffer each time was most of what
// a long session allocated.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, readBuffer) }}

// page is one window of a file, formatted for the model.
type page struct {
	text   string
	shown  int  // lines in text
	seen   int  // lines read from the file in all
	more   bool // the file has lines after the window
	capped bool // the window stopped early at the byte budget
}

// readPage skips to line offset and formats up to limit lines as cat -n
// does, within budget bytes. It reads only as far as the window needs: the
// lines before it are streamed past, the lines after it are never read.
func readPage(ctx context.Context, br *bufio.Reader, offset, limit, budget int) (page, error) {
	var p page
	var b strings.Builder
	for p.shown < limit {
		if p.seen%4096 == 0 && ctx.Err() != nil {
			return p, ctx.Err()
		}
		keep := p.seen+1 >= offset
		line, cut, err := readLine(br, keep)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return p, err
		}
		p.seen++
		if !keep {
			continue
		}
		entry := formatLine(p.seen, line, cut)
		if b.Len()+len(entry) > budget {
			if p.shown == 0 {
				// Not even one line fits: show what does, so a call always
				// moves forward.
				b.WriteString(cutToRunes(entry, max(budget, 0)) + "\n")
				p.shown = 1
			}
			p.capped = true
			break
		}
		b.WriteString(entry)
		p.shown++
	}
	if !p.capped {
		_, err := br.Peek(1)
		p.more = err == nil && p.shown > 0
	} else {
		p.more = true
	}
	p.text = strings.TrimSuffix(b.String(), "\n")
	return p, nil
}

// readLine returns the next line without its line ending. When keep is
// false the line is only skipped. A line longer than maxLineRunes comes
// back cut, with cut set; the rest of it is read and dropped, so memory
// stays bounded however long the line is.
func readLine(br *bufio.Reader, keep bool) (line []byte, cut bool, err error) {
	// keepBytes holds maxLineRunes characters of any width plus a CRLF.
	const keepBytes = maxLineRunes*utf8.UTFMax + 2
	over, got := false, false
	for {
		chunk, err := br.ReadSlice('\n')
		got = got || len(chunk) > 0
		if keep && !over {
			if room := keepBytes - len(line); len(chunk) > room {
				chunk, over = chunk[:room], true
			}
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !(errors.Is(err, io.EOF) && got) {
			return nil, false, err
		}
		break
	}
	if !keep {
		return nil, false, nil
	}
	if !over {
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
	}
	// A line cut by bytes always has more than maxLineRunes characters, so
	// counting characters decides both cases.
	if utf8.RuneCount(line) <= maxLineRunes {
		return line, false, nil
	}
	i := 0
	for n := 0; n < maxLineRunes; n++ {
		_, size := utf8.DecodeRune(line[i:])
		i += size
	}
	return line[:i], true, nil
}

// formatLine numbers a line the way cat -n does.
func formatLine(n int, line []byte, cut bool) string {
	s := fmt.Sprintf("%6d\t%s", n, line)
	if cut {
		s += fmt.Sprintf(" [... line cut at %d characters]", maxLineRunes)
	}
	return s + "\n"
}

// cutToRunes shortens s to at most n bytes without splitting a character.
func cutToRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
