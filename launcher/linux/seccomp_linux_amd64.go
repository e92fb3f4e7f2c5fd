package linux

import "golang.org/x/sys/unix"

const x32 = 0x40000000 // x32 calls are x86-64's with this bit set

// chmodCalls are x86-64's (x32 included) and i386's.
var chmodCalls = []archCalls{
	{unix.AUDIT_ARCH_X86_64, []chmodCall{
		{90, 1}, {91, 1}, {268, 2}, {452, 2}, // chmod, fchmod, fchmodat, fchmodat2
		{x32 | 90, 1}, {x32 | 91, 1}, {x32 | 268, 2}, {x32 | 452, 2},
	}},
	{unix.AUDIT_ARCH_I386, []chmodCall{{15, 1}, {94, 1}, {306, 2}, {452, 2}}},
}
