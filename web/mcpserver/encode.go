package mcpserver

import (
	"context"
	"encoding/json"
	"tend/web/wire"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The task record of a tool result is encoded by the same hand-written
// encoder as the HTTP answers (wire/task_encode.go); lists carry list fields
// (list.go), small enough for encoding/json.

// MarshalJSON encodes the task as wire.WriteTask does.
func (o taskOut) MarshalJSON() ([]byte, error) {
	b := append(make([]byte, 0, 2048), `{"task":`...)
	b, ok := wire.AppendTask(b, &o.Task)
	if !ok {
		type plain taskOut
		return json.Marshal(plain(o))
	}
	return append(b, '}'), nil
}

// The SDK encodes a tool result's structuredContent inside
// CallToolResult.MarshalJSON, and encoding/json checks and compacts the
// bytes of every MarshalJSON again at each level it passes through. For a
// page of full task records (about 30 KB) each such pass is a measurable
// share of a call, so the records are encoded once here and set into the
// result as they are; the SDK's own passes (the JSON-RPC response, the
// message written) still check them.

// encodedResult is a tool's result whose MarshalJSON writes the
// structuredContent without the SDK's extra pass. It embeds the
// *mcp.CallToolResult, so the SDK's later steps (the result type, the
// server's identity in _meta) set their fields on the result it wraps.
type encodedResult struct {
	*mcp.CallToolResult
}

// MarshalJSON is the SDK's encoding of the result without its
// structuredContent, which is then appended as its own encoder wrote it.
func (r encodedResult) MarshalJSON() ([]byte, error) {
	rest := *r.CallToolResult
	rest.StructuredContent = nil
	b, err := json.Marshal(&rest)
	if err != nil || r.StructuredContent == nil {
		return b, err
	}
	var sc []byte
	if m, ok := r.StructuredContent.(json.Marshaler); ok {
		sc, err = m.MarshalJSON()
	} else {
		sc, err = json.Marshal(r.StructuredContent)
	}
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(b)+len(sc)+24)
	out = append(out, b[:len(b)-1]...)
	out = append(out, `,"structuredContent":`...)
	out = append(out, sc...)
	return append(out, '}'), nil
}

// encodeToolResults is the receiving middleware that hands the SDK every
// successful tools/call result as an encodedResult.
func encodeToolResults(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if r, ok := res.(*mcp.CallToolResult); ok && err == nil && r.StructuredContent != nil {
			return encodedResult{r}, nil
		}
		return res, err
	}
}

// MarshalJSON encodes the task as wire.WriteTask does, and the verification
// beside it; several tasks as encoding/json does.
func (o doneOut) MarshalJSON() ([]byte, error) {
	if o.Task == nil {
		type plain doneOut
		return json.Marshal(plain(o))
	}
	b, err := taskOut{Task: *o.Task}.MarshalJSON()
	if err != nil || o.Verification == nil {
		return b, err
	}
	v, err := json.Marshal(o.Verification)
	if err != nil {
		return nil, err
	}
	b = append(append(b[:len(b)-1], `,"verification":`...), v...)
	return append(b, '}'), nil
}

// MarshalJSON encodes the task as wire.WriteTask does; several tasks as
// encoding/json does.
func (o updateOut) MarshalJSON() ([]byte, error) {
	if o.Task == nil {
		type plain updateOut
		return json.Marshal(plain(o))
	}
	return taskOut{Task: *o.Task}.MarshalJSON()
}
