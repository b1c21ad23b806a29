package webtest

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	verrors "github.com/pb33f/libopenapi-validator/errors"

	"tend/web"
)

// Every request a test sends through an Env, and every answer, is checked
// against the OpenAPI document the server serves (web.OpenAPI), with
// libopenapi-validator:
//   - an answer must match the document: its status documented for the
//     operation, its media type declared, its JSON body valid against the
//     schema; a path or method the document lacks must be answered 404 or
//     405, as the router answers one it does not serve;
//   - a request the document refuses must be refused (4xx): a test that
//     sends a malformed body on purpose is answered 400 or 422, and that is
//     the document and the server agreeing.
// The document's records are $ref components, which libopenapi resolves
// when it builds the validator; TestValidatedCatchesMismatches holds a
// mismatch inside a referred record to be reported too.
// The validator is built once per test binary; building it compiles every
// schema, and a check costs a fraction of a request's own time.

var (
	validatorOnce sync.Once
	openapiCheck  validator.Validator
	validatorErr  error
)

// openapiValidator is the validator of the document, built on first use.
func openapiValidator() (validator.Validator, error) {
	validatorOnce.Do(func() {
		doc, err := libopenapi.NewDocument(web.OpenAPI())
		if err != nil {
			validatorErr = err
			return
		}
		v, errs := validator.NewValidator(doc)
		if len(errs) > 0 {
			validatorErr = fmt.Errorf("openapi validator: %v", errs)
			return
		}
		openapiCheck = v
	})
	return openapiCheck, validatorErr
}

// Validated wraps h so that every request it serves and every answer it
// gives is checked against the document; a mismatch fails t, naming the
// operation.
func Validated(t testing.TB, h http.Handler) http.Handler {
	v, err := openapiValidator()
	if err != nil {
		t.Fatal(err)
	}
	return validated{inner: h, HandlerFunc: func(w http.ResponseWriter, r *http.Request) {
		// A chunked body is refused before a byte of it is read (and may
		// never end); an OPTIONS request is the router's own answer.
		if slices.Contains(r.TransferEncoding, "chunked") || r.Method == http.MethodOptions {
			h.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			h.ServeHTTP(w, r) // the client went away; nothing to check
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		if r.Context().Err() != nil {
			return // the client went away mid-answer: what was written is not an answer
		}
		check(t, v, r, body, rec)
	}}
}

// validated is what Validated serves: the checking handler, and the one
// it checks, for Env.Handler to find behind it.
type validated struct {
	http.HandlerFunc
	inner http.Handler
}

// check validates one exchange.
func check(t testing.TB, v validator.Validator, r *http.Request, body []byte, rec *recorder) {
	req := r.Clone(r.Context())
	req.Body = io.NopCloser(bytes.NewReader(body))
	if len(body) == 0 {
		// No body has no media type: an action route's empty body is
		// taken whatever Content-Type came with it.
		req.Header.Del("Content-Type")
	}
	reqOK, reqErrs := v.ValidateHttpRequestSync(req)
	if missingRoute(reqErrs) {
		if rec.status != http.StatusNotFound && rec.status != http.StatusMethodNotAllowed {
			t.Errorf("openapi: %s %s is not in the document, yet answered %d", r.Method, r.URL.Path, rec.status)
		}
		return
	}
	if !reqOK && rec.status < 400 {
		t.Errorf("openapi: %s: the server took (%d) a request the document refuses:\n%s", operation(r, reqErrs), rec.status, describe(reqErrs))
	}
	res := &http.Response{StatusCode: rec.status, Header: rec.Header(), Body: io.NopCloser(bytes.NewReader(rec.body.Bytes())), Request: req}
	req.Body = io.NopCloser(bytes.NewReader(body))
	if ok, errs := v.ValidateHttpResponse(req, res); !ok {
		t.Errorf("openapi: %s: the %d answer does not match the document:\n%s\n%.2000s", operation(r, errs), rec.status, describe(errs), rec.body.Bytes())
	}
}

// missingRoute reports whether the document has no operation for the request.
func missingRoute(errs []*verrors.ValidationError) bool {
	for _, e := range errs {
		if e.IsPathMissingError() || e.IsOperationMissingError() {
			return true
		}
	}
	return false
}

// operation names the operation errs are about: METHOD /template.
func operation(r *http.Request, errs []*verrors.ValidationError) string {
	for _, e := range errs {
		if e.SpecPath != "" {
			return r.Method + " " + e.SpecPath
		}
	}
	return r.Method + " " + r.URL.Path
}

func describe(errs []*verrors.ValidationError) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "  - %s: %s\n", e.Message, e.Reason)
		for _, f := range e.SchemaValidationErrors {
			fmt.Fprintf(&b, "      %s (at %s)\n", f.Reason, f.FieldPath)
		}
	}
	return b.String()
}

// recorder passes an answer through and keeps its status and, when JSON,
// its body.
type recorder struct {
	http.ResponseWriter
	status int
	wrote  bool
	keep   bool // the body is JSON: kept for the check
	body   bytes.Buffer
}

// Unwrap lets http.ResponseController reach the connection.
func (w *recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *recorder) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
		mt, _, _ := mime.ParseMediaType(w.Header().Get("Content-Type"))
		w.keep = mt == "application/json" || strings.HasSuffix(mt, "+json")
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *recorder) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if w.keep {
		w.body.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// Flush sends what was written so far (a streamed export).
func (w *recorder) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
