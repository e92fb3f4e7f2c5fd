package linux

// refusedCalls are arm64's (which has no chmod of its own) and 32-bit
// ARM's: chmod, fchmod, fchmodat, fchmodat2, ioctl, and the calls of
// supervisorCalls.
func refusedCalls(tid uint32) []archCalls { return armCalls(tid) }
