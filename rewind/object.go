package rewind

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// writeCommit writes a checkpoint's commit as a loose object itself: the
// commit is a few lines of text, and doing it here spares a git process
// per checkpoint (git commit-tree would write the same bytes).
func (g *git) writeCommit(tree, parent, message string, when time.Time) (string, error) {
	var body bytes.Buffer
	fmt.Fprintf(&body, "tree %s\n", tree)
	if parent != "" {
		fmt.Fprintf(&body, "parent %s\n", parent)
	}
	stamp := strconv.FormatInt(when.Unix(), 10) + " +0000"
	fmt.Fprintf(&body, "author workbench <workbench@localhost> %s\ncommitter workbench <workbench@localhost> %s\n\n%s\n", stamp, stamp, message)
	return g.writeObject("commit", body.Bytes())
}

// writeObject stores one loose object and returns its id. One already
// there is left as it is (objects are named by their content).
func (g *git) writeObject(kind string, data []byte) (string, error) {
	head := kind + " " + strconv.Itoa(len(data)) + "\x00"
	h := sha1.New()
	h.Write([]byte(head))
	h.Write(data)
	id := hex.EncodeToString(h.Sum(nil))
	dir := filepath.Join(g.objects, id[:2])
	final := filepath.Join(dir, id[2:])
	if _, err := os.Stat(final); err == nil {
		return id, nil
	}
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestSpeed)
	zw.Write([]byte(head))
	zw.Write(data)
	if err := zw.Close(); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, "tmp_obj_")
	if err != nil {
		return "", err
	}
	_, err = tmp.Write(z.Bytes())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		os.Chmod(tmp.Name(), 0o444)
		// A link fails rather than replace an object another writer put
		// there first, which holds the same bytes.
		if err = os.Link(tmp.Name(), final); errors.Is(err, os.ErrExist) {
			err = nil
		}
	}
	os.Remove(tmp.Name())
	if err != nil {
		return "", fmt.Errorf("writing object %s: %w", id, err)
	}
	return id, nil
}
