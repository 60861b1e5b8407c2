package permission

import (
	"path"
	"strings"
)

// wrapper describes a command that runs another command given as its
// arguments. Deny rules and hard deny look through wrappers, so
// `sudo --user root rm -rf /`, `strace -o log rm x` and `su -c 'rm x'` are
// seen as rm. Allow rules do not: allowing `rm` does not allow `sudo rm`.
type wrapper struct {
	// short are the short options that take a value (attached, or the
	// next word when last in a cluster).
	short string
	// long are the long options that take a value, which getopt also
	// accepts as the next word (`--user root`).
	long map[string]bool
	// positional is how many operands come before the command
	// (`timeout 5`, `chrt 10`, `flock FILE`, `chroot DIR`).
	positional int
	// script are the options whose value is a shell command line run
	// with sh -c (`su -c`, `flock -c`, `script -c`).
	script string
	// scriptLong are the long spellings of script.
	scriptLong map[string]bool
	// scriptOnly says the wrapper runs a command only through its script
	// option; its other words are not a command (su USER, script FILE).
	scriptOnly bool
	// joined says the command words are joined with spaces and run by
	// sh -c (watch, sg), so they are a shell line, not words.
	joined bool
	// chdir and chdirLong are the options whose value is the directory
	// the command runs in (`env -C DIR`, `sudo --chdir DIR`).
	chdir     string
	chdirLong map[string]bool
	// away and awayLong are the options that run the command in a
	// directory, or under a root, the line does not show: a login
	// shell's home (`su -l`, `sudo -i`), `unshare --root`. elsewhere says
	// the wrapper always does (chroot, pkexec, systemd-run).
	away      string
	awayLong  map[string]bool
	elsewhere bool
	// program and programLong are the options whose value is the program
	// the wrapper runs in place of a shell (`su -s /bin/rm root x` runs
	// rm x).
	program     string
	programLong map[string]bool
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// wrappers are the wrappers known, by base name.
var wrappers = map[string]wrapper{
	"sudo": {short: "ugpCDhrtUTR", long: set("user", "group", "prompt", "close-from", "chdir", "host",
		"login-class", "role", "type", "other-user", "command-timeout", "chroot"),
		chdir: "D", chdirLong: set("chdir"), away: "iR", awayLong: set("login", "chroot")},
	"doas":    {short: "uC"},
	"pkexec":  {long: set("user"), elsewhere: true}, // in the target user's home
	"env":     {short: "uCSa", long: set("unset", "chdir", "split-string", "argv0"), chdir: "C", chdirLong: set("chdir")},
	"nice":    {short: "n", long: set("adjustment")},
	"nohup":   {},
	"time":    {short: "fo", long: set("format", "output")},
	"timeout": {short: "sk", long: set("signal", "kill-after"), positional: 1},
	"command": {},
	"builtin": {},
	"exec":    {short: "a"},
	"stdbuf":  {short: "ioe", long: set("input", "output", "error")},
	"ionice":  {short: "cnpPu", long: set("class", "classdata", "pid", "pgid", "uid")},
	"xargs": {short: "InPLdEsa", long: set("max-args", "max-procs", "delimiter", "max-chars", "arg-file",
		"process-slot-var")},
	"parallel": {short: "jSNXLnPdIE", long: set("jobs", "sshlogin", "delimiter", "arg-file", "joblog", "wd", "workdir"),
		awayLong: set("wd", "workdir")},
	"setsid":  {},
	"chrt":    {positional: 1},
	"taskset": {positional: 1},
	"flock":   {short: "wEc", long: set("timeout", "wait", "conflict-exit-code"), positional: 1, script: "c", scriptLong: set("command")},
	"unshare": {short: "SGRw", long: set("setuid", "setgid", "root", "wd", "map-user", "map-group", "map-users", "map-groups", "propagation", "setgroups"),
		chdir: "w", chdirLong: set("wd"), away: "R", awayLong: set("root")},
	"nsenter": {short: "tSG", long: set("target", "setuid", "setgid"), away: "wr", awayLong: set("wd", "root")},
	"chroot":  {long: set("userspec", "groups"), positional: 1, elsewhere: true},
	"su": {short: "cgGsw", long: set("group", "supp-group", "shell", "whitelist-environment"),
		script: "c", scriptLong: set("command", "session-command"), scriptOnly: true, away: "l", awayLong: set("login"),
		program: "s", programLong: set("shell")},
	"runuser": {short: "cgGswu", long: set("group", "supp-group", "shell", "whitelist-environment", "user"),
		script: "c", scriptLong: set("command", "session-command"), scriptOnly: true, away: "l", awayLong: set("login"),
		program: "s", programLong: set("shell")},
	"script": {short: "cTBIOEm", long: set("log-io", "log-in", "log-out", "log-timing", "echo", "logging-format"),
		script: "c", scriptLong: set("command"), scriptOnly: true},
	"sg":          {positional: 1, joined: true},
	"watch":       {short: "n", long: set("interval"), joined: true},
	"strace":      {short: "abeEIoOpPsSuXU", long: set("output", "attach", "user", "env", "trace-path", "signal", "status")},
	"ltrace":      {short: "aAelnopsuwxF", long: set("output", "library")},
	"fakeroot":    {short: "lsi", long: set("lib", "faked")},
	"faketime":    {positional: 1},
	"firejail":    {awayLong: set("private-cwd")},
	"proxychains": {short: "f"}, "proxychains4": {short: "f"},
	"torsocks":  {short: "uapP"},
	"torify":    {},
	"numactl":   {short: "imNCpP", long: set("interleave", "membind", "cpunodebind", "physcpubind", "preferred")},
	"busybox":   {},
	"toybox":    {},
	"catchsegv": {},
	"unbuffer":  {},
	"eatmydata": {},
	"systemd-run": {short: "pEHM", long: set("unit", "property", "description", "slice", "uid", "gid",
		"working-directory", "setenv", "on-calendar", "nice", "machine", "host"), elsewhere: true},
	"cgexec": {short: "g"},
	// Session 7: more programs that run the command in their arguments.
	"setarch":     {positional: 1},
	"linux32":     {},
	"linux64":     {},
	"prlimit":     {short: "p", long: set("pid", "output")}, // limits are attached: --nofile=1
	"chpst":       {short: "uUbe/nlLmdofcprt"},
	"daemonize":   {short: "ceEolpu", chdir: "c"},
	"valgrind":    {}, // its options are attached: --tool=x
	"dbus-launch": {long: set("config-file")},
	"xvfb-run":    {short: "nsfepw", long: set("server-num", "server-args", "auth-file", "error-file", "xauth-protocol", "wait")},
	"rlwrap":      {short: "bCDfFgHlMOpPqsStwz"},
	"entr":        {},
	"npx":         {short: "pc", long: set("package", "call"), script: "c", scriptLong: set("call")},
	"bunx":        {short: "p", long: set("package")},
}

func init() { wrappers["sem"] = wrappers["parallel"] } // GNU parallel's semaphore mode

// subcommandWrappers are the programs whose subcommand runs the command
// after it: `jobs -x CMD`, `npm exec CMD`, `pnpm dlx CMD`, `bun x CMD`.
var subcommandWrappers = map[string]map[string]bool{"jobs": set("-x"), "npm": set("exec", "x"),
	"pnpm": set("exec", "dlx"), "yarn": set("exec", "dlx"), "bun": set("x")}

// unwrapped is a command with its wrappers removed.
type unwrapped struct {
	// rest are the words of the command the wrappers run.
	rest []string
	// n is how many words the wrappers took.
	n int
	// scripts are shell lines a wrapper runs with sh -c (`su -c 'x'`,
	// `watch 'a; b'`, `env -S 'x y'`); rest is then what follows them.
	scripts []string
	// splitString is set when env -S split a string into words by rules
	// of its own, which the analysis reads as shell words.
	splitString bool
	// chdirs are the directories wrappers move the command to, in order.
	chdirs []string
	// away is set when a wrapper runs the command in a directory or under
	// a root the line does not show (wrapper.away).
	away bool
	// programs are the programs wrappers were told to run as their shell
	// (wrapper.program).
	programs []string
}

// unwrap strips leading wrapper commands (and their options) from a
// command's word values. It returns the remaining words and how many were
// stripped.
func unwrap(vals []string) ([]string, int) {
	u := unwrapAll(vals)
	return u.rest, u.n
}

// unwrapAll strips wrappers as getopt reads their options: clusters,
// attached and separate values, long options by name with `=` or the next
// word, operands before the command, `--`. A shell line a wrapper runs is
// returned in scripts. An option spelling not in the table may leave the
// wrapper's value in place as the command, which only makes deny rules see
// less, never allow more.
func unwrapAll(vals []string) unwrapped {
	var u unwrapped
	i := 0
	for i < len(vals) {
		name := path.Base(vals[i])
		if subs := subcommandWrappers[name]; i+1 < len(vals) && subs[vals[i+1]] {
			// jobs -x CMD ARGS, npm exec -- CMD ARGS: its options
			// (values attached) and -- come before the command.
			for i += 2; i < len(vals) && strings.HasPrefix(vals[i], "-") && vals[i] != "-"; i++ {
			}
			continue
		}
		wr, ok := wrappers[name]
		if !ok {
			break
		}
		i++
		u.away = u.away || wr.elsewhere
		positional := wr.positional
		if name == "su" || name == "runuser" {
			if name == "runuser" && hasShortOption(vals[i:], 'u', "user") {
				wr.scriptOnly = false
			}
		}
	options:
		for i < len(vals) {
			v := vals[i]
			switch {
			case v == "--":
				i++
				break options
			case name == "env" && strings.IndexByte(v, '=') > 0 && !strings.HasPrefix(v, "-"):
				i++
			case v == "-" && (name == "su" || name == "runuser"):
				u.away = true // `su -`: a login shell, in the user's home
				i++
			case strings.HasPrefix(v, "--"):
				long, val, hasVal := strings.Cut(v[2:], "=")
				i++
				if wr.long[long] || wr.scriptLong[long] {
					if !hasVal && i < len(vals) {
						val, hasVal = vals[i], true
						i++
					}
				}
				if hasVal && (wr.scriptLong[long] || (name == "env" && long == "split-string")) {
					u.scripts = append(u.scripts, val)
					u.splitString = u.splitString || name == "env"
				}
				if hasVal && wr.programLong[long] {
					u.programs = append(u.programs, val)
				}
				switch {
				case wr.awayLong[long] || wr.chdirLong[long] && !hasVal:
					u.away = true
				case wr.chdirLong[long]:
					u.chdirs = append(u.chdirs, val)
				}
			case len(v) > 1 && v[0] == '-':
				i++
				opt, val, takes := shortValue(v[1:], wr.short)
				flags := v[1:]
				if takes {
					flags = flags[:strings.IndexByte(flags, opt)+1]
				}
				if strings.ContainsAny(flags, wr.away) {
					u.away = true
				}
				if takes && val == "" && i < len(vals) {
					val = vals[i]
					i++
				}
				if takes && strings.IndexByte(wr.chdir, opt) >= 0 {
					u.chdirs = append(u.chdirs, val)
				}
				if takes && strings.IndexByte(wr.program, opt) >= 0 {
					u.programs = append(u.programs, val)
				}
				if takes && (strings.IndexByte(wr.script, opt) >= 0 || (name == "env" && opt == 'S')) {
					u.scripts = append(u.scripts, val)
					u.splitString = u.splitString || name == "env"
				}
			case positional > 0:
				positional--
				i++
			case wr.scriptOnly:
				i++ // su USER, script FILE: operands, not a command
			default:
				break options
			}
		}
		if wr.joined && i < len(vals) {
			u.scripts = append(u.scripts, strings.Join(vals[i:], " "))
			i = len(vals)
		}
		if wr.scriptOnly {
			i = len(vals)
		}
	}
	u.rest, u.n = vals[i:], i
	if len(u.scripts) > 0 && u.splitString && len(u.rest) > 0 {
		// env -S 'a b' c: the split words come before the rest.
		u.scripts[len(u.scripts)-1] += " " + strings.Join(quoteWords(u.rest), " ")
		u.rest, u.n = nil, len(vals)
	}
	return u
}

// shortValue reads a cluster of short options (without its dash): the
// first that takes a value ends it, with what follows as the value.
func shortValue(cluster, opts string) (opt byte, val string, takes bool) {
	for j := 0; j < len(cluster); j++ {
		if strings.IndexByte(opts, cluster[j]) >= 0 {
			return cluster[j], cluster[j+1:], true
		}
	}
	return 0, "", false
}

// hasShortOption reports whether words hold the option -c (in a cluster)
// or --long before the command.
func hasShortOption(words []string, c byte, long string) bool {
	for _, w := range words {
		switch {
		case w == "--":
			return false
		case w == "--"+long || strings.HasPrefix(w, "--"+long+"="):
			return true
		case len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.IndexByte(w, c) >= 0:
			return true
		}
	}
	return false
}

// quoteWords quotes words so a shell reads them back as the same words.
func quoteWords(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return out
}
