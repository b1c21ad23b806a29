// Package outbound decides which addresses the server may call out to
// (webhooks, reminders). Loopback, private, link-local, unspecified and
// similar ranges are refused unless the operator allows them with
// tend serve --outbound-allow CIDR: an address an outside user names must
// not reach into the server's own network. The check runs twice: when the
// address is given, and again on each connection's resolved address, so a
// name that resolves elsewhere later (DNS rebinding) is still refused.
package outbound

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
)

// Policy is the set of otherwise refused ranges the operator allows. The
// zero Policy allows none of them.
type Policy struct {
	Allow []netip.Prefix
}

// Parse reads --outbound-allow values: CIDRs, or single addresses.
func Parse(cidrs []string) (Policy, error) {
	var p Policy
	for _, c := range cidrs {
		for _, part := range strings.Split(c, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			pre, err := netip.ParsePrefix(part)
			if err != nil {
				a, aerr := netip.ParseAddr(part)
				if aerr != nil {
					return Policy{}, fmt.Errorf("--outbound-allow %q is not a CIDR (10.0.0.0/8) or an address", part)
				}
				pre = netip.PrefixFrom(a, a.BitLen())
			}
			p.Allow = append(p.Allow, pre.Masked())
		}
	}
	return p, nil
}

// ErrRefused is wrapped by every refusal of an address.
var ErrRefused = errors.New("refused outbound address")

// refusedRanges are ranges that are not the public internet beyond the
// checks netip.Addr offers by name.
var refusedRanges = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"), // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"), // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
}

// CheckAddr refuses an address in a private or local range the policy
// does not allow.
func (p Policy) CheckAddr(a netip.Addr) error {
	a = a.Unmap()
	for _, pre := range p.Allow {
		if pre.Contains(a) {
			return nil
		}
	}
	refused := a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsUnspecified() || a.IsMulticast() || a.IsInterfaceLocalMulticast()
	for _, pre := range refusedRanges {
		refused = refused || pre.Contains(a)
	}
	if refused {
		return fmt.Errorf("%w: %s is a loopback, private or local address; tend serve --outbound-allow CIDR allows it", ErrRefused, a)
	}
	return nil
}

// CheckURL refuses a URL that is not http(s) or whose host is, or resolves
// to, a refused address. A name that does not resolve now is let through:
// the connection is checked again when it is made.
func (p Policy) CheckURL(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an http or https URL", raw)
	}
	if u.User != nil {
		return fmt.Errorf("a URL carries no user or password; put a secret in the path or rely on the signature")
	}
	host := u.Hostname()
	if a, err := netip.ParseAddr(host); err == nil {
		return p.CheckAddr(a)
	}
	if h := strings.ToLower(strings.TrimSuffix(host, ".")); h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return p.CheckAddr(netip.MustParseAddr("127.0.0.1"))
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil
	}
	for _, a := range addrs {
		if err := p.CheckAddr(a); err != nil {
			return err
		}
	}
	return nil
}

// Control is a net.Dialer Control hook that refuses a connection to a
// refused address, whatever name led there.
func (p Policy) Control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s", ErrRefused, address)
	}
	return p.CheckAddr(ap.Addr())
}
