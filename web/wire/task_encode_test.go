package wire

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http/httptest"
	"reflect"
	"testing"
)

// Strings a task's text fields may hold: HTML-ish characters, quotes and
// backslashes, control characters, the two separators JSON escapes for
// JavaScript, invalid UTF-8 and text in other scripts.
var encodeStrings = []string{
	"", "plain", `<b>bold</b> & "quoted" \ back`, "tab\there\nnew\rline\bback\ffeed\x00nul\x1funit\x7fdel",
	"line\u2028sep\u2029para", "bad \xff utf8 \xc3", "truncated \xe2\x82", "Grüße, 日本語, emoji 🎉, combining é",
	"ends in escape \\", "</script><script>alert(1)</script>", "a\u00a0b", "\ufffd already",
}

var encodeFloats = []float64{0, math.Copysign(0, -1), 1, -5, 12.34, 0.1, 1e-7, -3.5e-9, 1e21, 123456789012345678901234.0, 1e20, 7.000001}

// fillRandom sets every field of the struct v points to, choosing nil for
// about a third of the pointers and slices, so that a field added to
// Task without the encoder knowing shows up as a difference.
func fillRandom(rng *rand.Rand, v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			// Unexported fields are no part of the record, but the exported
			// fields of an embedded part (taskClaimJSON, ...) are.
			if f := v.Type().Field(i); f.IsExported() || f.Anonymous {
				fillRandom(rng, v.Field(i))
			}
		}
	case reflect.Pointer:
		if rng.IntN(3) == 0 {
			v.SetZero()
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fillRandom(rng, v.Elem())
	case reflect.Slice:
		switch rng.IntN(3) {
		case 0:
			v.SetZero()
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			n := 1 + rng.IntN(3)
			v.Set(reflect.MakeSlice(v.Type(), n, n))
			for i := range n {
				fillRandom(rng, v.Index(i))
			}
		}
	case reflect.String:
		v.SetString(encodeStrings[rng.IntN(len(encodeStrings))])
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.Int, reflect.Int64:
		v.SetInt(rng.Int64N(1<<40) - 1<<39)
	case reflect.Float64:
		v.SetFloat(encodeFloats[rng.IntN(len(encodeFloats))])
	default:
		panic("fillRandom: no rule for " + v.Kind().String())
	}
}

func TestTaskEncoderMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	items := make([]Task, 400)
	for i := range items {
		fillRandom(rng, reflect.ValueOf(&items[i]).Elem())
	}
	for i, it := range items {
		want, got := httptest.NewRecorder(), httptest.NewRecorder()
		if err := WriteJSON(want, 200, it); err != nil {
			t.Fatal(err)
		}
		if err := WriteTask(got, 200, it); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) {
			t.Fatalf("task %d: %s", i, firstDifference(got.Body.Bytes(), want.Body.Bytes()))
		}
		if !reflect.DeepEqual(got.Header(), want.Header()) {
			t.Fatalf("headers: got %v, want %v", got.Header(), want.Header())
		}
	}
	for i := 0; i < len(items); i += 50 {
		var out TaskList
		fillRandom(rng, reflect.ValueOf(&out.Page).Elem())
		fillRandom(rng, reflect.ValueOf(&out.Links).Elem())
		page := items[i : i+50]
		if i == 0 {
			page = page[:0]
		}
		got := httptest.NewRecorder()
		if err := WriteTaskPage(got, 200, out, page); err != nil {
			t.Fatal(err)
		}
		out.Items = page
		want := httptest.NewRecorder()
		if err := WriteJSON(want, 200, out); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) {
			t.Fatalf("page at %d: %s", i, firstDifference(got.Body.Bytes(), want.Body.Bytes()))
		}
	}
}

func TestAgendaEncoderMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 40 {
		var ag Agenda
		fillRandom(rng, reflect.ValueOf(&ag).Elem())
		want, got := httptest.NewRecorder(), httptest.NewRecorder()
		if err := WriteJSON(want, 200, ag); err != nil {
			t.Fatal(err)
		}
		if err := WriteAgenda(got, ag); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) {
			t.Fatalf("agenda %d: %s", i, firstDifference(got.Body.Bytes(), want.Body.Bytes()))
		}
		if !reflect.DeepEqual(got.Header(), want.Header()) {
			t.Fatalf("headers: got %v, want %v", got.Header(), want.Header())
		}
	}
}

// A number without a JSON form fails the same way through both encoders.
func TestTaskEncoderRefusesNaNLikeEncodingJSON(t *testing.T) {
	it := Task{PriorityScore: math.NaN()}
	want, got := httptest.NewRecorder(), httptest.NewRecorder()
	werr, gerr := WriteJSON(want, 200, it), WriteTask(got, 200, it)
	if werr == nil || gerr == nil || werr.Error() != gerr.Error() || !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) {
		t.Fatalf("got %v %q, want %v %q", gerr, got.Body.Bytes(), werr, want.Body.Bytes())
	}
}

func firstDifference(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-80)
	return fmt.Sprintf("from byte %d:\n got …%s\nwant …%s", i, got[from:min(len(got), i+80)], want[from:min(len(want), i+80)])
}

// BenchmarkAppendTaskPage encodes a page of 50 full task records, a third
// of their nullable fields null, as GET /v1/tasks does.
func BenchmarkAppendTaskPage(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	items := make([]Task, 50)
	for i := range items {
		fillRandom(rng, reflect.ValueOf(&items[i]).Elem())
	}
	buf := make([]byte, 0, 1<<17)
	b.ReportAllocs()
	for b.Loop() {
		buf = buf[:0]
		for i := range items {
			buf, _ = AppendTask(buf, &items[i])
		}
	}
	b.SetBytes(int64(len(buf)))
}
