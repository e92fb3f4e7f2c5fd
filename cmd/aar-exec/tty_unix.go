//go:build unix && !linux

package main

import "golang.org/x/sys/unix"

func isatty(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TIOCGETA)
	return err == nil
}
