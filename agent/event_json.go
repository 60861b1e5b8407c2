package agent

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// jsonAppender is implemented by entries that write their own JSON. Stage
// events are most of a transcript, and encoding them by reflection was the
// loop's largest cost.
type jsonAppender interface {
	AppendJSON(b []byte) []byte
}

// AppendJSON appends the event as the JSON object that --trace prints and
// the transcript records; it matches the struct tags of StageEvent.
func (e *StageEvent) AppendJSON(b []byte) []byte {
	b = append(b, `{"call_id":`...)
	b = appendJSONString(b, e.CallID)
	b = append(b, `,"tool":`...)
	b = appendJSONString(b, e.Tool)
	b = append(b, `,"stage":`...)
	b = appendJSONString(b, string(e.Stage))
	b = append(b, `,"outcome":`...)
	b = appendJSONString(b, e.Outcome)
	if e.Detail != "" {
		b = append(b, `,"detail":`...)
		b = appendJSONString(b, e.Detail)
	}
	if e.Rule != "" {
		b = append(b, `,"rule":`...)
		b = appendJSONString(b, e.Rule)
	}
	b = append(b, `,"duration_us":`...)
	b = strconv.AppendInt(b, e.DurationUS, 10)
	if e.Bytes != 0 {
		b = append(b, `,"bytes":`...)
		b = strconv.AppendInt(b, e.Bytes, 10)
	}
	if e.SpillPath != "" {
		b = append(b, `,"spill_path":`...)
		b = appendJSONString(b, e.SpillPath)
	}
	if e.SHA256 != "" {
		b = append(b, `,"sha256":`...)
		b = appendJSONString(b, e.SHA256)
	}
	if e.InputDigest != "" {
		b = append(b, `,"input_digest":`...)
		b = appendJSONString(b, e.InputDigest)
	}
	if len(e.Input) > 0 {
		// Input is validated JSON from the pipeline (it passed the schema).
		b = append(b, `,"input":`...)
		b = append(b, e.Input...)
	}
	if e.Sandbox != "" {
		b = append(b, `,"sandbox":`...)
		b = appendJSONString(b, e.Sandbox)
	}
	b = append(b, `,"time":"`...)
	b = e.Time.AppendFormat(b, time.RFC3339Nano)
	return append(b, `"}`...)
}

// MarshalJSON makes encoding/json use the same encoding.
func (e StageEvent) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil), nil }

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
