package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
	"unicode/utf8"

	"tend/app"
)

// An export file is JSON Lines (docs/data.md): one object a line, each
// naming its kind first. The first line is the header ("export"), the last
// says how many records came between ("end"), so a file cut short is
// known for what it is.

// ExportMediaType is an export's content type.
const ExportMediaType = "application/jsonl"

type exportHeaderJSON struct {
	Kind       string              `json:"kind"`
	Format     int                 `json:"format"`
	Tend       string              `json:"tend"`
	Schema     string              `json:"schema"`
	ExportedAt string              `json:"exported_at"`
	Emails     bool                `json:"emails"`
	Workspaces []exportedWorkspace `json:"workspaces"`
}

type exportedWorkspace struct {
	ID   string `json:"id"`
	Slug string `json:"slug"`
}

type exportEndJSON struct {
	Kind    string `json:"kind"`
	Records int64  `json:"records"`
}

// ExportEncoder writes an export to a stream; it is an app.ExportWriter.
type ExportEncoder struct {
	w     *bufio.Writer
	buf   []byte
	begin func() // runs before the first byte is written
}

// NewExportEncoder writes to w; begin (if not nil) runs once, just before
// the header is written, when the export is known to go ahead.
func NewExportEncoder(w io.Writer, begin func()) *ExportEncoder {
	return &ExportEncoder{w: bufio.NewWriterSize(w, 64<<10), begin: begin}
}

// Begin writes the header line.
func (e *ExportEncoder) Begin(h app.ExportHeader) error {
	if e.begin != nil {
		e.begin()
	}
	out := exportHeaderJSON{Kind: "export", Format: h.Format, Tend: h.Version, Schema: h.Schema,
		ExportedAt: h.ExportedAt.UTC().Format(time.RFC3339Nano), Emails: h.Emails, Workspaces: []exportedWorkspace{}}
	for _, w := range h.Workspaces {
		out.Workspaces = append(out.Workspaces, exportedWorkspace{ID: w.ID, Slug: w.Slug})
	}
	return e.line(out)
}

// Record writes one record's line: its kind, then its fields in order.
func (e *ExportEncoder) Record(r *app.Record) error {
	b := append(e.buf[:0], `{"kind":`...)
	b = appendString(b, r.Kind)
	for _, f := range r.Fields {
		b = append(b, ',')
		b = appendString(b, f.Name)
		b = append(b, ':')
		switch v := f.Value.(type) {
		case nil:
			b = append(b, "null"...)
		case int64:
			b = strconv.AppendInt(b, v, 10)
		case string:
			b = appendString(b, v)
		case app.JSONText:
			// Compacted, so that a document stored over several lines
			// stays on the record's one line.
			var c bytes.Buffer
			if err := json.Compact(&c, []byte(v)); err != nil {
				b = appendString(b, string(v))
			} else {
				b = append(b, c.Bytes()...)
			}
		default:
			return fmt.Errorf("export: field %s of a %s holds a %T", f.Name, r.Kind, v)
		}
	}
	b = append(b, '}', '\n')
	e.buf = b
	_, err := e.w.Write(b)
	return err
}

// End writes the last line and flushes.
func (e *ExportEncoder) End(n int64) error {
	if err := e.line(exportEndJSON{Kind: "end", Records: n}); err != nil {
		return err
	}
	return e.w.Flush()
}

func (e *ExportEncoder) line(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if _, err := e.w.Write(append(b, '\n')); err != nil {
		return err
	}
	return nil
}

// ExportDecoder reads an export from a stream; it is an app.RecordReader.
type ExportDecoder struct {
	r      *bufio.Reader
	line   int
	count  int64
	ended  bool
	header *app.ExportHeader
	err    error
}

// NewExportDecoder reads from r.
func NewExportDecoder(r io.Reader) *ExportDecoder {
	return &ExportDecoder{r: bufio.NewReaderSize(r, 64<<10)}
}

// next reads the next line that is not blank; io.EOF at the end of the stream.
func (d *ExportDecoder) next() ([]byte, error) {
	for {
		b, err := d.r.ReadBytes('\n')
		if len(b) == 0 && err != nil {
			return nil, err
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		d.line++
		if b = bytes.TrimSpace(b); len(b) > 0 {
			return b, nil
		}
	}
}

// Header reads the first line; called again, it answers the same.
func (d *ExportDecoder) Header() (app.ExportHeader, error) {
	if d.header == nil && d.err == nil {
		h, err := d.readHeader()
		d.header, d.err = &h, err
	}
	return *d.header, d.err
}

func (d *ExportDecoder) readHeader() (app.ExportHeader, error) {
	b, err := d.next()
	if errors.Is(err, io.EOF) {
		return app.ExportHeader{}, app.Errorf(app.CodeInvalid, "the file is empty; an export begins with its header line")
	}
	if err != nil {
		return app.ExportHeader{}, err
	}
	if fields, ok := splitObject(b); ok {
		if name, twice := namedTwice(fields); twice {
			return app.ExportHeader{}, app.Errorf(app.CodeInvalid, "line %d: field %q is named twice", d.line, name)
		}
	}
	var h exportHeaderJSON
	if err := json.Unmarshal(b, &h); err != nil || h.Kind != "export" {
		return app.ExportHeader{}, app.Errorf(app.CodeInvalid, "line %d: this is not a tend export: its first line is not an export header", d.line)
	}
	at, err := time.Parse(time.RFC3339Nano, h.ExportedAt)
	if err != nil {
		return app.ExportHeader{}, app.Errorf(app.CodeInvalid, "line %d: exported_at is not an RFC 3339 time", d.line)
	}
	out := app.ExportHeader{Format: h.Format, Version: h.Tend, Schema: h.Schema, ExportedAt: at, Emails: h.Emails}
	for _, w := range h.Workspaces {
		out.Workspaces = append(out.Workspaces, app.ExportedWorkspace{ID: w.ID, Slug: w.Slug})
	}
	return out, nil
}

// Next reads the next record; io.EOF after the last line, once it said
// how many records there were and that many were read.
func (d *ExportDecoder) Next() (*app.Record, error) {
	b, err := d.next()
	if errors.Is(err, io.EOF) {
		if d.ended {
			return nil, io.EOF
		}
		return nil, app.Errorf(app.CodeInvalid, "line %d: the file ends without its last line (kind end): it was cut short", d.line+1)
	}
	if err != nil {
		return nil, err
	}
	if d.ended {
		return nil, app.Errorf(app.CodeInvalid, "line %d: a line after the export's last line", d.line)
	}
	fields, ok := splitObject(b)
	if !ok {
		var probe map[string]json.RawMessage
		err := json.Unmarshal(b, &probe)
		if err == nil {
			err = errors.New("not a record")
		}
		return nil, app.Errorf(app.CodeInvalid, "line %d: not a JSON object: %s", d.line, jsonProblem(err))
	}
	if name, twice := namedTwice(fields); twice {
		return nil, app.Errorf(app.CodeInvalid, "line %d: field %q is named twice", d.line, name)
	}
	rec := &app.Record{Line: d.line, Fields: make([]app.Field, 0, len(fields))}
	var records []byte
	for _, f := range fields {
		switch f.name {
		case "kind":
			if err := json.Unmarshal(f.raw, &rec.Kind); err != nil {
				return nil, app.Errorf(app.CodeInvalid, "line %d: a record's kind is a string", d.line)
			}
			continue
		case "records":
			records = f.raw
		}
		val, err := decodeValue(f.raw)
		if err != nil {
			return nil, app.Errorf(app.CodeInvalid, "line %d: field %q: %s", d.line, f.name, err)
		}
		rec.Fields = append(rec.Fields, app.Field{Name: f.name, Value: val})
	}
	switch rec.Kind {
	case "":
		return nil, app.Errorf(app.CodeInvalid, "line %d: a record names its kind", d.line)
	case "end":
		var n int64
		if err := json.Unmarshal(records, &n); err != nil || n != d.count {
			return nil, app.Errorf(app.CodeInvalid, "line %d: the last line counts %s records, the file holds %d", d.line, records, d.count)
		}
		d.ended = true
		return d.Next()
	}
	d.count++
	return rec, nil
}

// decodeValue reads one field's value as an app.Record holds it.
func decodeValue(v []byte) (any, error) {
	switch v[0] {
	case 'n':
		if string(v) != "null" {
			return nil, errors.New("not a JSON value")
		}
		return nil, nil
	case '"':
		if plain(v) {
			return string(v[1 : len(v)-1]), nil
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, errors.New("a string that is not valid JSON")
		}
		return s, nil
	case '{', '[':
		if !json.Valid(v) {
			return nil, errors.New("an object or array that is not valid JSON")
		}
		return app.JSONText(v), nil
	case 't', 'f':
		if string(v) != "true" && string(v) != "false" {
			return nil, errors.New("not a JSON value")
		}
		return v[0] == 't', nil
	}
	if !jsonInteger(v) {
		return nil, errors.New("a number that is not a whole number")
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		return nil, errors.New("a whole number out of range")
	}
	return n, nil
}

// jsonInteger reports whether v is an integer as JSON writes one: an
// optional minus, then 0 or digits not starting with 0.
func jsonInteger(v []byte) bool {
	if len(v) > 0 && v[0] == '-' {
		v = v[1:]
	}
	if len(v) == 0 || (v[0] == '0' && len(v) > 1) {
		return false
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// plain reports whether a quoted JSON string holds nothing to unescape:
// no escape, no control character, valid UTF-8. Most text is plain, and
// reads without a decoder.
func plain(q []byte) bool {
	for _, c := range q[1 : len(q)-1] {
		if c == '\\' || c < 0x20 {
			return false
		}
	}
	return utf8.Valid(q)
}

// rawField is one member of a JSON object: its name and its value's text.
type rawField struct {
	name string
	raw  []byte
}

// splitObject splits a JSON object into its members without decoding the
// values, which decodeValue does one by one: a map of raw messages took a
// quarter of an import's time. It reports false for anything it cannot
// split, which the caller then hands to encoding/json for the error.
func splitObject(b []byte) ([]rawField, bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	var out []rawField
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return out, skipSpace(b, i+1) == len(b)
	}
	for {
		end, ok := valueEnd(b, i)
		if !ok || b[i] != '"' {
			return nil, false
		}
		name, err := decodeValue(b[i:end])
		if err != nil {
			return nil, false
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		i = skipSpace(b, i+1)
		end, ok = valueEnd(b, i)
		if !ok {
			return nil, false
		}
		out = append(out, rawField{name: name.(string), raw: b[i:end]})
		i = skipSpace(b, end)
		if i >= len(b) {
			return nil, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return out, skipSpace(b, i+1) == len(b)
		default:
			return nil, false
		}
	}
}

// namedTwice finds a field an object names more than once. Such a record
// is refused, not read by the last value: an import's checks would see one
// value and its write another.
func namedTwice(fields []rawField) (string, bool) {
	for i := 1; i < len(fields); i++ {
		for _, f := range fields[:i] {
			if f.name == fields[i].name {
				return f.name, true
			}
		}
	}
	return "", false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// valueEnd finds where the JSON value starting at b[i] ends: past its
// closing quote or bracket, or at the delimiter after a number or literal.
func valueEnd(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		for j := i + 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				j++
			case '"':
				return j + 1, true
			}
		}
		return 0, false
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, ok := valueEnd(b, j)
				if !ok {
					return 0, false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	return j, j > i
}

func jsonProblem(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%s at character %d", se.Error(), se.Offset)
	}
	return err.Error()
}
