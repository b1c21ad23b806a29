package pages

import (
	"encoding/xml"
	"image"
	"image/color"
	"strings"
	"testing"

	qr "github.com/piglig/go-qr"
)

// TestQRCode draws a sign-in link's code as the page does and reads it
// back: well-formed SVG whose side is the symbol's modules and margin,
// and a matrix that decodes to the link.
func TestQRCode(t *testing.T) {
	t.Parallel()
	link := "https://tend.example.ts.net/signin?link=tend_abcdefghij_0123456789abcdefghijklmnopqrstuvwxyzABCD"
	svg, err := qrSVG(link, "QR code")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		ViewBox string `xml:"viewBox,attr"`
		Path    struct {
			D string `xml:"d,attr"`
		} `xml:"path"`
	}
	if err := xml.Unmarshal([]byte(svg), &doc); err != nil {
		t.Fatalf("not well-formed SVG: %v\n%s", err, svg)
	}
	m, err := qrMatrix(link)
	if err != nil {
		t.Fatal(err)
	}
	// Version v has 17+4v modules a side; the link's 97 bytes need
	// version 6 at level M (106 bytes at most).
	if len(m) != 17+4*6 {
		t.Fatalf("%d modules a side", len(m))
	}
	if want := "0 0 49 49"; doc.ViewBox != want {
		t.Fatalf("viewBox %q, want %q", doc.ViewBox, want)
	}
	dark := 0
	for _, row := range m {
		for _, d := range row {
			if d {
				dark++
			}
		}
	}
	if n := strings.Count(doc.Path.D, "M"); n != dark {
		t.Fatalf("%d squares drawn, %d dark modules", n, dark)
	}

	const scale = 4
	side := (len(m) + 2*qrQuiet) * scale
	img := image.NewGray(image.Rect(0, 0, side, side))
	for y := range side {
		for x := range side {
			mx, my := x/scale-qrQuiet, y/scale-qrQuiet
			c := color.Gray{Y: 255}
			if mx >= 0 && my >= 0 && mx < len(m) && my < len(m) && m[my][mx] {
				c = color.Gray{}
			}
			img.SetGray(x, y, c)
		}
	}
	got, err := qr.Decode(img)
	if err != nil || got != link {
		t.Fatalf("decoded %q, %v", got, err)
	}
}
