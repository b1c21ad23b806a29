package pages

import (
	"html/template"
	"strconv"
	"strings"

	qr "github.com/piglig/go-qr"
)

// qrQuiet is the light margin around a QR code, in modules, that readers
// need to find it (ISO/IEC 18004 asks for four).
const qrQuiet = 4

// qrMatrix encodes text as a QR code's modules, dark true, row by row.
func qrMatrix(text string) ([][]bool, error) {
	code, err := qr.EncodeText(text, qr.Medium)
	if err != nil {
		return nil, err
	}
	n := code.Size()
	m := make([][]bool, n)
	for y := range n {
		m[y] = make([]bool, n)
		for x := range n {
			m[y][x] = code.Module(x, y)
		}
	}
	return m, nil
}

// qrSVG draws text's QR code as inline SVG: one path of unit squares on a
// light square, dark on light whatever the page's theme, as a reader
// needs, scaled by the page's CSS. It is drawn here, on the server: no
// script, from elsewhere or ours, is needed to show it.
func qrSVG(text, label string) (template.HTML, error) {
	m, err := qrMatrix(text)
	if err != nil {
		return "", err
	}
	side := strconv.Itoa(len(m) + 2*qrQuiet)
	var b strings.Builder
	b.WriteString(`<svg class="qr" width="256" height="256" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ` + side + ` ` + side + `" role="img" aria-label="` +
		template.HTMLEscapeString(label) + `" shape-rendering="crispEdges"><rect width="` + side + `" height="` + side + `" fill="#fff"/><path fill="#000" d="`)
	for y, row := range m {
		for x, dark := range row {
			if dark {
				b.WriteString("M" + strconv.Itoa(x+qrQuiet) + " " + strconv.Itoa(y+qrQuiet) + "h1v1h-1z")
			}
		}
	}
	b.WriteString(`"/></svg>`)
	return template.HTML(b.String()), nil //nolint:gosec // built here from numbers and an escaped label
}
