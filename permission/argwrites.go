package permission

import (
	"path"
	"strings"
)

// A rule such as `Bash(rm:*)` says which program may run, not where it may
// write. For the common programs whose arguments name the files they
// change, those files are checked like an Edit's (path rules, protected
// files, the workspace boundary), just as redirection targets are, so an
// allowed `rm` still asks before `rm -rf ~/notes`. Their options are read
// as GNU getopt reads them: clustered short options (`-rt DIR`, `-t/dir`),
// long options by any unambiguous prefix (`--target=DIR`,
// `--target-directory DIR`), options after operands, `--`. Other programs'
// arguments are not paths to the policy.

// writeArgs says which operands of a program are files it writes.
type writeArgs int

const (
	allOperands writeArgs = iota // rm a b: a and b
	lastOperand                  // cp a b dir: dir
	afterFirst                   // chmod 644 a b: a and b
)

// writer describes one program: which operands it writes, its short
// options that take a value, and its long options (name -> takes a value).
type writer struct {
	kind  writeArgs
	short string
	long  map[string]bool
}

// longs builds a long-option table (name -> takes a value) from the names
// that take one and those that do not.
func longs(valued, plain string) map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(valued) {
		m[n] = true
	}
	for _, n := range strings.Fields(plain) {
		m[n] = false
	}
	return m
}

// fileWriters are the programs checked, by base name. Each table holds
// every long option of the program (GNU coreutils 9), so an abbreviation
// resolves as getopt_long resolves it: `cp a --o F` is --one-file-system,
// not an option of install's that would take F as its value. An optional
// value (`--backup[=CONTROL]`) is only ever attached.
var fileWriters = map[string]writer{
	"rm": {kind: allOperands, long: longs("", "dir force interactive no-preserve-root one-file-system "+
		"preserve-root recursive verbose help version")},
	"rmdir":  {kind: allOperands, long: longs("", "ignore-fail-on-non-empty parents verbose help version")},
	"unlink": {kind: allOperands, long: longs("", "help version")},
	"shred": {kind: allOperands, short: "ns", long: longs("iterations random-source size",
		"exact force remove verbose zero help version")},
	"touch": {kind: allOperands, short: "drt", long: longs("date reference time",
		"no-create no-dereference help version")},
	"mkdir": {kind: allOperands, short: "m", long: longs("mode", "context parents verbose help version")},
	"truncate": {kind: allOperands, short: "rs", long: longs("reference size",
		"io-blocks no-create help version")},
	"tee": {kind: allOperands, long: longs("", "append ignore-interrupts output-error help version")},
	"mv": {kind: allOperands, short: "St", long: longs("suffix target-directory", // the sources are gone afterwards
		"backup context force interactive no-clobber no-target-directory strip-trailing-slashes update "+
			"verbose exchange no-copy debug help version")},
	"cp": {kind: lastOperand, short: "St", long: longs("no-preserve sparse suffix target-directory",
		"archive attributes-only backup context copy-contents dereference force interactive link "+
			"no-clobber no-dereference no-target-directory one-file-system parents preserve recursive "+
			"reflink remove-destination strip-trailing-slashes symbolic-link update verbose keep-directory-symlink debug help version")},
	"ln": {kind: lastOperand, short: "St", long: longs("suffix target-directory",
		"backup directory force interactive logical no-dereference no-target-directory physical relative "+
			"symbolic verbose help version")},
	"install": {kind: lastOperand, short: "gmoSt", long: longs("group mode owner strip-program suffix target-directory",
		"backup compare context directory no-target-directory preserve-context preserve-timestamps strip "+
			"verbose debug help version")},
	"rsync":  {kind: lastOperand, short: "eTfBM@", long: map[string]bool{"rsh": true, "temp-dir": true, "filter": true, "exclude": true, "include": true, "backup-dir": true, "suffix": true, "rsync-path": true, "partial-dir": true, "log-file": true, "password-file": true, "files-from": true, "exclude-from": true, "include-from": true, "chmod": true, "chown": true, "compare-dest": true, "copy-dest": true, "link-dest": true, "out-format": true, "max-size": true, "min-size": true, "timeout": true, "port": true, "bwlimit": true}},
	"link":   {kind: lastOperand, long: longs("", "help version")}, // a hard link, as ln makes
	"mkfifo": {kind: allOperands, short: "m", long: longs("mode", "context help version")},
	"mknod":  {kind: allOperands, short: "m", long: longs("mode", "context help version")},
	"setfacl": {kind: allOperands, short: "mMxX", long: longs("modify modify-file remove remove-file set set-file",
		"remove-all remove-default no-mask mask default restore test recursive logical physical help version")},
	"chattr": {kind: allOperands, short: "pv"}, // +i is an operand, checked as a name at no cost
	"sponge": {kind: allOperands},
	// dos2unix and its kin convert their files in place (-n IN OUT
	// writes OUT: every operand is checked).
	"dos2unix": dosConverter, "unix2dos": dosConverter, "mac2unix": dosConverter, "unix2mac": dosConverter,
	// scp copies local files too: its last operand (host:path is a
	// relative name here, at no cost).
	"scp":   {kind: lastOperand, short: "cFiJloPSXD"},
	"chmod": {kind: afterFirst, long: map[string]bool{"reference": true}},
	"chown": {kind: afterFirst, long: map[string]bool{"reference": true, "from": true}},
	"chgrp": {kind: afterFirst, long: map[string]bool{"reference": true}},
}

// dosConverter is dos2unix's table, shared by its kin.
var dosConverter = writer{kind: allOperands, short: "c", long: longs("convmode", "newfile oldfile keepdate quiet "+
	"force safe ascii iso add-bom remove-bom keep-bom info verbose allow-chown no-allow-chown follow-symlink "+
	"replace-symlink skip-symlink help version license")}

// argWrites returns the files a command (its words after expansion,
// wrappers such as sudo already removed) writes through its arguments,
// whether one of them is only known when it runs, and whether the program
// is told to run commands of its own (sed's e).
func argWrites(words []string) (files []string, blind, runs bool) {
	if len(words) < 2 {
		return nil, false, false
	}
	prog := path.Base(words[0])
	wr, ok := fileWriters[prog]
	if !ok {
		switch prog {
		case "dd":
			files, blind = ddWrites(words[1:])
			return files, blind, false
		case "sed":
			return sedWrites(words[1:])
		}
		if awkNames[prog] {
			return nil, false, awkUnseen(words[1:])
		}
		return nil, false, false
	}
	files, blind = optionWrites(prog, wr, words)
	return files, blind, false
}

// optionWrites reads the options and operands of one of fileWriters.
func optionWrites(prog string, wr writer, words []string) (files []string, blind bool) {
	var operands, targets []string
	dirsOnly := false // install -d: every operand is a directory it creates
	reference := false
	var extra []string // values of long options the table does not know
	unknownLong := false
	for i := 1; i < len(words); i++ {
		a := words[i]
		switch {
		case a == "--":
			operands = append(operands, words[i+1:]...)
			i = len(words)
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			full, known := longOption(name, wr.long)
			if !known && name != "" {
				if prog == "chmod" || prog == "chown" || prog == "chgrp" {
					break
				}
				// Unknown or ambiguous: getopt refuses it and the
				// command does not run, unless the program is newer than
				// the table. Its value may then be a file, and the next
				// word may be its value or an operand, so for a program
				// that writes its last operand every operand may be it.
				if hasVal {
					extra = append(extra, val)
				}
				unknownLong = true
				break
			}
			if wr.long[full] && !hasVal && i+1 < len(words) {
				i++
				val, hasVal = words[i], true
			}
			switch full {
			case "target-directory":
				targets = append(targets, val)
			case "reference":
				reference = true
			case "backup", "suffix":
				if hasVal && strings.Contains(val, "/") {
					return nil, true // a backup written elsewhere
				}
			case "directory":
				dirsOnly = true
			}
		case len(a) > 1 && a[0] == '-' && !(prog == "chmod" && isModeOption(a)):
			for j := 1; j < len(a); j++ {
				c := a[j]
				if prog == "install" && c == 'd' {
					dirsOnly = true
				}
				if strings.IndexByte(wr.short, c) < 0 {
					continue
				}
				val := a[j+1:]
				if val == "" && i+1 < len(words) {
					i++
					val = words[i]
				}
				switch c {
				case 't':
					if prog == "touch" {
						break // touch -t STAMP
					}
					targets = append(targets, val)
				case 'S':
					if strings.Contains(val, "/") {
						return nil, true
					}
				case 'r':
					if prog == "touch" || prog == "truncate" {
						reference = true // a file read, not written
					}
				}
				break
			}
		default:
			operands = append(operands, a)
		}
	}
	defer func() {
		files = append(files, extra...)
		if unknownLong && wr.kind == lastOperand {
			files = append(files, operands...)
		}
	}()
	if prog == "ln" || prog == "link" {
		return append(files, lnWrites(lnSymbolic(words), operands, targets)...), false
	}
	if prog == "cp" {
		// cp -l and cp -s make links as ln does: what they lead to is
		// written through them later.
		if hard, symbolic := cpLinks(words); hard || symbolic {
			return append(files, lnWrites(symbolic, operands, targets)...), false
		}
	}
	switch {
	case dirsOnly:
		files = append(operands, targets...)
	case prog == "mv":
		files = append(operands, targets...)
	case len(targets) > 0:
		files = targets
	case wr.kind == lastOperand && len(operands) > 0:
		files = operands[len(operands)-1:]
	case wr.kind == afterFirst && len(operands) > 0:
		if reference {
			files = operands // --reference gives the mode
		} else {
			files = operands[1:] // the mode or owner
		}
	default:
		files = operands
	}
	return files, false
}

// longOption finds the long option name abbreviates, as getopt_long does:
// an exact name, or the only one it is a prefix of.
func longOption(name string, opts map[string]bool) (string, bool) {
	if _, ok := opts[name]; ok {
		return name, true
	}
	found := ""
	for o := range opts {
		if strings.HasPrefix(o, name) {
			if found != "" {
				return "", false // ambiguous
			}
			found = o
		}
	}
	return found, found != ""
}

// isModeOption reports whether a chmod argument that starts with '-' is a
// mode (`chmod -x f`, `-w`, `-rwx`) rather than one of its options
// (-c -f -v -R).
func isModeOption(a string) bool {
	return strings.Trim(a[1:], "cfvR") != ""
}

// ddWrites finds dd's output file (of=FILE).
func ddWrites(args []string) ([]string, bool) {
	var files []string
	for _, a := range args {
		if f, ok := strings.CutPrefix(a, "of="); ok {
			files = append(files, f)
		}
	}
	return files, false
}

// sedShort are GNU sed's short options that take a value; -i takes an
// optional one, attached.
const sedShort = "efl"

// sedLong are GNU sed's long options (name -> takes a value).
var sedLong = map[string]bool{
	"expression": true, "file": true, "in-place": false, "line-length": true, "null-data": false,
	"zero-terminated": false, "quiet": false, "silent": false, "regexp-extended": false,
	"separate": false, "sandbox": false, "debug": false, "posix": false, "unbuffered": false,
	"follow-symlinks": false, "binary": false, "help": false, "version": false,
}

// sedArgs is a sed command line as GNU sed's getopt reads it.
type sedArgs struct {
	scripts  []string // the values of -e and --expression, in order
	operands []string // the other words: the script when there is no -e, then files
	inPlace  bool     // -i, --in-place
	fromFile bool     // -f, --file: the script is in a file
	sandbox  bool     // --sandbox refuses e, r and w
	// suffixDir is set when -i's backup suffix names a directory.
	suffixDir bool
	// unknown is set for a long option getopt would refuse.
	unknown bool
}

// readSedArgs reads sed's options: clustered short options, where -i takes
// the rest of its word as a backup suffix and -e, -f, -l a value; long
// options by any unambiguous prefix; `--`.
func readSedArgs(args []string) sedArgs {
	var s sedArgs
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			s.operands = append(s.operands, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			full, ok := longOption(name, sedLong)
			if !ok {
				s.unknown = true
				continue
			}
			if sedLong[full] && !hasVal && i+1 < len(args) {
				i++
				val = args[i]
			}
			s.set(full, val)
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				c := a[j]
				if c == 'i' {
					s.set("in-place", a[j+1:]) // the rest is the backup suffix
					break
				}
				if strings.IndexByte(sedShort, c) >= 0 {
					val := a[j+1:]
					if val == "" && i+1 < len(args) {
						i++
						val = args[i]
					}
					s.set(sedShortNames[c], val)
					break
				}
			}
		default:
			s.operands = append(s.operands, a)
		}
	}
	return s
}

// sedShortNames are the long names of the short options readSedArgs
// records.
var sedShortNames = map[byte]string{'e': "expression", 'f': "file", 'l': "line-length"}

// set records the option name (a long name) with its value.
func (s *sedArgs) set(name, val string) {
	switch name {
	case "expression":
		s.scripts = append(s.scripts, val)
	case "file":
		s.fromFile = true
	case "in-place":
		s.inPlace = true
		s.suffixDir = s.suffixDir || strings.Contains(val, "/")
	case "sandbox":
		s.sandbox = true
	}
}

// sedReads returns the files a sed command's script reads with r and R,
// as far as the script can be read.
func sedReads(args []string) []string {
	s := readSedArgs(args)
	scripts := s.scripts
	if len(scripts) == 0 && len(s.operands) > 0 {
		scripts = s.operands[:1]
	}
	var reads []string
	for _, sc := range scripts {
		// Each -e is its own piece of the script for r's file name,
		// which runs to the end of the line.
		_, r, _ := sedScript(sc)
		reads = append(reads, r...)
	}
	return reads
}

// sedWrites finds the files sed writes: the operands of `sed -i` (which
// edits them in place, with a backup next to them when a suffix is given)
// and the files of the script's w commands and s///w flags. A script read
// from a file, or one that runs commands (e, s///e), is unknown, and so is
// a line getopt would refuse: it is not guessed at.
func sedWrites(args []string) (files []string, blind, runs bool) {
	s := readSedArgs(args)
	if s.unknown || s.suffixDir {
		return nil, true, false
	}
	scripts, operands := s.scripts, s.operands
	if len(scripts) == 0 && !s.fromFile && len(operands) > 0 {
		scripts, operands = operands[:1], operands[1:]
	}
	if s.inPlace {
		files = append(files, operands...)
	}
	if s.fromFile && !s.sandbox {
		return files, true, false
	}
	script := strings.Join(scripts, "\n")
	if strings.IndexByte(script, opaque) >= 0 {
		return files, true, false
	}
	w, _, ok := sedScript(script)
	if s.sandbox {
		return files, false, false // --sandbox refuses e, r and w
	}
	return append(files, w...), false, !ok
}

// lnSymbolic reports whether an ln command makes symbolic links (-s in a
// cluster, --symbolic by any prefix).
func lnSymbolic(words []string) bool {
	for _, a := range words[1:] {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "--") {
			if name, _, _ := strings.Cut(a[2:], "="); len(name) >= 2 && strings.HasPrefix("symbolic", name) {
				return true
			}
			continue
		}
		if len(a) > 1 && a[0] == '-' && strings.IndexByte(a, 's') > 0 {
			return true
		}
	}
	return false
}

// cpLinks reports whether a cp command makes hard links (-l, --link) or
// symbolic links (-s, --symbolic-link) instead of copies. A value of -S or
// -t in the cluster ends it.
func cpLinks(words []string) (hard, symbolic bool) {
	long := fileWriters["cp"].long
	for _, a := range words[1:] {
		switch {
		case a == "--":
			return hard, symbolic
		case strings.HasPrefix(a, "--"):
			name, _, _ := strings.Cut(a[2:], "=")
			switch full, _ := longOption(name, long); full {
			case "link":
				hard = true
			case "symbolic-link":
				symbolic = true
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a) && a[j] != 'S' && a[j] != 't'; j++ {
				hard = hard || a[j] == 'l'
				symbolic = symbolic || a[j] == 's'
			}
		}
	}
	return hard, symbolic
}

// lnWrites returns the files ln makes writable under a new name: the link
// names, and what they lead to. A hard link is the same file as its
// source, and a symbolic link leads to its target (relative to the link's
// directory), so writing through either later writes there: the sources
// are checked as written, and `ln OUTSIDE/f src/h` asks like writing
// OUTSIDE/f.
func lnWrites(symbolic bool, operands, targets []string) []string {
	sources, dirs := operands, targets
	if len(targets) == 0 && len(operands) > 0 {
		if len(operands) == 1 {
			// `ln -s /x/y`: the link is ./y.
			sources, dirs = operands, []string{"."}
		} else {
			last := operands[len(operands)-1]
			sources = operands[:len(operands)-1]
			// The link is last itself or, when last is a directory,
			// inside it: its target is read from either.
			dirs = []string{path.Dir(last), last}
		}
	}
	var files []string
	if len(targets) == 0 && len(operands) > 1 {
		files = append(files, operands[len(operands)-1])
	} else {
		files = append(files, targets...)
	}
	for _, s := range sources {
		if !symbolic || path.IsAbs(s) {
			files = append(files, s)
			continue
		}
		for _, d := range dirs {
			files = append(files, path.Join(d, s))
		}
	}
	return files
}
