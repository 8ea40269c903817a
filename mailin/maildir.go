package mailin

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// maildirArchive reads a Maildir (cur/ and new/; tmp/ holds unfinished
// deliveries and is skipped) in arrival order. A file's arrival time is the
// delivery timestamp at the start of its unique name ("1733480000.M12345P67.host:2,S",
// seconds plus the microseconds of the M field), or its mtime when the name
// has none. Only the names are held in memory; each file is read on Next.
type maildirArchive struct {
	files []maildirFile
	i     int
}

type maildirFile struct {
	path    string
	arrived time.Time
}

func openMaildir(dir string) (Archive, error) {
	var files []maildirFile
	found := false
	for _, sub := range []string{"new", "cur"} {
		d := filepath.Join(dir, sub)
		entries, err := os.ReadDir(d)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("open maildir: %w", err)
		}
		found = true
		for _, e := range entries {
			if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			t, ok := maildirNameTime(e.Name())
			if !ok {
				info, err := e.Info()
				if err != nil {
					continue // removed meanwhile
				}
				t = info.ModTime()
			}
			files = append(files, maildirFile{filepath.Join(d, e.Name()), t.UTC()})
		}
	}
	if !found {
		return nil, fmt.Errorf("open maildir: %s has neither cur/ nor new/", dir)
	}
	sort.SliceStable(files, func(i, j int) bool {
		if !files[i].arrived.Equal(files[j].arrived) {
			return files[i].arrived.Before(files[j].arrived)
		}
		return filepath.Base(files[i].path) < filepath.Base(files[j].path)
	})
	return &maildirArchive{files: files}, nil
}

// maildirNameTime reads the delivery time from a Maildir unique name
// (https://cr.yp.to/proto/maildir.html: "time.unique.host", where unique
// may carry "M<usec>").
func maildirNameTime(name string) (time.Time, bool) {
	secs, rest, ok := strings.Cut(name, ".")
	if !ok || secs == "" {
		return time.Time{}, false
	}
	s, err := strconv.ParseInt(secs, 10, 64)
	if err != nil || s <= 0 {
		return time.Time{}, false
	}
	var usec int64
	unique, _, _ := strings.Cut(rest, ".")
	if i := strings.IndexByte(unique, 'M'); i >= 0 {
		j := i + 1
		for j < len(unique) && unique[j] >= '0' && unique[j] <= '9' {
			j++
		}
		if u, err := strconv.ParseInt(unique[i+1:j], 10, 64); err == nil && u < 1e6 {
			usec = u
		}
	}
	return time.Unix(s, usec*1000), true
}

func (a *maildirArchive) Next() (*Raw, error) {
	for a.i < len(a.files) {
		f := a.files[a.i]
		a.i++
		data, err := os.ReadFile(f.path)
		if os.IsNotExist(err) {
			continue // moved by a running MDA since the listing
		}
		if err != nil {
			return nil, fmt.Errorf("read maildir message: %w", err)
		}
		return &Raw{Data: data, Arrived: f.arrived, UID: uint32(a.i)}, nil
	}
	return nil, io.EOF
}

func (a *maildirArchive) Close() error { return nil }
