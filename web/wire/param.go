package wire

import (
	"net/http"

	"github.com/julienschmidt/httprouter"
)

// Param is the route parameter name of the request (the router put them
// on its context).
func Param(r *http.Request, name string) string {
	return httprouter.ParamsFromContext(r.Context()).ByName(name)
}
