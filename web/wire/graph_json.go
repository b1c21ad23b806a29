package wire

// Governing is a document in force that binds an item, by the link that makes it bind.
type Governing struct {
	Document LinkEnd `json:"document"`
	LinkType string  `json:"link_type"`
}

// Beneath is an item found walking a tree of sequencing links, at its depth, and why the walk stopped there.
type Beneath struct {
	Depth   int     `json:"depth"`
	Item    LinkEnd `json:"item"`
	Stopped *string `json:"stopped"`
}
