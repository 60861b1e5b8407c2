package linked

import "testing"

// OnlyUsed fails t when the binary links a function starting with one of
// unused, or none starting with used: the provider p, its methods kept
// alive as a real caller would keep them, links the one service it calls.
// The used prefix proves the check reads the right table.
func OnlyUsed(t testing.TB, p any, noMethod string, used string, unused ...string) {
	t.Helper()
	KeepAllMethods(p, noMethod)
	fns, err := Functions(unused...)
	if err != nil {
		t.Fatal(err)
	}
	if len(fns) > 0 {
		t.Fatalf("the binary links %d functions of services the provider does not use, first %s", len(fns), fns[0])
	}
	found, err := Functions(used)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) == 0 {
		t.Fatalf("the line table shows no function %s: the check reads the wrong table", used)
	}
}
