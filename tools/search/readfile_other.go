//go:build !unix

package search

import (
	"io"
	"os"
)

func openRaw(path string) (io.ReadCloser, error) { return os.Open(path) }
