package app

import (
	"math"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// SearchWord is one part of a search's Match as a text ranks it: the
// tokens of a word or phrase, folded as the index folds them (case and
// accents ignored, anything but a letter or digit a separator).
type SearchWord struct {
	Tokens []string
	Prefix bool // the last token also matches the start of a longer one
	Typed  bool // the word being typed: whole, it weighs more than as a prefix
}

// Relevance weights: a title hit weighs four times a description hit, as
// in the BM25 ranking (store/task_query.go); a whole typed word in either
// field more than prefix hits in both can add (5 × 2.2), so that whole-word
// matches come first, as BM25 ranks them.
const (
	titleWeight       = 4.0
	descriptionWeight = 1.0
	typedWholeWeight  = 11.0
	saturationK       = 1.2
)

// SearchRelevance scores one task's title and description against the
// words of a search: higher is better. The store ranks by it the matches of
// a search too few to fill a page, where BM25 would cost more than the whole
// read: BM25 weighs each word by how rare it is, which it learns by counting
// every row that holds it.
//
// For each word and each field, the hits of the word whole (w) and, when it
// is a prefix, of longer words it starts (p) add
//
//	field weight × (W × s(w) + s(p)),   s(n) = n × 2.2 / (n + 1.2)
//
// with field weight 4 for the title and 1 for the description, W 11 for the
// word being typed and 1 otherwise; s saturates repeats as BM25 does, below
// 2.2, so a whole typed word, even in the description, outweighs any number
// of prefix hits: whole-word matches first, then title before description.
// The score is rounded to three decimals.
func SearchRelevance(words []SearchWord, title, description string) float64 {
	score := 0.0
	for _, f := range []struct {
		text   string
		weight float64
	}{{title, titleWeight}, {description, descriptionWeight}} {
		tokens := searchFold(f.text)
		for _, w := range words {
			whole, prefix := w.hits(tokens)
			ww := 1.0
			if w.Typed {
				ww = typedWholeWeight
			}
			score += f.weight * (ww*saturate(whole) + saturate(prefix))
		}
	}
	return math.Round(score*1000) / 1000
}

func saturate(n int) float64 {
	return float64(n) * (saturationK + 1) / (float64(n) + saturationK)
}

// hits counts where w occurs in tokens: whole, and (a prefix) as the start
// of a longer last token.
func (w SearchWord) hits(tokens []string) (whole, prefix int) {
	n := len(w.Tokens)
	if n == 0 {
		return 0, 0
	}
	last := w.Tokens[n-1]
	for i := 0; i+n <= len(tokens); i++ {
		if !equalTokens(tokens[i:i+n-1], w.Tokens[:n-1]) {
			continue
		}
		switch t := tokens[i+n-1]; {
		case t == last:
			whole++
		case w.Prefix && strings.HasPrefix(t, last):
			prefix++
		}
	}
	return whole, prefix
}

func equalTokens(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// searchFold splits text into tokens as the index's unicode61 tokenizer
// with remove_diacritics 2 does: runs of letters and digits, lower case,
// without their accents.
func searchFold(text string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range norm.NFD.String(text) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r):
			b.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	return out
}
