package web

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
)

// CheckedDial returns a dialer that applies WebFetch's egress checks (H11)
// to a host and port, for other ways out such as the sandbox's proxy
// (H16): the host is resolved once, every address it resolves to must be
// public unless allowPrivate names the host, and the connection goes to
// those addresses only. A nil resolver is the system's.
func CheckedDial(resolver Resolver, allowPrivate func(host string) bool) func(ctx context.Context, host, port string) (net.Conn, error) {
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	s := scope{resolver: resolver, allowPrivate: allowPrivate}
	var d net.Dialer
	return func(ctx context.Context, host, port string) (net.Conn, error) {
		host = strings.ToLower(strings.TrimSuffix(host, "."))
		p, err := strconv.ParseUint(port, 10, 16)
		if err != nil || p == 0 {
			return nil, fmt.Errorf("port %q is not a port number", port)
		}
		addrs, err := s.resolve(ctx, host)
		if err != nil {
			return nil, err
		}
		return pinnedDial(d.DialContext, addrs, uint16(p), nil)(ctx, "tcp", "")
	}
}
