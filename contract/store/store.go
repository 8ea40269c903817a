// Package store reads and writes the referee's state file and its journal
// durably (DESIGN "State"). Input: a path and a state; output: files written
// atomically (temp file, fsync, rename, fsync of the directory), mode 0600, and a
// journal of numbered JSON lines appended and synced before the state that
// includes them. It knows nothing of games: decoding is the interpreter's.
package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"referee/contract"
)

// Load reads and strictly decodes the state at path. A missing file is
// os.ErrNotExist (wrapped); a corrupt or future-version one is an error naming
// the file, and is never overwritten by this package.
func Load(e *contract.Engine, path string) (*contract.State, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read state: %w", err)
	}
	s, err := e.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Save writes the state atomically: a temporary file in the same directory,
// fsync, rename over path, fsync of the directory. A crash at any instant leaves
// either the old or the new file, never a torn one.
func Save(path string, s *contract.State) error {
	b, err := contract.Encode(s)
	if err != nil {
		return err
	}
	return WriteAtomic(path, b, 0o600)
}

// WriteAtomic writes data to path atomically with the given mode.
func WriteAtomic(path string, data []byte, mode os.FileMode) error {
	tmp, err := writeTemp(path, data, mode)
	if err != nil {
		return err
	}
	return install(tmp, path)
}

// writeTemp writes data to a synced temporary file beside path.
func writeTemp(path string, data []byte, mode os.FileMode) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("save %s: %w", path, err)
	}
	tmp := f.Name()
	fail := func(err error) (string, error) {
		f.Close()
		os.Remove(tmp)
		return "", fmt.Errorf("save %s: %w", path, err)
	}
	if err := f.Chmod(mode); err != nil {
		return fail(err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(fmt.Errorf("fsync: %w", err))
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("save %s: %w", path, err)
	}
	return tmp, nil
}

// install renames the temporary file over path and syncs the directory.
func install(tmp, path string) error {
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("save %s: %w", path, err)
	}
	return syncDir(filepath.Dir(path))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// JournalPath is the journal beside a state file.
func JournalPath(statePath string) string {
	return filepath.Join(filepath.Dir(statePath), "journal.jsonl")
}

// Journal is the append-only history beside the state.
type Journal struct {
	path string
	f    *os.File
}

// OpenJournal opens (creating) the journal and cuts it back to the last line the
// state includes (seq <= keep): lines past it belong to a state that was never
// saved. A torn last line is cut too.
func OpenJournal(path string, keep int64) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open journal: %w", err)
	}
	var off int64
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			var e struct {
				Seq int64 `json:"seq"`
			}
			if json.Unmarshal(line, &e) != nil || e.Seq > keep {
				break
			}
			off += int64(len(line))
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			f.Close()
			return nil, fmt.Errorf("read journal: %w", err)
		}
	}
	if err := f.Truncate(off); err != nil {
		f.Close()
		return nil, fmt.Errorf("cut journal: %w", err)
	}
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("cut journal: %w", err)
	}
	return &Journal{path: path, f: f}, nil
}

// Append writes entries and syncs them to disk.
func (j *Journal) Append(entries []contract.Entry) error {
	if len(entries) == 0 {
		return nil
	}
	var b bytes.Buffer
	for _, e := range entries {
		line, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("journal entry %d: %w", e.Seq, err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if _, err := j.f.Write(b.Bytes()); err != nil {
		return fmt.Errorf("append journal: %w", err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("sync journal: %w", err)
	}
	return nil
}

// Close closes the journal.
func (j *Journal) Close() error { return j.f.Close() }

// ReadJournal reads every entry of a journal file.
func ReadJournal(path string) ([]contract.Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read journal: %w", err)
	}
	defer f.Close()
	var out []contract.Entry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		var e contract.Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return out, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// Commit is one durable step: the journal entries first (appended and synced),
// then the state that includes them (DESIGN "State").
//
// The journal's write and sync run while the new state is encoded and written
// to its temporary file; the state replaces the old one only once both are on
// disk, so the order that matters is kept and the two syncs overlap.
func Commit(j *Journal, path string, s *contract.State, entries []contract.Entry) error {
	jerr := make(chan error, 1)
	go func() { jerr <- j.Append(entries) }()
	b, err := contract.Encode(s)
	if err != nil {
		<-jerr
		return err
	}
	tmp, err := writeTemp(path, b, 0o600)
	if err != nil {
		<-jerr
		return err
	}
	if err := <-jerr; err != nil {
		os.Remove(tmp)
		return err
	}
	return install(tmp, path)
}
