package viewer

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/seed92b641c3/workbench/agent"
	"github.com/seed92b641c3/workbench/tools"
)

// hashState is how far the check of a file against its record has got.
type hashState int

const (
	hashNoRecord hashState = iota // the session has no record of the file
	hashNoDigest                  // the record holds no sha256
	hashChecking                  // hashing in chunks
	hashMatch                     // the file is what was recorded
	hashMismatch                  // the file changed since it was written
	hashFailed                    // the file could not be read to the end
)

// provenance is what the session recorded about a file, and the check of
// the file against that record (H8): a spill file is evidence, so the viewer
// says plainly when it no longer matches.
type provenance struct {
	rec   *tools.Spill
	note  string // why there is no record, when looking it up failed
	state hashState
	sum   hash.Hash
	done  int64 // bytes hashed
	total int64 // the size being hashed
	err   error
}

// recordFor finds the provenance of path: opts.Spill when the viewer was
// opened from a tool result, otherwise the last spill entry for the same
// file in the session's transcript.
func recordFor(path string, opts Options) provenance {
	if opts.Spill != nil {
		rec := *opts.Spill
		return provenance{rec: &rec}
	}
	if opts.TranscriptPath == "" {
		return provenance{}
	}
	rec, err := findSpill(opts.TranscriptPath, path)
	if err != nil {
		return provenance{note: "the transcript could not be read: " + err.Error()}
	}
	return provenance{rec: rec}
}

// maxEntry is the longest transcript line looked at. Spill entries are a few
// hundred bytes; longer lines (messages with big tool results) are skipped
// without being held, so the lookup's memory stays small however big the
// transcript is.
const maxEntry = 64 << 10

// spillMarker is cheap to look for before decoding a line as JSON.
var spillMarker = []byte(`"type":"` + agent.EntrySpill + `"`)

// findSpill streams the transcript at tpath for the last spill entry whose
// file is path. A transcript cut short by a crash still gives the entries
// before the cut.
func findSpill(tpath, path string) (*tools.Spill, error) {
	f, err := os.Open(tpath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	want, _ := filepath.Abs(path)
	br := bufio.NewReaderSize(f, maxEntry)
	var found *tools.Spill
	for {
		line, err := br.ReadSlice('\n')
		for errors.Is(err, bufio.ErrBufferFull) {
			line = nil
			_, err = br.ReadSlice('\n')
		}
		if bytes.Contains(line, spillMarker) {
			var e agent.Entry
			var s tools.Spill
			if json.Unmarshal(line, &e) == nil && e.Type == agent.EntrySpill &&
				json.Unmarshal(e.Data, &s) == nil && samePath(s.Path, want) {
				found = &s
			}
		}
		if errors.Is(err, io.EOF) {
			return found, nil
		}
		if err != nil {
			return found, err
		}
	}
}

// samePath reports whether a recorded path names the file at want (an
// absolute path): by name, or by identity when the names differ only
// through symbolic links (a temp dir under /var and /private/var).
func samePath(recorded, want string) bool {
	if recorded == "" {
		return false
	}
	if filepath.Clean(recorded) == want {
		return true
	}
	if filepath.Base(recorded) != filepath.Base(want) {
		return false
	}
	a, err1 := os.Stat(recorded)
	b, err2 := os.Stat(want)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// start begins (or restarts) the check for a file of the given size. A size
// other than the recorded one is a mismatch at once, without hashing.
func (p *provenance) start(size int64) {
	p.sum, p.done, p.total, p.err = nil, 0, size, nil
	switch {
	case p.rec == nil:
		p.state = hashNoRecord
	case p.rec.SHA256 == "":
		p.state = hashNoDigest
	case size != p.rec.Bytes:
		p.state = hashMismatch
	default:
		p.state = hashChecking
		p.sum = sha256.New()
	}
}

// hashChunk hashes the next chunk of f, using buf.
func (p *provenance) hashChunk(f io.ReaderAt, buf []byte) {
	n := min(int64(len(buf)), p.total-p.done)
	got, err := f.ReadAt(buf[:n], p.done)
	p.sum.Write(buf[:got])
	p.done += int64(got)
	switch {
	case int64(got) < n && (err == nil || errors.Is(err, io.EOF)):
		p.state = hashMismatch // the file shrank while being read
	case err != nil && !errors.Is(err, io.EOF):
		p.state, p.err = hashFailed, err
	case p.done == p.total:
		if strings.EqualFold(hex.EncodeToString(p.sum.Sum(nil)), p.rec.SHA256) {
			p.state = hashMatch
		} else {
			p.state = hashMismatch
		}
	}
	if p.state != hashChecking {
		p.sum = nil
	}
}

// verdict is the check's result in words, and whether it is bad news.
func (p *provenance) verdict() (string, bool) {
	switch p.state {
	case hashNoRecord:
		if p.note != "" {
			return "no record in this session (" + p.note + ")", false
		}
		return "no record in this session", false
	case hashNoDigest:
		return "the record holds no sha256", true
	case hashChecking:
		pct := 0
		if p.total > 0 {
			pct = int(p.done * 100 / p.total)
		}
		return fmt.Sprintf("checking sha256… %d%%", pct), false
	case hashMatch:
		return "sha256 matches", false
	case hashMismatch:
		return "sha256 DOES NOT MATCH the record (file changed since it was written)", true
	default:
		return "sha256 could not be checked: " + p.err.Error(), true
	}
}
