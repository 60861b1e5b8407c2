// Package linked tells the provider tests which functions the linker kept in
// the running binary, so a test can prove that a provider links only the SDK
// service it uses. An SDK client holds every service of its API; a provider
// that keeps one makes the linker keep all of their code (tens of megabytes
// of the workbench binary, paged in at every start).
package linked

import (
	"debug/elf"
	"debug/gosym"
	"fmt"
	"os"
	"reflect"
	"strings"
)

// Functions returns the names of the running binary's functions that start
// with one of prefixes. It reads the binary's own line table (.gopclntab),
// which no build strips.
func Functions(prefixes ...string) ([]string, error) {
	path, err := os.Executable()
	if err != nil {
		return nil, err
	}
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	text, pcln := f.Section(".text"), f.Section(".gopclntab")
	if text == nil || pcln == nil {
		return nil, fmt.Errorf("%s: no .text or .gopclntab section", path)
	}
	data, err := pcln.Data()
	if err != nil {
		return nil, fmt.Errorf("%s: .gopclntab: %w", path, err)
	}
	table, err := gosym.NewTable(nil, gosym.NewLineTable(data, text.Addr))
	if err != nil {
		return nil, fmt.Errorf("%s: line table: %w", path, err)
	}
	var names []string
	for _, fn := range table.Funcs {
		for _, p := range prefixes {
			if strings.HasPrefix(fn.Name, p) {
				names = append(names, fn.Name)
				break
			}
		}
	}
	return names, nil
}

// KeepAllMethods makes the linker keep every exported method of every type
// the binary can reach, as it does in the workbench binary: a method looked
// up by a name known only at run time (here name; there text/template's
// field lookup, which the Bash tool's prompt uses) could be any of them.
// Without it a test binary would drop the methods of an unused client's
// services whether or not the provider holds the client, and a test of
// what is linked could not fail. It returns whether v has the method.
func KeepAllMethods(v any, name string) bool {
	return reflect.ValueOf(v).MethodByName(name).IsValid()
}
