package linux

import "golang.org/x/sys/unix"

// chmodCalls are arm64's (no chmod of its own) and 32-bit ARM's.
var chmodCalls = []archCalls{
	{unix.AUDIT_ARCH_AARCH64, []chmodCall{{52, 1}, {53, 2}, {452, 2}}}, // fchmod, fchmodat, fchmodat2
	{unix.AUDIT_ARCH_ARM, []chmodCall{{15, 1}, {94, 1}, {333, 2}, {452, 2}}},
}
