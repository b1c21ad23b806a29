package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves the MCP tools on in and out, one JSON-RPC message a
// line, until in ends (every call read by then is answered first) or ctx
// ends. It never stops on a line it cannot use: each gets its JSON-RPC
// error and the next line is read. out carries only JSON-RPC messages, each
// written whole in one Write as soon as it is ready.
func (s *Server) ServeStdio(ctx context.Context, who Identify, in io.Reader, out io.Writer) error {
	t := &stdioTransport{in: in, out: out, maxLine: s.app.Limits().MaxBodyBytes, s: s}
	err := s.shared.srv.Run(context.WithValue(ctx, identifyKey{}, who), t)
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// stdioTransport is the SDK's Transport over a line-oriented reader and
// writer, standing in for mcp.StdioTransport (see jsonrpc.go for why).
//
// Ids: every call is handed to the SDK under an id of the transport's own
// (a counter), and its answer goes out under the id the client sent,
// byte for byte. So no id is ever rounded, two calls sent with the same id
// are both answered, and notifications/cancelled is passed on with the
// id it names translated.
//
// End of input: the SDK, told at once, would drop the answers of the calls
// still running (it stops writing once its reader fails), so Read reports
// the end only once every call read has been answered (see Read), or
// Close is called.
type stdioTransport struct {
	in      io.Reader
	out     io.Writer
	maxLine int
	s       *Server
}

// Connect starts reading in.
func (t *stdioTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &stdioConn{t: t, incoming: make(chan jsonrpc.Message), ended: make(chan struct{}),
		closed: make(chan struct{}), calls: map[int64]json.RawMessage{}, byID: map[string]int64{}}
	go c.readLoop(bufio.NewReaderSize(t.in, 64<<10))
	return c, nil
}

type stdioConn struct {
	t        *stdioTransport
	incoming chan jsonrpc.Message
	ended    chan struct{} // closed when in has ended; readErr says how
	readErr  error
	closed   chan struct{}
	once     sync.Once

	wmu sync.Mutex // one message at a time on out

	mu    sync.Mutex
	next  int64
	calls map[int64]json.RawMessage // the client's ids by the ids the SDK sees
	byID  map[string]int64          // the SDK's id of the latest call by the client's id, as spelled
	idle  chan struct{}             // closed when calls empties, if set
}

func (c *stdioConn) SessionID() string { return "" }

// Read returns the next message for the SDK. Once in has ended, it waits
// for every call to be answered before it reports the end. (No call of
// tend's runs until cancelled: subscriptions/listen, which may, returns at
// once, as tend offers nothing to subscribe to.)
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case msg := <-c.incoming:
		return msg, nil
	case <-c.ended:
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	for {
		c.mu.Lock()
		if len(c.calls) == 0 {
			c.mu.Unlock()
			return nil, c.readErr
		}
		if c.idle == nil {
			c.idle = make(chan struct{})
		}
		idle := c.idle
		c.mu.Unlock()
		select {
		case <-idle:
		case <-c.closed:
			return nil, io.EOF
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Write sends msg; an answer goes out under the id the client sent.
func (c *stdioConn) Write(_ context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		sdkID, _ := resp.ID.Raw().(int64)
		if id, ok := c.clientID(sdkID); ok {
			data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{Result: resp.Result, Error: resp.Error})
			if err == nil {
				err = c.write(withID(c.subscriptionID(data), id))
			}
			c.answered(sdkID, id)
			return err
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.write(c.subscriptionID(data))
}

// subscriptionKey names, in subscriptions/listen's acknowledgement and
// answer, the listen's id, which the SDK knows as its own.
var subscriptionKey = []byte(`"io.modelcontextprotocol/subscriptionId":`)

// subscriptionID puts the client's id of a listen in place of the SDK's.
func (c *stdioConn) subscriptionID(data []byte) []byte {
	i := bytes.Index(data, subscriptionKey)
	if i < 0 {
		return data
	}
	at := i + len(subscriptionKey)
	end := at
	for end < len(data) && data[end] >= '0' && data[end] <= '9' {
		end++
	}
	sdkID, err := strconv.ParseInt(string(data[at:end]), 10, 64)
	id, ok := c.clientID(sdkID)
	if err != nil || !ok {
		return data
	}
	return slices.Concat(data[:at], id, data[end:])
}

func (c *stdioConn) clientID(sdkID int64) (json.RawMessage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	id, ok := c.calls[sdkID]
	return id, ok
}

func (c *stdioConn) write(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.t.out.Write(append(data, '\n'))
	return err
}

// Close stops Read; the goroutine reading in stays blocked in its read
// until in ends, as there is no portable way to interrupt a read of stdin.
func (c *stdioConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// readLoop reads in line by line, answers the lines that are no JSON-RPC
// message itself and hands the others on.
func (c *stdioConn) readLoop(r *bufio.Reader) {
	for {
		line, tooLong, err := readLine(r, c.t.maxLine)
		switch {
		case tooLong:
			c.refuse(invalidRequest(nil, "the line is over %d bytes, the limit of a message (as of a /v1 and /mcp body)", c.t.maxLine))
		case len(line) > 0:
			if msg := c.accept(line); msg != nil {
				select {
				case c.incoming <- msg:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			c.readErr = err
			close(c.ended)
			return
		}
	}
}

// readLine reads one line without its end and surrounding whitespace.
// A line over limit bytes is read to its end and dropped (tooLong).
func readLine(r *bufio.Reader, limit int) ([]byte, bool, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > limit+2 { // room for "\r\n"
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		line = bytes.Trim(line, " \t\r\n")
		if len(line) > limit {
			tooLong, line = true, nil
		}
		return line, tooLong, err
	}
}

// accept checks line and returns the message to hand to the SDK, or nil
// when there is none (the line was answered here, or needs no answer).
func (c *stdioConn) accept(line []byte) jsonrpc.Message {
	m, refusal := checkMessage(line)
	if refusal != nil {
		c.refuse(refusal)
		return nil
	}
	if !m.isRequest && m.id == nil {
		c.t.s.log.Info("mcp: a response with a null id, dropped", "error", string(m.fields["error"]))
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		c.refuse(invalidRequest(m.id, "the message could not be read"))
		return nil
	}
	req, isReq := msg.(*jsonrpc.Request)
	switch {
	case !isReq:
		return msg
	case m.id != nil:
		req.ID = c.register(m.id)
	case m.method == "notifications/cancelled":
		if !c.translateCancel(req) {
			return nil
		}
	}
	return msg
}

func (c *stdioConn) refuse(r *rpcRefusal) {
	if err := c.write(encodeRefusal(r)); err != nil {
		c.t.s.log.Error("mcp: writing an error answer", "err", err)
	}
}

// register records a call sent with id and returns the id the SDK gets.
func (c *stdioConn) register(id json.RawMessage) jsonrpc.ID {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next++
	c.calls[c.next] = id
	c.byID[string(id)] = c.next
	sdkID, _ := jsonrpc.MakeID(float64(c.next)) // an int64 id, as the SDK makes its own
	return sdkID
}

// answered forgets a call once its answer is written.
func (c *stdioConn) answered(sdkID int64, id json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.calls, sdkID)
	if c.byID[string(id)] == sdkID {
		delete(c.byID, string(id))
	}
	if len(c.calls) == 0 && c.idle != nil {
		close(c.idle)
		c.idle = nil
	}
}

// translateCancel points a notifications/cancelled at the SDK's id of the
// call it names, and reports false when no such call is running.
func (c *stdioConn) translateCancel(req *jsonrpc.Request) bool {
	var params map[string]json.RawMessage
	if json.Unmarshal(req.Params, &params) != nil || len(params["requestId"]) == 0 || !validID(params["requestId"]) {
		return false
	}
	c.mu.Lock()
	sdkID, ok := c.byID[string(params["requestId"])]
	c.mu.Unlock()
	if !ok {
		return false
	}
	params["requestId"] = json.RawMessage(strconv.FormatInt(sdkID, 10))
	p, err := json.Marshal(params)
	if err != nil {
		return false
	}
	req.Params = p
	return true
}
