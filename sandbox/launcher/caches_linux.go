package launcher

import (
	"fmt"
	"strings"

	"golang.org/x/sys/unix"
)

// layerCaches mounts each command layer over its cache. A path the
// overlay's option string cannot carry, or an overlay the kernel refuses,
// gets the layer alone bound over the cache: the command then starts from
// an empty cache of its own, and still writes nothing the person reads.
func layerCaches(layers []CacheLayer) error {
	for _, l := range layers {
		if !strings.ContainsAny(l.Path+l.Upper+l.Work, ",:\\") {
			opts := "lowerdir=" + l.Path + ",upperdir=" + l.Upper + ",workdir=" + l.Work
			if unix.Mount("overlay", l.Path, "overlay", unix.MS_NOSUID|unix.MS_NODEV, opts) == nil {
				continue
			}
		}
		if err := unix.Mount(l.Upper, l.Path, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("cache layer over %s: %w", l.Path, err)
		}
	}
	return nil
}
