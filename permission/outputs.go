package permission

import (
	"path"
	"strings"
)

// Programs whose output files follow rules of their own: patch writes the
// files its patch names, mktemp a name made from a template in a
// directory, cpio, ar and 7z the members of an archive.

// patchSpec is GNU patch's options: those that take a value, and its long
// options (name -> takes a value).
var patchSpec = optionSpec{short: "BdDFgioprVxYz", long: map[string]bool{
	"prefix": true, "basename-prefix": true, "directory": true, "ifdef": true, "fuzz": true, "get": true,
	"input": true, "output": true, "strip": true, "reject-file": true, "version-control": true, "debug": true,
	"suffix": true, "quoting-style": true, "read-only": true, "reject-format": true, "backup": false,
	"context": false, "dry-run": false, "ed": false, "remove-empty-files": false, "force": false,
	"ignore-whitespace": false, "normal": false, "forward": false, "reverse": false, "silent": false,
	"quiet": false, "batch": false, "set-time": false, "set-utc": false, "unified": false, "verbose": false,
	"merge": false, "posix": false, "binary": false, "follow-symlinks": false, "backup-if-mismatch": false,
	"no-backup-if-mismatch": false, "help": false, "version": false}}

// patchWrites returns the files patch writes: the file named before the
// patch (`patch F fix.diff`), -o's and -r's. Without a file or -o, the
// patch names what it changes, which the line does not show; -d moves
// every name, and a backup prefix or suffix with a / writes elsewhere.
func patchWrites(args []string) (files []string, blind bool) {
	if _, longs := optionFlags(patchSpec, args); longs["dry-run"] {
		return nil, false
	}
	named := false
	gnuOptionValues(patchSpec, args, func(name, val string) {
		switch name {
		case "o", "output":
			named = true
			if val != "-" {
				files = append(files, val)
			}
		case "r", "reject-file":
			files = append(files, val)
		case "d", "directory":
			blind = true
		case "B", "prefix", "Y", "basename-prefix", "z", "suffix":
			blind = blind || strings.Contains(val, "/")
		}
	})
	if ops := operandsOf(patchSpec, args); len(ops) > 0 {
		named = true
		files = append(files, ops[0])
	}
	return files, blind || !named
}

// mktempSpec is mktemp's options; --tmpdir takes its value attached only.
var mktempSpec = optionSpec{short: "p", long: map[string]bool{"suffix": true, "tmpdir": false,
	"directory": false, "dry-run": false, "quiet": false, "help": false, "version": false}}

// mktempWrites returns where mktemp makes its file: the template's
// directory, in -p's or --tmpdir's directory when one is given (the
// template may climb out of it with ../). A template in the temp
// directory (-t, no template) writes nothing the policy judges, unless it
// climbs out of it.
func mktempWrites(args []string) (files []string, blind bool) {
	dir, inTemp := "", false
	gnuOptionValues(mktempSpec, args, func(name, val string) {
		if name == "p" || name == "tmpdir" {
			dir = val
			inTemp = true
		}
	})
	letters, longs := optionFlags(mktempSpec, args)
	if strings.ContainsRune(letters, 'u') || longs["dry-run"] {
		return nil, false
	}
	inTemp = inTemp || strings.ContainsRune(letters, 't') || longs["tmpdir"]
	template := ""
	if ops := operandsOf(mktempSpec, args); len(ops) > 0 {
		template = ops[0]
	}
	switch {
	case dir != "":
		files = append(files, dir)
		if template != "" {
			files = append(files, path.Join(dir, template))
		}
	case inTemp || template == "":
		blind = strings.Contains(template, "..")
	default:
		files = append(files, template)
	}
	return files, blind
}

// cpioSpec is GNU cpio's options that take a value.
var cpioSpec = optionSpec{short: "CDEFHIMOR", long: set("directory", "file", "format", "pattern-file",
	"message", "owner", "block-size", "io-size", "rsh-command")}

// cpioWrites returns the archive cpio -o writes (-F, -O, --file). Copying
// in (-i) or through (-p) writes the names the archive or the input
// holds, absolute or climbing out with ../: unknown.
func cpioWrites(args []string) (files []string, blind bool) {
	letters, longs := optionFlags(cpioSpec, args)
	if strings.ContainsAny(letters, "ip") || longs["extract"] || longs["pass-through"] {
		return nil, true
	}
	gnuOptionValues(cpioSpec, args, func(name, val string) {
		if name == "F" || name == "O" || name == "file" {
			files = append(files, val)
		}
		if name == "rsh-command" {
			blind = true
		}
	})
	return files, blind
}

// arWrites returns the archive ar changes (keys d, m, q, r, s) and the
// directory x extracts into (the working directory, or --output's);
// extracting full path names (P) writes where the members say.
func arWrites(args []string) (files []string, blind bool) {
	var ops []string
	out := "."
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--plugin" || a == "--target":
			i++
			blind = blind || a == "--plugin" // a plugin is code ar loads
		case strings.HasPrefix(a, "--output="):
			out = strings.TrimPrefix(a, "--output=")
		case a == "--output" && i+1 < len(args):
			i++
			out = args[i]
		case strings.HasPrefix(a, "--"):
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) < 2 {
		return nil, false
	}
	key := strings.TrimPrefix(ops[0], "-")
	rest := ops[1:]
	if strings.ContainsAny(key, "mr") && strings.ContainsAny(key, "abi") && len(rest) > 1 {
		rest = rest[1:] // the member the others are placed by
	}
	if strings.ContainsRune(key, 'N') && len(rest) > 1 {
		rest = rest[1:] // the count
	}
	switch {
	case strings.ContainsRune(key, 'x'):
		return []string{out}, strings.ContainsRune(key, 'P')
	case strings.ContainsAny(key, "dmqrs"):
		return rest[:1], blind
	}
	return nil, blind
}

// sevenZip reads a 7z command line: `7z COMMAND [-SWITCH...] ARCHIVE
// [NAMES...]`, its switches attached (-oDIR, -w[DIR]) anywhere. It
// returns the archive a, u, d and rn change, the directory e and x
// extract into (-o's, else the working directory), -w's working
// directory, and whether what it writes is unknown (-spf: full paths
// from the archive). -so writes the output stream only.
func sevenZip(args []string) (files []string, extractDir string, blind bool) {
	var ops []string
	out, stdout := ".", false
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "-o"):
			out = a[2:]
		case strings.HasPrefix(a, "-w") && len(a) > 2:
			files = append(files, a[2:])
		case a == "-so":
			stdout = true
		case strings.HasPrefix(a, "-spf"):
			blind = true
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) < 2 || stdout {
		return files, "", blind
	}
	switch ops[0] {
	case "a", "u", "d", "rn":
		files = append(files, ops[1])
	case "e", "x":
		return append(files, out), out, blind
	}
	return files, "", blind
}
