package web

import (
	"net/http"
	"time"

	"tend/app"
	"tend/web/wire"
)

// FollowStatus is how far a standby (tend serve --follow) is behind the
// primary's replica, for /readyz and /metrics.
type FollowStatus struct {
	// AppliedTXID is the last transaction applied to this copy, and
	// ReplicaTXID the last the replica holds; Transactions is how many
	// lie between.
	AppliedTXID, ReplicaTXID, Transactions uint64
	// Behind is the age of the oldest change not yet applied, 0 when the
	// copy has all the replica holds.
	Behind time.Duration
	// LastApplied is when a transaction was last applied; zero before the first.
	LastApplied time.Time
	// Err is the last failure to read the replica, nil while it reads.
	Err error
}

// SetFollow gives /readyz and /metrics the state of a standby: status
// reports it, ok false once the server no longer follows (after tend
// promote). Readiness fails while the copy is more than maxLag behind or
// the replica cannot be read: a load balancer then sends reads elsewhere.
func (s *Server) SetFollow(status func() (FollowStatus, bool), maxLag time.Duration) {
	s.follow, s.maxLag = status, maxLag
}

func (s *Server) followStatus() (FollowStatus, bool) {
	if s.follow == nil {
		return FollowStatus{}, false
	}
	return s.follow()
}

// followJSON is what /readyz says of a standby's copy.
type followJSON struct {
	State          string     `json:"state"` // "ok", "behind" (past --max-lag) or "failing" (the replica cannot be read)
	LagSeconds     float64    `json:"lag_seconds"`
	LagTransaction uint64     `json:"lag_transactions"`
	AppliedTXID    uint64     `json:"applied_txid"`
	LastApplied    *time.Time `json:"last_applied"`
	MaxLagSeconds  float64    `json:"max_lag_seconds"`
}

// newFollowJSON describes st, and whether the standby is fit to serve.
func newFollowJSON(st FollowStatus, maxLag time.Duration) (followJSON, bool) {
	j := followJSON{State: "ok", LagSeconds: st.Behind.Seconds(), LagTransaction: st.Transactions, AppliedTXID: st.AppliedTXID,
		MaxLagSeconds: maxLag.Seconds()}
	if !st.LastApplied.IsZero() {
		t := st.LastApplied.UTC()
		j.LastApplied = &t
	}
	switch {
	case st.Err != nil:
		j.State = "failing"
	case maxLag > 0 && st.Behind > maxLag:
		j.State = "behind"
	}
	return j, j.State == "ok"
}

// promoteJSON is the body of POST /v1/admin/promote.
type promoteJSON struct {
	// Replica is where the promoted database replicates to; left out, the
	// replica it followed, in a new generation.
	Replica *string `json:"replica"`
}

// promotedJSON answers a promotion.
type promotedJSON struct {
	Promoted bool `json:"promoted"` // true: the server is the primary and takes writes
}

func (s *Server) handlePromote(w http.ResponseWriter, r *http.Request, a app.Actor, in promoteJSON) error {
	replica := ""
	if in.Replica != nil {
		replica = *in.Replica
	}
	if err := s.app.Promote(r.Context(), a, replica); err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, promotedJSON{Promoted: true})
}
