package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Every MCP message, over stdio and over POST /mcp, is checked here before
// the SDK sees it. The SDK (go-sdk v1.8.0) ends a stdio session on the
// first line it cannot decode, answers HTTP with text/plain, reads a
// number id through float64 into int64 (99999999999999999999999999 comes
// back as -9223372036854775808) and takes an id of null for a notification.
// So a message that is not a JSON-RPC 2.0 object is answered here, as
// JSON-RPC 2.0 says: -32700 when it is not JSON, -32600 when it is JSON but
// no valid request or response, with the id echoed when one can be read
// and null otherwise.
//
// Which ids are valid: JSON-RPC 2.0 allows a string, a number or null. MCP
// forbids null (a request's id "MUST NOT be null"), and the SDK would take
// such a request for a notification and never answer it, so null is
// refused. Any string and any JSON number (beyond int64, fractional, with
// an exponent) is accepted, and answered with the very bytes it was sent
// as.

// maxNesting is how deep a message may nest objects and arrays: the SDK's
// own decoder refuses deeper ones, so they are refused here, with an
// answer, before they reach it.
const maxNesting = 1000

// rpcMessage is one message that passed checkMessage.
type rpcMessage struct {
	fields map[string]json.RawMessage
	// id is the id exactly as sent; nil for a notification.
	id     json.RawMessage
	method string
	// isRequest is whether it is a request or notification; otherwise
	// it is a response to a request of the server's.
	isRequest bool
}

// rpcRefusal is the answer to a message refused by checkMessage.
type rpcRefusal struct {
	code int64
	msg  string
	id   json.RawMessage // nil: null
}

func parseError(format string, args ...any) *rpcRefusal {
	return &rpcRefusal{code: jsonrpc.CodeParseError, msg: "parse error: " + fmt.Sprintf(format, args...)}
}

func invalidRequest(id json.RawMessage, format string, args ...any) *rpcRefusal {
	return &rpcRefusal{code: jsonrpc.CodeInvalidRequest, msg: "invalid request: " + fmt.Sprintf(format, args...), id: id}
}

// checkMessage reads b as one JSON-RPC 2.0 message: a request, a
// notification or a response. b holds no surrounding whitespace and is
// not empty.
func checkMessage(b []byte) (rpcMessage, *rpcRefusal) {
	var m rpcMessage
	if !utf8.Valid(b) {
		return m, parseError("the message is not UTF-8")
	}
	switch b[0] {
	case '{':
	case '[':
		if !json.Valid(b) {
			return m, parseError("the message is not valid JSON")
		}
		return m, invalidRequest(nil, "batches are not accepted (MCP 2025-06-18 removed them): send one message at a time")
	default:
		if !json.Valid(b) {
			return m, parseError("the message is not valid JSON")
		}
		return m, invalidRequest(nil, "a message is a JSON object")
	}
	if err := json.Unmarshal(b, &m.fields); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return m, parseError("the message is not valid JSON (at byte %d)", se.Offset)
		}
		return m, parseError("the message is not valid JSON")
	}
	id, hasID := m.fields["id"]
	echo := id
	if hasID && !validID(id) {
		echo = nil
	}
	if nesting(b) > maxNesting {
		return m, invalidRequest(echo, "the message nests deeper than %d levels", maxNesting)
	}
	var version string
	if json.Unmarshal(m.fields["jsonrpc"], &version) != nil || version != "2.0" {
		return m, invalidRequest(echo, `"jsonrpc" must be "2.0"`)
	}
	method, hasMethod := m.fields["method"]
	// A response's id is null when the client could not read the request
	// it answers: such a response is valid, and goes unanswered.
	if hasID && !validID(id) && (hasMethod || string(id) != "null") {
		return m, invalidRequest(nil, "an id is a string or a number (MCP forbids null)")
	}
	m.id = echo
	if hasMethod {
		return m, m.checkRequest(method)
	}
	return m, m.checkResponse(hasID)
}

func (m *rpcMessage) checkRequest(method json.RawMessage) *rpcRefusal {
	m.isRequest = true
	if method[0] != '"' || json.Unmarshal(method, &m.method) != nil {
		return invalidRequest(m.id, `"method" must be a string`)
	}
	if p, ok := m.fields["params"]; ok && p[0] != '{' && p[0] != '[' && !bytes.Equal(p, []byte("null")) {
		return invalidRequest(m.id, `"params" must be an object`)
	}
	_, hasResult := m.fields["result"]
	_, hasError := m.fields["error"]
	if hasResult || hasError {
		return invalidRequest(m.id, `a request has "method", a response "result" or "error", never both`)
	}
	return nil
}

// checkResponse checks a message without a method: a response to one of
// the server's requests.
func (m *rpcMessage) checkResponse(hasID bool) *rpcRefusal {
	_, hasResult := m.fields["result"]
	rerr, hasError := m.fields["error"]
	switch {
	case !hasResult && !hasError:
		return invalidRequest(m.id, `a request needs "method"; a response needs "result" or "error"`)
	case hasResult && hasError:
		return invalidRequest(m.id, `a response has "result" or "error", not both`)
	case !hasID:
		return invalidRequest(nil, `a response needs the "id" of the request it answers`)
	case hasError && rerr[0] != '{':
		return invalidRequest(m.id, `"error" must be an object`)
	}
	return nil
}

// validID is whether raw, a valid JSON value, is an id MCP allows: a
// string or a number.
func validID(raw json.RawMessage) bool {
	c := raw[0]
	return c == '"' || c == '-' || (c >= '0' && c <= '9')
}

// nesting is how deeply the valid JSON text b nests objects and arrays.
func nesting(b []byte) int {
	depth, most := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			most = max(most, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return most
}

// encodeRefusal is the JSON-RPC error answering a refused message.
func encodeRefusal(r *rpcRefusal) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the id goes back as sent
	_ = enc.Encode(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", r.id, jsonrpc.Error{Code: r.code, Message: r.msg}})
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// withID puts id, exactly as the client sent it, into data, a message
// the SDK encoded without one.
func withID(data []byte, id json.RawMessage) []byte {
	out := make([]byte, 0, len(data)+len(id)+8)
	if rest, ok := bytes.CutPrefix(data, rpcHead); ok {
		out = append(append(append(out, rpcHead...), `"id":`...), id...)
		return append(append(out, ','), rest...)
	}
	// The SDK has always encoded the version first; should that change,
	// the id goes first, which is as valid.
	out = append(append(append(out, `{"id":`...), id...), ',')
	return append(out, data[1:]...)
}

var rpcHead = []byte(`{"jsonrpc":"2.0",`)
