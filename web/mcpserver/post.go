package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// servePost answers an authenticated request to /mcp. A POST's body is
// read under the same limit as a /v1 body and checked (jsonrpc.go)
// before the fast path (call.go) or the SDK answers it, and whatever
// the SDK refuses in plain text is answered as a JSON-RPC error instead,
// with the same status: every answer to a POST is JSON-RPC. Statuses:
// 400 for a body that is not JSON (-32700) or no valid message (-32600),
// 413 for a body over the limit (-32600), and the SDK's own for the rest.
func (m *toolbox) servePost(w http.ResponseWriter, r *http.Request, sdk http.Handler) {
	if r.Method != http.MethodPost {
		sdk.ServeHTTP(w, r)
		return
	}
	ans := &rpcAnswer{ResponseWriter: w}
	defer ans.finish()
	if !jsonContent(r.Header.Get("Content-Type")) {
		sdk.ServeHTTP(ans, r)
		return
	}
	limit := m.s.app.Limits().MaxBodyBytes
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(limit)))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		writeRPCError(w, http.StatusRequestEntityTooLarge,
			invalidRequest(nil, "the body is over %d bytes, the limit of /mcp as of /v1", limit))
		return
	case err != nil:
		writeRPCError(w, http.StatusBadRequest, invalidRequest(nil, "the body could not be read"))
		return
	}
	if body = bytes.Trim(body, " \t\r\n"); len(body) == 0 {
		writeRPCError(w, http.StatusBadRequest, parseError("the body is empty"))
		return
	}
	msg, refusal := checkMessage(body)
	switch {
	case refusal != nil:
		writeRPCError(w, http.StatusBadRequest, refusal)
		return
	case !msg.isRequest && msg.id == nil:
		w.WriteHeader(http.StatusAccepted) // a response to nothing: noted, as the SDK notes any response
		return
	case m.serveCall(w, r, msg):
		return
	}
	ans.id = msg.id
	if msg.id != nil && !sdkKeepsID(msg.id) {
		msg.fields["id"] = proxyID
		if body, err = json.Marshal(msg.fields); err != nil {
			writeRPCError(w, http.StatusBadRequest, invalidRequest(msg.id, "the message could not be read"))
			return
		}
		ans.proxied = true
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	sdk.ServeHTTP(ans, r)
}

func writeRPCError(w http.ResponseWriter, status int, r *rpcRefusal) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(encodeRefusal(r))
}

// proxyID stands in for an id the SDK would not echo exactly; the answer
// gets the id as sent back.
var (
	proxyID   = json.RawMessage(`"tend:id-as-sent"`)
	proxyHead = []byte(`{"jsonrpc":"2.0","id":"tend:id-as-sent",`)
)

// sdkKeepsID is whether the SDK answers id with the same bytes: a string
// it encodes back the same way, or an integer a float64 holds exactly.
func sdkKeepsID(id json.RawMessage) bool {
	if id[0] == '"' {
		var s string
		if json.Unmarshal(id, &s) != nil {
			return false
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		return enc.Encode(s) == nil && bytes.Equal(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), id)
	}
	n, err := strconv.ParseInt(string(id), 10, 64)
	return err == nil && n > -1<<53 && n < 1<<53 && strconv.FormatInt(n, 10) == string(id)
}

// rpcAnswer carries the SDK's answer to a POST, holding back the two kinds
// it rewrites: a plain-text refusal, answered as a JSON-RPC error with the
// same status, and an answer to a proxied id, whose id is put back.
type rpcAnswer struct {
	http.ResponseWriter
	id      json.RawMessage // the request's id as sent; nil when none was read
	proxied bool
	status  int
	held    *bytes.Buffer
}

func (a *rpcAnswer) WriteHeader(status int) {
	if a.status != 0 {
		return
	}
	a.status = status
	ct := a.Header().Get("Content-Type")
	if (status >= 400 && strings.HasPrefix(ct, "text/plain")) || (a.proxied && strings.HasPrefix(ct, "application/json")) {
		a.held = new(bytes.Buffer)
		return
	}
	a.ResponseWriter.WriteHeader(status)
}

func (a *rpcAnswer) Write(p []byte) (int, error) {
	if a.status == 0 {
		a.WriteHeader(http.StatusOK)
	}
	if a.held != nil {
		return a.held.Write(p)
	}
	return a.ResponseWriter.Write(p)
}

// Flush passes a stream's events on; a held answer is written by finish.
func (a *rpcAnswer) Flush() {
	if f, ok := a.ResponseWriter.(http.Flusher); ok && a.held == nil {
		f.Flush()
	}
}

func (a *rpcAnswer) Unwrap() http.ResponseWriter { return a.ResponseWriter }

// finish writes the held answer, rewritten.
func (a *rpcAnswer) finish() {
	if a.held == nil {
		return
	}
	h := a.Header()
	h.Del("Content-Length")
	if strings.HasPrefix(h.Get("Content-Type"), "text/plain") {
		code := int64(jsonrpc.CodeInvalidRequest)
		if a.status >= 500 {
			code = jsonrpc.CodeInternalError
		}
		h.Del("X-Content-Type-Options")
		writeRPCError(a.ResponseWriter, a.status, &rpcRefusal{code: code, msg: strings.TrimSpace(a.held.String()), id: a.id})
		return
	}
	body := a.held.Bytes()
	if rest, ok := bytes.CutPrefix(body, proxyHead); ok {
		body = withID(append(append([]byte{}, rpcHead...), rest...), a.id)
	}
	a.ResponseWriter.WriteHeader(a.status)
	_, _ = a.ResponseWriter.Write(body)
}
