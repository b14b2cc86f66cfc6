//go:build e2e && load

package e2e

import (
	"bufio"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// A websocket client (RFC 6455, client side: text frames, masked;
// continuation, ping and close understood) and a Tinode session over it,
// for the load test: 100 sessions and more in one test process, each
// reading its own connection, with no dependency beyond the standard
// library.

// wsConn is one websocket connection.
type wsConn struct {
	c   net.Conn
	br  *bufio.Reader
	wmu sync.Mutex
}

const wsGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

// dialWS opens a websocket to ws://addr/path, sending headers with the
// upgrade request.
func dialWS(addr, path string, headers map[string]string) (*wsConn, error) {
	c, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return nil, err
	}
	var nonce [16]byte
	_, _ = rand.Read(nonce[:])
	key := base64.StdEncoding.EncodeToString(nonce[:])
	req, _ := http.NewRequest("GET", "http://"+addr+path, nil)
	req.Header.Set("Upgrade", "websocket")
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Sec-WebSocket-Key", key)
	req.Header.Set("Sec-WebSocket-Version", "13")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	if err := req.Write(c); err != nil {
		c.Close()
		return nil, err
	}
	br := bufio.NewReaderSize(c, 64<<10)
	res, err := http.ReadResponse(br, req)
	if err != nil {
		c.Close()
		return nil, err
	}
	sum := sha1.Sum([]byte(key + wsGUID))
	if res.StatusCode != http.StatusSwitchingProtocols || res.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) {
		c.Close()
		return nil, fmt.Errorf("websocket upgrade: %s", res.Status)
	}
	_ = c.SetDeadline(time.Time{})
	return &wsConn{c: c, br: br}, nil
}

// writeFrame sends one masked frame with opcode op.
func (w *wsConn) writeFrame(op byte, payload []byte) error {
	hdr := make([]byte, 0, 14+len(payload))
	hdr = append(hdr, 0x80|op)
	switch n := len(payload); {
	case n < 126:
		hdr = append(hdr, 0x80|byte(n))
	case n < 1<<16:
		hdr = append(hdr, 0x80|126)
		hdr = binary.BigEndian.AppendUint16(hdr, uint16(n))
	default:
		hdr = append(hdr, 0x80|127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	var mask [4]byte
	_, _ = rand.Read(mask[:])
	hdr = append(hdr, mask[:]...)
	start := len(hdr)
	hdr = append(hdr, payload...)
	for i := range payload {
		hdr[start+i] ^= mask[i%4]
	}
	w.wmu.Lock()
	defer w.wmu.Unlock()
	_, err := w.c.Write(hdr)
	return err
}

// writeText sends one text message.
func (w *wsConn) writeText(b []byte) error { return w.writeFrame(0x1, b) }

// readMessage returns the next text or binary message, answering pings;
// io.EOF when the server closed the connection.
func (w *wsConn) readMessage() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(w.br, h[:]); err != nil {
			return nil, err
		}
		fin, op := h[0]&0x80 != 0, h[0]&0x0f
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var b [2]byte
			if _, err := io.ReadFull(w.br, b[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			if _, err := io.ReadFull(w.br, b[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(b[:])
		}
		var mask [4]byte
		masked := h[1]&0x80 != 0
		if masked {
			if _, err := io.ReadFull(w.br, mask[:]); err != nil {
				return nil, err
			}
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(w.br, payload); err != nil {
			return nil, err
		}
		if masked {
			for i := range payload {
				payload[i] ^= mask[i%4]
			}
		}
		switch op {
		case 0x8: // close
			_ = w.writeFrame(0x8, nil)
			return nil, io.EOF
		case 0x9: // ping
			if err := w.writeFrame(0xA, payload); err != nil {
				return nil, err
			}
			continue
		case 0xA: // pong
			continue
		}
		msg = append(msg, payload...)
		if fin {
			return msg, nil
		}
	}
}

func (w *wsConn) close() error {
	_ = w.writeFrame(0x8, []byte{0x03, 0xe8}) // 1000, normal closure
	return w.c.Close()
}

// tnCtrl is Tinode's {ctrl} reply.
type tnCtrl struct {
	ID     string         `json:"id"`
	Topic  string         `json:"topic"`
	Code   int            `json:"code"`
	Text   string         `json:"text"`
	Params map[string]any `json:"params"`
}

// tnData is Tinode's {data} message, as the load test reads it.
type tnData struct {
	Topic   string `json:"topic"`
	From    string `json:"from"`
	SeqID   int    `json:"seq"`
	Content string `json:"content"`
}

// tnSession is one Tinode session over a websocket: requests are answered
// by their id; {data} goes to onData (called on the reading goroutine, in
// the order received).
type tnSession struct {
	ws      *wsConn
	next    atomic.Int64
	mu      sync.Mutex
	pending map[string]chan tnCtrl
	onData  func(tnData)
	done    chan struct{}
	err     error // why the reader stopped, after done
	user    string
}

// tnAPIKey is the API key of the test configuration (client.mjs's).
const tnAPIKey = "AQEAAAABAAD_rAp4DJh05a1HAwFT3A6K"

// openSession connects to Tinode's websocket at addr and says {hi}.
func openSession(addr string, onData func(tnData)) (*tnSession, error) {
	ws, err := dialWS(addr, "/v0/channels", map[string]string{"X-Tinode-APIKey": tnAPIKey})
	if err != nil {
		return nil, err
	}
	s := &tnSession{ws: ws, pending: map[string]chan tnCtrl{}, onData: onData, done: make(chan struct{})}
	go s.read()
	if _, err := s.call("hi", map[string]any{"ver": "0.25", "ua": "singletable-load/1.0"}); err != nil {
		ws.close()
		return nil, err
	}
	return s, nil
}

func (s *tnSession) read() {
	defer close(s.done)
	for {
		b, err := s.ws.readMessage()
		if err != nil {
			s.err = err
			s.mu.Lock()
			for id, ch := range s.pending {
				close(ch)
				delete(s.pending, id)
			}
			s.mu.Unlock()
			return
		}
		var m struct {
			Ctrl *tnCtrl `json:"ctrl"`
			Data *tnData `json:"data"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			s.err = fmt.Errorf("bad message %q: %w", b, err)
			continue
		}
		switch {
		case m.Data != nil:
			if s.onData != nil {
				s.onData(*m.Data)
			}
		case m.Ctrl != nil && m.Ctrl.ID != "":
			s.mu.Lock()
			ch := s.pending[m.Ctrl.ID]
			delete(s.pending, m.Ctrl.ID)
			s.mu.Unlock()
			if ch != nil {
				ch <- *m.Ctrl
			}
		}
	}
}

// send sends {kind: body} with a new id and returns the channel its
// {ctrl} arrives on (closed if the connection ends first).
func (s *tnSession) send(kind string, body map[string]any) (string, <-chan tnCtrl, error) {
	id := strconv.FormatInt(s.next.Add(1), 10)
	body["id"] = id
	b, err := json.Marshal(map[string]any{kind: body})
	if err != nil {
		return "", nil, err
	}
	ch := make(chan tnCtrl, 1)
	s.mu.Lock()
	s.pending[id] = ch
	s.mu.Unlock()
	if err := s.ws.writeText(b); err != nil {
		s.mu.Lock()
		delete(s.pending, id)
		s.mu.Unlock()
		return "", nil, err
	}
	return id, ch, nil
}

// call sends {kind: body} and waits for its {ctrl}, which must be 2xx.
func (s *tnSession) call(kind string, body map[string]any) (tnCtrl, error) {
	_, ch, err := s.send(kind, body)
	if err != nil {
		return tnCtrl{}, err
	}
	select {
	case c, ok := <-ch:
		if !ok {
			return tnCtrl{}, fmt.Errorf("{%s}: connection closed: %v", kind, s.err)
		}
		if c.Code < 200 || c.Code >= 300 {
			return c, fmt.Errorf("{%s}: %d %s", kind, c.Code, c.Text)
		}
		return c, nil
	case <-time.After(60 * time.Second):
		return tnCtrl{}, fmt.Errorf("{%s}: no reply in 60 s", kind)
	}
}

// createAccount creates a basic-auth account login/pass, logged in on s.
func (s *tnSession) createAccount(login, pass, name string) error {
	c, err := s.call("acc", map[string]any{
		"user": "new", "scheme": "basic", "login": true,
		"secret": base64.StdEncoding.EncodeToString([]byte(login + ":" + pass)),
		"desc":   map[string]any{"public": map[string]any{"fn": name}},
	})
	if err != nil {
		return err
	}
	u, _ := c.Params["user"].(string)
	if u == "" {
		return errors.New("{acc}: no user in the reply")
	}
	s.user = u
	return nil
}

// login logs s in with basic auth.
func (s *tnSession) login(login, pass string) error {
	c, err := s.call("login", map[string]any{
		"scheme": "basic", "secret": base64.StdEncoding.EncodeToString([]byte(login + ":" + pass)),
	})
	if err != nil {
		return err
	}
	s.user, _ = c.Params["user"].(string)
	return nil
}

func (s *tnSession) close() {
	_ = s.ws.close()
	<-s.done
}
