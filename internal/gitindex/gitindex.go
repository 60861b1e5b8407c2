// Package gitindex reads what Workbench needs from a git index file, in Go:
// which entries are gitlinks (submodules and other nested repositories),
// whose config git would run when it asks them for their status.
package gitindex

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"slices"
	"strings"
)

// gitlinkMode is the mode bits of a gitlink in an index entry.
const gitlinkMode = 0o160000

// ErrFormat is an index this reader does not understand: the caller asks
// git instead (git ls-files --stage), which always can.
var ErrFormat = errors.New("unknown index format")

// indexGitlinks reads a git index file (versions 2 to 4, SHA-1) and
// returns the paths of its gitlinks. A missing index has none.
func Gitlinks(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if len(data) < 12 || string(data[:4]) != "DIRC" {
		return nil, ErrFormat
	}
	version := binary.BigEndian.Uint32(data[4:8])
	count := binary.BigEndian.Uint32(data[8:12])
	if version < 2 || version > 4 {
		return nil, ErrFormat
	}
	const fixed = 40 + 20 + 2 // stat data, object id, flags
	var links []string
	var prev []byte
	at := 12
	for range count {
		start := at
		if at+fixed > len(data) {
			return nil, ErrFormat
		}
		mode := binary.BigEndian.Uint32(data[at+24 : at+28])
		flags := binary.BigEndian.Uint16(data[at+60 : at+62])
		at += fixed
		if flags&0x4000 != 0 { // extended flags
			if version < 3 || at+2 > len(data) {
				return nil, ErrFormat
			}
			at += 2
		}
		var name []byte
		if version == 4 {
			strip, n := binary.Uvarint(data[at:])
			if n <= 0 || strip > uint64(len(prev)) {
				return nil, ErrFormat
			}
			at += n
			end := bytes.IndexByte(data[at:], 0)
			if end < 0 {
				return nil, ErrFormat
			}
			name = append(slices.Clone(prev[:len(prev)-int(strip)]), data[at:at+end]...)
			at += end + 1
			prev = name
		} else {
			end := bytes.IndexByte(data[at:], 0)
			if end < 0 {
				return nil, ErrFormat
			}
			name = data[at : at+end]
			// One to eight NULs pad the entry to a multiple of eight.
			at = start + (at-start+end+8)&^7
			if at > len(data) {
				return nil, ErrFormat
			}
		}
		if mode&0o170000 == gitlinkMode {
			links = append(links, string(name))
		}
	}
	return links, nil
}

// ParseLsFiles picks the gitlinks out of `git ls-files -z --stage`, the
// fallback for an index Gitlinks cannot read.
func ParseLsFiles(out []byte) []string {
	var links []string
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, path, ok := strings.Cut(string(rec), "\t")
		if ok && strings.HasPrefix(meta, "160000 ") {
			links = append(links, path)
		}
	}
	return links
}
