package from_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"strings"
	"testing"

	"tend/app"
	"tend/app/from"
)

// bomb is a zip whose data.json unpacks to real bytes of JSON while its
// headers declare declared bytes: a few KiB that unpack far past the cap
// the test sets, and, when declared is small, a header that lies about it
// (archive/zip stops reading at the size declared, and the cap at max).
func bomb(t *testing.T, real int, declared uint64) []byte {
	t.Helper()
	body := []byte(`[{"id":1,"title":"` + strings.Repeat("a", real-len(`[{"id":1,"title":""}]`)) + `"}]`)
	var packed bytes.Buffer
	fw, err := flate.NewWriter(&packed, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fw.Write(body)
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	w, err := z.CreateRaw(&zip.FileHeader{Name: "data.json", Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(body),
		CompressedSize64: uint64(packed.Len()), UncompressedSize64: declared})
	if err != nil {
		t.Fatal(err)
	}
	_, _ = w.Write(packed.Bytes())
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestReadersCapWhatTheyRead: no reader takes in more than the cap it is
// given, neither the file nor what a Vikunja zip unpacks, however its
// headers describe it; the refusal says the limit and how to raise it.
func TestReadersCapWhatTheyRead(t *testing.T) {
	const max = 64 << 10
	const real = 1 << 20
	big := strings.Repeat(" ", max)
	for _, tc := range []struct {
		name string
		read func() error
		code app.Code
		want string
	}{
		{"a zip that says how big its data.json is", func() error {
			_, err := from.Vikunja(bytes.NewReader(bomb(t, real, real)), max)
			return err
		}, app.CodeTooLarge, "data.json in the archive holds more than 65536 bytes"},
		{"a zip whose header lies", func() error {
			_, err := from.Vikunja(bytes.NewReader(bomb(t, real, max/2)), max)
			return err
		}, app.CodeInvalid, "data.json in the archive does not read"},
		{"a Vikunja file", func() error {
			_, err := from.Vikunja(strings.NewReader("[]"+big), max)
			return err
		}, app.CodeTooLarge, "the file holds more than 65536 bytes"},
		{"a GitHub file", func() error {
			_, err := from.GitHub(strings.NewReader("[]"+big), "x", max)
			return err
		}, app.CodeTooLarge, "the file holds more than 65536 bytes"},
		{"a beads file", func() error {
			_, err := from.Beads(strings.NewReader(strings.Repeat(`{"id":"bd-1","title":"x"}`+"\n", 1)+big), max)
			return err
		}, app.CodeTooLarge, "the file holds more than 65536 bytes"},
		{"a Todoist file", func() error {
			_, err := from.Todoist(strings.NewReader("TYPE,CONTENT\n"+strings.Repeat("task,x\n", max/7+1)), "p", max)
			return err
		}, app.CodeTooLarge, "the file holds more than 65536 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.read()
			e := app.AsError(err)
			if e == nil || e.Code != tc.code || !strings.HasPrefix(e.Detail, tc.want) {
				t.Fatalf("err = %v; want %s: %s…", err, tc.code, tc.want)
			}
			if e.Code == app.CodeTooLarge && !strings.Contains(e.Detail, "tend import --max-size") {
				t.Errorf("the refusal does not say how to raise the limit: %s", e.Detail)
			}
		})
	}
	if _, err := from.Vikunja(bytes.NewReader(bomb(t, max, max)), max); err != nil {
		t.Errorf("a data.json of exactly the cap: %v", err)
	}
}
