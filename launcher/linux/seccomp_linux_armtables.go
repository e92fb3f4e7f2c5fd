//go:build linux

package linux

import "golang.org/x/sys/unix"

// armCalls are arm64's and 32-bit ARM's refused calls. They are built on
// every architecture, so their test runs on any machine.
func armCalls(tid uint32) []archCalls {
	arm64 := sysNrs{kill: 129, tkill: 130, tgkill: 131, sigqueue: 138, tgsigqueue: 240,
		pidfdOpen: 434, pidfdSignal: 424, fcntl: 25, ioctl: 29, prlimit: 261}
	arm := sysNrs{kill: 37, tkill: 238, tgkill: 268, sigqueue: 178, tgsigqueue: 363,
		pidfdOpen: 434, pidfdSignal: 424, fcntl: 55, fcntl64: 221, ioctl: 54, prlimit: 369}
	return []archCalls{
		{arch: unix.AUDIT_ARCH_AARCH64, calls: append([]refusedCall{chmod(52, 1), chmod(53, 2), chmod(452, 2), ioctl(29)},
			supervisorCalls(arm64, tid)...)},
		{arch: unix.AUDIT_ARCH_ARM, calls: append([]refusedCall{chmod(15, 1), chmod(94, 1), chmod(333, 2), chmod(452, 2), ioctl(54)},
			supervisorCalls(arm, tid)...)},
	}
}
