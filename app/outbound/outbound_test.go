package outbound_test

import (
	"context"
	"errors"
	"net/netip"
	"testing"

	"tend/app/outbound"
)

func TestCheckAddr(t *testing.T) {
	var zero outbound.Policy
	for _, s := range []string{"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "0.0.0.0", "::1",
		"fe80::1", "fc00::1", "::ffff:127.0.0.1", "100.64.0.1"} {
		if err := zero.CheckAddr(netip.MustParseAddr(s)); !errors.Is(err, outbound.ErrRefused) {
			t.Errorf("%s: %v, want refused", s, err)
		}
	}
	for _, s := range []string{"93.184.216.34", "2606:4700::1111"} {
		if err := zero.CheckAddr(netip.MustParseAddr(s)); err != nil {
			t.Errorf("%s: %v, want allowed", s, err)
		}
	}
	p, err := outbound.Parse([]string{"127.0.0.0/8", "10.0.0.5"})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.CheckAddr(netip.MustParseAddr("127.0.0.1")); err != nil {
		t.Errorf("allowed loopback refused: %v", err)
	}
	if err := p.CheckAddr(netip.MustParseAddr("10.0.0.6")); err == nil {
		t.Errorf("10.0.0.6 allowed by 10.0.0.5")
	}
	if _, err := outbound.Parse([]string{"nonsense"}); err == nil {
		t.Errorf("nonsense parsed")
	}
}

func TestCheckURL(t *testing.T) {
	var zero outbound.Policy
	ctx := context.Background()
	for _, u := range []string{"http://127.0.0.1:9/x", "http://localhost/x", "https://[::1]/", "ftp://example.com/", "not a url",
		"http://user:pw@example.com/"} {
		if err := zero.CheckURL(ctx, u); err == nil {
			t.Errorf("%s allowed", u)
		}
	}
	if err := zero.CheckURL(ctx, "https://93.184.216.34/hook"); err != nil {
		t.Errorf("public address refused: %v", err)
	}
}

func TestControlRefusesAtDial(t *testing.T) {
	var zero outbound.Policy
	if err := zero.Control("tcp4", "127.0.0.1:80", nil); !errors.Is(err, outbound.ErrRefused) {
		t.Errorf("dial to loopback: %v", err)
	}
	if err := zero.Control("tcp4", "93.184.216.34:443", nil); err != nil {
		t.Errorf("dial to public: %v", err)
	}
}
