package web

import (
	"context"
	"errors"
	"net"
	"testing"
)

func TestH16_CheckedDialAppliesTheEgressChecks(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	closed := CheckedDial(nil, nil)
	var se *ScopeError
	for _, host := range []string{"127.0.0.1", "localhost", "metadata.google.internal", "::1", "::ffff:127.0.0.1"} {
		if c, err := closed(context.Background(), host, port); !errors.As(err, &se) {
			if c != nil {
				c.Close()
			}
			t.Errorf("%s: err = %v, want a scope refusal", host, err)
		}
	}
	open := CheckedDial(nil, func(host string) bool { return host == "127.0.0.1" })
	c, err := open(context.Background(), "127.0.0.1", port)
	if err != nil {
		t.Fatalf("a host a rule names: %v", err)
	}
	c.Close()
	if _, err := open(context.Background(), "127.0.0.1", "http"); err == nil {
		t.Error("a named port was dialled")
	}
}
