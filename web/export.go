package web

import (
	"net/http"
	"time"

	"tend/web/wire"
)

// handleExport streams a workspace's export (docs/data.md). It is a route
// of its own, not of the in-process API service_call_api reaches: an export
// is a file to download, not an answer for an agent to read. Once the
// header is written the status is sent; an error after that ends the
// stream without its last line, which tells an import it was cut short.
func (s *Server) handleExport(w http.ResponseWriter, r *http.Request) {
	started := false
	a, err := s.authenticate(r)
	if err == nil {
		// A big workspace takes longer to send than the server's write timeout.
		_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
		enc := wire.NewExportEncoder(w, func() {
			started = true
			w.Header().Set("Content-Type", wire.ExportMediaType)
			w.Header().Set("Content-Disposition", `attachment; filename="tend-export.jsonl"`)
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusOK)
		})
		err = s.app.Export(r.Context(), a, wsParam(r), enc)
	}
	switch {
	case err == nil:
	case !started:
		wire.WriteProblem(s.log, w, r, err)
	case !wire.ClientGone(r):
		s.log.ErrorContext(r.Context(), "export cut short", "err", err)
	}
}
