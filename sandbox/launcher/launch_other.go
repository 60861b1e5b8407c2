//go:build !linux

package launcher

import (
	"errors"
	"runtime"
)

func launch([]string) error {
	return errors.New("no sandbox launcher for " + runtime.GOOS)
}
