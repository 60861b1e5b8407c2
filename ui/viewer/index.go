package viewer

import (
	"bytes"
	"errors"
	"io"
)

// indexStride is the distance between entries of the line index. Turning a
// line number into an offset, or an offset into a line number, reads at most
// this much of the file, and 1 GiB costs 16,384 entries (128 KiB) whatever
// its lines look like: an index by line count would grow with the number of
// lines and scan without bound inside a very long line.
const indexStride = 64 << 10

// lineIndex is a sparse index of newlines, built front to back in chunks by
// Step. It is a byte-stride index: counts[i] is the number of newlines in
// the first i*indexStride bytes.
type lineIndex struct {
	counts  []int64
	tail    int64 // newlines counted after the last whole stride
	scanned int64 // bytes counted so far
}

func newLineIndex() lineIndex { return lineIndex{counts: []int64{0}} }

// add counts p, the bytes that follow the ones counted so far.
func (x *lineIndex) add(p []byte) {
	for len(p) > 0 {
		strideEnd := int64(len(x.counts)) * indexStride
		n := min(int64(len(p)), strideEnd-x.scanned)
		x.tail += int64(bytes.Count(p[:n], newline))
		x.scanned += n
		p = p[n:]
		if x.scanned == strideEnd {
			x.counts = append(x.counts, x.counts[len(x.counts)-1]+x.tail)
			x.tail = 0
		}
	}
}

var newline = []byte{'\n'}

// newlines is how many newlines the counted bytes hold.
func (x *lineIndex) newlines() int64 { return x.counts[len(x.counts)-1] + x.tail }

// before returns the stride that holds off and the newlines before it, for
// an off no further than what was counted.
func (x *lineIndex) before(off int64) (strideStart, nls int64) {
	i := min(off/indexStride, int64(len(x.counts)-1))
	return i * indexStride, x.counts[i]
}

// find returns the start of the stride that holds the n-th newline (n >= 1)
// and the newlines before that stride; ok is false when fewer than n
// newlines have been counted.
func (x *lineIndex) find(n int64) (strideStart, nls int64, ok bool) {
	if n > x.newlines() {
		return 0, 0, false
	}
	// The last i with counts[i] < n: the n-th newline lies in stride i.
	lo, hi := 0, len(x.counts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if x.counts[mid] < n {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return int64(lo) * indexStride, x.counts[lo], true
}

func countNL(b []byte) int { return bytes.Count(b, newline) }

func indexNL(b []byte) int { return bytes.IndexByte(b, '\n') }

// indexing reports whether the line count has not reached the end yet.
func (v *Viewer) indexing() bool { return v.idxErr == nil && v.idx.scanned < v.size }

// indexChunk counts the newlines of the next chunk.
func (v *Viewer) indexChunk() {
	n := min(chunkSize, v.size-v.idx.scanned)
	buf := v.scratch[:n]
	got, err := v.f.ReadAt(buf, v.idx.scanned)
	v.idx.add(buf[:got])
	if got > 0 {
		v.lastNL = buf[got-1] == '\n'
	}
	if int64(got) < n {
		if err != nil && !errors.Is(err, io.EOF) {
			v.idxErr = err
			v.err = err
		} else {
			v.size = v.idx.scanned // the file shrank; Refresh will see it
		}
	}
}

// lineAt returns the number (0-based) of the line that holds off, when the
// index has reached it.
func (v *Viewer) lineAt(off int64) (int64, bool) {
	if off > v.idx.scanned {
		return 0, false
	}
	if v.memo.off == off {
		return v.memo.line, true
	}
	start, n := v.idx.before(off)
	n += int64(countNL(v.read(start, off).bytes(start, off)))
	v.memo.off, v.memo.line = off, n
	return n, true
}

// lineStart returns where line n (0-based) starts, when the index has
// reached it; an offset equal to the size means the line does not exist.
func (v *Viewer) lineStart(n int64) (int64, bool) {
	if n <= 0 {
		return 0, true
	}
	start, before, ok := v.idx.find(n)
	if !ok {
		return 0, false
	}
	end := min(start+indexStride, v.idx.scanned)
	b := v.read(start, end).bytes(start, end)
	for i, k := 0, n-before; i < len(b); {
		j := indexNL(b[i:])
		if j < 0 {
			break
		}
		if k--; k == 0 {
			return start + int64(i+j+1), true
		}
		i += j + 1
	}
	return 0, false
}

// totalLines is the file's line count, once the index has reached the end.
func (v *Viewer) totalLines() (int64, bool) {
	if v.indexing() || v.idxErr != nil {
		return 0, false
	}
	n := v.idx.newlines()
	if v.size > 0 && !v.lastNL {
		n++
	}
	return n, true
}
