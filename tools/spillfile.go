package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"os"
)

// Tuning of spill files.
const (
	// spillChunk is how much output is gathered before one write: large
	// writes cost fewer system calls than one per pipe read.
	spillChunk = 1 << 20
	// spillChunks bounds the chunks in flight between the caller, the
	// writer and the hasher, and so the memory a spill uses whatever its
	// size.
	spillChunks = 8
	// writebackChunk is how much output accumulates before the kernel is
	// asked to start writing it to disk, and to flush it.
	writebackChunk = 64 << 20
)

// spillFile streams output to a temporary file and digests it. Output is
// gathered into chunks and the work is shared: the caller fills chunks, a
// writer goroutine writes them, a hasher computes the sha256, and a syncer
// flushes the file to stable storage as it grows. On a huge spill the
// copy, the digest and the disk then overlap instead of adding up, and the
// final fsync has little left to do (BENCHMARKS.md, BenchmarkBash1GiB).
type spillFile struct {
	f       *os.File
	chunk   []byte      // being filled by the caller
	free    chan []byte // chunks the hasher is done with
	made    int         // chunks allocated so far
	toWrite chan []byte
	toHash  chan []byte
	hashed  chan struct{}
	sum     hash.Hash
	// nudge asks the syncer to flush what is written so far; synced is
	// closed when it has stopped.
	nudge  chan struct{}
	synced chan struct{}

	// Owned by the writer goroutine until hashed is closed.
	err              error // the first write error
	written, flushed int64 // bytes written, and handed to writeback
}

func createSpillFile(dir string) (*spillFile, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, ".spill-*.tmp")
	if err != nil {
		return nil, err
	}
	s := &spillFile{f: f, sum: sha256.New(),
		free:    make(chan []byte, spillChunks),
		toWrite: make(chan []byte, spillChunks),
		toHash:  make(chan []byte, spillChunks),
		hashed:  make(chan struct{}),
		nudge:   make(chan struct{}, 1),
		synced:  make(chan struct{})}
	go s.write()
	go s.hash()
	go s.sync()
	return s, nil
}

// Write implements io.Writer. It never fails: a write error is kept for
// finish, so a producer is never stopped by a full disk.
func (s *spillFile) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if s.chunk == nil {
			s.chunk = s.take()
		}
		k := copy(s.chunk[len(s.chunk):cap(s.chunk)], p)
		s.chunk, p = s.chunk[:len(s.chunk)+k], p[k:]
		if len(s.chunk) == cap(s.chunk) {
			s.toWrite <- s.chunk
			s.chunk = nil
		}
	}
	return n, nil
}

// take returns an empty chunk, waiting for one to come back once all are
// in use.
func (s *spillFile) take() []byte {
	if s.made < spillChunks {
		select {
		case b := <-s.free:
			return b
		default:
			s.made++
			return make([]byte, 0, spillChunk)
		}
	}
	return <-s.free
}

func (s *spillFile) write() {
	defer close(s.toHash)
	for b := range s.toWrite {
		if s.err == nil {
			s.writeChunk(b)
		}
		s.toHash <- b
	}
}

func (s *spillFile) writeChunk(b []byte) {
	_, s.err = s.f.Write(b)
	s.written += int64(len(b))
	if s.written-s.flushed >= writebackChunk {
		startWriteback(s.f, s.flushed, s.written-s.flushed)
		select {
		case s.nudge <- struct{}{}:
		default: // a flush is already due
		}
		s.flushed = s.written
	}
}

// sync flushes the file to stable storage whenever the writer has written
// another writebackChunk, while the writing goes on, so neither the page
// cache nor the disk's own cache holds much for the final fsync. Without
// it the final fsync of a 1 GiB spill took over a second here.
func (s *spillFile) sync() {
	defer close(s.synced)
	for range s.nudge {
		s.f.Sync()
	}
}

func (s *spillFile) hash() {
	defer close(s.hashed)
	for b := range s.toHash {
		s.sum.Write(b)
		s.free <- b[:0]
	}
}

// drain hands over the last chunk and waits until everything is written
// and hashed.
func (s *spillFile) drain() {
	if len(s.chunk) > 0 {
		s.toWrite <- s.chunk
	}
	s.chunk = nil
	close(s.toWrite)
	<-s.hashed
	close(s.nudge)
	<-s.synced
}

// finish writes what is left, makes the file durable and closes it. It
// returns the file's name and the hex sha256 of everything written.
func (s *spillFile) finish() (name, sum string, err error) {
	s.drain()
	if s.err == nil {
		s.err = s.f.Sync()
	}
	if err := s.f.Close(); s.err == nil {
		s.err = err
	}
	return s.f.Name(), hex.EncodeToString(s.sum.Sum(nil)), s.err
}

// abort drops the file.
func (s *spillFile) abort() {
	s.drain()
	s.f.Close()
	os.Remove(s.f.Name())
}
