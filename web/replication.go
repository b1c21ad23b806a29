package web

import (
	"time"

	"tend/app"
)

// SetReplication gives /readyz the state of continuous replication: status
// reports it, ok false when the database is not replicated.
func (s *Server) SetReplication(status func() (app.ReplicationStatus, bool)) {
	s.replication = status
}

func (s *Server) replicationStatus() (app.ReplicationStatus, bool) {
	if s.replication == nil {
		return app.ReplicationStatus{}, false
	}
	return s.replication()
}

// replicationJSON is what /readyz, which anyone may ask, says of
// replication: whether it keeps up, never where the replica is or what its
// errors said (those go to the log). A replica that fails does not make the
// server unready: it serves on, and the changes wait on this machine.
type replicationJSON struct {
	State         string     `json:"state"` // "ok", "failing", or "starting" before the first sync
	SyncedThrough *time.Time `json:"synced_through"`
	LagSeconds    float64    `json:"lag_seconds"`
	Errors        int64      `json:"errors"`
}

func newReplicationJSON(st app.ReplicationStatus) replicationJSON {
	j := replicationJSON{State: "ok", LagSeconds: st.Lag.Seconds(), Errors: st.Errors}
	switch {
	case st.Failing:
		j.State = "failing"
	case st.SyncedThrough.IsZero():
		j.State = "starting"
	}
	if !st.SyncedThrough.IsZero() {
		t := st.SyncedThrough.UTC()
		j.SyncedThrough = &t
	}
	return j
}
