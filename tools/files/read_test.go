package files_test

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/tools/files"
)

// numbered renders lines from..to the way Read shows "line N".
func numbered(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%6d\tline %d\n", i, i)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func lines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestReadShowsNumberedLines(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 2500)
	cases := []struct {
		name    string
		content string
		input   string
		want    string
	}{
		{"a whole small file", "alpha\nbeta\n", `{"file_path":"f.txt"}`, "     1\talpha\n     2\tbeta"},
		{"a last line without a newline", "alpha\nbeta", `{"file_path":"f.txt"}`, "     1\talpha\n     2\tbeta"},
		{"a window with a note on how to go on", lines(10), `{"file_path":"f.txt","offset":3,"limit":2}`,
			numbered(3, 4) + "\n(Showing lines 3-4; the file goes on. Call Read with offset=5 for more.)"},
		{"a window that reaches the end without a note", lines(10), `{"file_path":"f.txt","offset":8,"limit":3}`, numbered(8, 10)},
		{"the default limit of 2000 lines", lines(2001), `{"file_path":"f.txt","offset":1999}`,
			numbered(1999, 2001)},
		{"CRLF endings hidden", "a\r\nb\r\n", `{"file_path":"f.txt"}`, "     1\ta\n     2\tb"},
		{"a long line cut with a marker", "short\n" + long + "\nend\n", `{"file_path":"f.txt"}`,
			"     1\tshort\n     2\t" + strings.Repeat("é", 2000) + " [... line cut at 2000 characters]\n     3\tend"},
		{"a line of exactly 2000 characters kept whole", strings.Repeat("x", 2000) + "\n", `{"file_path":"f.txt"}`,
			"     1\t" + strings.Repeat("x", 2000)},
		{"an empty file", "", `{"file_path":"f.txt"}`, "(f.txt is an empty file)"},
		{"a binary file as a note", "PK\x03\x04\x00\x00data", `{"file_path":"f.txt"}`, "[f.txt looks binary (10 bytes); its content is not shown]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tc, dir := newContext(t)
			writeFile(t, dir+"/f.txt", c.content)
			res := call(t, files.Read(), tc, c.input)
			if res.IsError || res.Text != c.want {
				t.Fatalf("got (error=%v)\n%q\nwant\n%q", res.IsError, res.Text, c.want)
			}
			if res.Captured {
				t.Error("Captured is set although Read did not cut for size")
			}
		})
	}
}

func TestReadWithTheDefaultLimitStopsAt2000Lines(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	tc.MaxOutput = 1 << 20
	writeFile(t, dir+"/f.txt", lines(2500))
	res := call(t, files.Read(), tc, `{"file_path":"f.txt"}`)
	if !strings.HasSuffix(res.Text, numbered(2000, 2000)+"\n(Showing lines 1-2000; the file goes on. Call Read with offset=2001 for more.)") {
		t.Fatalf("the result does not end at line 2000: ...%q", res.Text[len(res.Text)-200:])
	}
}

func TestReadErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		input string
		want  string
	}{
		{"a missing file with a similar name nearby", `{"file_path":"src/mian.go"}`, "File does not exist: src/mian.go. Did you mean src/main.go?"},
		{"a missing file with another extension nearby", `{"file_path":"src/main.py"}`, "File does not exist: src/main.py. Did you mean src/main.go?"},
		{"a missing file with nothing like it", `{"file_path":"src/zzzzzzzz.rs"}`, "File does not exist: src/zzzzzzzz.rs."},
		{"a missing directory", `{"file_path":"nowhere/a.go"}`, "File does not exist: nowhere/a.go."},
		{"a directory", `{"file_path":"src"}`, "src is a directory. Use LS to list its entries or Glob to find files in it."},
		{"an offset past the end", `{"file_path":"src/main.go","offset":4}`, "src/main.go has 3 lines; offset 4 is past its end."},
		{"a pipe", `{"file_path":"fifo"}`, "fifo is not a regular file (a device, pipe or socket); Read only reads files."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tc, dir := newContext(t)
			writeFile(t, dir+"/src/main.go", "package main\n\nfunc main() {}\n")
			if err := mkfifo(dir + "/fifo"); err != nil {
				t.Skip(err)
			}
			res := call(t, files.Read(), tc, c.input)
			if !res.IsError || res.Text != c.want {
				t.Fatalf("got (error=%v) %q, want error %q", res.IsError, res.Text, c.want)
			}
		})
	}
}

func TestReadStopsAtTheOutputCapAndSaysWhereToGoOn(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	tc.MaxOutput = 1000
	writeFile(t, dir+"/f.txt", lines(500))
	res := call(t, files.Read(), tc, `{"file_path":"f.txt","offset":11}`)
	if res.IsError || !res.Captured {
		t.Fatalf("error=%v Captured=%v, want a captured success", res.IsError, res.Captured)
	}
	if len(res.Text) > tc.MaxOutput {
		t.Fatalf("the result has %d bytes, over the cap of %d", len(res.Text), tc.MaxOutput)
	}
	body, notice, ok := strings.Cut(res.Text, "\n(Read stopped at line ")
	if !ok {
		t.Fatalf("no continuation notice in %q", res.Text)
	}
	last := strings.Count(body, "\n") + 11
	if body != numbered(11, last) {
		t.Fatalf("the body is not whole lines 11-%d:\n%s", last, body)
	}
	want := fmt.Sprintf("%d to stay within the result size; call Read with offset=%d to continue.)", last, last+1)
	if notice != want {
		t.Fatalf("notice %q, want %q", notice, want)
	}
	if strings.Contains(res.Text, "output capped") {
		t.Fatal("Read's notice looks like the pipeline's capture notice")
	}
}

func TestReadShowsPartOfALineThatAloneExceedsTheCap(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	tc.MaxOutput = 400
	writeFile(t, dir+"/f.txt", strings.Repeat("y", 1500)+"\nnext\n")
	res := call(t, files.Read(), tc, `{"file_path":"f.txt"}`)
	if !res.Captured || len(res.Text) > 400 || !strings.HasPrefix(res.Text, "     1\tyyy") || !strings.Contains(res.Text, "offset=2") {
		t.Fatalf("Captured=%v, %d bytes: %q", res.Captured, len(res.Text), res.Text)
	}
}

func TestReadOfA50MBFileReturnsTheAskedWindow(t *testing.T) {
	t.Parallel()
	tc, dir := newContext(t)
	f, err := os.Create(dir + "/big.log")
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	row := strings.Repeat("z", 100)
	for i, size := 1, 0; size < 50<<20; i++ {
		n, _ := fmt.Fprintf(w, "%d %s\n", i, row)
		size += n
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		t.Fatal(err)
	}
	res := call(t, files.Read(), tc, `{"file_path":"big.log","offset":100,"limit":3}`)
	want := fmt.Sprintf("%6d\t100 %s\n%6d\t101 %s\n%6d\t102 %s\n(Showing lines 100-102; the file goes on. Call Read with offset=103 for more.)", 100, row, 101, row, 102, row)
	if res.Text != want {
		t.Fatalf("got %q", res.Text)
	}
}

func TestReadSchema(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		input string
		want  string // a fragment of the error; empty means valid
	}{
		{"only a path is valid", `{"file_path":"a"}`, ""},
		{"the path is required", `{}`, "file_path: required property is missing"},
		{"the path cannot be empty", `{"file_path":""}`, "file_path: minLength"},
		{"offset counts from 1", `{"file_path":"a","offset":0}`, "offset: minimum"},
		{"limit is at least 1", `{"file_path":"a","limit":0}`, "limit: minimum"},
		{"offset is a whole number", `{"file_path":"a","offset":1.5}`, "offset: got number, want integer"},
		{"unknown properties are refused", `{"file_path":"a","lines":3}`, "lines: unknown property"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := prepare(files.Read(), c.input)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("rejected: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestReadSchemaFillsDefaults(t *testing.T) {
	t.Parallel()
	out, err := files.Read().Schema().Prepare([]byte(`{"file_path":"a"}`))
	if err != nil || string(out) != `{"file_path":"a","limit":2000,"offset":1}` {
		t.Fatalf("Prepare = %s, %v", out, err)
	}
}
