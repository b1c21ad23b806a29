package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// apiRequest calls tend's HTTP API at base with token as the bearer
// credential, body (JSON, or "" for none) as the request's, and returns the
// status and the body of the answer. It only returns its error, so any
// goroutine may call it.
func apiRequest(ctx context.Context, base, token, method, path, body string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, base+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	var b bytes.Buffer
	_, err = b.ReadFrom(res.Body)
	return res.StatusCode, b.Bytes(), err
}

// apiJSON is apiRequest with body encoded as JSON (nil for none) and the
// answer decoded; it fails the test when the call does not get through.
func apiJSON(t *testing.T, base, token, method, path string, body any) (int, map[string]any) {
	t.Helper()
	var in []byte
	if body != nil {
		var err error
		if in, err = json.Marshal(body); err != nil {
			t.Fatal(err)
		}
	}
	status, b, err := apiRequest(t.Context(), base, token, method, path, string(in))
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return status, out
}
