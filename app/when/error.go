package when

import "fmt"

// SyntaxError is a phrase that could not be read: Offset is the byte in
// Input where reading stopped making sense.
type SyntaxError struct {
	Input  string
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s (at byte %d of %q)", e.Msg, e.Offset, e.Input)
}

func syntaxErr(in string, off int, format string, args ...any) error {
	return &SyntaxError{Input: in, Offset: off, Msg: fmt.Sprintf(format, args...)}
}
