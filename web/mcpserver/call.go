package mcpserver

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The stateless era's one common request, a single tools/call, answered
// without the SDK's per-request machinery: for each POST its stateless
// handler connects a session, reads the body three times, runs the call on
// a goroutine and encodes the answer twice more, and a page of 20 tasks
// cost three to four times GET /v1/tasks that way (BENCHMARKS.md, MCP).
//
// serveCall takes only a request it can answer exactly as the SDK would
// (but for the id, which it echoes as sent where the SDK may round it):
// the 2026-07-28 headers all present and agreeing with the body, the body
// (already checked by servePost) one call of a registered tool with
// nothing beside the name, the arguments and the _meta fields the era
// defines. Anything else, including every request the SDK would refuse,
// goes on to the SDK. The tool runs through the same handler the SDK
// calls, and the answer carries what the SDK adds to a result in this era
// (the result type and the server's identity). TestMCPFastPathMatchesSDK
// holds the two answers equal.

// statelessEra is the protocol version without sessions.
const statelessEra = "2026-07-28"

// serveCall answers r, whose body is msg, if it is such a call, and
// reports whether it did.
func (m *toolbox) serveCall(w http.ResponseWriter, r *http.Request, msg rpcMessage) bool {
	h := r.Header
	if h.Get("Mcp-Protocol-Version") != statelessEra || h.Get("Mcp-Method") != "tools/call" || len(h.Values("Last-Event-ID")) > 0 ||
		!acceptsJSONAndStream(h.Values("Accept")) {
		return false
	}
	name, args, ok := m.callOf(msg, h.Get("Mcp-Name"))
	if !ok {
		return false
	}
	res, err := m.tools[name](r.Context(), &mcp.CallToolRequest{
		Params: &mcp.CallToolParamsRaw{Name: name, Arguments: args},
		Extra:  &mcp.RequestExtra{TokenInfo: auth.TokenInfoFromContext(r.Context()), Header: h},
	})
	var out []byte
	if err == nil { // addTool's handlers report every failure in the result
		res.SetMeta(map[string]any{mcp.MetaKeyServerInfo: m.impl})
		out, err = encodedResult{res}.MarshalJSON()
	}
	if err != nil {
		m.s.log.ErrorContext(r.Context(), "mcp tool", "tool", name, "err", err)
		writeRPCError(w, http.StatusInternalServerError, &rpcRefusal{code: jsonrpc.CodeInternalError, msg: "answering the call failed", id: msg.id})
		return true
	}
	b := make([]byte, 0, len(out)+len(msg.id)+48)
	b = append(append(append(b, `{"jsonrpc":"2.0","id":`...), msg.id...), `,"result":`...)
	b = append(append(b, out[:len(out)-1]...), `,"resultType":"complete"}}`...)
	w.Header().Set("Cache-Control", "no-cache, no-transform")
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
	return true
}

// callOf reads msg as one tools/call of a registered tool named as the
// Mcp-Name header says, with a 2026-07-28 _meta; ok is false otherwise.
func (m *toolbox) callOf(msg rpcMessage, nameHeader string) (name string, args json.RawMessage, ok bool) {
	if !msg.isRequest || msg.id == nil || msg.method != "tools/call" {
		return "", nil, false
	}
	var params map[string]json.RawMessage
	if !onlyKeys(msg.fields["params"], &params, "name", "arguments", "_meta") ||
		json.Unmarshal(params["name"], &name) != nil || name != nameHeader || m.tools[name] == nil {
		return "", nil, false
	}
	var meta map[string]json.RawMessage
	var version string
	var caps mcp.ClientCapabilities
	if !onlyKeys(params["_meta"], &meta, mcp.MetaKeyProtocolVersion, mcp.MetaKeyClientCapabilities, mcp.MetaKeyClientInfo) ||
		json.Unmarshal(meta[mcp.MetaKeyProtocolVersion], &version) != nil || version != statelessEra ||
		!isObject(meta[mcp.MetaKeyClientCapabilities]) || json.Unmarshal(meta[mcp.MetaKeyClientCapabilities], &caps) != nil {
		return "", nil, false
	}
	if info, sent := meta[mcp.MetaKeyClientInfo]; sent {
		var impl mcp.Implementation
		if !isObject(info) || json.Unmarshal(info, &impl) != nil {
			return "", nil, false
		}
	}
	return name, params["arguments"], true
}

// onlyKeys decodes raw as a JSON object holding no names but these, each
// spelled exactly.
func onlyKeys(raw json.RawMessage, dst *map[string]json.RawMessage, names ...string) bool {
	if !isObject(raw) || json.Unmarshal(raw, dst) != nil {
		return false
	}
	for k := range *dst {
		known := false
		for _, n := range names {
			known = known || k == n
		}
		if !known {
			return false
		}
	}
	return true
}

func isObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{'
}

func jsonContent(v string) bool {
	t, _, err := mime.ParseMediaType(v)
	return err == nil && t == "application/json"
}

// acceptsJSONAndStream is whether Accept names both media types the
// transport requires, each spelled out.
func acceptsJSONAndStream(values []string) bool {
	var plain, stream bool
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			t, _, _ := strings.Cut(part, ";")
			switch strings.ToLower(strings.TrimSpace(t)) {
			case "application/json":
				plain = true
			case "text/event-stream":
				stream = true
			}
		}
	}
	return plain && stream
}
