package app

import (
	"strings"
	"unicode"
)

// Search is a parsed `q`: the words the full-text index must find, the
// words it must not, and the terms that narrow by field.
//
// The grammar, for people and agents alike:
//
//	word        the word must appear (in a title, description or body)
//	word*       a word starting with these letters
//	"two words" the words next to each other, in this order ("word" is
//	            that word whole)
//	-word       the word must not appear (also -"two words")
//	key:value   a term: type:, status:, category:, tag:, project:,
//	            assignee: (a username or me)
//	#name       the same as tag:name
//	+key        the same as project:key
//
// Words match whole tokens, ignoring case and accents, except the last
// plain word of q (not quoted, excluded, a term or word*), the one a person
// is typing: when it ends in two or more letters or digits, it matches as a
// prefix too ("pass" finds "passport"), and a whole-word match of it weighs
// more than a prefix one, so it ranks first. Only the last word is a prefix
// so that the words already typed keep their whole-word cost and meaning.
// A key that is not a term (http://…) stays a word. Nothing is ever refused for its shape: what
// cannot be a word (punctuation alone) is left out.
type Search struct {
	Match   string       // FTS5 expression of what must appear; empty when nothing must
	Words   []string     // the parts of Match, one FTS5 phrase or prefix each: Match is their AND
	Ranks   []SearchWord // Words as SearchRelevance reads them, in the same order
	Exclude string       // FTS5 expression of what must not appear; empty when nothing is excluded
	Terms   []SearchTerm
}

// SearchTerm narrows a search by one field.
type SearchTerm struct {
	Key   string
	Value string
}

// SearchGrammar describes q for GET /v1/meta's grammars.
var SearchGrammar = Grammar{
	Description: "q on the task and document listings: words that must all appear (whole words, case and accents ignored; " +
		"the last unquoted word also as a prefix, as it is typed, whole-word matches first), " +
		`"quoted phrases", word* for a prefix, -word to leave out, and terms that narrow by field: ` +
		"type:<key>, status:<key>, category:<todo|in_progress|done|cancelled>, tag:<name> or #<name>, project:<key> or +<key> (with everything under it), " +
		"assignee:<username|me> (tasks only). Results come best match first unless order is given; relevance reports the score.",
	Examples:   []string{"login crash", `"session timeout" -wontfix`, "type:bug #urgent auth*", "type:decision +web storage"},
	Vocabulary: append([]string{"#", "+", "-", "*", `"`}, SearchTermKeys...),
}

// Grammar describes one written language the service reads.
type Grammar struct {
	Description string
	Examples    []string
	Vocabulary  []string
}

// SearchTermKeys are the keys a search term may have.
var SearchTermKeys = []string{"type", "status", "category", "tag", "project", "assignee"}

// Empty reports whether the search asks for nothing.
func (s Search) Empty() bool { return s.Match == "" && s.Exclude == "" && len(s.Terms) == 0 }

// Values lists the values of the terms with this key, in order.
func (s Search) Values(key string) []string {
	var out []string
	for _, t := range s.Terms {
		if t.Key == key {
			out = append(out, t.Value)
		}
	}
	return out
}

// ParseSearch reads q into a Search.
func ParseSearch(q string) Search {
	var s Search
	var must, mustNot []string
	var ranks []SearchWord
	typing := -1 // the index in must of the last plain word
	for _, tok := range searchTokens(q) {
		if tok.phrase {
			if p := ftsString(tok.text); p != "" {
				if tok.neg {
					mustNot = append(mustNot, p)
				} else {
					must = append(must, p)
					ranks = append(ranks, SearchWord{Tokens: searchFold(tok.text)})
				}
			}
			continue
		}
		if t, ok := searchTerm(tok.text); ok && !tok.neg {
			s.Terms = append(s.Terms, t)
			continue
		}
		prefix := strings.HasSuffix(tok.text, "*")
		p := ftsString(strings.TrimRight(tok.text, "*"))
		if p == "" {
			continue
		}
		if prefix {
			p += " *"
		}
		switch {
		case tok.neg:
			mustNot = append(mustNot, p)
		case prefix:
			must = append(must, p)
			ranks = append(ranks, SearchWord{Tokens: searchFold(tok.text), Prefix: true})
		default:
			typing = len(must)
			must = append(must, p)
			ranks = append(ranks, SearchWord{Tokens: searchFold(tok.text)})
		}
	}
	if typing >= 0 && typedLen(must[typing]) >= 2 {
		// The whole word and the prefix both match a whole-word hit, and
		// BM25 sums them: it ranks above a hit of the prefix alone.
		must[typing] = "(" + must[typing] + " OR " + must[typing] + " *)"
		ranks[typing].Prefix, ranks[typing].Typed = true, true
	}
	s.Match, s.Words, s.Ranks = strings.Join(must, " AND "), must, ranks
	s.Exclude = strings.Join(mustNot, " OR ")
	return s
}

type searchToken struct {
	text   string
	phrase bool
	neg    bool
}

// searchTokens splits q on white space, keeping "quoted phrases" whole; an
// unclosed quote runs to the end.
func searchTokens(q string) []searchToken {
	var out []searchToken
	rs := []rune(q)
	for i := 0; i < len(rs); {
		if unicode.IsSpace(rs[i]) {
			i++
			continue
		}
		neg := false
		if rs[i] == '-' && i+1 < len(rs) && !unicode.IsSpace(rs[i+1]) {
			neg = true
			i++
		}
		if rs[i] == '"' {
			j := i + 1
			for j < len(rs) && rs[j] != '"' {
				j++
			}
			out = append(out, searchToken{text: string(rs[i+1 : j]), phrase: true, neg: neg})
			i = j + 1
			continue
		}
		j := i
		for j < len(rs) && !unicode.IsSpace(rs[j]) {
			j++
		}
		out = append(out, searchToken{text: string(rs[i:j]), neg: neg})
		i = j
	}
	return out
}

// searchTerm reads key:value, #tag and +project.
func searchTerm(w string) (SearchTerm, bool) {
	switch {
	case len(w) > 1 && w[0] == '#':
		return SearchTerm{Key: "tag", Value: w[1:]}, true
	case len(w) > 1 && w[0] == '+':
		return SearchTerm{Key: "project", Value: w[1:]}, true
	}
	key, value, ok := strings.Cut(w, ":")
	key = strings.ToLower(key)
	if !ok || value == "" || !has(SearchTermKeys, key) {
		return SearchTerm{}, false
	}
	return SearchTerm{Key: key, Value: value}, true
}

// typedLen counts the letters and digits that end text: the token the
// index reads last in it, which a prefix query extends.
func typedLen(text string) int {
	rs := []rune(strings.TrimSuffix(text, `"`))
	n := 0
	for n < len(rs) && (unicode.IsLetter(rs[len(rs)-1-n]) || unicode.IsDigit(rs[len(rs)-1-n])) {
		n++
	}
	return n
}

// ftsString quotes text as one FTS5 string, which the index tokenizes into
// a phrase; FTS5 operators inside it are then plain text. Text with no
// letter or digit would be an empty phrase, so it yields "".
func ftsString(text string) string {
	if strings.IndexFunc(text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
		return ""
	}
	// SQLite ends a string at NUL; other control characters separate words.
	text = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, text)
	return `"` + strings.ReplaceAll(text, `"`, `""`) + `"`
}
