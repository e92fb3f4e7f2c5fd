package linux

import "golang.org/x/sys/unix"

const x32 = 0x40000000 // x32 calls are x86-64's with this bit set

// refusedCalls are x86-64's and i386's: chmod, fchmod, fchmodat,
// fchmodat2, ioctl, and the calls of supervisorCalls; and every x32 call.
func refusedCalls(tid uint32) []archCalls {
	amd64 := sysNrs{kill: 62, tkill: 200, tgkill: 234, sigqueue: 129, tgsigqueue: 297,
		pidfdOpen: 434, pidfdSignal: 424, fcntl: 72, ioctl: 16, prlimit: 302}
	i386 := sysNrs{kill: 37, tkill: 238, tgkill: 270, sigqueue: 178, tgsigqueue: 335,
		pidfdOpen: 434, pidfdSignal: 424, fcntl: 55, fcntl64: 221, ioctl: 54, prlimit: 340}
	return []archCalls{
		{arch: unix.AUDIT_ARCH_X86_64, nrBits: x32, calls: append(
			[]refusedCall{chmod(90, 1), chmod(91, 1), chmod(268, 2), chmod(452, 2), ioctl(16)},
			supervisorCalls(amd64, tid)...)},
		{arch: unix.AUDIT_ARCH_I386, calls: append(
			[]refusedCall{chmod(15, 1), chmod(94, 1), chmod(306, 2), chmod(452, 2), ioctl(54)},
			supervisorCalls(i386, tid)...)},
	}
}
