package main

import (
	"os"
	"syscall"
	"testing"
)

// TestArchivesKept: archives that hold what the generator makes are not
// written again (their files keep their inode and time), and one that
// differs in a byte, is one byte longer or shorter, or is missing, is
// written again, every size then holding the generator's archive.
func TestArchivesKept(t *testing.T) {
	dir := t.TempDir()
	sizes := []int{40, 15}
	paths, err := writeArchives(dir, sizes, 7, 20)
	if err != nil {
		t.Fatal(err)
	}
	if !archivesHold(paths, sizes, 7, 20) {
		t.Fatal("the archives just written do not hold the generator's")
	}
	if archivesHold(paths, sizes, 8, 20) {
		t.Fatal("the archives of seed 7 hold those of seed 8")
	}
	ino := func(p string) uint64 {
		t.Helper()
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return inode(fi)
	}
	before := ino(paths[40])
	if _, err := writeArchives(dir, sizes, 7, 20); err != nil {
		t.Fatal(err)
	}
	if ino(paths[40]) != before {
		t.Fatal("an archive that held the generator's was written again")
	}
	whole, err := os.ReadFile(paths[15])
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), whole...)
	flipped[len(flipped)/2] ^= 1
	for name, change := range map[string]func(){
		"a byte changed": func() { os.WriteFile(paths[15], flipped, 0o644) },
		"a byte more":    func() { os.WriteFile(paths[15], append(append([]byte(nil), whole...), '\n'), 0o644) },
		"a byte fewer":   func() { os.WriteFile(paths[15], whole[:len(whole)-1], 0o644) },
		"missing":        func() { os.Remove(paths[15]) },
	} {
		change()
		if archivesHold(paths, sizes, 7, 20) {
			t.Fatalf("%s: the archives hold the generator's", name)
		}
		if _, err := writeArchives(dir, sizes, 7, 20); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(paths[15]); err != nil || string(got) != string(whole) {
			t.Fatalf("%s: written again, the archive is not the generator's (%v)", name, err)
		}
	}
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 2 {
		t.Fatalf("the folder holds %d files, want the 2 archives", len(left))
	}
}

// inode is fi's inode number.
func inode(fi os.FileInfo) uint64 { return fi.Sys().(*syscall.Stat_t).Ino }
