package highlight

import (
	"strings"
	"sync"
)

// mode chooses the scanner a language uses.
type mode uint8

const (
	modeCode   mode = iota // keywords, comments, strings, numbers
	modeMarkup             // HTML and XML
	modeDiff               // unified diffs, line by line
)

// delim is a kind of string literal.
type delim struct {
	open, close string
	escape      bool // a backslash escapes the next character
	multiline   bool // the string may run over several lines
	char        bool // a character literal: only if it closes within a few bytes
}

// comment is a block comment's delimiters.
type comment struct {
	open, close string
	lineStart   bool // both only count at the start of a line (Ruby's =begin)
}

// language is one table the scanner reads. The word lists are strings,
// split into sets the first time a block in the language is drawn, so a
// language costs nothing at start.
type language struct {
	names                      string // the name and its aliases, lower case
	mode                       mode
	keywords, types, constants string
	lineComments               []string
	blockComments              []comment
	strings                    []delim // longest opening first
	identStart, identExtra     string  // characters words may start with or contain beyond letters, digits and _
	caseFold                   bool    // keywords in any case (SQL, Dockerfile)
	firstWordKeywords          bool    // keywords only as a line's first word (Dockerfile)
	hashMeta                   bool    // a line starting with # is a preprocessor line (C)
	sectionMeta                bool    // a [section] line is a header (TOML, INI)
	atMeta                     bool    // @name is a decorator or annotation
	varPrefix                  bool    // $name is a variable
	capitalTypes               bool    // Capitalised words are types (Java, Rust)
	commentAfterSpace          bool    // a line comment must start a word (shells: a#b)
	prompt                     bool    // a console transcript: $ lines are commands
	keySep                     byte    // a word or string before it is a key (JSON ':', TOML '=')
	keyAnywhere                bool    // keys anywhere on a line, not only first
	once                       sync.Once
	set                        *wordSets
}

type wordSets struct{ keywords, types, constants map[string]bool }

// words returns the language's word sets, building them on first use.
func (l *language) words() *wordSets {
	l.once.Do(func() {
		l.set = &wordSets{keywords: set(l.keywords), types: set(l.types), constants: set(l.constants)}
	})
	return l.set
}

func set(words string) map[string]bool {
	f := strings.Fields(words)
	m := make(map[string]bool, len(f))
	for _, w := range f {
		m[w] = true
	}
	return m
}

// Common string syntaxes.
var (
	dq       = delim{open: `"`, close: `"`, escape: true}
	sq       = delim{open: `'`, close: `'`, escape: true}
	dqMulti  = delim{open: `"`, close: `"`, escape: true, multiline: true}
	sqRaw    = delim{open: `'`, close: `'`, multiline: true}
	backtick = delim{open: "`", close: "`", escape: true, multiline: true}
	cBlock   = []comment{{open: "/*", close: "*/"}}
	slashes  = []string{"//"}
	hashes   = []string{"#"}
)

const (
	cKeywords  = "auto break case const continue default do else enum extern for goto if inline register restrict return sizeof static struct switch typedef union volatile while"
	cTypes     = "char double float int long short signed unsigned void bool size_t ssize_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t uintptr_t FILE"
	cppExtra   = " alignas alignof asm catch class constexpr consteval constinit co_await co_return co_yield decltype delete explicit export friend mutable namespace new noexcept operator private protected public static_assert template this throw try typeid typename using virtual override final concept requires"
	jsKeywords = "async await break case catch class const continue debugger default delete do else export extends finally for from function if import in instanceof let new of return static super switch this throw try typeof var void while with yield get set"
	tsExtra    = " abstract as declare enum implements interface keyof namespace private protected public readonly type satisfies infer is"
)

// languages is every language the highlighter knows.
var languages = []*language{
	{
		names:        "go golang",
		keywords:     "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var",
		types:        "bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr any comparable",
		constants:    "true false nil iota",
		lineComments: slashes, blockComments: cBlock,
		strings: []delim{dq, {open: "'", close: "'", escape: true, char: true}, {open: "`", close: "`", multiline: true}},
	},
	{
		names:        "python py python3 py3 pyi",
		keywords:     "and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case",
		types:        "int float str bytes bool list dict set tuple object type complex frozenset bytearray",
		constants:    "True False None self cls",
		lineComments: hashes, atMeta: true,
		strings: []delim{
			{open: `"""`, close: `"""`, escape: true, multiline: true},
			{open: `'''`, close: `'''`, escape: true, multiline: true},
			dq, sq,
		},
	},
	{
		names:        "javascript js jsx mjs cjs node",
		keywords:     jsKeywords,
		constants:    "true false null undefined NaN Infinity",
		lineComments: slashes, blockComments: cBlock, identStart: "$", atMeta: true,
		strings: []delim{dq, sq, backtick},
	},
	{
		names:        "typescript ts tsx mts cts",
		keywords:     jsKeywords + tsExtra,
		types:        "string number boolean any unknown never void object bigint symbol",
		constants:    "true false null undefined NaN Infinity",
		lineComments: slashes, blockComments: cBlock, identStart: "$", atMeta: true,
		strings: []delim{dq, sq, backtick},
	},
	{
		names:        "rust rs",
		keywords:     "as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move mut pub ref return static struct super trait type unsafe use where while macro_rules",
		types:        "bool char f32 f64 i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize str Self String Vec Option Result Box",
		constants:    "true false self Some None Ok Err",
		lineComments: slashes, blockComments: cBlock, capitalTypes: true,
		strings: []delim{dqMulti, {open: "'", close: "'", escape: true, char: true}},
	},
	{
		names:        "c h",
		keywords:     cKeywords,
		types:        cTypes,
		constants:    "NULL true false",
		lineComments: slashes, blockComments: cBlock, hashMeta: true,
		strings: []delim{dq, {open: "'", close: "'", escape: true, char: true}},
	},
	{
		names:        "cpp c++ cc cxx hpp hh hxx cuda",
		keywords:     cKeywords + cppExtra,
		types:        cTypes + " wchar_t char8_t char16_t char32_t auto std string vector",
		constants:    "NULL nullptr true false",
		lineComments: slashes, blockComments: cBlock, hashMeta: true,
		strings: []delim{dq, {open: "'", close: "'", escape: true, char: true}},
	},
	{
		names:        "java",
		keywords:     "abstract assert break case catch class continue default do else enum extends final finally for if implements import instanceof interface native new package private protected public return static strictfp super switch synchronized this throw throws transient try volatile while var record sealed permits yield",
		types:        "boolean byte char double float int long short void",
		constants:    "true false null",
		lineComments: slashes, blockComments: cBlock, atMeta: true, capitalTypes: true,
		strings: []delim{{open: `"""`, close: `"""`, escape: true, multiline: true}, dq, {open: "'", close: "'", escape: true, char: true}},
	},
	{
		names:        "kotlin kt kts",
		keywords:     "abstract as break by catch class companion const constructor continue crossinline data do else enum external final finally for fun get if import in infix init inline inner interface internal is lateinit noinline object open operator out override package private protected public reified return sealed set super suspend tailrec this throw try typealias val var vararg when where while",
		constants:    "true false null",
		lineComments: slashes, blockComments: cBlock, atMeta: true, capitalTypes: true,
		strings: []delim{{open: `"""`, close: `"""`, multiline: true}, dq, {open: "'", close: "'", escape: true, char: true}},
	},
	{
		names:        "ruby rb gemfile rake podfile",
		keywords:     "alias and begin break case class def defined? do else elsif end ensure for if in module next not or redo rescue retry return super then undef unless until when while yield require require_relative attr_accessor attr_reader attr_writer private protected public raise",
		constants:    "true false nil self",
		lineComments: hashes, atMeta: true, capitalTypes: true, identExtra: "?!",
		blockComments: []comment{{open: "=begin", close: "=end", lineStart: true}},
		strings:       []delim{dqMulti, {open: "'", close: "'", escape: true, multiline: true}, backtick},
	},
	{
		names:        "php php3 php4 php5 php7 php8",
		keywords:     "abstract and array as break callable case catch class clone const continue declare default do echo else elseif empty enddeclare endfor endforeach endif endswitch endwhile enum extends final finally fn for foreach function global goto if implements include include_once instanceof insteadof interface isset list match namespace new or print private protected public readonly require require_once return static switch throw trait try unset use var while xor yield",
		types:        "int float string bool void mixed object iterable never",
		constants:    "true false null TRUE FALSE NULL",
		lineComments: []string{"//", "#"}, blockComments: cBlock, varPrefix: true,
		strings: []delim{dqMulti, {open: "'", close: "'", escape: true, multiline: true}},
	},
	{
		names:        "sh bash zsh shell ksh fish shellscript",
		keywords:     shKeywords,
		constants:    "true false",
		lineComments: hashes, commentAfterSpace: true, varPrefix: true, identExtra: "-",
		strings: []delim{dqMulti, sqRaw, backtick},
	},
	{
		names:        "console shell-session terminal sh-session",
		keywords:     shKeywords,
		constants:    "true false",
		lineComments: hashes, commentAfterSpace: true, varPrefix: true, identExtra: "-", prompt: true,
		strings: []delim{dq, {open: `'`, close: `'`}},
	},
	{
		names:        "json jsonc json5 jsonl ndjson geojson",
		constants:    "true false null",
		lineComments: slashes, blockComments: cBlock, keySep: ':', keyAnywhere: true,
		strings: []delim{dq},
	},
	{
		names:        "yaml yml",
		constants:    "true false null yes no on off True False Null TRUE FALSE NULL ~",
		lineComments: hashes, commentAfterSpace: true, keySep: ':', identExtra: "-./",
		strings: []delim{dq, {open: `'`, close: `'`}},
	},
	{
		names:        "toml ini cfg conf editorconfig properties",
		constants:    "true false",
		lineComments: []string{"#", ";"}, keySep: '=', sectionMeta: true, identExtra: "-.",
		strings: []delim{
			{open: `"""`, close: `"""`, escape: true, multiline: true},
			{open: `'''`, close: `'''`, multiline: true},
			dq, {open: `'`, close: `'`},
		},
	},
	{
		names:        "sql mysql postgresql postgres psql sqlite plsql tsql",
		keywords:     "add all alter and any as asc begin between by case check column commit constraint create cross database default delete desc distinct drop else end exists explain foreign from full group having if in index inner insert into is join key left like limit not null offset on or order outer primary procedure references replace returning right rollback select set table then to transaction trigger truncate union unique update using values view when where with",
		types:        "int integer bigint smallint serial bigserial text varchar char boolean bool date time timestamp timestamptz numeric decimal real float double blob json jsonb uuid",
		constants:    "true false",
		caseFold:     true,
		lineComments: []string{"--"}, blockComments: cBlock,
		strings: []delim{{open: `'`, close: `'`}, {open: `"`, close: `"`}},
	},
	{
		names:         "html htm xhtml xml svg xsd xsl xslt plist vue svelte",
		mode:          modeMarkup,
		identExtra:    "-.",
		blockComments: []comment{{open: "<!--", close: "-->"}},
		strings:       []delim{{open: `"`, close: `"`, multiline: true}, {open: `'`, close: `'`, multiline: true}},
	},
	{
		names:        "css scss sass less",
		keywords:     "important",
		constants:    "inherit initial unset none auto",
		lineComments: nil, blockComments: cBlock, atMeta: true, identExtra: "-", keySep: ':', keyAnywhere: true,
		strings: []delim{dq, sq},
	},
	{
		names:             "dockerfile docker containerfile",
		keywords:          "from run cmd label maintainer expose env add copy entrypoint volume user workdir arg onbuild stopsignal healthcheck shell as",
		caseFold:          true,
		firstWordKeywords: true,
		lineComments:      hashes, commentAfterSpace: true, varPrefix: true,
		strings: []delim{dq, {open: `'`, close: `'`}},
	},
	{
		names:        "makefile make mk mak gnumakefile bsdmakefile",
		keywords:     "ifeq ifneq ifdef ifndef else endif include define endef export unexport override vpath",
		lineComments: hashes, varPrefix: true, identExtra: "-./%", keySep: ':',
		strings: []delim{dq, {open: `'`, close: `'`}},
	},
	{
		names:         "lua luau",
		keywords:      "and break do else elseif end for function goto if in local not or repeat return then until while",
		constants:     "true false nil self",
		blockComments: []comment{{open: "--[[", close: "]]"}},
		lineComments:  []string{"--"},
		strings:       []delim{{open: "[[", close: "]]", multiline: true}, dq, sq},
	},
	{names: "diff patch udiff", mode: modeDiff},
}

const shKeywords = "if then else elif fi for while until do done case esac function in select return exit local export readonly declare unset shift break continue source alias trap eval exec set"
