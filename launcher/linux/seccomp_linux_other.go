//go:build linux && !amd64 && !arm64

package linux

// chmodCalls is empty: on this architecture the setuid bit is not refused.
var chmodCalls []archCalls
