package web_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"tend/web/webtest"
)

// TestChunkedBodyRefused: a request carrying both Transfer-Encoding:
// chunked and a Content-Length, over a raw connection, is answered 400
// length_required at once instead of leaving the server waiting for a
// chunk that never comes; so is any chunked body, which Go's server cannot
// tell from the first. The connection is closed after the answer.
func TestChunkedBodyRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	body := `{"title":"smuggled"}`
	for name, head := range map[string]string{
		"both headers": "Content-Length: " + lstItoa(int64(len(body))) + "\r\nTransfer-Encoding: chunked\r\n",
		"chunked only": "Transfer-Encoding: chunked\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			conn, err := net.Dial("tcp", strings.TrimPrefix(e.Srv.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			// Not a timing: without the fix no answer would ever come, as
			// httptest's server has no read timeout; this ends the test.
			_ = conn.SetDeadline(time.Now().Add(time.Minute))
			req := "POST /v1/tasks HTTP/1.1\r\nHost: tend\r\nAuthorization: Bearer " + e.Admin +
				"\r\nContent-Type: application/json\r\n" + head + "\r\n" + body
			if _, err := conn.Write([]byte(req)); err != nil {
				t.Fatal(err)
			}
			br := bufio.NewReader(conn)
			res, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatalf("no answer: %v", err)
			}
			defer res.Body.Close()
			b, err := io.ReadAll(res.Body)
			if err != nil {
				t.Fatal(err)
			}
			webtest.AssertProblem(t, webtest.Response{Status: res.StatusCode, Header: res.Header, Body: b}, http.StatusBadRequest, "length_required")
			if !res.Close {
				t.Error("the connection stays open after a body that cannot be framed")
			}
			if _, err := br.ReadByte(); err == nil {
				t.Error("the server sent more after refusing")
			}
		})
	}
	if got := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?q=smuggled", e.Admin, nil); len(got["items"].([]any)) != 0 {
		t.Errorf("a refused body was stored: %v", got)
	}
}
