package main

import (
	"debug/elf"
	"os"
	"runtime"
	"testing"
)

// doctor's cgo warning rests on builtWithCgo: it must say cgo is on
// exactly when the binary starts through a dynamic loader. The test binary
// is built the way this run builds everything (make: CGO_ENABLED=0).
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
	if got := builtWithCgo(); got != dynamic {
		t.Errorf("builtWithCgo() = %v, but the binary has a dynamic loader: %v", got, dynamic)
	}
}
