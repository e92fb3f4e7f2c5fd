package linux

import "golang.org/x/sys/unix"

// refusedCalls are arm64's (which has no chmod of its own) and 32-bit
// ARM's: chmod, fchmod, fchmodat, fchmodat2 and ioctl.
var refusedCalls = []archCalls{
	{unix.AUDIT_ARCH_AARCH64, []refusedCall{chmod(52, 1), chmod(53, 2), chmod(452, 2), ioctl(29)}},
	{unix.AUDIT_ARCH_ARM, []refusedCall{chmod(15, 1), chmod(94, 1), chmod(333, 2), chmod(452, 2), ioctl(54)}},
}
