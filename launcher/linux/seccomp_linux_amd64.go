package linux

import "golang.org/x/sys/unix"

const x32 = 0x40000000 // x32 calls are x86-64's with this bit set

// refusedCalls are x86-64's (x32 included) and i386's: chmod, fchmod,
// fchmodat, fchmodat2 and ioctl.
var refusedCalls = []archCalls{
	{unix.AUDIT_ARCH_X86_64, []refusedCall{
		chmod(90, 1), chmod(91, 1), chmod(268, 2), chmod(452, 2), ioctl(16),
		chmod(x32|90, 1), chmod(x32|91, 1), chmod(x32|268, 2), chmod(x32|452, 2), ioctl(x32 | 514),
	}},
	{unix.AUDIT_ARCH_I386, []refusedCall{chmod(15, 1), chmod(94, 1), chmod(306, 2), chmod(452, 2), ioctl(54)}},
}
