// Package linux runs a command inside Landlock on Linux.
//
// The supervisor (the calling process) stays unrestricted and is made
// non-dumpable. One locked OS thread of it drops every capability and the
// bounding set, sets no_new_privs, enforces one Landlock layer on itself
// only, installs a seccomp filter (no setuid chmod, no TIOCSTI, no signal
// to that thread by any route, no pidfd_send_signal, no prlimit setting
// another process's limits), and forks the command
// from there with a new session, a parent-death signal and a ptrace stop
// at its exec, where the supervisor sets its rlimits. The command shares
// the thread's Landlock domain, so Landlock alone would let it signal and
// ptrace the thread: the filter and non-dumpability are what refuse it.
// The same thread waits for the command, so the parent-death signal
// cannot fire early. The supervisor forwards signals, enforces the
// timeout and, as a child subreaper, kills whatever the command left
// running.
//
// # Limitations
//
// Landlock confines file writes and, with read denial, reads of the listed
// secret stores; it does not confine the network, chmod/chown/utime/setxattr
// on files the command's uid owns, stat, or connecting to pathname unix
// sockets below ABI 9. Descriptors the caller hands down (stdin, stdout,
// stderr, make's jobserver) keep working: that is the point of a shell, and
// also a channel the caller chose to open. If the supervisor is killed with
// SIGKILL, the command dies with it, but processes the command put in the
// background are only reaped by a supervisor that is still alive.
package linux
