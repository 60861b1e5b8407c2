package search

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// batchSize is how many files one job carries: large enough that the job
// stack's lock is not taken per file, small enough that a directory with
// thousands of files is still shared among workers.
const batchSize = 32

// walkSearch is the Go engine: it searches the tree under q.root with one
// worker per CPU and returns what each matching file gave, unsorted.
// partial reports a search stopped at q.maxCollect.
func walkSearch(ctx context.Context, q *query, m *matcher) (files []fileHits, partial bool, err error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	if !q.rootIsDir {
		s := &scanner{q: q, m: m}
		if h, ok := s.scan(q.root, q.rootDisplay); ok {
			return []fileHits{h}, false, nil
		}
		return nil, false, nil
	}
	w := &walker{q: q, m: m, filter: newEntryFilter(q.glob, q.typ)}
	w.cond = sync.NewCond(&w.mu)
	w.push(job{dir: q.root, display: q.rootDisplay, ig: ancestorNodes(q.root)})
	stop := context.AfterFunc(ctx, w.halt)
	defer stop()

	n := runtime.NumCPU()
	found := make([][]fileHits, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { found[i] = w.work() })
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	for _, f := range found {
		files = append(files, f...)
	}
	return files, w.full.Load(), nil
}

// job is a directory to list or a batch of files to search.
type job struct {
	dir     string // absolute; empty for a batch
	display string
	ig      *ignoreNode
	files   []fileJob
}

type fileJob struct{ path, display string }

// walker is a job stack shared by the workers. pending counts jobs pushed
// and not yet finished; when it falls to zero the walk is over.
type walker struct {
	q       *query
	m       *matcher
	filter  *entryFilter
	mu      sync.Mutex
	cond    *sync.Cond
	stack   []job
	pending int
	stopped atomic.Bool
	kept    atomic.Int64 // bytes of results kept, against q.maxCollect
	full    atomic.Bool  // the walk stopped at q.maxCollect
}

func (w *walker) push(j job) {
	w.mu.Lock()
	w.stack = append(w.stack, j)
	w.pending++
	w.mu.Unlock()
	w.cond.Signal()
}

func (w *walker) pop() (job, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.stack) == 0 && w.pending > 0 && !w.stopped.Load() {
		w.cond.Wait()
	}
	if w.stopped.Load() || len(w.stack) == 0 {
		return job{}, false
	}
	j := w.stack[len(w.stack)-1]
	w.stack[len(w.stack)-1] = job{}
	w.stack = w.stack[:len(w.stack)-1]
	return j, true
}

func (w *walker) finish() {
	w.mu.Lock()
	w.pending--
	done := w.pending == 0
	w.mu.Unlock()
	if done {
		w.cond.Broadcast()
	}
}

// halt stops the walk; workers return after the file they are reading.
func (w *walker) halt() {
	w.mu.Lock()
	w.stopped.Store(true)
	w.mu.Unlock()
	w.cond.Broadcast()
}

// work runs jobs until the walk ends and returns the matches it found.
func (w *walker) work() []fileHits {
	s := &scanner{q: w.q, m: w.m}
	var out []fileHits
	for {
		j, ok := w.pop()
		if !ok {
			return out
		}
		if j.dir != "" {
			w.list(j)
		}
		for _, f := range j.files {
			if w.stopped.Load() {
				break
			}
			if h, ok := s.scan(f.path, f.display); ok {
				out = append(out, h)
				if w.kept.Add(h.size()) > int64(w.q.maxCollect) {
					w.full.Store(true)
					w.halt()
				}
			}
		}
		w.finish()
	}
}

// list reads a directory, pushing its subdirectories and files that pass
// the filters as new jobs. Unreadable directories are skipped, as ripgrep
// does with --no-messages.
func (w *walker) list(j job) {
	ents, err := readDir(j.dir)
	if err != nil && len(ents) == 0 {
		return
	}
	ig := j.ig
	for _, e := range ents {
		if isIgnoreName(e.Name()) {
			ig = childNode(j.ig, j.dir)
			break
		}
	}
	prefix, dprefix := withSep(j.dir), ""
	if j.display != "" {
		dprefix = withSep(j.display)
	}
	var batch []fileJob
	for _, e := range ents {
		t := e.Type()
		isDir := t.IsDir()
		if !isDir && !t.IsRegular() {
			continue // symlinks are not followed; devices and sockets are not text
		}
		name := e.Name()
		abs, display := prefix+name, dprefix+name
		if w.filter.skip(ig, abs, display, name, isDir) {
			continue
		}
		if isDir {
			w.push(job{dir: abs, display: display, ig: ig})
			continue
		}
		if w.q.vis.Skip(abs) {
			continue // hidden by a Read rule: counted, never opened
		}
		if batch == nil {
			batch = make([]fileJob, 0, batchSize)
		}
		batch = append(batch, fileJob{path: abs, display: display})
		if len(batch) == batchSize {
			w.push(job{files: batch})
			batch = nil
		}
	}
	if len(batch) > 0 {
		w.push(job{files: batch})
	}
}
