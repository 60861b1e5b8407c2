package highlight

import (
	"fmt"
	"strings"
	"testing"
)

// show writes spans as text with the kind of each non-plain span named,
// "func{K} main{F}()", so a test reads like the line it checks.
func show(spans []Span) string {
	var b strings.Builder
	for _, s := range spans {
		b.WriteString(s.Text)
		if s.Kind != Plain {
			fmt.Fprintf(&b, "{%s}", kindNames[s.Kind])
		}
	}
	return b.String()
}

var kindNames = map[Kind]string{
	Keyword: "K", Type: "T", Constant: "C", Function: "F", String: "S", Number: "N",
	Comment: "#", Meta: "M", Tag: "<>", Attribute: "A", Key: "Key", Added: "+", Removed: "-", Hunk: "@",
}

// lines highlights a block and shows each line.
func lines(lang, src string) []string {
	h := New(lang)
	var out []string
	for l := range strings.SplitSeq(src, "\n") {
		spans := h.Line(l)
		if got := join(spans); got != l {
			out = append(out, "LOST TEXT: "+got)
			continue
		}
		out = append(out, show(spans))
	}
	return out
}

func join(spans []Span) string {
	var b strings.Builder
	for _, s := range spans {
		b.WriteString(s.Text)
	}
	return b.String()
}

func TestLanguagesHighlightTheirSyntax(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, lang, src string
		want            []string
	}{
		{"go keywords, types, calls, strings, numbers, comments", "go",
			"func main() { // start\n\tvar n int = 0x1F\n\tfmt.Println(\"hi\\n\", n, nil)\n}",
			[]string{"func{K} main{F}() { // start{#}", "\tvar{K} n int{T} = 0x1F{N}", "\tfmt.Println{F}(\"hi\\n\"{S}, n, nil{C})", "}"}},
		{"a Go raw string runs over lines", "Go", "s := `a\nb` + x",
			[]string{"s := `a{S}", "b`{S} + x"}},
		{"a block comment runs over lines", "c", "int x; /* one\ntwo */ return 1.5e-3;",
			[]string{"int{T} x; /* one{#}", "two */{#} return{K} 1.5e-3{N};"}},
		{"a C preprocessor line", "c", "#include <stdio.h>", []string{"#include <stdio.h>{M}"}},
		{"python triple quotes, decorators, constants", "py",
			"@cache\ndef f():\n    \"\"\"doc\n    more\"\"\"\n    return None  # done",
			[]string{"@cache{M}", "def{K} f{F}():", "    \"\"\"doc{S}", "    more\"\"\"{S}", "    return{K} None{C}  # done{#}"}},
		{"typescript types and template strings", "tsx", "const x: number = `a${b}`;",
			[]string{"const{K} x: number{T} = `a${b}`{S};"}},
		{"rust lifetimes are not strings, chars are", "rust", "fn f<'a>(s: &'a str) -> char { 'x' }",
			[]string{"fn{K} f<'a>(s: &'a str{T}) -> char{T} { 'x'{S} }"}},
		{"shell comments, variables, strings", "bash", "echo \"$HOME\" ${x#y} # note\nif [ -n $1 ]; then",
			[]string{"echo \"$HOME\"{S} ${x#y}{C} # note{#}", "if{K} [ -n $1{C} ]; then{K}"}},
		{"a console transcript: prompts and output", "console", "$ ls -la\ntotal 0",
			[]string{"$ {M}ls -la", "total 0"}},
		{"json keys and values", "json", `{"name": "wb", "n": 2, "ok": true}`,
			[]string{`{"name"{Key}: "wb"{S}, "n"{Key}: 2{N}, "ok"{Key}: true{C}}`}},
		{"yaml keys, comments, constants", "yml", "on:\n  push: # when\n    branches: [main]\n  enabled: true",
			[]string{"on{Key}:", "  push{Key}: # when{#}", "    branches{Key}: [main]", "  enabled{Key}: true{C}"}},
		{"toml sections and keys", "toml", "[tool.x]\nname = \"wb\" # c",
			[]string{"[tool.x]{M}", "name{Key} = \"wb\"{S} # c{#}"}},
		{"sql in any case", "SQL", "SELECT id FROM t WHERE n = 'x' -- c",
			[]string{"SELECT{K} id FROM{K} t WHERE{K} n = 'x'{S} -- c{#}"}},
		{"html tags, attributes, comments", "html", "<a href=\"/x\">go &amp; <!-- c\n--> </a>",
			[]string{"<a{<>} href{A}=\"/x\"{S}>{<>}go &amp;{C} <!-- c{#}", "-->{#} </a>{<>}"}},
		{"a tag over two lines", "xml", "<item id=\"1\"\n  name='x'/>",
			[]string{"<item{<>} id{A}=\"1\"{S}", "  name{A}='x'{S}/>{<>}"}},
		{"css properties and at-rules", "css", "@media x { a { color: red; } } /* c */",
			[]string{"@media{M} x { a { color{Key}: red; } } /* c */{#}"}},
		{"dockerfile instructions only first", "Dockerfile", "FROM golang AS build\nRUN go build -o /from .",
			[]string{"FROM{K} golang AS build", "RUN{K} go build -o /from ."}},
		{"makefile targets and variables", "make", "build: $(SRC)\n\tgo build -o $@ .",
			[]string{"build{Key}: $(SRC){C}", "\tgo build -o $@{C} ."}},
		{"lua long comments and strings", "lua", "local s = [[a\nb]] --[[ c\n]] x",
			[]string{"local{K} s = [[a{S}", "b]]{S} --[[ c{#}", "]]{#} x"}},
		{"java annotations and types", "java", "@Override public String f() { return null; }",
			[]string{"@Override{M} public{K} String{T} f{F}() { return{K} null{C}; }"}},
		{"kotlin", "kt", "fun main() = println(\"x\")", []string{"fun{K} main{F}() = println{F}(\"x\"{S})"}},
		{"ruby", "rb", "def ok?\n  nil # c\nend", []string{"def{K} ok?", "  nil{C} # c{#}", "end{K}"}},
		{"php variables", "php", "$x = 'a'; // c", []string{"$x{C} = 'a'{S}; // c{#}"}},
		{"c++ keywords", "C++", "template <typename T> class A {};",
			[]string{"template{K} <typename{K} T> class{K} A {};"}},
		{"diff lines", "diff", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n same",
			[]string{"--- a/x{M}", "+++ b/x{M}", "@@ -1 +1 @@{@}", "-old{-}", "+new{+}", " same"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := lines(c.lang, c.src)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestUnknownLanguagesArePlain(t *testing.T) {
	t.Parallel()
	for _, info := range []string{"", "text", "plaintext", "brainfuck", "  "} {
		if Known(info) {
			t.Errorf("Known(%q)", info)
		}
		if got := New(info).Line("func x() // y"); len(got) != 1 || got[0].Kind != Plain {
			t.Errorf("%q highlighted: %v", info, got)
		}
	}
	var h *Highlighter
	if got := h.Line("x"); len(got) != 1 || got[0].Text != "x" {
		t.Errorf("a nil highlighter: %v", got)
	}
}

func TestAliasesByTheFirstWordInAnyCase(t *testing.T) {
	t.Parallel()
	for _, info := range []string{"go", "Golang", "GO title=\"main.go\"", "{.go}", "js", "JSX", "ts", "tsx", "sh", "Bash", "zsh", "shell", "console",
		"py", "rs", "c", "cpp", "c++", "java", "kotlin", "ruby", "php", "json", "yaml", "yml", "toml", "sql", "html", "xml", "css",
		"dockerfile", "Makefile", "lua", "diff", "patch"} {
		if !Known(info) {
			t.Errorf("%q is not known", info)
		}
	}
}
