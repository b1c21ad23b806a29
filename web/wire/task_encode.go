package wire

import (
	"math"
	"net/http"
	"strconv"
	"unicode/utf8"
)

// A page of tasks is 50 records of some sixty fields; encoding/json spent
// more time reflecting over them than the database spent reading them. The
// functions here write the same bytes as json.Encoder with its defaults
// (HTML-escaped strings, a newline at the end), which
// TestTaskEncoderMatchesEncodingJSON checks field for field. AppendTask is
// generated from Task's fields (task_encode_gen.go, by taskgen), so a
// field added to Task needs no hunk here: run go generate, which also
// writes task_app_gen.go (taskgen's package comment).

//go:generate go run ./taskgen

// WriteTask answers with one full task record.
func WriteTask(w http.ResponseWriter, status int, t Task) error {
	b, ok := AppendTask(make([]byte, 0, 2048), &t)
	if !ok {
		return WriteJSON(w, status, t)
	}
	return writeBody(w, status, append(b, '\n'))
}

// WriteTaskPage answers with a page of full task records, and the links
// among them when asked for.
func WriteTaskPage(w http.ResponseWriter, status int, out TaskList, items []Task) error {
	b := make([]byte, 0, 1600*len(items)+256)
	b = append(b, `{"items":[`...)
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = AppendTask(b, &items[i]); !ok {
			out.Items = items
			return WriteJSON(w, status, out)
		}
	}
	b = append(b, ']')
	if out.Page != nil {
		b = append(b, `,"page":`...)
		b = appendPage(b, out.Page)
	}
	if out.Links != nil && *out.Links == nil {
		b = append(b, `,"links":null`...)
	} else if out.Links != nil {
		b = append(b, `,"links":[`...)
		for i, l := range *out.Links {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = appendString(b, l.ID)
			b = append(b, `,"link_type":`...)
			b = appendString(b, l.LinkType)
			b = append(b, `,"label":`...)
			b = appendString(b, l.Label)
			b = append(b, `,"source":`...)
			b = strconv.AppendInt(b, l.Source, 10)
			b = append(b, `,"target":`...)
			b = strconv.AppendInt(b, l.Target, 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return writeBody(w, status, append(b, "}\n"...))
}

func writeBody(w http.ResponseWriter, status int, b []byte) error {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, err := w.Write(b)
	return err
}

func appendPage(b []byte, p *Page) []byte {
	b = append(b, `{"has_more":`...)
	b = strconv.AppendBool(b, p.HasMore)
	b = append(b, `,"held_back":`...)
	b = appendIntPtr(b, p.HeldBack)
	b = append(b, `,"limit":`...)
	b = appendIntPtr(b, p.Limit)
	b = append(b, `,"next_cursor":`...)
	b = appendStringPtr(b, p.NextCursor)
	b = append(b, `,"total":`...)
	b = appendIntPtr(b, p.Total)
	b = append(b, `,"unread":`...)
	if p.Unread == nil {
		b = append(b, "null"...)
	} else {
		b = appendStrings(b, p.Unread)
	}
	return append(b, '}')
}

func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

func appendStringPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendString(b, *s)
}

func appendIntPtr(b []byte, n *int) []byte {
	if n == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(*n), 10)
}

// appendFloat formats f as encoding/json does: like ES6, with 'e' only
// for very small or very large magnitudes and no zero-padded exponent.
func appendFloat(b []byte, f float64, ok bool) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return append(b, '0'), false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b, ok
}

const hexDigits = "0123456789abcdef"

// appendString quotes s as encoding/json does by default: <, > and & are
// escaped for HTML, as are U+2028 and U+2029, and invalid UTF-8 becomes
// U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
