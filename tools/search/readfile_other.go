//go:build !unix

package search

import "os"

type rawFile struct{ *os.File }

func openRaw(path string) (rawFile, error) {
	f, err := os.Open(path)
	return rawFile{f}, err
}

// size returns the file's size, or -1 when it cannot be known.
func (f rawFile) size() int64 {
	st, err := f.Stat()
	if err != nil {
		return -1
	}
	return st.Size()
}

func readDir(dir string) ([]os.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}
