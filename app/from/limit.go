package from

import (
	"fmt"
	"io"

	"tend/app"
)

// DefaultMaxSize is how much a file, or the data.json unpacked from a
// Vikunja archive, may hold unless the caller says otherwise: each reader
// holds what it read in memory, and what it decoded besides, so the cap is
// what bounds an import's memory. Real exports are far below it: 50,000
// GitHub issues with a comment each print 13 MiB of JSON.
const DefaultMaxSize = 256 << 20

// Capped reads r up to max bytes; past that every read fails with
// too_large, naming the limit and how to raise it, so that no file can
// make a reader grow without bound.
func Capped(r io.Reader, max int64) io.Reader { return capReader(r, max, "the file") }

// capReader is Capped for what names the text being read.
func capReader(r io.Reader, max int64, what string) io.Reader {
	return &capped{r: io.LimitReader(r, max+1), max: max, what: what}
}

type capped struct {
	r    io.Reader
	n    int64
	max  int64
	what string
}

func (c *capped) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.max {
		return 0, tooLarge(c.what, c.max)
	}
	return n, err
}

// tooLarge is the refusal of what holds more than max bytes.
func tooLarge(what string, max int64) error {
	return app.Errorf(app.CodeTooLarge, "%s holds more than %s, the most an import reads; tend import --max-size MIB raises the limit",
		what, sizeText(max))
}

// sizeText writes a number of bytes in MiB when it is whole ones.
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
