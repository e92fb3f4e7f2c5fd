//go:build linux && !amd64 && !arm64

package linux

// refusedCalls is empty: on this architecture nothing is refused, and
// the command can signal its supervisor's forking thread.
func refusedCalls(tid uint32) []archCalls { return nil }
