package mcp

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressEvery spaces the progress lines passed on for one call: a server
// may notify on every item it processes, and each line is an event the UI
// draws and the transcript keeps.
const progressEvery = 250 * time.Millisecond

// progressRoutes hands a server's progress notifications to the call that
// sent the token. Tokens are unique per Manager, so a notification naming a
// token of another call (or none) reaches nobody.
type progressRoutes struct {
	next   atomic.Int64
	mu     sync.Mutex
	routes map[string]*progressRoute
}

type progressRoute struct {
	report func(string)
	last   time.Time
}

// open registers report for a new call and returns its token and a func
// that unregisters it. A nil report gets no token: the server is not asked
// for progress nobody would see.
func (p *progressRoutes) open(report func(string)) (token string, done func()) {
	if report == nil {
		return "", func() {}
	}
	token = "wb-" + strconv.FormatInt(p.next.Add(1), 10)
	p.mu.Lock()
	if p.routes == nil {
		p.routes = map[string]*progressRoute{}
	}
	p.routes[token] = &progressRoute{report: report}
	p.mu.Unlock()
	return token, func() {
		p.mu.Lock()
		delete(p.routes, token)
		p.mu.Unlock()
	}
}

// handle is the client's progress notification handler.
func (p *progressRoutes) handle(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
	if req == nil || req.Params == nil {
		return
	}
	token := fmt.Sprint(req.Params.ProgressToken)
	now := time.Now()
	p.mu.Lock()
	r := p.routes[token]
	if r == nil || (!r.last.IsZero() && now.Sub(r.last) < progressEvery) {
		p.mu.Unlock()
		return
	}
	r.last = now
	report := r.report
	p.mu.Unlock()
	report(progressLine(req.Params))
}

// progressLine renders a notification: "3/10 indexing files" or "42%".
func progressLine(n *sdk.ProgressNotificationParams) string {
	var parts []string
	switch {
	case n.Total > 0:
		parts = append(parts, strconv.FormatFloat(n.Progress, 'f', -1, 64)+"/"+strconv.FormatFloat(n.Total, 'f', -1, 64))
	case n.Progress > 0:
		parts = append(parts, strconv.FormatFloat(n.Progress, 'f', -1, 64))
	}
	if m := strings.TrimSpace(n.Message); m != "" {
		parts = append(parts, m)
	}
	return strings.Join(parts, " ")
}
