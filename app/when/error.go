package when

import (
	"fmt"
	"strconv"
)

// SyntaxError is a phrase that could not be read: Offset is the byte in
// Input where reading stopped making sense. The parsers built on this
// vocabulary, repeats (app/recur) and captured lines (app/line), answer
// with it too, so a caller tells their refusals apart by what it asked to
// read, not by the error's type.
type SyntaxError struct {
	Input  string
	Offset int
	Msg    string
	// Of names what Offset counts into when that is not Input, quoted: a
	// captured line is the whole of what its writer sent and is not
	// repeated back ("the line").
	Of string
}

func (e *SyntaxError) Error() string {
	of := e.Of
	if of == "" {
		of = strconv.Quote(e.Input)
	}
	return fmt.Sprintf("%s (at byte %d of %s)", e.Msg, e.Offset, of)
}

// SyntaxErrorf returns a SyntaxError at byte off of in.
func SyntaxErrorf(in string, off int, format string, args ...any) error {
	return &SyntaxError{Input: in, Offset: off, Msg: fmt.Sprintf(format, args...)}
}
