package launcher

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"testing"
)

// The launcher's init takes over a process started as the launcher as soon
// as the packages it imports are initialised; an import that initialises
// late (path/filepath, net, anything of the UI) would make every sandboxed
// command pay for the whole binary's package initialisation again. Only
// these may be imported (sync, which os imports already, for the server's
// locks).
var allowedImports = map[string]bool{
	"encoding/json": true, "errors": true, "fmt": true, "os": true, "runtime": true, "slices": true,
	"strconv": true, "strings": true, "sync": true, "syscall": true, "time": true, "unsafe": true,
	"github.com/landlock-lsm/go-landlock/landlock":         true,
	"github.com/landlock-lsm/go-landlock/landlock/syscall": true,
	"golang.org/x/sys/unix":                                true,
}

func TestLauncherImportsStaySmall(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, name := range files {
		if filepath.Ext(name) != ".go" || len(name) > 8 && name[len(name)-8:] == "_test.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !allowedImports[path] {
				t.Errorf("%s imports %s, which the launcher may not (see the package comment)", name, path)
			}
		}
	}
}
