package web_test

import (
	"bytes"
	"encoding/base64"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tend/app"
	"tend/store/storetest"
	"tend/web"
	"tend/web/webtest"
)

// TestDavAccessLog: a CalDAV request is logged under the DAV route with the
// public prefix of the token its Basic password carries, never the secret.
func TestDavAccessLog(t *testing.T) {
	db, _, admin := webtest.OpenBootstrapped(t)
	var logs bytes.Buffer
	srv := httptest.NewServer(web.NewServer(app.New(db, storetest.Options(app.Options{Version: "test"})), slog.New(slog.NewTextHandler(&logs, nil))))
	defer srv.Close()
	req, _ := http.NewRequest("PROPFIND", srv.URL+"/dav/", nil)
	req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("admin:"+admin)))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	prefix, _ := app.SecretPrefix(admin)
	line := logs.String()
	if res.StatusCode != http.StatusMultiStatus || !strings.Contains(line, "route=/dav/*") || !strings.Contains(line, "credential="+prefix) || strings.Contains(line, admin) {
		t.Fatalf("%d\n%s", res.StatusCode, line)
	}
}
