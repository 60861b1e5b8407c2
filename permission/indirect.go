package permission

import (
	"path"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Code reaches bash by routes other than a command's words: a wrapper's
// shell string (`su -c`, `watch`, `env -S`), a variable a program runs as
// a command (PAGER, GIT_SSH_COMMAND, PROMPT_COMMAND, PS4), an alias value,
// a git -c setting, a name `hash -p` points elsewhere, a builtin `enable`
// loads, a script whose text only exists when the line runs
// (`eval "$x"`, `bash <(...)`, `. /dev/stdin`). Where the text is in the
// line, its commands are shown to deny and ask rules and hard deny (they
// never allow anything); where it is not, the line is unknown.

// Reasons for unknown lines of this kind.
const (
	whySplitString = "env -S splits its string into words by rules of its own"
	whyUnseenCode  = "the line runs code that is only known when it runs (a variable, a substitution's output or standard input)"
	whyHash        = "hash -p makes a name run another program"
	whyEnable      = "enable loads or removes builtins, so later names may run other code"
	whyCodeValue   = "a variable that holds a command (PAGER, GIT_SSH_COMMAND, PROMPT_COMMAND...) gets a value only known when it runs"
	whySetOption   = "set -k makes later assignments anywhere in a command go to its environment"
	whyShoptGlob   = "shopt changes how later words or patterns are read"
	whyHistory     = "the line runs earlier lines of the shell's history again, which the analysis cannot see"
)

// historyExpansion reports whether a line typed into an interactive shell
// may hold a history expansion (`!!`, `!rm`, `!-2`, `^a^b`), which bash
// replaces with earlier lines before it reads the line. Quoting is not
// taken into account: a `!` anywhere but before a blank, `=` or `(`
// counts.
func historyExpansion(cmd string) bool {
	if strings.HasPrefix(strings.TrimLeft(cmd, " \t"), "^") {
		return true
	}
	for i := 0; i < len(cmd); i++ {
		if cmd[i] != '!' {
			continue
		}
		if i+1 == len(cmd) {
			return false
		}
		switch cmd[i+1] {
		case ' ', '\t', '\n', '=', '(':
		default:
			return true
		}
	}
	return false
}

// codeVariables are environment variables whose value a program (or bash
// itself) runs as a command line or a prompt.
var codeVariables = map[string]bool{
	"PROMPT_COMMAND": true, "PS0": true, "PS1": true, "PS2": true, "PS3": true, "PS4": true,
	"GIT_SSH_COMMAND": true, "GIT_SSH": true, "GIT_EDITOR": true, "GIT_SEQUENCE_EDITOR": true,
	"GIT_PAGER": true, "GIT_EXTERNAL_DIFF": true, "GIT_ASKPASS": true, "GIT_PROXY_COMMAND": true,
	"SSH_ASKPASS": true, "SUDO_ASKPASS": true, "EDITOR": true, "VISUAL": true, "FCEDIT": true,
	"PAGER": true, "MANPAGER": true, "SYSTEMD_PAGER": true, "LESSOPEN": true, "LESSCLOSE": true,
	"BROWSER": true, "TERMINAL": true, "SHELL": true,
}

// gitConfigValue matches the variables that carry git settings.
var gitConfigValue = regexp.MustCompile(`^GIT_CONFIG_VALUE_[0-9]+$`)

// gitConfigKey matches the variables that name the settings of
// GIT_CONFIG_VALUE_N.
var gitConfigKey = regexp.MustCompile(`^GIT_CONFIG_KEY_[0-9]+$`)

// gitCommandKey matches git settings whose value is a command line.
var gitCommandKey = regexp.MustCompile(`(?i)^(alias\..*|pager\..*|submodule\..*\.update|.*(pager|editor|sshcommand|fsmonitor|askpass|helper|external|textconv|cmd|command|clean|smudge|process|program|gitproxy|packobjectshook|uploadpack|receivepack|difffilter|driver))$`)

// gitUnseenVariables send git to a config, repository, template or
// program directory the line does not show (as include.path and
// --exec-path do): its fsmonitor, hooks and git-* programs run.
var gitUnseenVariables = set("GIT_EXEC_PATH", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG",
	"GIT_TEMPLATE_DIR", "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR")

// gitUnseenKey matches git settings that make git run commands the line
// does not show: another config file (include.path), a hooks directory,
// and transports that run a command (protocol.ext.allow for ext::CMD).
var gitUnseenKey = regexp.MustCompile(`(?i)^(include\.path|includeif\..*\.path|core\.hookspath|protocol\.(.*\.)?allow)$`)

// whyGitSetting explains a git setting that runs what the line does not
// show.
const whyGitSetting = "a git setting makes git run commands the line does not show (another config file, a hooks directory, a transport that runs a command, a value taken from the environment)"

// gitSetting looks at one git setting given on the line (`-c KEY=VALUE`,
// GIT_CONFIG_KEY_N and _VALUE_N, GIT_CONFIG_PARAMETERS).
func (w *walker) gitSetting(key, value string) {
	switch {
	case gitCommandKey.MatchString(key):
		w.hiddenScript(strings.TrimPrefix(value, "!"))
	case gitUnseenKey.MatchString(key):
		w.unknownFor(whyGitSetting)
	}
}

// hiddenScript shows the commands of text, which bash or a program may run
// as a command line or expand as a prompt, to deny and ask rules and hard
// deny. It never allows anything: the part that carries the text is judged
// as itself.
func (w *walker) hiddenScript(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	if w.depth >= maxShellDepth {
		w.unknownFor("commands held in values are nested deeper than the analysis follows")
		return
	}
	if strings.IndexByte(text, opaque) >= 0 {
		w.unknownFor(whyCodeValue)
		w.a.anyProgram = true
		return
	}
	parsed := false
	for _, script := range []string{text, "echo " + text} {
		sub := analyze(script, w.depth+1)
		if sub.err != nil {
			// Its rough split still shows deny rules its commands: a
			// shell may read it otherwise (an unclosed here-document
			// runs to the end).
			w.denyFor(sub.deny)
			for _, p := range sub.parts {
				w.a.hidden = append(w.a.hidden, p.text)
			}
			continue
		}
		parsed = true
		w.denyFor(sub.deny)
		for _, p := range sub.parts {
			w.a.hidden = append(w.a.hidden, p.text)
			w.a.hidden = append(w.a.hidden, p.extra...)
		}
		w.a.hidden = append(w.a.hidden, sub.hidden...)
		if sub.unknown != "" {
			// What the value runs is not all seen (nested too deep, a
			// program only known then): the line cannot be judged.
			w.unknownFor(sub.unknown)
		}
	}
	if !parsed {
		w.unknownFor("a command held in a value does not parse as shell")
	}
}

// hiddenFunction shows deny and ask rules the commands of a function body
// a child bash imports from its environment, like hiddenScript; a program
// in it that is only known when it runs (`${X:-curl}`) makes the line
// unknown, and a deny rule that could be that program decides.
func (w *walker) hiddenFunction(body string) {
	w.hiddenScript("f" + body)
	if w.depth >= maxShellDepth {
		return
	}
	if sub := analyze("f"+body, w.depth+1); sub.err != nil || sub.anyProgram || sub.unknown != "" {
		w.unknownFor(whyCodeValue)
		w.a.anyProgram = w.a.anyProgram || sub.anyProgram
	}
}

// assignValue looks at a variable given a value (in front of a command,
// for the rest of the line, or by export/declare): a command line in it is
// shown to the rules.
func (w *walker) assignValue(name, value string) {
	switch {
	case strings.HasPrefix(name, "BASH_FUNC_") && strings.HasPrefix(value, "()"):
		// An exported function a child bash defines (env
		// 'BASH_FUNC_x%%=() { ...; }' bash -c x): its body runs.
		w.hiddenFunction(value)
	case gitConfigKey.MatchString(name) && gitUnseenKey.MatchString(value), gitUnseenVariables[name]:
		w.unknownFor(whyGitSetting)
	case (name == "BASH_ENV" || name == "ENV") && (descriptorPath(value) || strings.IndexByte(value, opaque) >= 0):
		// The shell sources it first: from a descriptor (<(...)) its
		// text is only known when the line runs, as `source <(...)`.
		w.unknownFor(whyUnseenCode)
	case codeVariables[name] || gitConfigValue.MatchString(name):
		w.hiddenScript(strings.TrimPrefix(value, "!"))
	case name == "GIT_CONFIG_PARAMETERS":
		// git writes it as 'key'='value' 'key2'='value2'; read it with
		// the quotes as blanks (a value with spaces) and dropped ('k'='v').
		for _, r := range []*strings.Replacer{strings.NewReplacer("'", " ", `"`, " "), strings.NewReplacer("'", "", `"`, "")} {
			for _, f := range strings.Fields(r.Replace(value)) {
				if k, v, ok := strings.Cut(f, "="); ok {
					w.gitSetting(k, v)
				}
			}
		}
		if strings.IndexByte(value, opaque) >= 0 {
			w.unknownFor(whyCodeValue)
		}
	}
}

// scriptExtras reads a shell line a wrapper runs (`su -c`, `watch`,
// `env -S`): its commands are other spellings of the wrapping part for deny
// and ask rules, its writes and hard-deny reasons count, and what it does
// not show makes the line unknown.
func (w *walker) scriptExtras(script string, p *part, d dirs) {
	if strings.IndexByte(script, opaque) >= 0 {
		w.unknownFor(whyUnseenCode)
		w.a.anyProgram = true
		return
	}
	if w.depth >= maxShellDepth {
		w.unknownFor("shell scripts are nested deeper than the analysis follows")
		return
	}
	sub, parsed, _, _ := w.walkScript(script, d)
	if !parsed {
		for _, ip := range sub.parts {
			p.extra = append(p.extra, ip.text)
		}
		w.unknownFor("a script passed to a shell does not parse")
		return
	}
	for _, ip := range sub.parts {
		p.extra = append(p.extra, ip.text)
		p.extra = append(p.extra, ip.extra...)
	}
}

// walkScript walks a shell line this line runs (the script of `bash -c`, a
// wrapper's string, a program's option) in d, one level deeper, with what
// this walker knows is uncertain, its own unknown constructs and divergent
// readings, and merges what it finds into this line's analysis. ok and all
// are the directories it may end in. A script that does not parse gives
// its rough split (parsed false), whose hard-deny reason counts; the
// caller says why the line is unknown and what the split's parts are.
func (w *walker) walkScript(script string, d dirs) (sub *analysis, parsed bool, ok, all dirs) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	if err != nil {
		sub = roughAnalysis(script, err)
		w.denyFor(sub.deny)
		return sub, false, d, d
	}
	sub = &analysis{}
	iw := newWalker(sub, w.depth+1, f)
	iw.inherit(w)
	ok, all = iw.walkStmts(f.Stmts, d)
	if u := scanUnknown(f); u != "" {
		iw.unknownFor(u)
	}
	if readings := divergentReadings(script); readings != nil {
		iw.divergence(readings)
	}
	w.merge(sub)
	return sub, true, ok, all
}

// merge adds what a nested script's analysis found to this line's.
func (w *walker) merge(sub *analysis) {
	w.denyFor(sub.deny)
	if sub.unknown != "" {
		w.unknownFor(sub.unknown)
	}
	for _, g := range sub.gitRuns {
		g.before += len(w.a.writes) // the writes before the script's come first
		w.a.gitRuns = append(w.a.gitRuns, g)
	}
	w.a.writes = append(w.a.writes, sub.writes...)
	w.a.reads = append(w.a.reads, sub.reads...)
	w.a.hidden = append(w.a.hidden, sub.hidden...)
	w.a.blindWrite = w.a.blindWrite || sub.blindWrite
	w.a.envTaint = w.a.envTaint || sub.envTaint
	w.a.anyProgram = w.a.anyProgram || sub.anyProgram
}

// shadowing notes builtins that change what later names run, and gives a
// part whose name `hash -p` pointed elsewhere the other program's
// spelling.
func (w *walker) shadowing(words []string, p *part) {
	if len(words) == 0 {
		return
	}
	if to, ok := w.hashed[words[0]]; ok {
		p.extra = append(p.extra, strings.Join(append([]string{to}, words[1:]...), " "))
		p.extra = append(p.extra, strings.Join(append([]string{path.Base(to)}, words[1:]...), " "))
	}
	switch words[0] {
	case "fc":
		w.unknownFor(whyHistory) // runs an editor, or runs earlier lines again
	case "history":
		for _, a := range words[1:] {
			if a == "-s" {
				w.unknownFor(whyHistory)
			}
		}
	case "hash":
		for i := 1; i < len(words); i++ {
			if words[i] == "-p" && i+2 < len(words) {
				if w.hashed == nil {
					w.hashed = map[string]string{}
				}
				w.hashed[words[i+2]] = words[i+1]
				w.a.hidden = append(w.a.hidden, words[i+1])
				w.unknownFor(whyHash)
			}
		}
	case "enable":
		for _, a := range words[1:] {
			if a != "-p" && a != "-a" && a != "-s" {
				w.unknownFor(whyEnable)
			}
		}
	case "set":
		for _, a := range words[1:] {
			if a == "--" {
				break
			}
			switch {
			case a == "keyword" || (len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a, 'k') >= 0):
				w.unknownFor(whySetOption)
			case a == "allexport" || (len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a, 'a') >= 0):
				w.a.envTaint = true // every later assignment is exported
			}
		}
	case "shopt":
		setting := false
		for _, a := range words[1:] {
			switch {
			case a == "-s" || a == "-u":
				setting = true
			case setting && globOptions[a]:
				w.unknownFor(whyShoptGlob)
			}
		}
	}
}

// globOptions are shopt options that change which files a pattern names or
// how later words are read.
var globOptions = map[string]bool{
	"extglob": true, "expand_aliases": true, "nocaseglob": true, "globstar": true, "dotglob": true,
	"nullglob": true, "failglob": true, "nocasematch": true, "globasciiranges": true, "globskipdots": true,
	"noexpand_translation": true, "patsub_replacement": true,
}

// codeValues shows the commands held in alias values and git -c settings
// to the rules.
func (w *walker) codeValues(words []string) {
	if len(words) < 2 {
		return
	}
	switch path.Base(words[0]) {
	case "env":
		// env NAME=VALUE ... sets what the command's environment holds.
		for i := 1; i < len(words); i++ {
			a := words[i]
			switch {
			case a == "-u" || a == "-C" || a == "-S" || a == "-a" || a == "--unset" || a == "--chdir" ||
				a == "--split-string" || a == "--argv0":
				i++
			case strings.HasPrefix(a, "-"):
			case strings.IndexByte(a, '=') > 0:
				name, value, _ := strings.Cut(a, "=")
				w.assignValue(name, value)
			default:
				return // the command
			}
		}
	case "alias":
		for _, a := range words[1:] {
			if _, v, ok := strings.Cut(a, "="); ok {
				w.hiddenScript(v)
			}
		}
	case "complete", "compgen":
		for i := 1; i+1 < len(words); i++ {
			if words[i] == "-C" {
				w.hiddenScript(words[i+1]) // run to complete a word
			}
		}
	case "bind":
		for i := 1; i+1 < len(words); i++ {
			if words[i] == "-x" {
				if _, cmd, ok := strings.Cut(words[i+1], ":"); ok {
					w.hiddenScript(strings.Trim(strings.TrimSpace(cmd), `"'`)) // run on a key
				}
			}
		}
	case "git":
		for i := 1; i < len(words); i++ {
			a := words[i]
			if !strings.HasPrefix(a, "-") {
				for _, arg := range words[i+1:] {
					if cmd, ok := strings.CutPrefix(arg, "ext::"); ok {
						// The ext transport runs a command (% escapes
						// and all) as the remote.
						w.unknownFor(whyGitSetting)
						w.hiddenScript(cmd)
					}
				}
				if a == "clone" {
					// clone -c sets the new repository's config before
					// it checks out (core.fsmonitor runs then).
					for j := i + 1; j+1 < len(words); j++ {
						if words[j] == "-c" || words[j] == "--config" {
							if k, v, ok := strings.Cut(words[j+1], "="); ok {
								w.gitSetting(k, v)
							}
						}
					}
				}
				return // the subcommand
			}
			if a == "-c" && i+1 < len(words) {
				i++
				if k, v, ok := strings.Cut(words[i], "="); ok {
					w.gitSetting(k, v)
				}
			}
			if a == "--config-env" || strings.HasPrefix(a, "--config-env=") {
				w.unknownFor(whyGitSetting) // the value is in the environment
				if a == "--config-env" {
					i++
				}
			}
			if a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--exec-path" {
				i++
			}
		}
	}
}

// unseenScript says why a command runs shell code whose text the line does
// not hold, or "": eval or trap of an expansion, a shell given an expanded
// -c string or a script from a descriptor or a substitution, source of
// one.
func unseenScript(words []string) string {
	if len(words) == 0 {
		return ""
	}
	name := path.Base(words[0])
	if name == "at" || name == "batch" || name == "crontab" {
		// They keep commands, from standard input or a file, that run
		// later: unless they only list, show or remove what is kept.
		if !hasShort(words[1:], 'l', "") && !hasShort(words[1:], 'r', "") && !hasShort(words[1:], 'c', "") {
			return whyUnseenCode
		}
		return ""
	}
	if len(words) < 2 {
		return ""
	}
	hasOpaque := func(vs []string) bool {
		for _, v := range vs {
			if strings.IndexByte(v, opaque) >= 0 {
				return true
			}
		}
		return false
	}
	switch {
	case name == "eval":
		if hasOpaque(words[1:]) {
			return whyUnseenCode
		}
	case name == "trap":
		rest := words[1:]
		if rest[0] == "--" {
			rest = rest[1:]
		}
		if len(rest) >= 2 && !strings.HasPrefix(rest[0], "-") && hasOpaque(rest[:1]) {
			return whyUnseenCode
		}
	case name == "tmux" && tmuxRuns(words[1:]), name == "screen" && screenRuns(words[1:]):
		return whyUnseenCode
	case name == "source" || name == ".":
		if f := words[1]; strings.IndexByte(f, opaque) >= 0 || descriptorPath(f) {
			return whyUnseenCode
		}
	case shells[name]:
		for i := 1; i < len(words); i++ {
			v := words[i]
			switch {
			case v == "-o" || v == "+o" || v == "-O" || v == "+O":
				i++
			case strings.HasPrefix(v, "--"):
			case len(v) > 1 && (v[0] == '-' || v[0] == '+'):
				if strings.IndexByte(v, 'c') >= 0 {
					if i+1 < len(words) && strings.IndexByte(words[i+1], opaque) >= 0 {
						return whyUnseenCode
					}
					return ""
				}
			default:
				if strings.IndexByte(v, opaque) >= 0 || descriptorPath(v) {
					return whyUnseenCode
				}
				return ""
			}
		}
	}
	return ""
}

// descriptorPath reports whether a script file is a descriptor (a
// process substitution's /dev/fd/63, /dev/stdin, /proc/self/fd/N): its
// text is only known when the line runs.
func descriptorPath(f string) bool {
	clean := path.Clean(f)
	return f == "-" || clean == "/dev/stdin" || strings.HasPrefix(clean, "/dev/fd/") ||
		(strings.HasPrefix(clean, "/proc/") && strings.Contains(clean, "/fd/"))
}

// tmuxCommands are the tmux commands that start a shell command, or type
// keys into a pane's shell (send-keys), in a server that may be the
// person's own.
var tmuxCommands = set("new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane",
	"respawnp", "respawn-window", "respawnw", "run-shell", "run", "if-shell", "if", "pipe-pane", "pipep",
	"display-popup", "popup", "send-keys", "send", "source-file", "source")

// tmuxRuns reports whether a tmux command line starts a command or types
// one: -c, or one of tmuxCommands anywhere (commands chain with ;).
func tmuxRuns(args []string) bool {
	for _, a := range args {
		if a == "-c" || tmuxCommands[strings.TrimSuffix(a, ";")] {
			return true
		}
	}
	return false
}

// screenRuns reports whether a screen command line starts a command (an
// operand, -s's shell) or sends one to a session (-X); -ls, -r and the
// like only list or attach.
func screenRuns(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-X" || strings.HasPrefix(a, "-s"):
			return true
		case a == "-Logfile" || len(a) > 1 && a[0] == '-' && strings.IndexByte("SceHhpTt", a[len(a)-1]) >= 0:
			i++ // its value
		case !strings.HasPrefix(a, "-"):
			return true
		}
	}
	return false
}
