package web

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
)

// markdown converts HTML pages. One converter serves every call: it is safe
// for concurrent use, and building the plugin set once saves work per page.
// Tables and strikethrough are on because documentation pages use them and
// a flattened table loses its meaning.
var markdown = converter.NewConverter(converter.WithPlugins(
	base.NewBasePlugin(),
	commonmark.NewCommonmarkPlugin(),
	table.NewTablePlugin(),
	strikethrough.NewStrikethroughPlugin(),
))

// Ways a body is shown, recorded in FetchRecord.Shown.
const (
	shownMarkdown = "markdown"
	shownText     = "text"
	shownBinary   = "binary"
)

// content is a body made ready for the model.
type content struct {
	shown string // shownMarkdown, shownText or shownBinary
	media string // the media type it was judged by
	title string // an HTML page's <title>, which the conversion drops
	text  string
}

// render turns a body into what the model reads: HTML becomes Markdown with
// links made absolute against the page's URL; JSON and other text pass
// through, decoded from their declared charset; anything else (images,
// archives, fonts, media) becomes a one-line description, because its bytes
// mean nothing to a model and would only fill the context.
func render(body []byte, contentType, pageURL string) content {
	media, _, err := mime.ParseMediaType(contentType)
	if err != nil || media == "" || media == "application/octet-stream" {
		// No usable declaration: judge by the bytes, as a browser would.
		contentType = http.DetectContentType(body)
		media, _, _ = mime.ParseMediaType(contentType)
	}
	switch {
	case isHTML(media):
		doc, err := html.Parse(decoded(body, contentType))
		var md []byte
		var title string
		if err == nil {
			// The title first: the conversion changes the tree and drops <head>.
			title = pageTitle(doc)
			md, err = markdown.ConvertNode(doc, converter.WithDomain(pageURL))
		}
		if err != nil {
			// A page the converter cannot take is still worth reading raw.
			return content{shown: shownText, media: media, text: string(utf8Valid(body))}
		}
		return content{shown: shownMarkdown, media: media, title: title, text: strings.TrimSpace(string(md))}
	case isText(media):
		b, err := io.ReadAll(decoded(body, contentType))
		if err != nil {
			b = body
		}
		return content{shown: shownText, media: media, text: string(utf8Valid(b))}
	}
	return content{shown: shownBinary, media: media}
}

// pageTitle is the text of the document's first <title>, on one line.
func pageTitle(doc *html.Node) string {
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.DataAtom == atom.Title {
			var b strings.Builder
			for c := range n.Descendants() {
				if c.Type == html.TextNode {
					b.WriteString(c.Data)
				}
			}
			return oneLine(b.String())
		}
	}
	return ""
}

func isHTML(media string) bool {
	return media == "text/html" || media == "application/xhtml+xml"
}

// isText reports media types whose bytes are readable as they are: text/*,
// JSON, XML, scripts and the usual configuration formats.
func isText(media string) bool {
	if strings.HasPrefix(media, "text/") {
		return true
	}
	for _, suffix := range []string{"+json", "+xml", "/json", "/xml", "/javascript", "/ecmascript", "/yaml", "/x-yaml", "/toml", "/x-sh", "/sql", "/graphql", "/x-ndjson", "/csv"} {
		if strings.HasSuffix(media, suffix) {
			return true
		}
	}
	return false
}

// decoded reads body as UTF-8, converting from the charset the header or
// the document declares; an unknown charset leaves the bytes as they are.
func decoded(body []byte, contentType string) io.Reader {
	r, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		return bytes.NewReader(body)
	}
	return r
}

// utf8Valid replaces invalid sequences (a body cut mid-rune, a mislabelled
// charset) so the result is valid text.
func utf8Valid(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	return bytes.ToValidUTF8(b, []byte("\uFFFD"))
}

// describeBinary is what the model reads instead of a binary body.
func describeBinary(media string, n int64, sum string) string {
	return fmt.Sprintf("[binary content (%s), %d bytes read, sha256 %s; not shown. WebFetch shows web pages and text; it cannot read images, archives, fonts or media.]", media, n, sum)
}
