package recur

import (
	"errors"

	"tend/app/when"
)

// SyntaxError is a repeat that could not be read: Offset is the byte in
// Input where reading stopped making sense. It is the time vocabulary's
// refusal (when.SyntaxError), since a repeat is written in its words.
type SyntaxError = when.SyntaxError

var (
	errNever         = errors.New("the repeat never happens")
	errEnded         = errors.New("the repeat ends before its first occurrence")
	errFromDoneShape = errors.New("a repeat from completion is a plain interval (every! 3 days, 2 weeks after done), not particular days")
)
