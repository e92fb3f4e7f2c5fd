package linux

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// helperArg0 is the argv[0] under which aar-exec runs as the command's
// last step: the supervisor's locked thread forks /proc/self/exe with it,
// and [RunHelper] puts the command one Landlock layer below that thread
// and execs it.
//
// The layer is what keeps the command away from its supervisor. Landlock
// lets a task signal, ptrace and open /proc/PID/{environ,mem,root} of
// tasks in its own domain or one nested inside it. Forked straight from
// the locked thread, the command would share that thread's domain, and
// the thread's id (listed in /proc/PID/task) would let it SIGKILL or
// SIGSTOP the whole supervisor, read its environment, or PTRACE_ATTACH it
// and write into the memory the unrestricted threads run. One layer more,
// and the thread's domain is an ancestor the command cannot reach.
const helperArg0 = "aar-exec-sandbox-helper"

// RunHelper does nothing unless the process was started as the helper;
// then it never returns. Call it first thing in main, and in TestMain of
// any test binary that calls [Run].
func RunHelper() {
	if len(os.Args) < 3 || os.Args[0] != helperArg0 {
		return
	}
	os.Exit(runHelper(os.Args[1], os.Args[2], os.Args[3:]))
}

// helperArgv is the argv the supervisor forks for the command.
func helperArgv(prog string, argv []string, limits []rlimit) []string {
	spec := make([]string, len(limits))
	for i, l := range limits {
		spec[i] = fmt.Sprintf("%d:%d", l.resource, l.value)
	}
	return append([]string{helperArg0, strings.Join(spec, ","), prog}, argv...)
}

// runHelper adds the layer, sets the resource limits last, so the Go
// runtime here never runs under the command's process cap, and execs the
// command. It returns only on failure, with the shell's codes.
func runHelper(spec, prog string, argv []string) int {
	runtime.LockOSThread() // Landlock and execve both act on this thread
	if err := nestDomain(); err != nil {
		fmt.Fprintf(os.Stderr, "aar-exec: error: %v\n", err)
		return 125
	}
	if err := refuseCalls(); err != nil {
		fmt.Fprintf(os.Stderr, "aar-exec: error: %v\n", err)
		return 125
	}
	for _, f := range strings.Split(spec, ",") {
		if f == "" {
			continue
		}
		res, val, _ := strings.Cut(f, ":")
		r, err1 := strconv.Atoi(res)
		v, err2 := strconv.ParseUint(val, 10, 64)
		err := errors.Join(err1, err2)
		if err == nil {
			err = unix.Setrlimit(r, &unix.Rlimit{Cur: v, Max: v})
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "aar-exec: error: set resource limit %q: %v\n", f, err)
			return 125
		}
	}
	err := unix.Exec(prog, argv, os.Environ())
	switch {
	case errors.Is(err, unix.ENOENT):
		fmt.Fprintf(os.Stderr, "aar-exec: command not found: %s\n", prog)
		return 127
	case errors.Is(err, unix.EACCES), errors.Is(err, unix.EPERM):
		fmt.Fprintf(os.Stderr, "aar-exec: cannot execute %s: %v\n", prog, err)
		return 126
	}
	fmt.Fprintf(os.Stderr, "aar-exec: error: start %s: %v\n", prog, err)
	return 125
}

// nestDomain enforces a Landlock layer that takes nothing away from the
// command (device nodes are never granted anyway) but makes its domain a
// child of the supervisor thread's.
func nestDomain() error {
	abi := landlockABI()
	if abi == 0 {
		return nil // no Landlock, no domain to nest
	}
	attr := ll.RulesetAttr{HandledAccessFS: ll.AccessFSMakeBlock, Scoped: handledScopes(abi)}
	fd, err := ll.LandlockCreateRuleset(&attr, 0)
	if err != nil {
		return fmt.Errorf("landlock: create the command's layer: %w", err)
	}
	defer unix.Close(fd)
	if err := ll.LandlockRestrictSelf(fd, 0); err != nil {
		return fmt.Errorf("landlock: enforce the command's layer: %w", err)
	}
	return nil
}
