package web_test

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/seed92b641c3/workbench/tools/web"
)

func TestClassifyJudgesEveryNonPublicRange(t *testing.T) {
	t.Parallel()
	cases := []struct {
		addr string
		want string // "" for public; otherwise a word the class contains
	}{
		{"93.184.216.34", ""},
		{"203.0.113.10", ""},
		{"2606:4700::1111", ""},
		{"127.0.0.1", "loopback"},
		{"127.8.9.10", "loopback"},
		{"::1", "loopback"},
		{"10.1.2.3", "private"},
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"192.168.1.1", "private"},
		{"fc00::1", "private"},
		{"fd12:3456::1", "private"},
		{"169.254.1.1", "link-local"},
		{"fe80::1", "link-local"},
		{"100.64.0.1", "carrier-grade NAT"},
		{"100.127.255.254", "carrier-grade NAT"},
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"0.1.2.3", "unspecified"},
		{"224.0.0.1", "link-local"},
		{"224.1.2.3", "multicast"},
		{"239.255.255.250", "multicast"},
		{"ff02::1", "link-local"},
		{"ff0e::1", "multicast"},
		{"255.255.255.255", "reserved"},
		{"169.254.169.254", "cloud metadata"},
		{"fd00:ec2::254", "cloud metadata"},
		{"100.100.100.200", "cloud metadata"},
		{"::ffff:127.0.0.1", "loopback"},
		{"::ffff:169.254.169.254", "cloud metadata"},
		{"64:ff9b::a00:1", "private"},
		{"2002:7f00:1::", "loopback"},
		{"::127.0.0.1", "reserved"},
	}
	for _, c := range cases {
		t.Run(c.addr, func(t *testing.T) {
			t.Parallel()
			got := web.Classify(netip.MustParseAddr(c.addr))
			if c.want == "" && got != "" {
				t.Fatalf("classify(%s) = %q, want public", c.addr, got)
			}
			if c.want != "" && !strings.Contains(got, c.want) {
				t.Fatalf("classify(%s) = %q, want %q", c.addr, got, c.want)
			}
		})
	}
}
