package permission

import (
	"path"
	"strings"
)

// The compressors replace each file they are given with its compressed
// (or decompressed) twin beside it: `gzip F` writes F.gz and removes F,
// `gunzip F.gz` writes F. So every operand is a file written, with its
// twin's name (a settings file comes out of `gunzip .workbench/settings.json.gz`),
// unless the program only writes to its output stream (-c), tests or
// lists. A suffix that names a directory (-S /../../x), a name restored
// from the archive (-N) or a list of files read from a file (zstd
// --filelist) makes what is written unknown.

// compressor is how one program spells its options.
type compressor struct {
	spec   optionSpec
	suffix string // the default suffix it adds
	// stdout are its short options that write nothing but the output
	// stream, test or list (read in a cluster up to a value).
	stdout string
}

// compressorSpec builds a compressor's table: the short options that
// take a value, the long ones that do, those that write a file, and the
// ones that make the writes unknown.
func compressorSpec(short, long string, writes, blind []string) optionSpec {
	l := set(strings.Fields(long)...)
	for _, n := range append([]string{"stdout", "to-stdout", "test", "list", "suffix"}, blind...) {
		if _, ok := l[n]; !ok && len(n) > 1 {
			l[n] = n == "suffix"
		}
	}
	return optionSpec{short: short, long: l, writes: set(writes...), blind: set(blind...)}
}

var (
	gzipLike = compressorSpec("S", "", nil, []string{"N", "name"})
	xzLike   = compressorSpec("SFCTM", "format check threads memlimit memory block-size block-list filters", nil, nil)
	zstdLike = compressorSpec("oDTBM", "output output-dir-flat output-dir-mirror filelist memory patch-from",
		[]string{"o", "output", "output-dir-flat", "output-dir-mirror"}, []string{"filelist"})
	bzipLike = compressorSpec("bmp", "", nil, nil)
	lz4Like  = compressorSpec("Bi", "", nil, nil)
	brLike   = compressorSpec("oSqwDj", "output quality lgwin dictionary", []string{"o", "output"}, nil)
	lzipLike = compressorSpec("bmosS", "output dictionary-size match-length data-size", []string{"o", "output"}, nil)
)

// compressors are the programs read here, by base name.
var compressors = map[string]compressor{
	"gzip": {gzipLike, ".gz", "ctl"}, "gunzip": {gzipLike, ".gz", "ctl"},
	"pigz":   {compressorSpec("bpSIJC", "", nil, []string{"N", "name"}), ".gz", "ctl"},
	"unpigz": {compressorSpec("bpSIJC", "", nil, []string{"N", "name"}), ".gz", "ctl"},
	"xz":     {xzLike, ".xz", "ctl"}, "unxz": {xzLike, ".xz", "ctl"},
	"lzma": {xzLike, ".lzma", "ctl"}, "unlzma": {xzLike, ".lzma", "ctl"},
	"zstd": {zstdLike, ".zst", "ctl"}, "unzstd": {zstdLike, ".zst", "ctl"}, "zstdmt": {zstdLike, ".zst", "ctl"},
	"pzstd": {zstdLike, ".zst", "ct"},
	"bzip2": {bzipLike, ".bz2", "ct"}, "bunzip2": {bzipLike, ".bz2", "ct"}, "pbzip2": {bzipLike, ".bz2", "ct"},
	"lz4": {lz4Like, ".lz4", "ct"}, "unlz4": {lz4Like, ".lz4", "ct"},
	"brotli": {brLike, ".br", "ct"}, "lzip": {lzipLike, ".lz", "ctl"},
}

// writes returns the files the compressor writes given args, and whether
// what it writes is unknown.
func (c compressor) writes(args []string) (files []string, blind bool) {
	suffix := c.suffix
	gnuOptionValues(c.spec, args, func(name, val string) {
		switch {
		case c.spec.blind[name]:
			blind = true
		case c.spec.writes[name]:
			files = append(files, val)
		case name == "S" || name == "suffix":
			suffix = val
			blind = blind || strings.Contains(val, "/")
		}
	})
	letters, longs := optionFlags(c.spec, args)
	for n := range c.spec.blind {
		blind = blind || longs[n] || len(n) == 1 && strings.Contains(letters, n)
	}
	if strings.ContainsAny(letters, c.stdout) || longs["stdout"] || longs["to-stdout"] || longs["test"] || longs["list"] {
		return files, blind
	}
	// Every other word may be a file: a value the table reads wrongly
	// is checked as one too, which costs nothing.
	for _, f := range operandsOf(optionSpec{}, args) {
		if f == "-" {
			continue
		}
		files = append(files, f, f+suffix, strings.TrimSuffix(f, suffix), strings.TrimSuffix(f, path.Ext(f)))
	}
	return files, blind
}

// optionFlags returns the short options of words' clusters (up to the
// first that takes a value) and the long options, by their full names,
// as getopt reads them.
func optionFlags(spec optionSpec, words []string) (letters string, longs map[string]bool) {
	longs = map[string]bool{}
	var b strings.Builder
	for i := 0; i < len(words); i++ {
		a := words[i]
		switch {
		case a == "--":
			return b.String(), longs
		case strings.HasPrefix(a, "--"):
			name, _, hasVal := strings.Cut(a[2:], "=")
			if full, ok := longOption(name, spec.long); ok {
				longs[full] = true
				if spec.long[full] && !hasVal {
					i++ // its value
				}
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				b.WriteByte(a[j])
				if strings.IndexByte(spec.short, a[j]) >= 0 {
					if j == len(a)-1 {
						i++ // its value
					}
					break
				}
			}
		}
	}
	return b.String(), longs
}
