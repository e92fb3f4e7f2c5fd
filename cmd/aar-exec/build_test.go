package main

import (
	"debug/elf"
	"os"
	"runtime"
	"testing"
)

// doctor's cgo warning rests on builtWithCgo: a binary that starts
// through a dynamic loader must have been built with cgo. (A cgo build
// linked with -extldflags -static is the rare converse, and gets the
// warning anyway.) The test binary is built the way this run builds
// everything (make: CGO_ENABLED=0).
func TestBuiltWithCgoMeansDynamic(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads this binary's ELF program headers: Linux only")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dynamic := false
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			dynamic = true
		}
	}
	if dynamic && !builtWithCgo() {
		t.Errorf("the binary has a dynamic loader, but builtWithCgo() says cgo was off")
	}
}
