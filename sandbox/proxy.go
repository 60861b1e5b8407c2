package sandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// proxyDialTimeout bounds one connection attempt to an allowed domain.
const proxyDialTimeout = 30 * time.Second

// headerTimeout bounds reading a client's request head, so an idle
// connection does not hold a goroutine forever.
const headerTimeout = 30 * time.Second

// Proxy is the HTTP proxy a command in the allowed-domains mode reaches:
// CONNECT for HTTPS and absolute-URI requests for plain HTTP, each checked
// against Domains and then dialled through Dial, which applies WebFetch's
// egress checks. The command's network namespace has nothing else.
type Proxy struct {
	// Domains are the allowed domains: "example.com" is that host only,
	// "*.example.com" its subdomains.
	Domains []string
	// Dial connects to an allowed host; nil refuses every connection.
	Dial func(ctx context.Context, host, port string) (net.Conn, error)
	// Refused, when set, is told of every request the proxy turned down.
	Refused func(host string, why error)
}

// Allowed reports whether host is one of the allowed domains.
func (p *Proxy) Allowed(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "" {
		return false
	}
	for _, d := range p.Domains {
		d = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(d)), ".")
		if sub, ok := strings.CutPrefix(d, "*."); ok {
			if strings.HasSuffix(host, "."+sub) {
				return true
			}
			continue
		}
		if host == d {
			return true
		}
	}
	return false
}

// Serve answers proxy requests on l until l is closed, and returns once
// every connection it accepted has ended.
func (p *Proxy) Serve(l net.Listener) error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	open := map[net.Conn]struct{}{}
	defer func() {
		mu.Lock()
		for c := range open {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	}()
	for {
		c, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		mu.Lock()
		open[c] = struct{}{}
		mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.handle(c)
			mu.Lock()
			delete(open, c)
			mu.Unlock()
			c.Close()
		}()
	}
}

// handle serves one client connection: one request, then the tunnel or the
// response.
func (p *Proxy) handle(c net.Conn) {
	_ = c.SetReadDeadline(time.Now().Add(headerTimeout))
	br := bufio.NewReader(c)
	req, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	host, port, err := target(req)
	if err != nil {
		p.refuse(c, host, http.StatusBadRequest, err)
		return
	}
	if !p.Allowed(host) {
		p.refuse(c, host, http.StatusForbidden,
			fmt.Errorf("%s is not in sandbox.allowedDomains", host))
		return
	}
	if p.Dial == nil {
		p.refuse(c, host, http.StatusForbidden, errors.New("the sandbox proxy has no way out"))
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), proxyDialTimeout)
	up, err := p.Dial(ctx, host, port)
	cancel()
	if err != nil {
		p.refuse(c, host, http.StatusBadGateway, err)
		return
	}
	defer up.Close()
	if req.Method == http.MethodConnect {
		if _, err := io.WriteString(c, "HTTP/1.1 200 Connection Established\r\n\r\n"); err != nil {
			return
		}
	} else {
		// One request per connection keeps every request checked.
		req.Close = true
		req.Header.Del("Proxy-Connection")
		req.Header.Del("Proxy-Authorization")
		if err := req.Write(up); err != nil {
			return
		}
	}
	splice(c, br, up)
}

// target is the host and port a proxy request is for.
func target(req *http.Request) (string, string, error) {
	if req.Method == http.MethodConnect {
		host, port, err := net.SplitHostPort(req.RequestURI)
		if err != nil {
			return "", "", fmt.Errorf("CONNECT needs host:port: %w", err)
		}
		return host, port, nil
	}
	if req.URL == nil || req.URL.Host == "" {
		return "", "", errors.New("a proxy request needs an absolute URL")
	}
	if req.URL.Scheme != "http" {
		return req.URL.Hostname(), "", fmt.Errorf("scheme %q: only http goes through unencrypted, use CONNECT for https", req.URL.Scheme)
	}
	port := req.URL.Port()
	if port == "" {
		port = "80"
	}
	return req.URL.Hostname(), port, nil
}

// refuse answers a request the proxy will not carry, in words the command
// prints.
func (p *Proxy) refuse(c net.Conn, host string, status int, why error) {
	if p.Refused != nil {
		p.Refused(host, why)
	}
	body := "workbench sandbox proxy: " + why.Error() + "\n"
	fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		status, http.StatusText(status), len(body), body)
}

// splice copies both ways until either side is done.
func splice(client net.Conn, buffered *bufio.Reader, up net.Conn) {
	done := make(chan struct{}, 2)
	go func() {
		_, _ = io.Copy(up, buffered)
		if cw, ok := up.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		}
		done <- struct{}{}
	}()
	go func() {
		_, _ = io.Copy(client, up)
		if cw, ok := client.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		}
		done <- struct{}{}
	}()
	<-done
	<-done
}

// handOver is one command's proxy: it waits for the launcher to send the
// listening socket it made inside the namespace, then serves on it.
type handOver struct {
	sock *os.File
	mu   sync.Mutex
	l    net.Listener
	done chan struct{}
}

// serveHandOver starts waiting for the launcher's socket on sock.
func (p *Proxy) serveHandOver(sock *os.File) *handOver {
	h := &handOver{sock: sock, done: make(chan struct{})}
	go func() {
		defer close(h.done)
		l, err := receiveListener(sock)
		if err != nil {
			return
		}
		h.mu.Lock()
		if h.sock == nil { // closed while receiving
			h.mu.Unlock()
			l.Close()
			return
		}
		h.l = l
		h.mu.Unlock()
		_ = p.Serve(l)
	}()
	return h
}

// close stops serving and waits until every connection has ended.
func (h *handOver) close() {
	h.mu.Lock()
	if h.sock != nil {
		h.sock.Close()
		h.sock = nil
	}
	if h.l != nil {
		h.l.Close()
	}
	h.mu.Unlock()
	<-h.done
}

// receiveListener reads the listening socket the launcher sends.
func receiveListener(sock *os.File) (net.Listener, error) {
	rc, err := sock.SyscallConn()
	if err != nil {
		return nil, err
	}
	buf := make([]byte, 16)
	oob := make([]byte, unix.CmsgSpace(4))
	var n, oobn int
	var rerr error
	if err := rc.Read(func(fd uintptr) bool {
		n, oobn, _, _, rerr = unix.Recvmsg(int(fd), buf, oob, 0)
		return !errors.Is(rerr, unix.EAGAIN)
	}); err != nil {
		return nil, err
	}
	if rerr != nil {
		return nil, rerr
	}
	if n == 0 {
		return nil, io.EOF
	}
	if _, err := strconv.Atoi(string(buf[:n])); err != nil {
		return nil, fmt.Errorf("launcher sent %q", buf[:n])
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return nil, errors.New("launcher sent no socket")
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		return nil, errors.New("launcher sent no socket")
	}
	f := os.NewFile(uintptr(fds[0]), "sandbox-listener")
	defer f.Close()
	return net.FileListener(f)
}
