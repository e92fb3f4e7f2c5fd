//go:build !linux

package main

import (
	"os"
	"syscall"
)

func landlockUsable() bool { return false }

// sealedCopy returns a read-only copy of data in an unlinked temporary file.
func sealedCopy(data []byte) (*os.File, error) {
	f, err := os.CreateTemp("", "aar-exec-script-")
	if err != nil {
		return nil, err
	}
	name := f.Name()
	defer os.Remove(name)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, err
	}
	f.Close()
	return os.Open(name)
}

func syscallSignalName(sig syscall.Signal) string { return "" }
