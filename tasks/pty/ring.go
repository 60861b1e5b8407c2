package pty

// RingSize is how much raw output a session keeps for the stream view:
// enough for several screens of a busy build log, small enough that many
// sessions cost little memory.
const RingSize = 256 << 10

// ring keeps the last RingSize bytes of a stream and counts every byte
// ever written, so positions in the stream are absolute: a reader that fell
// behind learns that output was dropped instead of reading the wrong bytes.
type ring struct {
	buf   []byte
	total int64
}

func (r *ring) write(p []byte) {
	if r.buf == nil {
		r.buf = make([]byte, RingSize)
	}
	r.total += int64(len(p))
	if len(p) >= len(r.buf) {
		p = p[len(p)-len(r.buf):]
	}
	at := int((r.total - int64(len(p))) % int64(len(r.buf)))
	n := copy(r.buf[at:], p)
	copy(r.buf, p[n:])
}

// oldest is the first position still held.
func (r *ring) oldest() int64 {
	return max(0, r.total-int64(len(r.buf)))
}

// since returns up to maxBytes from position from on (maxBytes <= 0: all
// that is held), the position after them, and whether bytes between from
// and the first one returned were already dropped.
func (r *ring) since(from int64, maxBytes int) (data []byte, next int64, omitted bool) {
	from = min(max(from, 0), r.total)
	if o := r.oldest(); from < o {
		from, omitted = o, true
	}
	n := r.total - from
	if maxBytes > 0 && n > int64(maxBytes) {
		n = int64(maxBytes)
	}
	data = make([]byte, n)
	if n > 0 {
		at := int(from % int64(len(r.buf)))
		k := copy(data, r.buf[at:])
		copy(data[k:], r.buf)
	}
	return data, from + n, omitted
}
