package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"

	"golang.org/x/net/idna"
)

// Resolver looks up the addresses of a host name. *net.Resolver satisfies
// it; the interface exists so tests can answer like a rebinding DNS server
// without a network.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// ScopeError reports a fetch refused because the host, or an address it
// resolves to, is outside the public internet: loopback, private,
// link-local, carrier-grade NAT, unspecified, multicast, reserved or a
// cloud metadata endpoint. Such addresses reach the person's own machine and
// network, which a model must not probe unless a rule names the host.
type ScopeError struct {
	// Host is the host as written in the URL, lower-cased.
	Host string
	// Addr is the refused address; invalid when the name itself is refused
	// (metadata.google.internal).
	Addr netip.Addr
	// Class says what kind of address it is ("loopback", "cloud metadata").
	Class string
}

// Error names the host, the address and its kind, then the rule that would
// allow it, so the model can tell the person what to add.
func (e *ScopeError) Error() string {
	what := fmt.Sprintf("%s is a %s host name", e.Host, e.Class)
	if e.Addr.IsValid() {
		what = fmt.Sprintf("%s resolves to %s, a %s address", e.Host, e.Addr, e.Class)
		if e.Addr.String() == e.Host {
			what = fmt.Sprintf("%s is a %s address", e.Host, e.Class)
		}
	}
	return what + "; such hosts are fetched only when a rule names them, such as " + hostRule(e.Host)
}

// hostRule is the permission rule that names host exactly.
func hostRule(host string) string {
	return "WebFetch(domain:" + host + ")"
}

// metadataAddrs are the cloud instance-metadata endpoints, which hand out
// credentials to whoever asks from inside the instance. They fall in
// link-local, private or CGNAT ranges anyway; naming them makes the refusal
// say what is at stake.
var metadataAddrs = map[netip.Addr]bool{
	netip.MustParseAddr("169.254.169.254"): true, // AWS, GCP, Azure, OpenStack
	netip.MustParseAddr("169.254.170.2"):   true, // AWS ECS task metadata
	netip.MustParseAddr("fd00:ec2::254"):   true, // AWS over IPv6
	netip.MustParseAddr("100.100.100.200"): true, // Alibaba Cloud
}

// metadataNames are host names that reach a metadata endpoint through the
// instance's own resolver; they are refused before any lookup.
var metadataNames = map[string]bool{
	"metadata.google.internal": true,
	"metadata.goog":            true,
	"metadata":                 true,
}

// scopeRanges are the non-public ranges netip has no predicate for.
var scopeRanges = []struct {
	prefix netip.Prefix
	class  string
}{
	{netip.MustParsePrefix("100.64.0.0/10"), "carrier-grade NAT"},
	{netip.MustParsePrefix("0.0.0.0/8"), "unspecified (this network)"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"}, // includes 255.255.255.255
	{netip.MustParsePrefix("192.0.0.0/24"), "reserved"},
	{netip.MustParsePrefix("198.18.0.0/15"), "reserved"},
	{netip.MustParsePrefix("fec0::/10"), "private (site-local)"},
	{netip.MustParsePrefix("::/96"), "reserved (IPv4-compatible)"},
	{netip.MustParsePrefix("100::/64"), "reserved (discard)"},
}

// Prefixes that carry an IPv4 address inside an IPv6 one; the embedded
// address is judged too, so ::ffff:127.0.0.1 or 64:ff9b::a00:1 cannot
// smuggle a loopback or private target past the check.
var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// classify returns why a is out of scope, or "" for a public address.
func classify(a netip.Addr) string {
	a = a.Unmap().WithZone("")
	if a.Is6() && (nat64.Contains(a) || sixToFour.Contains(a)) {
		b := a.As16()
		var v4 [4]byte
		if nat64.Contains(a) {
			copy(v4[:], b[12:16])
		} else {
			copy(v4[:], b[2:6])
		}
		if c := classify(netip.AddrFrom4(v4)); c != "" {
			return c + " (embedded in " + a.String() + ")"
		}
	}
	switch {
	case metadataAddrs[a]:
		return "cloud metadata"
	case a.IsLoopback():
		return "loopback"
	case a.IsUnspecified():
		return "unspecified"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return "link-local"
	case a.IsMulticast():
		return "multicast"
	case a.IsPrivate():
		return "private"
	}
	for _, r := range scopeRanges {
		if r.prefix.Contains(a) {
			return r.class
		}
	}
	return ""
}

// scope resolves hosts once and judges every answer.
type scope struct {
	resolver     Resolver
	allowPrivate func(host string) bool
}

// resolve returns host's addresses, all of them in scope (or the host
// allowed out of scope). A host with even one address out of scope is
// refused, because a rebinding DNS server mixes a public answer with a
// private one and lets the client pick. The caller connects to these
// addresses only and never resolves host again, so what was checked is what
// is reached.
func (s *scope) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	allowed := s.allowPrivate != nil && s.allowPrivate(host)
	if metadataNames[strings.TrimSuffix(host, ".")] && !allowed {
		return nil, &ScopeError{Host: host, Class: "cloud metadata"}
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		name, err := idna.Lookup.ToASCII(host)
		if err != nil {
			return nil, fmt.Errorf("host %q is not a valid name: %w", host, err)
		}
		addrs, err = s.resolver.LookupNetIP(ctx, "ip", name)
		if err != nil {
			return nil, fmt.Errorf("resolve %s: %w", host, err)
		}
		if len(addrs) == 0 {
			return nil, fmt.Errorf("resolve %s: no addresses", host)
		}
	}
	for i, a := range addrs {
		addrs[i] = a.Unmap()
		if allowed {
			continue
		}
		if c := classify(a); c != "" {
			return nil, &ScopeError{Host: host, Addr: addrs[i], Class: c}
		}
	}
	return addrs, nil
}

// errNoAddress is returned by a pinned dial that has nothing to try.
var errNoAddress = errors.New("no address to connect to")

// dialFunc is the shape of net.Dialer.DialContext.
type dialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// pinnedDial connects to port on the checked addresses, in order, and never
// to the address the transport asks for: the transport names the host, and
// resolving it again would open the window DNS rebinding needs. TLS still
// verifies the certificate against the host name, which the transport takes
// from the URL.
// connected, when set, is told the address each connection was made to,
// for the call's record.
func pinnedDial(dial dialFunc, addrs []netip.Addr, port uint16, connected func(string)) dialFunc {
	return func(ctx context.Context, network, _ string) (net.Conn, error) {
		err := errNoAddress
		for _, a := range addrs {
			var c net.Conn
			ap := netip.AddrPortFrom(a, port).String()
			c, err = dial(ctx, network, ap)
			if err == nil {
				if connected != nil {
					connected(ap)
				}
				return c, nil
			}
			if ctx.Err() != nil {
				break
			}
		}
		return nil, err
	}
}
