package linux

import "golang.org/x/sys/unix"

const x32 = 0x40000000 // x32 calls are x86-64's with this bit set

// refusedCalls are x86-64's (x32 included) and i386's: chmod, fchmod,
// fchmodat, fchmodat2, ioctl, and the calls of supervisorCalls.
func refusedCalls(tid uint32) []archCalls {
	amd64 := sysNrs{kill: 62, tkill: 200, tgkill: 234, sigqueue: 129, tgsigqueue: 297,
		pidfdOpen: 434, pidfdSignal: 424, fcntl: 72, prlimit: 302}
	x32s := sysNrs{kill: x32 | 62, tkill: x32 | 200, tgkill: x32 | 234, sigqueue: x32 | 524, tgsigqueue: x32 | 536,
		pidfdOpen: x32 | 434, pidfdSignal: x32 | 424, fcntl: x32 | 72, prlimit: x32 | 302}
	i386 := sysNrs{kill: 37, tkill: 238, tgkill: 270, sigqueue: 178, tgsigqueue: 335,
		pidfdOpen: 434, pidfdSignal: 424, fcntl: 55, fcntl64: 221, prlimit: 340}
	x86 := []refusedCall{
		chmod(90, 1), chmod(91, 1), chmod(268, 2), chmod(452, 2), ioctl(16),
		chmod(x32|90, 1), chmod(x32|91, 1), chmod(x32|268, 2), chmod(x32|452, 2), ioctl(x32 | 514),
	}
	x86 = append(append(x86, supervisorCalls(amd64, tid)...), supervisorCalls(x32s, tid)...)
	return []archCalls{
		{unix.AUDIT_ARCH_X86_64, x86},
		{unix.AUDIT_ARCH_I386, append([]refusedCall{chmod(15, 1), chmod(94, 1), chmod(306, 2), chmod(452, 2), ioctl(54)},
			supervisorCalls(i386, tid)...)},
	}
}
