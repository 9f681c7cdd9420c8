//go:build !unix

package tables

import (
	"io"
	"os"
)

// mapFile reads the first size bytes of f into memory where mapping is not
// available.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	b := make([]byte, size)
	if _, err := f.ReadAt(b, 0); err != nil && err != io.EOF {
		return nil, nil, err
	}
	return b, nil, nil
}
