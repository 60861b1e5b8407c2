package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/seed92b641c3/workbench/sandbox/launcher"
)

// The tool caches (Go's build and module caches, npm's, pip's) are
// writable so that builds work inside, but the person's own builds read
// them later outside any sandbox: an object planted in GOCACHE under the
// right key is linked into the person's next `go build`. So a sandboxed
// command sees the person's cache with a writable layer of its own on top
// (an overlay): it reads what the person built, and what it writes stays in
// its layer. A layer is kept for the session's next command (builds stay
// warm) and used by one command at a time; the layers of a Workbench that
// is gone are removed when the next one makes its first.

// CacheLayer is one command's writable layer over one cache (the
// launcher mounts it).
type CacheLayer = launcher.CacheLayer

// cacheLayers hands out slots of layers, one slot per running command.
type cacheLayers struct {
	mu   sync.Mutex
	base string // Options.LayersDir
	dir  string // this process's slots, made on first use
	free []string
	made int
}

// layersBase is where every Workbench keeps its layers: outside every path
// a sandboxed command may write.
func layersBase() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "workbench", "sandbox-layers")
}

// over returns r with a slot of layers for its caches. Where no slot can
// be made, the caches are left out of the writable paths instead: a build
// that writes them fails, nothing reaches the person's cache.
func (c *cacheLayers) over(r Resolved) Resolved {
	if len(r.Caches) == 0 {
		return r
	}
	slot, err := c.take()
	if err == nil {
		for i, cache := range r.Caches {
			l := CacheLayer{Path: cache, Upper: filepath.Join(slot, strconv.Itoa(i), "upper"), Work: filepath.Join(slot, strconv.Itoa(i), "work")}
			if err = os.MkdirAll(l.Upper, 0o700); err != nil {
				break
			}
			if err = os.MkdirAll(l.Work, 0o700); err != nil {
				break
			}
			r.Layers = append(r.Layers, l)
		}
		if err != nil {
			c.put(r.Layers)
			r.Layers = nil
		}
	}
	if err != nil {
		r.Write = slices.DeleteFunc(slices.Clone(r.Write), func(w string) bool { return slices.Contains(r.Caches, w) })
	}
	return r
}

// take returns a free slot or makes one.
func (c *cacheLayers) take() (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := len(c.free); n > 0 {
		slot := c.free[n-1]
		c.free = c.free[:n-1]
		return slot, nil
	}
	if c.dir == "" {
		base := c.base
		if base == "" {
			base = layersBase()
		}
		if base == "" {
			return "", os.ErrNotExist
		}
		if err := os.MkdirAll(base, 0o700); err != nil {
			return "", err
		}
		removeAbandoned(base)
		dir, err := os.MkdirTemp(base, strconv.Itoa(os.Getpid())+"-")
		if err != nil {
			return "", err
		}
		c.dir = dir
	}
	c.made++
	slot := filepath.Join(c.dir, strconv.Itoa(c.made))
	return slot, os.MkdirAll(slot, 0o700)
}

// put gives a command's slot back.
func (c *cacheLayers) put(layers []CacheLayer) {
	if len(layers) == 0 {
		return
	}
	slot := filepath.Dir(filepath.Dir(layers[0].Upper))
	c.mu.Lock()
	c.free = append(c.free, slot)
	c.mu.Unlock()
}

// removeAbandoned removes, in the background, the layers of Workbench
// processes that no longer run.
func removeAbandoned(base string) {
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	var gone []string
	for _, e := range entries {
		pid, _, ok := strings.Cut(e.Name(), "-")
		n, err := strconv.Atoi(pid)
		if !ok || err != nil || n <= 0 {
			continue
		}
		if syscall.Kill(n, 0) == syscall.ESRCH {
			gone = append(gone, filepath.Join(base, e.Name()))
		}
	}
	if len(gone) > 0 {
		go func() {
			for _, g := range gone {
				os.RemoveAll(g)
			}
		}()
	}
}
