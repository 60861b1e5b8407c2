package web

import (
	"encoding/json"
	"net/http"
	"strings"
)

// FetchRecord is the evidence of one WebFetch call (H11), stored as the
// result's Meta so the transcript shows where the content really came from:
// every URL of the redirect chain with the address it was fetched from, the
// final status, what the server said about the body and the body's digest.
// It is written for refused and failed calls too, up to where they stopped.
type FetchRecord struct {
	// URL is the URL the model asked for.
	URL string `json:"url"`
	// Chain has one hop per request made, in order; a redirect adds one.
	Chain []Hop `json:"chain"`
	// FinalURL is the URL whose body the result shows.
	FinalURL string `json:"final_url,omitempty"`
	// Status is the final HTTP status code.
	Status int `json:"status,omitempty"`
	// Headers is a safe subset of the final response headers: those that
	// describe the content and the server, never cookies or credentials.
	Headers map[string]string `json:"headers,omitempty"`
	// Bytes is how many body bytes were read (after content decoding).
	Bytes int64 `json:"bytes"`
	// Truncated says the body was longer than the cap and was cut at Bytes;
	// SHA256 then covers only what was read.
	Truncated bool `json:"truncated,omitempty"`
	// SHA256 is the hex digest of the body bytes read.
	SHA256 string `json:"sha256,omitempty"`
	// Shown says how the body was shown: "markdown", "text" or "binary".
	Shown string `json:"shown,omitempty"`
	// Error says why the call stopped, when it did not complete.
	Error string `json:"error,omitempty"`
}

// Hop is one request of a fetch.
type Hop struct {
	URL string `json:"url"`
	// Resolved lists the addresses the host resolved to, all of them
	// checked; the connection used no others.
	Resolved []string `json:"resolved,omitempty"`
	// Address is the IP and port the connection was made to (the first
	// resolved address when none could be reached); empty when the request
	// went through a proxy, which resolved the host itself.
	Address string `json:"address,omitempty"`
	// Proxy is the proxy used, without credentials.
	Proxy string `json:"proxy,omitempty"`
	// Status is the HTTP status, 0 when no response came.
	Status int `json:"status,omitempty"`
	// Location is where a redirect pointed, as the server wrote it.
	Location string `json:"location,omitempty"`
}

// recordedHeaders are the response headers kept in the record: enough to
// tell what was served and by whom, nothing that can carry a session
// (Set-Cookie) or a secret.
var recordedHeaders = []string{
	"Content-Type", "Content-Length", "Content-Encoding", "Content-Language",
	"Content-Disposition", "Last-Modified", "ETag", "Date", "Cache-Control",
	"Expires", "Age", "Server", "Via", "X-Powered-By", "Location",
	"Strict-Transport-Security", "Content-Security-Policy",
}

// safeHeaders picks the recorded headers out of h.
func safeHeaders(h http.Header) map[string]string {
	out := map[string]string{}
	for _, k := range recordedHeaders {
		if v := h.Values(k); len(v) > 0 {
			out[k] = strings.Join(v, ", ")
		}
	}
	return out
}

// meta encodes the record for Result.Meta.
func (r *FetchRecord) meta() json.RawMessage {
	b, err := json.Marshal(r)
	if err != nil {
		return nil
	}
	return b
}
