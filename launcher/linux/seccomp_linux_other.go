//go:build linux && !amd64 && !arm64

package linux

// refusedCalls is empty: on this architecture neither the setuid bit nor
// TIOCSTI is refused.
var refusedCalls []archCalls
