package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// fsTopdirFlag is FS_TOPDIR_FL (linux/fs.h), which x/sys does not name.
const fsTopdirFlag = 0x00020000

// spreadDirs marks dir as the top of a hierarchy (chattr +T): ext2, ext3
// and ext4 then place each directory made in it as they place those of
// the root, in a block group with more free inodes and blocks than the
// average and the fewest directories, rather than in dir's own group.
// An error where the file system has no such flag.
func spreadDirs(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	flags, err := unix.IoctlGetUint32(int(f.Fd()), unix.FS_IOC_GETFLAGS)
	if err != nil {
		return err
	}
	return unix.IoctlSetPointerInt(int(f.Fd()), unix.FS_IOC_SETFLAGS, int(flags|fsTopdirFlag))
}
