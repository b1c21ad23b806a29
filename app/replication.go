package app

import "time"

// ReplicationStatus is the state of continuous replication off the
// machine, for the readiness probe, metrics and the log. It holds no
// credential: Replica is the destination's scheme, host and path only.
type ReplicationStatus struct {
	// Replica names the destination, such as s3://bucket/tend.
	Replica string
	// Since is when replication started.
	Since time.Time
	// SyncedThrough is when the last successful sync began: every write
	// committed before it is on the replica. Zero until the first.
	SyncedThrough time.Time
	// LastSync is when the last successful sync ended.
	LastSync time.Time
	// Lag bounds what the replica may miss: the writes of the last Lag
	// (the time since SyncedThrough, or since Since before a first sync).
	Lag time.Duration
	// Failing is whether the latest sync failed.
	Failing bool
	// Errors counts the syncs that failed since Since; LastError and
	// LastErrorAt describe the latest of them.
	Errors      int64
	LastError   string
	LastErrorAt time.Time
}
