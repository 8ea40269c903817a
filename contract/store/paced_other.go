//go:build !linux

package store

import "os"

// writePaced writes data to f at once: there is no sync_file_range here.
func writePaced(f *os.File, data []byte) error {
	_, err := f.Write(data)
	return err
}
