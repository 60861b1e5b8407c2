package agent

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Retention defaults: spill files are evidence worth keeping for a while,
// but not forever and not without bound.
const (
	defaultRetentionDays    = 30
	defaultRetentionTotalMB = 2048
)

// ApplyRetention deletes spill files older than the age limit, then the
// oldest until the rest fit the size limit (H8). It runs at session start,
// beside the session rather than before it, since it walks every earlier
// session's spill directory; the session named live is left alone, because
// its files are the evidence its transcript is about to point to. Errors
// only mean something is kept longer, so they are ignored.
func ApplyRetention(root, live string, days, totalMB int) {
	if days <= 0 {
		days = defaultRetentionDays
	}
	if totalMB <= 0 {
		totalMB = defaultRetentionTotalMB
	}
	type file struct {
		path string
		size int64
		mod  time.Time
	}
	var files []file
	cutoff := time.Now().Add(-time.Duration(days) * 24 * time.Hour)
	sessions := filepath.Join(root, "sessions")
	entries, err := os.ReadDir(sessions)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Name() == live {
			continue
		}
		spill := filepath.Join(sessions, e.Name(), "spill")
		filepath.WalkDir(spill, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			if info.ModTime().Before(cutoff) {
				os.Remove(p)
				return nil
			}
			files = append(files, file{p, info.Size(), info.ModTime()})
			return nil
		})
	}
	var total int64
	for _, f := range files {
		total += f.size
	}
	limit := int64(totalMB) << 20
	sort.Slice(files, func(i, j int) bool { return files[i].mod.Before(files[j].mod) })
	for _, f := range files {
		if total <= limit {
			break
		}
		if os.Remove(f.path) == nil {
			total -= f.size
		}
	}
}
