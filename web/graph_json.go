package web

type governingJSON struct {
	Document linkEndJSON `json:"document"`
	LinkType string      `json:"link_type"`
}

type beneathJSON struct {
	Depth   int         `json:"depth"`
	Item    linkEndJSON `json:"item"`
	Stopped *string     `json:"stopped"`
}
