package web

import (
	"context"
	"net"
)

// WithDial returns cfg with its socket dialer replaced, so tests can stand
// in for the internet: fake public addresses lead to local test servers.
func WithDial(cfg FetchConfig, dial func(ctx context.Context, network, addr string) (net.Conn, error)) FetchConfig {
	cfg.dial = dial
	return cfg
}

// Classify exposes the address judgement to table tests.
var Classify = classify
