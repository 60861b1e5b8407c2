package agent

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"
)

// Entry kinds in a transcript.
const (
	EntrySession = "session"      // the session's start: id, cwd, version
	EntryStage   = "stage"        // one StageEvent (H7)
	EntrySpill   = "spill"        // a spill file's provenance and digest (H8)
	EntryGrant   = "grant"        // a rule allowed for the session
	EntryHook    = "hook"         // one hook's verdict (H7)
	EntryMessage = "message"      // a conversation message, in order
	EntryUnlock  = "unlock"       // deferred tools unlocked (H10)
	EntryOutcome = "outcome"      // how a run ended
	EntryClear   = "clear"        // the person cleared the conversation
	EntryEnd     = "end"          // the session closed
	EntryNotice  = "notification" // background work news given to the model
	EntryNonce   = "nonce"        // the nonce that marks the session's own notices
	// EntryCompact is a compaction: the summary, what it replaced and the
	// sizes before and after. The messages it replaced stay in the
	// transcript above it; resume rebuilds the compacted history from it.
	EntryCompact = "compact"
)

// Entry is one line of a transcript.
type Entry struct {
	Seq  int64           `json:"seq"`
	Type string          `json:"type"`
	Time time.Time       `json:"time"`
	Data json.RawMessage `json:"data"`
}

// Transcript is a session's append-only JSONL record. Appends are buffered;
// Sync flushes and fsyncs, and is called at turn boundaries and on exit, so a
// crash loses at most the current turn and never corrupts earlier lines.
type Transcript struct {
	mu   sync.Mutex
	f    *os.File
	w    *bufio.Writer
	seq  int64
	path string
	line []byte // reused buffer for one entry
	data []byte // reused buffer for an entry's data
}

// OpenTranscript opens (or creates, mode 0600) a transcript for appending.
// A last entry cut short by a crash is cut off first: appended to, it would
// turn into a broken line in the middle that no later read gets past.
func OpenTranscript(path string) (*Transcript, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening transcript: %w", err)
	}
	if err := dropPartialEntry(path); err != nil {
		f.Close()
		return nil, fmt.Errorf("opening transcript: %w", err)
	}
	return &Transcript{f: f, w: bufio.NewWriterSize(f, 64<<10), path: path}, nil
}

// dropPartialEntry truncates a transcript that does not end in a newline
// to its last whole entry.
func dropPartialEntry(path string) error {
	r, err := os.Open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	st, err := r.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	last := make([]byte, 1)
	if _, err := r.ReadAt(last, st.Size()-1); err != nil || last[0] == '\n' {
		return err
	}
	// Read back in blocks to the last newline.
	const block = 64 << 10
	for end := st.Size(); end > 0; {
		start := max(end-block, 0)
		buf := make([]byte, end-start)
		if _, err := r.ReadAt(buf, start); err != nil {
			return err
		}
		if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			return os.Truncate(path, start+int64(i)+1)
		}
		end = start
	}
	return os.Truncate(path, 0)
}

// Path is where the transcript lives, for hooks (transcript_path).
func (t *Transcript) Path() string { return t.path }

// Append records one entry.
func (t *Transcript) Append(kind string, v any) error {
	var data []byte
	now := time.Now().UTC()
	t.mu.Lock()
	defer t.mu.Unlock()
	if a, ok := v.(jsonAppender); ok {
		t.data = a.AppendJSON(t.data[:0])
		data = t.data
	} else {
		var err error
		if data, err = json.Marshal(v); err != nil {
			return err
		}
	}
	t.seq++
	// The envelope is written by hand: marshalling it would copy and
	// re-validate data, which is already JSON, for every entry.
	b := t.line[:0]
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, t.seq, 10)
	b = append(b, `,"type":`...)
	b = strconv.AppendQuote(b, kind)
	b = append(b, `,"time":"`...)
	b = now.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","data":`...)
	b = append(b, data...)
	b = append(b, "}\n"...)
	t.line = b
	_, err := t.w.Write(b)
	return err
}

// Flush hands appended entries to the operating system, which keeps them if
// the process dies (kill -9); Sync also survives a machine crash.
func (t *Transcript) Flush() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.w.Flush()
}

// Sync makes every appended entry durable.
func (t *Transcript) Sync() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.w.Flush(); err != nil {
		return err
	}
	return t.f.Sync()
}

// Close syncs and closes the transcript.
func (t *Transcript) Close() error {
	err := t.Sync()
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ErrTruncated reports that a transcript ended in a partial line, as after a
// crash mid-write; the entries before it were loaded.
var ErrTruncated = errors.New("transcript ends in a partial entry (the session was interrupted); loaded up to the last whole entry")

// ReadTranscript loads every whole entry. A last line cut short by a crash is
// dropped and reported with ErrTruncated alongside the entries.
func ReadTranscript(r io.Reader) ([]Entry, error) {
	br := bufio.NewReaderSize(r, 256<<10)
	var out []Entry
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			if line[len(line)-1] != '\n' {
				// A last line without its newline was cut by a crash.
				return out, ErrTruncated
			}
			var e Entry
			if jerr := json.Unmarshal(bytes.TrimSpace(line), &e); jerr != nil {
				return out, fmt.Errorf("transcript entry %d is not valid JSON: %v", len(out)+1, jerr)
			}
			out = append(out, e)
		}
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}
