package search

import (
	"maps"
	"slices"
)

// fileTypes maps a `type` input to the file-name globs it selects. Names
// follow ripgrep's; both engines use this table (ripgrep through
// --type-add), so a type selects the same files whichever engine runs.
var fileTypes = map[string][]string{
	"asm":       {"*.asm", "*.s", "*.S"},
	"c":         {"*.c", "*.h"},
	"clojure":   {"*.clj", "*.cljc", "*.cljs", "*.edn"},
	"cmake":     {"*.cmake", "CMakeLists.txt"},
	"cpp":       {"*.cpp", "*.cc", "*.cxx", "*.c++", "*.hpp", "*.hh", "*.hxx", "*.h++", "*.h", "*.inl", "*.ipp"},
	"cs":        {"*.cs", "*.csx"},
	"css":       {"*.css", "*.scss", "*.sass", "*.less"},
	"csv":       {"*.csv", "*.tsv"},
	"dart":      {"*.dart"},
	"docker":    {"Dockerfile", "*.Dockerfile", "Dockerfile.*", "Containerfile"},
	"elixir":    {"*.ex", "*.exs", "*.eex", "*.heex"},
	"erlang":    {"*.erl", "*.hrl"},
	"go":        {"*.go"},
	"gomod":     {"go.mod", "go.sum", "go.work"},
	"graphql":   {"*.graphql", "*.gql"},
	"haskell":   {"*.hs", "*.lhs"},
	"html":      {"*.html", "*.htm", "*.xhtml"},
	"java":      {"*.java", "*.jsp", "*.properties"},
	"js":        {"*.js", "*.jsx", "*.mjs", "*.cjs", "*.vue"},
	"json":      {"*.json", "*.jsonc", "*.json5", "composer.lock"},
	"jsonl":     {"*.jsonl", "*.ndjson"},
	"julia":     {"*.jl"},
	"kotlin":    {"*.kt", "*.kts"},
	"lua":       {"*.lua"},
	"make":      {"Makefile", "makefile", "GNUmakefile", "*.mk", "*.mak"},
	"md":        {"*.md", "*.markdown", "*.mdown", "*.mkdn", "*.mdx"},
	"nix":       {"*.nix"},
	"ocaml":     {"*.ml", "*.mli"},
	"perl":      {"*.pl", "*.pm", "*.t"},
	"php":       {"*.php", "*.phtml"},
	"proto":     {"*.proto"},
	"py":        {"*.py", "*.pyi"},
	"r":         {"*.R", "*.r", "*.Rmd"},
	"ruby":      {"*.rb", "*.gemspec", "Gemfile", "Rakefile", "*.rake"},
	"rust":      {"*.rs"},
	"scala":     {"*.scala", "*.sbt", "*.sc"},
	"sh":        {"*.sh", "*.bash", "*.zsh", "*.ksh", ".bashrc", ".bash_profile", ".zshrc", ".profile"},
	"sql":       {"*.sql", "*.psql"},
	"svelte":    {"*.svelte"},
	"swift":     {"*.swift"},
	"terraform": {"*.tf", "*.tfvars"},
	"tex":       {"*.tex", "*.bib", "*.sty", "*.cls"},
	"toml":      {"*.toml", "Cargo.lock"},
	"ts":        {"*.ts", "*.tsx", "*.mts", "*.cts"},
	"txt":       {"*.txt"},
	"xml":       {"*.xml", "*.xsd", "*.xsl", "*.xslt", "*.svg"},
	"yaml":      {"*.yaml", "*.yml"},
	"zig":       {"*.zig"},
}

// typeNames lists the supported types, sorted, for the schema's enum.
func typeNames() []string {
	return slices.Sorted(maps.Keys(fileTypes))
}
