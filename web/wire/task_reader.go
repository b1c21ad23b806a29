package wire

// ReadIn is t read by a reader in zone (an IANA name): the zone its compact
// line shows a timed due in. A client that decoded t from JSON, where the
// reader's zone is no field, sets it here to write the line the server
// would.
func (t Task) ReadIn(zone string) Task {
	t.readerZone = zone
	return t
}

// ReaderZone is the zone t's compact line shows a timed due in, "" when
// none was set.
func (t Task) ReaderZone() string { return t.readerZone }
