//go:build !linux

package main

import (
	"os"
	"os/signal"
	"syscall"
)

// reraise kills aar-exec with the signal that killed the command. Windows
// has no signal deaths, and Signal fails there, so it returns.
func reraise(sig int) {
	signal.Reset()
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		p.Signal(syscall.Signal(sig))
	}
}
