package pages

import (
	"net/http"
	"strconv"
	"time"

	"tend/app"
	"tend/web/wire"
)

// liveWait bounds one long poll, below the server's write timeout and the
// idle timeouts of the proxies a home server sits behind.
const liveWait = 25 * time.Second

// pageLive answers {"seq": N}, the newest event of the workspace the caller
// may see: at once without after; with it, as soon as it is past after,
// or after liveWait with whatever it
// is then. A page that lists work keeps one of these open and reloads when
// the answer moves: no polling loop, and nothing read while nothing is
// written.
func (s *Server) pageLive(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := r.URL.Query()
	after, err := strconv.ParseInt(q.Get("after"), 10, 64)
	if q.Has("after") && (err != nil || after < 0) {
		return app.Invalidf("query.after", "after is the seq a page last saw, a whole number")
	}
	ws := workspaceOf(r)
	timeout := time.NewTimer(liveWait)
	defer timeout.Stop()
	for {
		written := s.app.Written() // taken before reading, so no write is missed between the two
		seq, err := s.app.NewestChange(r.Context(), a, ws)
		if err != nil {
			return err
		}
		if seq > after || !q.Has("after") {
			return wire.WriteJSON(w, http.StatusOK, map[string]int64{"seq": seq})
		}
		select {
		case <-written:
		case <-timeout.C:
			return wire.WriteJSON(w, http.StatusOK, map[string]int64{"seq": seq})
		case <-r.Context().Done():
			return nil
		}
	}
}
