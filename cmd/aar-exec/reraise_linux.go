package main

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// reraise kills aar-exec with the signal that killed the command, so the
// caller sees the same death (make's "Terminated", Python's negative
// returncode, Node's signal). The Go runtime keeps its own handlers for
// signals like SIGSEGV and ignores them when sent by kill, so the default
// action is restored with a raw sigaction first. It returns only if the
// signal did not end the process.
func reraise(sig int) {
	// No core file for a re-raised SIGQUIT/SIGSEGV: the crash was the command's.
	unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{})
	// struct sigaction with sa_handler = SIG_DFL and everything else zero;
	// 32 bytes covers the kernel layout on every architecture.
	var act [4]uint64
	unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act[0])), 0, 8, 0, 0)
	var set unix.Sigset_t
	set.Val[(sig-1)/64] = 1 << ((uint(sig) - 1) % 64)
	unix.PthreadSigmask(unix.SIG_UNBLOCK, &set, nil)
	unix.Tgkill(unix.Getpid(), unix.Gettid(), unix.Signal(sig))
	// A signal that only stops or is ignored by default leaves us here.
}
