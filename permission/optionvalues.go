package permission

import (
	"path"
	"strings"
)

// Beyond the file-changing programs of argwrites.go, many programs write a
// file named by an option (`sort -o F`, `git diff --output=F`,
// `go build -o F`, `curl -o F`) or run a command given in one
// (`sort --compress-program=P`, `tar -I P`, `go test -exec P`,
// `git rebase -x CMD`, `rsync -e CMD`). A rule such as `Bash(sort:*)` or
// `Bash(git diff:*)` says the program may run; it does not say where it
// may write or what else it may start. So such files are write targets,
// judged like a redirection's, and such commands are parts of their own,
// which need their own rule, as find -exec's do.

// optionSpec says how a program spells the options that matter here.
type optionSpec struct {
	// short are the short options that take a value (attached or the
	// next word), GNU style.
	short string
	// long are the long options that take a value, to read them by any
	// unambiguous prefix as getopt_long does (name -> takes a value).
	long map[string]bool
	// goFlags says options are Go flags: -name or --name, the value after
	// = or as the next word, no clusters, no prefixes.
	goFlags bool
	// writes and commands name the options (a letter, or a long name)
	// whose value is a file written, or a command line run.
	writes, commands map[string]bool
	// blind names options that make what is written unknown (curl -K
	// reads options from a file, wget -e runs wgetrc commands).
	blind map[string]bool
	// unseen names options whose value makes the program run or load
	// code the line does not show (gcc -B and -wrapper, ld -plugin).
	unseen map[string]bool
	// scripts names options whose value is a file of commands the
	// program runs: one read from a descriptor (make -f /dev/stdin, a
	// process substitution) holds code the line does not show.
	scripts map[string]bool
	// dashWords says each option is a word of its own, as compilers and
	// linkers read them: -NAME or --NAME, its value after = or as the
	// next word, or attached for a name in joined (-oFILE, -MFdeps).
	// A word starting with @ reads options from a file.
	dashWords bool
	joined    map[string]bool
	// operands returns the operands that are files written (split's
	// prefix, the files strip changes in place), when there are any.
	operands func(ops []string) []string
}

// allOps and secondOp say which operands a program writes.
func allOps(ops []string) []string { return ops }
func secondOp(ops []string) []string {
	if len(ops) > 1 {
		return ops[1:2]
	}
	return nil
}

// ccSpec is how the C compiler drivers (gcc, cc, clang, g++) spell the
// options that write a file or run a program: -o and the dependency file,
// the directory -B takes its programs from, -wrapper, plugins and spec
// files; -Wl, and -Xlinker pass options on to the linker (ldSpec).
var ccSpec = optionSpec{dashWords: true, joined: set("o", "MF", "B", "dumpdir"),
	writes: set("o", "MF", "dumpdir"), unseen: set("B", "wrapper", "fplugin", "specs", "iplugindir", "fplugin-arg")}

// ldSpec is GNU ld's (and gold's, lld's): the output, the map and
// dependency files, and plugins, which it loads and runs.
var ldSpec = optionSpec{dashWords: true, joined: set("o"),
	writes: set("o", "output", "Map", "dependency-file", "out-implib"), unseen: set("plugin")}

// optionSpecs are the programs read here, by base name.
var optionSpecs = map[string]optionSpec{
	"sort": {short: "kotST", long: set("key", "output", "buffer-size", "field-separator", "temporary-directory",
		"compress-program", "files0-from", "random-source", "parallel", "batch-size", "sort"),
		writes: set("o", "output", "T", "temporary-directory"), commands: set("compress-program")},
	"go": {goFlags: true, writes: set("o", "coverprofile", "cpuprofile", "memprofile", "blockprofile",
		"mutexprofile", "trace", "outputdir", "test.coverprofile", "test.cpuprofile", "test.memprofile",
		"test.blockprofile", "test.mutexprofile", "test.trace", "test.outputdir", "test.gocoverdir"),
		commands: set("exec", "toolexec", "vettool")},
	"gofmt":     {goFlags: true, writes: set("cpuprofile")},
	"goimports": {goFlags: true, writes: set("cpuprofile")},
	"curl": {short: "AbcCdDeEFHKmoPQrtTuUwxXyYz", long: set("output", "dump-header", "cookie-jar", "trace",
		"trace-ascii", "stderr", "libcurl", "etag-save", "hsts", "alt-svc", "output-dir", "config", "data",
		"header", "user", "url", "request", "cookie", "form", "user-agent", "referer", "proxy", "upload-file"),
		writes: set("o", "output", "D", "dump-header", "c", "cookie-jar", "trace", "trace-ascii", "stderr",
			"libcurl", "etag-save", "hsts", "alt-svc", "output-dir"),
		blind: set("K", "config")},
	"wget": {short: "aAeiIlOoPQRtTUwXD", long: set("output-document", "output-file", "append-output",
		"directory-prefix", "save-cookies", "warc-file", "execute", "input-file", "post-file", "body-file",
		"config"),
		writes: set("O", "output-document", "o", "output-file", "a", "append-output", "P", "directory-prefix",
			"save-cookies", "warc-file"),
		blind: set("e", "execute", "config")},
	"rsync": {short: "eTfB", long: set("rsh", "temp-dir", "filter", "exclude", "include", "backup-dir",
		"suffix", "rsync-path", "partial-dir", "log-file", "password-file", "files-from", "exclude-from",
		"include-from", "chmod", "chown", "compare-dest", "copy-dest", "link-dest", "out-format", "max-size",
		"min-size", "timeout", "port", "bwlimit", "write-batch", "only-write-batch"),
		writes: set("T", "temp-dir", "backup-dir", "partial-dir", "log-file", "write-batch", "only-write-batch",
			"link-dest"), // its files are hard-linked into the destination, and written through it later
		commands: set("e", "rsh")},
	"zip": {short: "bnOPtx", long: set("temp-path", "output-file", "unzip-command", "password", "suffixes"),
		writes: set("b", "temp-path", "O", "output-file"), commands: set("unzip-command")},
	"man": {short: "CMPHLmSepRE", long: set("pager", "html", "config-file", "manpath"),
		commands: set("P", "pager", "H", "html")},
	"ssh": {short: "BbcDEeFIiJLlmOoPpQRSWw", commands: set("o")},
	// scp and sftp start -S's program as their ssh; sftp -b reads
	// commands from a file, whose !CMD lines run here.
	"scp":   {short: "cFiJloPSXD", commands: set("o", "S")},
	"sftp":  {short: "BbcDFiJlPRSso", commands: set("o", "S"), unseen: set("b")},
	"iconv": {short: "fto", long: set("from-code", "to-code", "output"), writes: set("o", "output")},
	// xxd IN OUT writes OUT.
	"xxd": {short: "cglosn", long: set(), operands: secondOp},
	// pandoc runs -F's filter program and -L's Lua; -d reads options
	// from a file.
	"pandoc": {short: "fFrtwoLdMVcHBAT", long: set("output", "from", "read", "to", "write", "defaults",
		"metadata", "variable", "css", "include-in-header", "include-before-body", "include-after-body", "filter",
		"lua-filter", "data-dir", "template", "extract-media", "log", "resource-path", "reference-doc", "metadata-file"),
		writes: set("o", "output", "extract-media", "log"), commands: set("F", "filter"), unseen: set("L", "lua-filter"),
		blind: set("d", "defaults", "metadata-file")},
	// openssl writes -out and its kin; -engine loads a module.
	"openssl": {dashWords: true, writes: set("out", "keyout", "outdir", "writerand", "sess_out", "keylogfile", "certout"),
		unseen: set("engine", "provider-path")},
	"make": {short: "CfIjlloW", long: set("directory", "file", "makefile", "include-dir", "jobs",
		"load-average", "old-file", "assume-old", "what-if", "new-file", "assume-new", "eval"),
		writes: set("C", "directory"), scripts: set("f", "file", "makefile")},
	// split writes PREFIXaa...: its second operand; --filter runs a
	// command for each piece.
	"split": {short: "abClnt", long: set("suffix-length", "additional-suffix", "bytes", "line-bytes", "lines",
		"number", "separator", "filter"), commands: set("filter"), blind: set("additional-suffix"), operands: secondOp},
	"csplit": {short: "bfn", long: set("suffix-format", "prefix", "digits"), writes: set("f", "prefix"),
		blind: set("b", "suffix-format")},
	"cc": ccSpec, "gcc": ccSpec, "g++": ccSpec, "c++": ccSpec, "clang": ccSpec, "clang++": ccSpec,
	"ld": ldSpec, "ld.bfd": ldSpec, "ld.gold": ldSpec, "ld.lld": ldSpec, "gold": ldSpec, "lld": ldSpec,
	"as": {dashWords: true, joined: set("o"), writes: set("o", "MD")},
	// strip and objcopy change their operands in place (objcopy IN OUT
	// writes OUT), and --dump-section writes a file of its own.
	"strip": {short: "FIKNoOR", long: set("input-target", "output-target", "target", "remove-section",
		"keep-symbol", "strip-symbol", "keep-section", "remove-relocations"), writes: set("o"), operands: allOps},
	"objcopy": {short: "bBFGiIjKLNOR", long: set("input-target", "output-target", "binary-architecture", "target",
		"only-section", "remove-section", "remove-relocations", "dump-section", "add-section", "update-section",
		"keep-symbol", "strip-symbol", "redefine-syms", "keep-symbols", "strip-symbols", "add-gnu-debuglink",
		"split-dwo", "extract-dwo"), writes: set("split-dwo"), blind: set("dump-section"), operands: allOps},
	"ranlib": {short: "", operands: allOps},
}

// optionValues returns the files words (a command, wrappers removed)
// writes through its options, the command lines it runs through them, and
// whether what it writes is unknown.
func optionValues(words []string) (files, cmds []string, blind bool) {
	if len(words) < 2 {
		return nil, nil, false
	}
	prog := path.Base(words[0])
	switch prog {
	case "git":
		return gitOptionValues(words[1:])
	case "tar", "bsdtar":
		return tarOptionValues(words[1:])
	case "unzip":
		files, blind := unzipWrites(words[1:])
		return files, nil, blind
	case "uniq":
		return uniqWrites(words[1:]), nil, false
	case "patch":
		files, blind := patchWrites(words[1:])
		return files, nil, blind
	case "mktemp":
		files, blind := mktempWrites(words[1:])
		return files, nil, blind
	case "cpio":
		files, blind := cpioWrites(words[1:])
		return files, nil, blind
	case "ar":
		files, blind := arWrites(words[1:])
		return files, nil, blind
	case "7z", "7za", "7zr":
		files, _, blind := sevenZip(words[1:])
		return files, nil, blind
	}
	if c, ok := compressors[prog]; ok {
		files, blind := c.writes(words[1:])
		return files, nil, blind
	}
	spec, ok := optionSpecs[prog]
	if !ok {
		return nil, nil, false
	}
	each := func(name, val string) {
		switch {
		case spec.blind[name]:
			blind = true
		case spec.unseen[name], spec.scripts[name] && descriptorPath(val):
			cmds = append(cmds, opaqueStr)
		case spec.writes[name]:
			files = append(files, val)
		case spec.commands[name]:
			if name == "o" && (prog == "ssh" || prog == "scp" || prog == "sftp") {
				val = sshCommandOption(val)
			}
			if val != "" {
				cmds = append(cmds, val)
			}
		}
	}
	switch {
	case spec.goFlags:
		goFlagValues(spec, words[1:], each)
	case spec.dashWords:
		var linker []string
		linker, blind = dashWordValues(spec, words[1:], each)
		if len(linker) > 0 {
			f, c, b := optionValues(append([]string{"ld"}, linker...))
			files, cmds, blind = append(files, f...), append(cmds, c...), blind || b
		}
	default:
		gnuOptionValues(spec, words[1:], each)
	}
	if spec.operands != nil && !spec.dashWords {
		files = append(files, spec.operands(operandsOf(spec, words[1:]))...)
	}
	if prog == "zip" {
		for i, a := range words[1 : len(words)-1] {
			if a == "-TT" {
				cmds = append(cmds, words[i+2]) // zip -TT CMD tests with CMD
			}
		}
	}
	if prog == "zip" && len(files) == 0 {
		if ops := operandsOf(spec, words[1:]); len(ops) > 0 {
			files = append(files, ops[0]) // the archive
		}
	}
	if (prog == "gofmt" || prog == "goimports") && hasGoFlag(words[1:], "w") {
		files = append(files, goOperands(words[1:], set("r", "cpuprofile", "local", "srcdir"))...)
	}
	if prog == "go" {
		cmds = append(cmds, goLinkerCommands(words[1:])...)
	}
	if prog == "go" && hasGoFlag(words[1:], "C") {
		blind = true // -C moves go, and every relative name, elsewhere
	}
	if prog == "go" && len(words) > 2 && words[1] == "env" && (hasGoFlag(words[2:], "w") || hasGoFlag(words[2:], "u")) {
		blind = true // go env -w writes the user's go env file (GOFLAGS=-toolexec=...)
	}
	return files, cmds, blind
}

// gnuOptionValues calls each for every option of words that takes a value,
// read as getopt_long reads them.
func gnuOptionValues(spec optionSpec, words []string, each func(name, val string)) {
	for i := 0; i < len(words); i++ {
		a := words[i]
		switch {
		case a == "--":
			return
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			full, known := longOption(name, spec.long)
			if !known {
				// Ambiguous to getopt, or unknown: when it could be
				// one that writes or runs something, read it as that.
				full, known = anyPrefixOf(name, spec)
			}
			if !known {
				continue
			}
			if spec.long[full] && !hasVal && i+1 < len(words) {
				i++
				val = words[i]
			}
			each(full, val)
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				if strings.IndexByte(spec.short, a[j]) < 0 {
					continue
				}
				val := a[j+1:]
				if val == "" && i+1 < len(words) {
					i++
					val = words[i]
				}
				each(a[j:j+1], val)
				break
			}
		}
	}
}

// dashWordValues calls each for every option of words that the spec
// names, read as compilers read them (see optionSpec.dashWords), and
// returns the options passed on to the linker (-Wl,a,b and -Xlinker a)
// and whether a response file (@FILE) holds options not seen.
func dashWordValues(spec optionSpec, words []string, each func(name, val string)) (linker []string, blind bool) {
	named := func(n string) bool { return spec.writes[n] || spec.commands[n] || spec.unseen[n] || spec.blind[n] }
	for i := 0; i < len(words); i++ {
		a := words[i]
		switch {
		case strings.HasPrefix(a, "@"):
			blind = true
		case strings.HasPrefix(a, "-Wl,"):
			linker = append(linker, strings.Split(a[4:], ",")...)
		case a == "-Xlinker" && i+1 < len(words):
			i++
			linker = append(linker, words[i])
		case len(a) > 1 && a[0] == '-':
			name, val, hasVal := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
			if !named(name) {
				for j := range spec.joined {
					if strings.HasPrefix(name, j) && named(j) && !hasVal {
						name, val, hasVal = j, name[len(j):], true
						break
					}
				}
			}
			if !named(name) {
				continue
			}
			if !hasVal && i+1 < len(words) {
				i++
				val = words[i]
			}
			each(name, val)
		}
	}
	return linker, blind
}

// anyPrefixOf returns the option name abbreviates among those that write a
// file or run a command, when there is any.
func anyPrefixOf(name string, spec optionSpec) (string, bool) {
	if len(name) < 2 {
		return "", false
	}
	for o := range spec.long {
		if strings.HasPrefix(o, name) && (spec.writes[o] || spec.commands[o] || spec.blind[o]) {
			return o, true
		}
	}
	return "", false
}

// operandsOf returns the words that are neither options nor their values.
func operandsOf(spec optionSpec, words []string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		a := words[i]
		switch {
		case a == "--":
			return append(out, words[i+1:]...)
		case strings.HasPrefix(a, "--"):
			name, _, hasVal := strings.Cut(a[2:], "=")
			if full, ok := longOption(name, spec.long); ok && spec.long[full] && !hasVal {
				i++
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				if strings.IndexByte(spec.short, a[j]) >= 0 {
					if j == len(a)-1 {
						i++
					}
					break
				}
			}
		default:
			out = append(out, a)
		}
	}
	return out
}

// goFlagValues calls each for every Go flag of words that the spec names,
// with its value (`-o F`, `-o=F`, `--o F`).
func goFlagValues(spec optionSpec, words []string, each func(name, val string)) {
	for i := 0; i < len(words); i++ {
		a := words[i]
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		name := strings.TrimPrefix(a[1:], "-")
		name, val, hasVal := strings.Cut(name, "=")
		if !spec.writes[name] && !spec.commands[name] && !spec.blind[name] {
			continue
		}
		if !hasVal {
			if i+1 >= len(words) {
				continue
			}
			i++
			val = words[i]
		}
		each(name, val)
	}
}

// goLinkerCommands returns the programs `-ldflags` tells the Go linker to
// run as its external linker (`-ldflags=-extld=P`, `-ldflags '-extld P'`,
// `-ldflags=all=-extld=P`), which it starts with cgo or -linkmode=external.
func goLinkerCommands(words []string) []string {
	var out []string
	spec := optionSpec{goFlags: true, commands: set("ldflags")}
	goFlagValues(spec, words, func(_, val string) {
		if pattern, flags, ok := strings.Cut(val, "="); ok && !strings.HasPrefix(pattern, "-") {
			val = flags // pattern=flags applies flags to the packages pattern matches
		}
		fields := goQuotedFields(val)
		for i, f := range fields {
			name, v, hasVal := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(f, "-"), "-"), "=")
			if name != "extld" || !strings.HasPrefix(f, "-") {
				continue
			}
			if !hasVal && i+1 < len(fields) {
				v = fields[i+1]
			}
			if v == "" {
				v = opaqueStr
			}
			out = append(out, v)
		}
	})
	return out
}

// goQuotedFields splits a flag list as the go command splits -ldflags:
// at spaces, with '...' and "..." each one field (quotes removed).
func goQuotedFields(s string) []string {
	var out []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// hasGoFlag reports whether words hold the Go flag -name (or --name).
func hasGoFlag(words []string, name string) bool {
	for _, a := range words {
		if a == "-"+name || a == "--"+name || strings.HasPrefix(a, "-"+name+"=") || strings.HasPrefix(a, "--"+name+"=") {
			return true
		}
	}
	return false
}

// goOperands returns the words of a Go command that are not flags or the
// values of the flags in valued.
func goOperands(words []string, valued map[string]bool) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		a := words[i]
		if a == "--" {
			return append(out, words[i+1:]...)
		}
		if len(a) > 1 && a[0] == '-' {
			name := strings.TrimPrefix(a[1:], "-")
			if !strings.Contains(name, "=") && valued[name] {
				i++
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

// sshCommandOption returns the command of an ssh -o option that runs one
// locally (ProxyCommand, LocalCommand, KnownHostsCommand), or "".
func sshCommandOption(v string) string {
	key, val, ok := strings.Cut(v, "=")
	if !ok {
		key, val, _ = strings.Cut(v, " ")
	}
	switch strings.ToLower(strings.TrimSpace(key)) {
	case "proxycommand", "localcommand", "knownhostscommand", "remotecommand":
		return strings.TrimSpace(val)
	}
	return ""
}

// gitOptionValues reads a git command line: the files written by
// --output (diff, log, show, format-patch: any unambiguous prefix) and
// format-patch's -o, the commands of grep -O, difftool -x, rebase -x,
// bisect run and submodule foreach; a directory git is moved to (-C,
// --git-dir, --work-tree) is written and makes relative names unknown,
// and --exec-path makes the program unknown.
func gitOptionValues(args []string) (files, cmds []string, blind bool) {
	i := 0
	for i < len(args) {
		a := args[i]
		switch {
		case a == "-C" || a == "--git-dir" || a == "--work-tree":
			if i+1 < len(args) {
				files = append(files, args[i+1])
			}
			blind = true
			i += 2
			continue
		case strings.HasPrefix(a, "--git-dir=") || strings.HasPrefix(a, "--work-tree="):
			_, v, _ := strings.Cut(a, "=")
			files = append(files, v)
			blind = true
		case a == "--exec-path" || strings.HasPrefix(a, "--exec-path="):
			blind = true
			cmds = append(cmds, opaqueStr) // git runs its commands from there
		case a == "-c" || a == "--config-env" || a == "--namespace" || a == "--super-prefix":
			i += 2
			continue
		case strings.HasPrefix(a, "-"):
		default:
			return gitSubcommand(a, args[i+1:], files, cmds, blind)
		}
		i++
	}
	return files, cmds, blind
}

func gitSubcommand(sub string, args []string, files, cmds []string, blind bool) ([]string, []string, bool) {
	if sub == "config" {
		f, b := gitConfigWrites(args)
		return append(files, f...), cmds, blind || b
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		next := func() string {
			if hasVal {
				return val
			}
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		long := strings.HasPrefix(a, "--") && len(name) >= 3
		switch {
		case long && strings.HasPrefix("output-directory", name) && strings.HasPrefix(name, "output-d"):
			files = append(files, next())
		case long && strings.HasPrefix("output", name):
			files = append(files, next())
		case sub == "format-patch" && (a == "-o" || strings.HasPrefix(a, "-o") && !strings.HasPrefix(a, "--")):
			if v := strings.TrimPrefix(a, "-o"); v != "" {
				files = append(files, v)
			} else {
				files = append(files, next())
			}
		case sub == "grep" && (strings.HasPrefix(a, "-O") || long && strings.HasPrefix("open-files-in-pager", name)):
			v := strings.TrimPrefix(a, "-O")
			if long {
				v = val
			}
			if v == "" {
				v = opaqueStr // the configured pager
			}
			cmds = append(cmds, v)
		case (sub == "difftool" && (a == "-x" || long && strings.HasPrefix("extcmd", name))) ||
			(sub == "rebase" && (a == "-x" || long && strings.HasPrefix("exec", name))):
			cmds = append(cmds, next())
		case (sub == "difftool" || sub == "rebase") && strings.HasPrefix(a, "-x"):
			cmds = append(cmds, a[2:])
		case sub == "bisect" && a == "run" || sub == "submodule" && a == "foreach":
			cmds = append(cmds, strings.Join(quoteWords(args[i+1:]), " "))
			return files, cmds, blind
		case sub == "filter-branch" && long && strings.HasSuffix(name, "-filter"):
			cmds = append(cmds, next())
		case long && (strings.HasPrefix("upload-pack", name) || strings.HasPrefix("receive-pack", name)),
			sub == "clone" && a == "-u",
			(sub == "push" || sub == "archive") && long && strings.HasPrefix("exec", name):
			// The program git starts for the other end: a shell
			// command line when the repository is local.
			cmds = append(cmds, next())
		case sub == "clone" && strings.HasPrefix(a, "-u") && !strings.HasPrefix(a, "--"):
			cmds = append(cmds, a[2:])
		case long && strings.HasPrefix("template", name):
			next()
			cmds = append(cmds, opaqueStr) // its hooks are copied in and run (clone's post-checkout)
		case long && strings.HasPrefix("separate-git-dir", name),
			sub == "checkout-index" && long && strings.HasPrefix("prefix", name),
			sub == "archive" && a == "-o":
			files = append(files, next())
		}
	}
	return append(files, gitOperandWrites(sub, args)...), cmds, blind || gitPatches(sub, args)
}

// gitPatches reports whether git apply or git am changes the working tree
// with the files a patch names, which the line does not show (as patch
// does): any of them, .workbench/settings.local.json or .mcp.json
// included, and with --unsafe-paths outside the repository. Only
// showing, checking or changing the index alone writes none.
func gitPatches(sub string, args []string) bool {
	if sub != "apply" && sub != "am" {
		return false
	}
	writes := true
	for _, a := range args {
		switch a {
		case "--check", "--stat", "--numstat", "--summary", "--cached", "--show-current-patch":
			writes = false
		case "--apply":
			return true
		}
	}
	return writes
}

// gitOperandWrites returns the places git subcommands make from their
// operands: a new worktree's directory (worktree add, move), a clone's
// (every operand after the repository: a word an option took is checked
// too, at no cost), the .git a git init makes or makes again, a bundle,
// a submodule's directory.
func gitOperandWrites(sub string, args []string) []string {
	var ops []string
	for _, a := range args {
		if a == "--" || !strings.HasPrefix(a, "-") {
			ops = append(ops, a)
		}
	}
	first := func(n int) []string {
		if len(ops) > n {
			return ops[n:]
		}
		return nil
	}
	switch {
	case sub == "worktree" && len(ops) > 1 && (ops[0] == "add" || ops[0] == "move"):
		return first(1)
	case sub == "clone":
		return first(1)
	case sub == "init":
		dir := "."
		if len(ops) > 0 {
			dir = ops[0]
		}
		return []string{path.Join(dir, ".git")}
	case (sub == "bundle" && len(ops) > 0 && ops[0] == "create") || (sub == "submodule" && len(ops) > 0 && ops[0] == "add"):
		return first(1)
	}
	return nil
}

// tarShort are GNU tar's short options that take a value.
const tarShort = "bCfFgHIKLNTVX"

// tarOptionValues reads a tar command: the archive it creates (-c, -r,
// -u, -A with -f), the directory it extracts into (-x: -C, else the
// working directory; absolute member names with -P make it unknown), the
// files of --index-file and -g, and the commands of -I, -F, --to-command,
// --checkpoint-action=exec= and --rsh-command.
func tarOptionValues(args []string) (files, cmds []string, blind bool) {
	t := readTar(args)
	files, cmds = t.files, t.cmds
	if t.creates && t.archive != "" && t.archive != "-" {
		files = append(files, t.archive)
	}
	if t.extracts {
		files = append(files, t.dir)
	}
	return files, cmds, t.extracts && t.absolute
}

// tarArgs is a tar command line as GNU tar reads it.
type tarArgs struct {
	archive, dir                string // -f, and -C (the working directory when extracting without it)
	creates, extracts, absolute bool
	files, cmds                 []string // files of other options, commands
}

// readTar reads tar's arguments: long options, clusters (`xzf F` as the
// first word, whose values are the following words) and -C.
func readTar(args []string) (t tarArgs) {
	mode := func(c byte) {
		switch c {
		case 'c', 'r', 'u', 'A':
			t.creates = true
		case 'x':
			t.extracts = true
		case 'P':
			t.absolute = true
		}
	}
	value := func(c byte, v string) {
		switch c {
		case 'f':
			t.archive = v
		case 'C':
			t.dir = v
		case 'g':
			t.files = append(t.files, v)
		case 'I', 'F':
			t.cmds = append(t.cmds, v)
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			i = len(args)
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			takes := func() string {
				if !hasVal && i+1 < len(args) {
					i++
					return args[i]
				}
				return val
			}
			switch {
			case name == "create" || name == "append" || name == "update" || name == "concatenate" || name == "catenate":
				t.creates = true
			case name == "extract" || name == "get":
				t.extracts = true
			case name == "absolute-names":
				t.absolute = true
			case name == "file":
				t.archive = takes()
			case name == "directory":
				t.dir = takes()
			case name == "index-file" || name == "listed-incremental" || name == "volno-file":
				t.files = append(t.files, takes())
			case name == "use-compress-program" || name == "to-command" || name == "info-script" ||
				name == "new-volume-script" || name == "rsh-command":
				t.cmds = append(t.cmds, takes())
			case name == "checkpoint-action":
				if v, ok := strings.CutPrefix(takes(), "exec="); ok {
					t.cmds = append(t.cmds, v)
				}
			}
		case len(a) > 1 && a[0] == '-', i == 0 && !strings.HasPrefix(a, "-"):
			// `tar xzf F`: the first word is a cluster whose values
			// are the following words, in order.
			old := a[0] != '-'
			cluster := strings.TrimPrefix(a, "-")
			for j := 0; j < len(cluster); j++ {
				c := cluster[j]
				mode(c)
				if strings.IndexByte(tarShort, c) < 0 {
					continue
				}
				if !old && j+1 < len(cluster) {
					value(c, cluster[j+1:])
					break
				}
				if i+1 < len(args) {
					i++
					value(c, args[i])
				}
			}
		}
	}
	if t.dir == "" {
		t.dir = "."
	}
	return t
}

// unzipWrites returns the directory unzip extracts into, else the working
// directory, and nothing when it only lists, tests or prints. unzip reads
// its options in clusters before the archive (`-qod DIR`), and -d also
// after it and after the names of -x (`unzip a.zip -x b -d DIR`), so any
// -d is read as the directory. -: lets member names climb out of it with
// ../, so what it writes is unknown; -T sets the archive's own time.
func unzipWrites(args []string) (files []string, blind bool) {
	dir, archive, excluding := ".", "", false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' {
			if archive == "" && !excluding {
				archive = a
			}
			continue
		}
		if a == "-x" {
			excluding = true
			continue
		}
		options := archive == "" && !excluding // a cluster of options, not a name
		for j := 1; j < len(a); j++ {
			c := a[j]
			switch {
			case c == 'd' && (options || j == 1):
				if v := a[j+1:]; v != "" {
					dir = v
				} else if i+1 < len(args) {
					i++
					dir = args[i]
				}
				j = len(a) // the rest is the directory
			case !options:
				j = len(a) // a name, only -d counts here
			case strings.IndexByte("lptvcZz", c) >= 0:
				return nil, false
			case c == ':':
				blind = true
			case c == 'T':
				files = append(files, archiveOperand(args[i+1:]))
			}
		}
	}
	return append(files, dir), blind
}

// archiveOperand returns the first word of args that is not an option.
func archiveOperand(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

// uniqWrites returns uniq's output file, its second operand.
func uniqWrites(args []string) []string {
	spec := optionSpec{short: "fsw", long: set("skip-fields", "skip-chars", "check-chars")}
	if ops := operandsOf(spec, args); len(ops) > 1 {
		return ops[1:2]
	}
	return nil
}

// whyOptionCommand explains a command given in an option that does not
// parse or nests too deep.
const whyOptionCommand = "a command given in a program's option cannot be read"

// optionValues records the files a program writes through its options and
// adds the commands it runs through them as parts of their own.
func (w *walker) optionValues(words []string, d dirs) {
	files, cmds, blind := optionValues(words)
	if blind {
		w.a.blindWrite = true
	}
	by := ""
	if len(words) > 0 {
		by = path.Base(words[0])
	}
	for _, f := range files {
		w.writeTarget(f, by, d, nil)
	}
	for _, c := range cmds {
		w.optionCommand(c, d)
	}
}

// optionCommand adds the parts of a command line a program runs (a shell
// line, or a program with its arguments): each needs its own rule, and
// deny rules and hard deny see them.
func (w *walker) optionCommand(script string, d dirs) {
	if strings.IndexByte(script, opaque) >= 0 {
		w.unknownFor(whyUnseenCode)
		w.a.anyProgram = true
		return
	}
	if strings.TrimSpace(script) == "" {
		return
	}
	if w.depth >= maxShellDepth {
		w.unknownFor(whyOptionCommand)
		return
	}
	sub, parsed, _, _ := w.walkScript(script, d)
	if !parsed {
		for _, ip := range sub.parts {
			w.a.hidden = append(w.a.hidden, ip.text)
		}
		w.unknownFor(whyOptionCommand)
		return
	}
	w.a.parts = append(w.a.parts, sub.parts...)
}

// gitConfigWrites returns the file `git config ARGS` writes: the
// repository's .git/config (which holds commands: core.fsmonitor,
// core.pager, aliases), a --file, or, for --global, --system and the
// forms this reader does not know, an unknown one. Reading forms write
// nothing.
func gitConfigWrites(args []string) (files []string, blind bool) {
	var operands []string
	file, writes := "", false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--get" || a == "--get-all" || a == "--get-regexp" || a == "--get-urlmatch" ||
			a == "--get-color" || a == "--get-colorbool" || a == "-l" || a == "--list":
			return nil, false
		case a == "--unset" || a == "--unset-all" || a == "--add" || a == "--replace-all" ||
			a == "--rename-section" || a == "--remove-section" || a == "-e" || a == "--edit":
			writes = true
		case a == "--global" || a == "--system" || a == "--worktree" || a == "--blob" ||
			strings.HasPrefix(a, "--blob="):
			blind = true
		case a == "-f" || a == "--file":
			if i+1 < len(args) {
				i++
				file = args[i]
			}
		case strings.HasPrefix(a, "--file="):
			file = strings.TrimPrefix(a, "--file=")
		case a == "--type" || a == "--default" || a == "--comment":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			operands = append(operands, a)
		}
	}
	if len(operands) > 0 {
		switch operands[0] {
		case "get", "list":
			return nil, false
		case "set", "unset", "rename-section", "remove-section", "edit":
			writes = true
		}
	}
	if !writes && len(operands) < 2 {
		return nil, false // git config NAME reads
	}
	if file != "" {
		return []string{file}, blind
	}
	return []string{".git/config"}, blind
}
