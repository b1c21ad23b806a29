package when

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Token is one word of a text: Text is the word lower-cased, without a
// trailing ',', ';', ':', '?', '.' or '!', for matching; Start and End are the bytes of
// the whole word in the text, so a caller can keep or cut it verbatim.
type Token struct {
	Text       string
	Start, End int
}

// Tokenize splits s at white space.
func Tokenize(s string) []Token {
	var out []Token
	start := -1
	for i, r := range s {
		if unicode.IsSpace(r) {
			if start >= 0 {
				out = append(out, newToken(s, start, i))
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, newToken(s, start, len(s)))
	}
	return out
}

func newToken(s string, start, end int) Token {
	w := strings.TrimRight(s[start:end], ",;:?.")
	// "tomorrow!" is tomorrow; "every!" is a word of its own (a repeat
	// from completion).
	if t := strings.TrimRight(w, "!"); t != "" && !strings.EqualFold(t, "every") {
		w = t
	}
	if w == "" {
		w = s[start:end]
	}
	return Token{Text: lower(w), Start: start, End: end}
}

// lower avoids strings.ToLower's allocation for the usual ASCII word.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
			return strings.ToLower(s)
		}
	}
	return s
}

// texts is a cursor over tokens for the matchers: at(i) is "" past the end.
type texts []Token

func (t texts) at(i int) string {
	if i < 0 || i >= len(t) {
		return ""
	}
	return t[i].Text
}
