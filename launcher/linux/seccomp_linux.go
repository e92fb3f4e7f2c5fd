package linux

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A refusedCall is a system call the command may not make with certain
// arguments: chmod with the setuid bit in its mode (bits), or ioctl with
// TIOCSTI as its request (value).
type refusedCall struct {
	nr    uint32
	arg   int    // which argument is checked
	bits  uint32 // refused when any of these is set
	value uint32 // or, when bits is 0, when the argument is this
}

// An archCalls lists the refused calls of one audit architecture: a
// process can make the calls of each architecture its kernel runs (int
// 0x80 on x86-64), so each gets its own numbers.
type archCalls struct {
	arch  uint32
	calls []refusedCall
}

// chmod returns the refused forms of a chmod call, ioctl those of ioctl.
func chmod(nr uint32, modeArg int) refusedCall {
	return refusedCall{nr: nr, arg: modeArg, bits: unix.S_ISUID}
}
func ioctl(nr uint32) refusedCall { return refusedCall{nr: nr, arg: 1, value: unix.TIOCSTI} }

// refuseCalls makes chmod refuse the setuid bit, and ioctl refuse TIOCSTI,
// for the calling thread and what it execs.
//
// A root command has no capabilities, but it still owns the files it
// makes, and the owner may set the setuid bit: a copy of bash made setuid
// in the workspace would give whoever runs it later, outside the sandbox,
// a shell as root with every capability. A write to a setuid file clears
// the bit for a caller without CAP_FSETID, so a file created with the bit
// and then filled is no way around it.
//
// TIOCSTI pushes input into a terminal. The command runs in a session of
// its own without a controlling terminal, but as its session's leader it
// can make a terminal on its stdin its own with TIOCSCTTY, when no other
// session holds it (a pty an agent opened for it), and then type commands
// into what reads that terminal after it. TIOCSCTTY itself stays allowed:
// forkpty needs it for the ptys a command makes.
func refuseCalls() error {
	prog := refusalFilter(refusedCalls)
	if len(prog) == 0 {
		return nil // an architecture without a table
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("seccomp: refuse setuid chmod and TIOCSTI: %w", err)
	}
	return nil
}

// refusalFilter builds the BPF program: for each architecture, a refused
// call fails with EPERM; every other call passes.
func refusalFilter(archs []archCalls) []unix.SockFilter {
	if len(archs) == 0 {
		return nil
	}
	const (
		offNr   = 0
		offArch = 4
		offArgs = 16
	)
	stmt := func(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }
	jump := func(code uint16, k uint32, jt, jf int) unix.SockFilter {
		return unix.SockFilter{Code: code, Jt: uint8(jt), Jf: uint8(jf), K: k}
	}
	ld := uint16(unix.BPF_LD | unix.BPF_W | unix.BPF_ABS)
	ret := uint16(unix.BPF_RET | unix.BPF_K)
	jeq := uint16(unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K)
	jset := uint16(unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K)
	var prog []unix.SockFilter
	for _, a := range archs {
		n := len(a.calls)
		// Layout: ld arch; jeq arch; ld nr; n x jeq nr; allow; n x check.
		size := 3 + n + 1 + 4*n
		prog = append(prog, stmt(ld, offArch), jump(jeq, a.arch, 0, size-2), stmt(ld, offNr))
		for i, c := range a.calls {
			// From the jeq of call i to the check of call i.
			prog = append(prog, jump(jeq, c.nr, (n-1-i)+1+4*i, 0))
		}
		prog = append(prog, stmt(ret, unix.SECCOMP_RET_ALLOW))
		for _, c := range a.calls {
			test := jump(jset, c.bits, 0, 1)
			if c.bits == 0 {
				test = jump(jeq, c.value, 0, 1)
			}
			prog = append(prog,
				stmt(ld, uint32(offArgs+8*c.arg)), // the low half, little-endian
				test,
				stmt(ret, unix.SECCOMP_RET_ERRNO|uint32(unix.EPERM)),
				stmt(ret, unix.SECCOMP_RET_ALLOW))
		}
	}
	return append(prog, stmt(ret, unix.SECCOMP_RET_ALLOW))
}
