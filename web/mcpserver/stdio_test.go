package mcpserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"tend/app"
	"tend/web"
	"tend/web/webtest"
)

// The lines issue 19 found to stop `tend mcp`, and their neighbours; each
// is answered with the error it deserves, and the server reads on.
// code 0: no answer at all. The same lines seed FuzzMCPStdio's corpus;
// TestMCPPostMalformed sends them over HTTP, and the root package's
// TestMCPStdioMalformed the to the real binary.
var malformedLines = []struct {
	name string
	line string
	code int
	id   string // the answer's id, as raw JSON
}{
	{"garbage", "garbage", -32700, "null"},
	{"an open brace", "{", -32700, "null"},
	{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"\xff\xfe\"}}", -32700, "null"},
	{"a NUL byte", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\x00", -32700, "null"},
	{"a NUL byte alone", "\x00", -32700, "null"},
	{"null", "null", -32600, "null"},
	{"a number", "42", -32600, "null"},
	{"an empty array", "[]", -32600, "null"},
	{"a batch", `[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","id":4,"method":"ping"}]`, -32600, "null"},
	{"5,000-deep arrays", strings.Repeat("[", 5000) + strings.Repeat("]", 5000), -32600, "null"},
	{"5,000-deep params", `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"a":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}}`, -32600, "4"},
	{"20,000-deep arrays", strings.Repeat("[", 20000) + strings.Repeat("]", 20000), -32700, "null"},
	{"an object as id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, "null"},
	{"an array as id", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, -32600, "null"},
	{"true as id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, -32600, "null"},
	{"null as id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, "null"},
	{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":5,"method":"ping"}`, -32600, "5"},
	{"no jsonrpc", `{"id":"x","method":"ping"}`, -32600, `"x"`},
	{"jsonrpc spelt JSONRPC", `{"JSONRPC":"2.0","id":6,"method":"ping"}`, -32600, "6"},
	{"a number as method", `{"jsonrpc":"2.0","id":7,"method":7}`, -32600, "7"},
	{"a string as params", `{"jsonrpc":"2.0","id":8,"method":"ping","params":"x"}`, -32600, "8"},
	{"a method and a result", `{"jsonrpc":"2.0","id":9,"method":"ping","result":{}}`, -32600, "9"},
	{"neither method nor result", `{"jsonrpc":"2.0","id":10}`, -32600, "10"},
	{"a response without id", `{"jsonrpc":"2.0","result":{}}`, -32600, "null"},
	{"a string as error", `{"jsonrpc":"2.0","id":11,"error":"bad"}`, -32600, "11"},
	{"an invalid notification", `{"jsonrpc":"2.0","method":1}`, -32600, "null"},
	{"trailing data", `{"jsonrpc":"2.0","id":12,"method":"ping"} {}`, -32700, "null"},
	{"a response with a null id", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`, 0, ""},
	{"a response to nothing", `{"jsonrpc":"2.0","id":77,"result":{}}`, 0, ""},
	{"a blank line", " \t ", 0, ""},
	{"an unknown notification", `{"jsonrpc":"2.0","method":"notifications/nothing"}`, 0, ""},
	{"a cancel naming nothing", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"a":1}}}`, 0, ""},
}

// stdioServer is one server of the test's instance.
func stdioServer(tb testing.TB) (*web.Server, string) {
	tb.Helper()
	db, _, admin := webtest.OpenBootstrapped(tb)
	return webtest.Quiet(app.New(db, app.Options{Version: "test"})), admin
}

// serveLines runs the stdio server on the lines, input ending right after
// the last, and returns every line it wrote.
func serveLines(t *testing.T, s *web.Server, secret string, lines ...string) []string {
	t.Helper()
	var out bytes.Buffer
	in := strings.NewReader(strings.Join(lines, "\n") + "\n")
	if err := s.MCP().ServeStdio(t.Context(), s.MCP().StdioIdentity(secret), in, &out); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if out.Len() == 0 {
		got = nil
	}
	for _, l := range got {
		if err := checkRPCLine([]byte(l)); err != nil {
			t.Fatalf("not a JSON-RPC message: %v\n%.300s", err, l)
		}
	}
	return got
}

// rpcLine is one answer, its id kept as sent.
type rpcLine struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func byID(t *testing.T, lines []string) map[string]rpcLine {
	t.Helper()
	m := map[string]rpcLine{}
	for _, l := range lines {
		var a rpcLine
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatal(err)
		}
		if _, dup := m[string(a.ID)]; dup {
			t.Fatalf("two answers with id %s", a.ID)
		}
		m[string(a.ID)] = a
	}
	return m
}

const pingAfter = `{"jsonrpc":"2.0","id":"after","method":"ping"}`

func TestMCPStdioMalformedLines(t *testing.T) {
	t.Parallel()
	s, secret := stdioServer(t)
	for _, c := range malformedLines {
		t.Run(c.name, func(t *testing.T) {
			got := serveLines(t, s, secret, c.line, pingAfter)
			answers := byID(t, got)
			if a, ok := answers[`"after"`]; !ok || a.Error != nil || string(a.Result) != "{}" {
				t.Fatalf("the ping after it was not answered: %q", got)
			}
			if c.code == 0 {
				if len(got) != 1 {
					t.Fatalf("want no answer but the ping's, got %q", got)
				}
				return
			}
			if len(got) != 2 {
				t.Fatalf("want one error and the ping's answer, got %q", got)
			}
			a, ok := answers[c.id]
			if !ok || a.Error == nil || a.Error.Code != c.code || a.Result != nil {
				t.Fatalf("want error %d with id %s, got %q", c.code, c.id, got)
			}
		})
	}
}

func TestMCPStdioRefusesALineOverTheLimit(t *testing.T) {
	t.Parallel()
	s, secret := stdioServer(t)
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", 1<<20) + `"}}`
	got := serveLines(t, s, secret, big, pingAfter, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	answers := byID(t, got)
	if a := answers["null"]; len(got) != 3 || a.Error == nil || a.Error.Code != -32600 || !strings.Contains(a.Error.Message, "over 1048576 bytes") {
		t.Fatalf("a line over 1 MiB: %q", got)
	}
	if answers[`"after"`].Result == nil || answers["2"].Result == nil {
		t.Fatalf("the lines after it: %q", got)
	}
	// Just under the limit is read.
	fits := `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":"` + strings.Repeat("a", 1<<20-60) + `"}}`
	if got := byID(t, serveLines(t, s, secret, fits)); got["3"].Result == nil {
		t.Fatalf("a line of %d bytes: %v", len(fits), got)
	}
}

// TestMCPStdioEchoesIDs: every id comes back byte for byte, whatever the
// SDK would make of it, on a ping, a refusal and a tool call.
func TestMCPStdioEchoesIDs(t *testing.T) {
	t.Parallel()
	s, secret := stdioServer(t)
	ids := []string{`99999999999999999999999999`, `-99999999999999999999999999`, `1.50`, `1e3`, `-0`, `0`, `9007199254740993`,
		`"\u0041b"`, `"é"`, `"<&>"`, `"a\/b"`, `""`, `"1"`}
	lines := []string{initLine(`"init"`), `{"jsonrpc":"2.0","method":"notifications/initialized"}`}
	for _, id := range ids {
		lines = append(lines, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
	}
	got := byID(t, serveLines(t, s, secret, lines...))
	for _, id := range ids {
		if a, ok := got[id]; !ok || string(a.Result) != "{}" {
			t.Errorf("ping with id %s: not answered under it (%v)", id, got)
		}
	}

	calls := []string{initLine("1"), `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":99999999999999999999999999,"method":"tools/call","params":{"name":"service_whoami","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":2.5,"method":"nothing/here"}`,
		`{"jsonrpc":"2.0","id":"\u00e9","method":"tools/call","params":{"name":"service_nothing","arguments":{}}}`}
	got = byID(t, serveLines(t, s, secret, calls...))
	if a := got["99999999999999999999999999"]; a.Result == nil || !bytes.Contains(a.Result, []byte("you are ")) {
		t.Errorf("tools/call under a big id: %+v", got)
	}
	if a := got["2.5"]; a.Error == nil || a.Error.Code != -32601 {
		t.Errorf("an unknown method under a fractional id: %+v", got)
	}
	if a := got[`"\u00e9"`]; a.Error == nil && a.Result == nil {
		t.Errorf("an unknown tool under an escaped id: %+v", got)
	}
}

// TestMCPStdioSameIDTwice: two calls in flight under one id are both
// answered under it (the SDK would refuse the second).
func TestMCPStdioSameIDTwice(t *testing.T) {
	t.Parallel()
	s, secret := stdioServer(t)
	got := serveLines(t, s, secret, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	if len(got) != 2 || got[0] != `{"jsonrpc":"2.0","id":1,"result":{}}` || got[1] != got[0] {
		t.Fatalf("%q", got)
	}
}

// TestMCPStdioAnswersEveryCallBeforeEnding: input ends right after many
// calls; every one is answered before ServeStdio returns.
func TestMCPStdioAnswersEveryCallBeforeEnding(t *testing.T) {
	t.Parallel()
	s, secret := stdioServer(t)
	lines := []string{initLine("0"), `{"jsonrpc":"2.0","method":"notifications/initialized"}`}
	const n = 60
	for i := 1; i <= n; i++ {
		tool := []string{"service_whoami", "service_list", "service_search"}[i%3]
		args := map[string]string{"service_whoami": `{}`, "service_list": `{}`, "service_search": `{"q":"x"}`}[tool]
		lines = append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, i, tool, args))
	}
	got := byID(t, serveLines(t, s, secret, lines...))
	if len(got) != n+1 {
		t.Fatalf("%d answers to %d calls", len(got), n+1)
	}
	for i := 0; i <= n; i++ {
		if a, ok := got[fmt.Sprint(i)]; !ok || a.Result == nil {
			t.Fatalf("call %d: %+v", i, a)
		}
	}
}

// TestMCPStdioListenKeepsItsID: subscriptions/listen names its own id in
// its acknowledgement and its answer; both carry the client's.
func TestMCPStdioListenKeepsItsID(t *testing.T) {
	t.Parallel()
	s, secret := stdioServer(t)
	listen := `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"notifications":{},"_meta":{` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	got := serveLines(t, s, secret, listen)
	if len(got) != 2 || !strings.Contains(got[0], `"notifications/subscriptions/acknowledged"`) || !strings.Contains(got[1], `"id":"L"`) {
		t.Fatalf("%q", got)
	}
	for _, l := range got {
		if !strings.Contains(l, `"io.modelcontextprotocol/subscriptionId":"L"`) {
			t.Errorf("the subscription is not named by its id: %s", l)
		}
	}
}

func initLine(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
}

// checkRPCLine checks one line the server wrote is one JSON-RPC 2.0
// message: a request or notification of the server's, or an answer with
// an id (string, number or null) and exactly one of result and error.
func checkRPCLine(l []byte) error {
	if !utf8.Valid(l) || bytes.ContainsAny(l, "\n\r") {
		return fmt.Errorf("not one line of UTF-8")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(l, &m); err != nil {
		return err
	}
	if string(m["jsonrpc"]) != `"2.0"` {
		return fmt.Errorf("jsonrpc is %s", m["jsonrpc"])
	}
	if method, ok := m["method"]; ok {
		var s string
		return json.Unmarshal(method, &s)
	}
	id, ok := m["id"]
	if !ok || !(id[0] == '"' || id[0] == '-' || (id[0] >= '0' && id[0] <= '9') || string(id) == "null") {
		return fmt.Errorf("id %s", id)
	}
	result, hasResult := m["result"]
	rerr, hasError := m["error"]
	if hasResult == hasError {
		return fmt.Errorf("want exactly one of result and error")
	}
	if hasResult {
		if result[0] != '{' {
			return fmt.Errorf("result is not an object")
		}
		return nil
	}
	var e struct {
		Code    *int64  `json:"code"`
		Message *string `json:"message"`
	}
	if err := json.Unmarshal(rerr, &e); err != nil || e.Code == nil || e.Message == nil {
		return fmt.Errorf("error %s: want an integer code and a message", rerr)
	}
	return nil
}

// FuzzMCPStdio feeds arbitrary input to one stdio server, each followed by
// a ping: nothing may panic, every line out must be a JSON-RPC message, and
// the ping must be answered. The corpus in testdata/fuzz/FuzzMCPStdio holds
// malformedLines, a few good calls and a cancel.
func FuzzMCPStdio(f *testing.F) {
	s, secret := stdioServer(f)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.MCP().ServeStdio(ctx, s.MCP().StdioIdentity(secret), inR, outW) }()
	lines := make(chan []byte)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 8<<20)
		for sc.Scan() {
			lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(lines)
	}()
	f.Cleanup(func() {
		cancel()
		_ = inW.Close()
		if err := <-done; err != nil {
			f.Error(err)
		}
		_ = outW.Close()
	})
	n := 0
	f.Fuzz(func(t *testing.T, input []byte) {
		n++
		probe := fmt.Sprintf(`"probe-%d"`, n)
		// The write runs beside the reading: a pipe's write waits for the
		// server to read it all, and the server may wait for its answers
		// to be read first, which would otherwise wait for the write.
		written := make(chan error, 1)
		go func() {
			_, err := inW.Write(append(append(input, '\n'), `{"jsonrpc":"2.0","id":`+probe+`,"method":"ping"}`+"\n"...))
			written <- err
		}()
		for l := range lines {
			if err := checkRPCLine(l); err != nil {
				t.Fatalf("after %q: %v\n%.300s", input, err, l)
			}
			var a rpcLine
			if json.Unmarshal(l, &a) == nil && string(a.ID) == probe {
				if string(a.Result) != "{}" {
					t.Fatalf("after %q the ping got %s", input, l)
				}
				if err := <-written; err != nil {
					t.Fatal(err)
				}
				return
			}
		}
		t.Fatalf("after %q the server stopped", input)
	})
}
