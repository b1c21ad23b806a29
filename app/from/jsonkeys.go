package from

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// duplicateKeyError is an object of a JSON document that names a key
// twice. encoding/json keeps the last value without a word, so what one
// reading of the file checks and what another writes could differ: every
// importer refuses such a record instead.
type duplicateKeyError struct {
	Key    string
	Offset int64 // just past the second one
}

func (e *duplicateKeyError) Error() string {
	return fmt.Sprintf("an object names %q twice", e.Key)
}

// uniqueKeys walks a JSON document's tokens and fails with a
// *duplicateKeyError at the first object that names a key twice. A
// document that is not JSON passes: decoding it says where it breaks.
func uniqueKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	// One entry per open object or array: the keys an object has named,
	// nil for an array; next says whether an object's next string is a key.
	type open struct {
		keys map[string]bool
		next bool
	}
	var stack []open
	value := func() {
		if n := len(stack); n > 0 && stack[n-1].keys != nil {
			stack[n-1].next = true
		}
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		top := len(stack) - 1
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				value()
				stack = append(stack, open{keys: map[string]bool{}, next: true})
			case '[':
				value()
				stack = append(stack, open{})
			default:
				stack = stack[:top]
			}
		case string:
			if top >= 0 && stack[top].keys != nil && stack[top].next {
				if stack[top].keys[t] {
					return &duplicateKeyError{Key: t, Offset: dec.InputOffset()}
				}
				stack[top].keys[t], stack[top].next = true, false
				continue
			}
			value()
		default:
			value()
		}
	}
}
