package linux

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A refusedCall is a system call the command may not make with certain
// arguments: chmod with the setuid bit in its mode, ioctl with TIOCSTI,
// kill aimed at the thread that forked it, prlimit aimed at any process
// but itself.
type refusedCall struct {
	nr   uint32
	arg  int     // which argument is checked, by its low 32 bits
	test argTest // how
	k    uint32
	and  []argCheck // further checks that must all hold as well
}

// An argCheck is one more test of a refusedCall.
type argCheck struct {
	arg  int
	test argTest
	k    uint32
	high bool // of the argument's high 32 bits: a pointer's
}

// checks returns all the tests of c, which must all hold for a refusal.
func (c refusedCall) checks() []argCheck {
	return append([]argCheck{{arg: c.arg, test: c.test, k: c.k}}, c.and...)
}

// An argTest says when a refusedCall refuses.
type argTest uint8

const (
	anyBit   argTest = iota // when any bit of k is set in the argument
	equal                   // when the argument is k
	notEqual                // when it is not k
	always                  // whatever the argument
)

// An archCalls lists the refused calls of one audit architecture: a
// process can make the calls of each architecture its kernel runs (int
// 0x80 on x86-64), so each gets its own numbers.
type archCalls struct {
	arch  uint32
	calls []refusedCall
	// nrBits refuses every call whose number has one of these bits:
	// x32's, on x86-64, which no program needs and which would each
	// want their own numbers here.
	nrBits uint32
}

// chmod returns the refused form of a chmod call, ioctl that of ioctl.
func chmod(nr uint32, modeArg int) refusedCall {
	return refusedCall{nr: nr, arg: modeArg, test: anyBit, k: unix.S_ISUID}
}
func ioctl(nr uint32) refusedCall { return refusedCall{nr: nr, arg: 1, test: equal, k: unix.TIOCSTI} }

// The socket ioctls that set a descriptor's owner, as x86 and ARM number
// them (the only tables here).
const (
	fioSetown = 0x8901
	siocSpgrp = 0x8902
)

// sysNrs are one architecture's numbers of the calls that reach another
// process by its id; 0 where the architecture has no such call.
type sysNrs struct {
	kill, tkill, tgkill, sigqueue, tgsigqueue, pidfdOpen, pidfdSignal, fcntl, fcntl64, ioctl, prlimit uint32
}

// supervisorCalls returns the calls that would reach the supervisor
// through the thread that forks the command (thread id tid).
//
// That thread is restricted like the command and shares its Landlock
// domain, so Landlock's scopes, which keep the command from signalling
// what lies outside its domain, let it signal that thread, and a signal
// to a thread is a signal to the whole supervisor: SIGKILL or SIGSTOP
// aar-exec, and the command's detached processes outlive the run with no
// end line written. kill -1 reaches that thread too. ptrace and
// /proc/PID/{environ,mem,root}, which the same domain would allow as
// well, are refused by the supervisor being non-dumpable instead.
//
// prlimit is not Landlock's at all: the command could lower the
// supervisor's limits (RLIMIT_FSIZE=0, and its end line is never
// written), so it may only set its own.
func supervisorCalls(n sysNrs, tid uint32) []refusedCall {
	calls := []refusedCall{
		{nr: n.kill, arg: 0, test: equal, k: tid},
		{nr: n.kill, arg: 0, test: equal, k: ^uint32(0)}, // kill(-1, ...)
		{nr: n.tkill, arg: 0, test: equal, k: tid},
		{nr: n.tgkill, arg: 1, test: equal, k: tid},
		{nr: n.sigqueue, arg: 0, test: equal, k: tid},
		{nr: n.tgsigqueue, arg: 1, test: equal, k: tid},
		{nr: n.pidfdOpen, arg: 0, test: equal, k: tid},
		// A /proc/TID directory serves as a pidfd, for the thread
		// group of that thread whatever the flags, and which file a
		// descriptor is the filter cannot see: pidfd_send_signal is
		// refused whole. Go and others fall back to kill.
		{nr: n.pidfdSignal, test: always},
		// SIGIO (with F_SETSIG, any signal: SIGKILL, SIGSTOP) and
		// SIGURG go to a descriptor's owner, which F_SETOWN sets by
		// thread id as well, F_SETOWN_EX to one thread, and the socket
		// ioctls FIOSETOWN and SIOCSPGRP through a pointer the filter
		// cannot read.
		{nr: n.fcntl, arg: 1, test: equal, k: unix.F_SETOWN, and: []argCheck{{arg: 2, test: equal, k: tid}}},
		{nr: n.fcntl, arg: 1, test: equal, k: unix.F_SETOWN_EX},
		{nr: n.ioctl, arg: 1, test: equal, k: fioSetown},
		{nr: n.ioctl, arg: 1, test: equal, k: siocSpgrp},
		// Reading another process's limits (psutil, prlimit(getpid()))
		// is harmless; setting them is not: a new limit is a pointer,
		// either of whose halves may be 0.
		{nr: n.prlimit, arg: 0, test: notEqual, k: 0, and: []argCheck{{arg: 2, test: notEqual, k: 0}}},
		{nr: n.prlimit, arg: 0, test: notEqual, k: 0, and: []argCheck{{arg: 2, test: notEqual, k: 0, high: true}}},
	}
	if n.fcntl64 != 0 {
		calls = append(calls,
			refusedCall{nr: n.fcntl64, arg: 1, test: equal, k: unix.F_SETOWN, and: []argCheck{{arg: 2, test: equal, k: tid}}},
			refusedCall{nr: n.fcntl64, arg: 1, test: equal, k: unix.F_SETOWN_EX})
	}
	return calls
}

// refuseCalls installs, on the calling thread and what it forks, a
// filter that refuses the calls of refusedCalls(tid): setuid chmod,
// TIOCSTI, and the ways to reach the supervisor that Landlock leaves
// open (see supervisorCalls).
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
//
// As root, the setgid bit is refused too: a root command's files belong
// to group root, and a copy of id or a shell made setgid in the workspace
// would give whoever runs it later group root (which reads
// /etc/sudoers). Another user's command can only give its own groups,
// which it could do outside the sandbox all the same.
func refuseCalls(tid int, root bool) error {
	archs := refusedCalls(uint32(tid))
	if root {
		for _, a := range archs {
			for i, c := range a.calls {
				if c.test == anyBit && c.k == unix.S_ISUID {
					a.calls[i].k |= unix.S_ISGID
				}
			}
		}
	}
	prog := refusalFilter(archs)
	if len(prog) == 0 {
		return nil // an architecture without a table
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("seccomp: refuse setuid chmod, TIOCSTI and signals to the supervisor: %w", err)
	}
	return nil
}

// refusalFilter builds the BPF program: for each architecture, a refused
// call fails with EPERM; every other call passes. The calls are grouped
// by number, and a number leads to the checks of all its refused forms
// (kill has two). The kernel runs the filter over every call number when
// it is installed, to learn which always pass: one compare per number on
// that path keeps the install cheap.
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
		if jt > 255 || jf > 255 {
			panic("seccomp: too many refused calls for one architecture")
		}
		return unix.SockFilter{Code: code, Jt: uint8(jt), Jf: uint8(jf), K: k}
	}
	ld := uint16(unix.BPF_LD | unix.BPF_W | unix.BPF_ABS)
	ret := uint16(unix.BPF_RET | unix.BPF_K)
	jeq := uint16(unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K)
	jset := uint16(unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K)
	var prog []unix.SockFilter
	for _, a := range archs {
		// The distinct numbers, in order of first appearance, and the
		// checks of each.
		var nrs []uint32
		checks := map[uint32][]refusedCall{}
		for _, c := range a.calls {
			if _, ok := checks[c.nr]; !ok {
				nrs = append(nrs, c.nr)
			}
			checks[c.nr] = append(checks[c.nr], c)
		}
		// Layout: ld arch; jeq arch; ld nr; jset nrBits, if any; one jeq
		// per number; allow; per number, 2 per test of each refused form
		// (ld arg; test) and allow; refuse.
		width := func(c refusedCall) int { return 2 * len(c.checks()) }
		body := 0
		for _, nr := range nrs {
			for _, c := range checks[nr] {
				body += width(c)
			}
			body++
		}
		bits := 0
		if a.nrBits != 0 {
			bits = 1
		}
		size := 3 + bits + len(nrs) + 1 + body + 1
		prog = append(prog, stmt(ld, offArch), jump(jeq, a.arch, 0, size-2), stmt(ld, offNr))
		if a.nrBits != 0 {
			prog = append(prog, jump(jset, a.nrBits, len(nrs)+1+body, 0))
		}
		at := 0 // where the next number's checks start, counted from the first
		for i, nr := range nrs {
			prog = append(prog, jump(jeq, nr, len(nrs)-1-i+1+at, 0))
			for _, c := range checks[nr] {
				at += width(c)
			}
			at++
		}
		prog = append(prog, stmt(ret, unix.SECCOMP_RET_ALLOW))
		left := body // instructions from here to the refusal
		for _, nr := range nrs {
			for _, c := range checks[nr] {
				tests := c.checks()
				for i, t := range tests {
					// On a match, the last test jumps past the rest of
					// the body to the refusal, the others go on to the
					// next test; on a mismatch, past this form's tests.
					left -= 2
					match, miss := 0, 2*(len(tests)-1-i)
					if i == len(tests)-1 {
						match = left
					}
					var test unix.SockFilter
					switch t.test {
					case anyBit:
						test = jump(jset, t.k, match, miss)
					case equal:
						test = jump(jeq, t.k, match, miss)
					case notEqual:
						test = jump(jeq, t.k, miss, match)
					case always:
						test = jump(jeq, 0, match, match)
					}
					off := uint32(offArgs + 8*t.arg) // the low half, little-endian
					if t.high {
						off += 4
					}
					prog = append(prog, stmt(ld, off), test)
				}
			}
			prog = append(prog, stmt(ret, unix.SECCOMP_RET_ALLOW))
			left--
		}
		prog = append(prog, stmt(ret, unix.SECCOMP_RET_ERRNO|uint32(unix.EPERM)))
	}
	return append(prog, stmt(ret, unix.SECCOMP_RET_ALLOW))
}
