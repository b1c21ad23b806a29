package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
)

// Every revision of tend with POST /mcp (from 36cc57d on) serves it
// stateless and takes a 2026-07-28 tools/call as one self-contained POST,
// with no initialize first; one before that answers 404.
const (
	mcpEra  = "2026-07-28"
	mcpTool = "service_list"
)

// probeMCP makes one call, telling a revision without the endpoint from
// one that refuses the call.
func probeMCP(ctx context.Context, t *target) (string, error) {
	status, body, err := t.call(mcpCall(ctx, t, -1))
	switch {
	case err != nil:
		return "", err
	case status == http.StatusNotFound:
		return "POST /mcp answers 404 (no MCP endpoint)", nil
	case status != http.StatusOK:
		return "", fmt.Errorf("a tools/call was answered %d %s", status, clip(body))
	}
	return "", mcpCheck(t, -1, body)
}

// mcpCall is the i-th tools/call of service_list with no arguments, with
// the headers and _meta the 2026-07-28 era asks of a client.
func mcpCall(ctx context.Context, t *target, i int) *http.Request {
	body := []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i+2) + `,"method":"tools/call","params":{"name":"` + mcpTool + `","arguments":{},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"` + mcpEra + `","io.modelcontextprotocol/clientCapabilities":{},` +
		`"io.modelcontextprotocol/clientInfo":{"name":"tend-ab","version":"1"}}}}`)
	req := t.request(ctx, http.MethodPost, "/mcp", body)
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", mcpEra)
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", mcpTool)
	return req
}

// mcpCheck accepts an answer that carries a result that is not a tool
// error.
func mcpCheck(_ *target, _ int, body []byte) error {
	if !bytes.Contains(body, []byte(`"result":`)) || bytes.Contains(body, []byte(`"isError":true`)) {
		return errors.New("not a tool result: " + clip(body))
	}
	return nil
}
