//go:build windows

package windows

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
	"unsafe"

	win "golang.org/x/sys/windows"

	"github.com/aar-agent/aar-exec/plan"
)

// Run runs p.Argv in a Job Object (memory capped at p.MaxMemoryMB, active
// processes at p.MaxProcesses or DefaultMaxProcesses, kill on job close, no
// crash dialog, never breakaway) with a Low-integrity primary token, after
// stamping p.Workspace and p.Writable Low-writable. It reads every
// protection back and returns an error wrapping [plan.ErrSetup] when one is
// not in force, unless p.BestEffort, which records it in
// Enforcement.Missing instead. started is called with the enforcement just
// before the suspended child is resumed. Run waits for the whole process
// tree; p.Timeout terminates the job and sets Result.TimedOut; Ctrl-C,
// Ctrl-Break and the end of ctx terminate the job after Options.Grace. A
// program that cannot be found gives an error wrapping [plan.ErrNotFound].
func Run(ctx context.Context, p *plan.Plan, opt Options, started plan.Started) (plan.Result, error) {
	if p == nil || len(p.Argv) == 0 {
		return plan.Result{}, fmt.Errorf("windows launcher: empty command: %w", plan.ErrSetup)
	}
	s, err := newSetup(p, opt, protectedDirs())
	if err != nil {
		return plan.Result{}, setupErr(err)
	}
	if p.Dir != "" {
		if err := checkAbsPath("working directory", p.Dir); err != nil {
			return plan.Result{}, setupErr(err)
		}
	}
	program, err := lookPath(p.Argv[0], p.Dir, p.Env, isFile)
	if err != nil {
		return plan.Result{}, err
	}
	if err := checkBatchArgs(program, p.Argv); err != nil {
		return plan.Result{}, fmt.Errorf("%w: %w", err, plan.ErrDenied)
	}
	line, err := commandLine(p.Argv)
	if err != nil {
		return plan.Result{}, setupErr(err)
	}
	envList := p.Env
	var tmp string
	if s.lowIL {
		// Like the Linux launcher, give the command a private temporary
		// directory; it must be Low-writable, so it is stamped below.
		if tmp, err = os.MkdirTemp("", "aar-exec-"); err != nil {
			return plan.Result{}, fmt.Errorf("windows launcher: temporary directory: %v: %w", err, plan.ErrSetup)
		}
		defer os.RemoveAll(tmp)
		envList = withTemp(envList, tmp)
	}
	env, err := envBlock(envList)
	if err != nil {
		return plan.Result{}, setupErr(err)
	}

	job, port, err := newJob(s.limits)
	if err != nil {
		return plan.Result{}, fmt.Errorf("windows launcher: job object: %w: %w", err, plan.ErrSetup)
	}
	defer win.CloseHandle(port)
	defer win.CloseHandle(job) // kill-on-close: nothing outlives Run

	var rb readBack
	rb.job, rb.jobErr = queryLimits(job)
	var token win.Token
	if s.lowIL {
		token, rb.tokenErr = lowToken()
		if rb.tokenErr == nil {
			defer token.Close()
			rb.tokenRID, rb.tokenErr = tokenRID(token)
		}
		if s.readOnly && s.workspace != "" {
			rb.labels = append(rb.labels, currentLabel(s.workspace))
		}
		for _, w := range append(s.writable, tmp) {
			rb.labels = append(rb.labels, stampLow(w))
		}
	}
	v := verify(s, rb)
	if len(v.refuse) > 0 {
		return plan.Result{}, refusal(v.refuse)
	}
	if !v.useToken {
		token = 0
	}

	stdin := os.Stdin
	if p.Stdin != nil {
		stdin = p.Stdin // the script the CLI read from stdin to judge it
	}
	pi, err := startSuspended(program, line, env, p.Dir, token, [3]*os.File{stdin, os.Stdout, os.Stderr})
	if err != nil {
		return plan.Result{}, err
	}
	defer win.CloseHandle(pi.Process)
	defer win.CloseHandle(pi.Thread)
	kill := func(e error) (plan.Result, error) {
		// The child has not run a single instruction; never leave it behind.
		win.TerminateProcess(pi.Process, uint32(ExitInterrupted))
		win.TerminateJobObject(job, uint32(ExitInterrupted))
		return plan.Result{}, e
	}
	if err := win.AssignProcessToJobObject(job, pi.Process); err != nil {
		return kill(fmt.Errorf("windows launcher: AssignProcessToJobObject: %v: %w", err, plan.ErrSetup))
	}
	var c childReadBack
	c.inJob, c.inJobErr = isProcessInJob(pi.Process, job)
	if v.useToken {
		c.rid, c.ridErr = processRID(pi.Process)
	}
	more, fatal := verifyChild(v.useToken, c)
	if fatal != nil {
		return kill(fatal)
	}
	if len(more) > 0 {
		if !p.BestEffort {
			return kill(refusal(more))
		}
		v.enf.Missing = append(v.enf.Missing, more...)
	}
	if started != nil {
		if err := started(v.enf); err != nil {
			return kill(err)
		}
	}

	// Ctrl-C and Ctrl-Break reach the child through the shared console;
	// aar-exec must survive them to give the grace period and clean up.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)

	begin := time.Now()
	if _, err := win.ResumeThread(pi.Thread); err != nil {
		return kill(fmt.Errorf("windows launcher: ResumeThread: %v: %w", err, plan.ErrSetup))
	}
	done := make(chan struct{})
	go waitJob(job, port, done)
	why := waitOrKill(ctx, p.Timeout, opt.Grace, sig, done, job)
	d := time.Since(begin)

	win.WaitForSingleObject(pi.Process, win.INFINITE)
	var code uint32
	if err := win.GetExitCodeProcess(pi.Process, &code); err != nil {
		return plan.Result{Duration: d}, fmt.Errorf("windows launcher: GetExitCodeProcess: %v: %w", err, plan.ErrSetup)
	}
	return result(code, why, d), nil
}

// waitOrKill waits for the job to empty, terminating it when the timeout
// fires, or after the grace period once interrupted.
func waitOrKill(ctx context.Context, timeout, grace time.Duration, sig <-chan os.Signal, done <-chan struct{}, job win.Handle) ending {
	if grace <= 0 {
		grace = DefaultGrace
	}
	var timeoutC, graceC <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timeoutC = t.C
	}
	ctxDone := ctx.Done()
	why := endedNormally
	interrupt := func() {
		if graceC == nil && why == endedNormally {
			why = endedInterrupt
			graceC = time.After(grace)
		}
	}
	for {
		select {
		case <-done:
			return why
		case <-timeoutC:
			timeoutC = nil
			if why == endedNormally {
				why = endedTimeout
			}
			win.TerminateJobObject(job, ExitTimedOut)
		case <-sig:
			interrupt()
		case <-ctxDone:
			ctxDone = nil
			interrupt()
		case <-graceC:
			graceC = nil
			win.TerminateJobObject(job, ExitInterrupted)
		}
	}
}

// waitJob closes done when the job has no active process left: normally on
// the ACTIVE_PROCESS_ZERO message, and, because Windows does not promise
// to deliver job messages, also when a periodic count reads zero.
func waitJob(job, port win.Handle, done chan<- struct{}) {
	defer close(done)
	for {
		var msg uint32
		var key uintptr
		var ov *win.Overlapped
		err := win.GetQueuedCompletionStatus(port, &msg, &key, &ov, 250)
		if err == nil && key == uintptr(job) && msg == jobMsgActiveProcessZero {
			return
		}
		if err != nil && !errors.Is(err, syscall.Errno(win.WAIT_TIMEOUT)) {
			// The port is broken; fall back to polling the count.
			time.Sleep(50 * time.Millisecond)
		}
		if n, qerr := activeProcesses(job); qerr == nil && n == 0 {
			return
		}
	}
}

// startSuspended creates the child suspended, inheriting exactly the three
// stdio handles (PROC_THREAD_ATTRIBUTE_HANDLE_LIST), with token when it is
// not zero. The program path is passed as lpApplicationName so Windows does
// no search of its own.
func startSuspended(program, line string, env []uint16, dir string, token win.Token, stdio [3]*os.File) (*win.ProcessInformation, error) {
	app, err := win.UTF16PtrFromString(program)
	if err != nil {
		return nil, setupErr(err)
	}
	cmd, err := win.UTF16FromString(line)
	if err != nil {
		return nil, setupErr(err)
	}
	var dirp *uint16
	if dir != "" {
		if dirp, err = win.UTF16PtrFromString(dir); err != nil {
			return nil, setupErr(err)
		}
	}
	self := win.CurrentProcess()
	var handles []win.Handle
	var std [3]win.Handle
	for i, f := range stdio {
		if f == nil {
			continue
		}
		h := win.Handle(f.Fd())
		if h == 0 || h == win.InvalidHandle {
			continue
		}
		var dup win.Handle
		if err := win.DuplicateHandle(self, h, self, &dup, 0, true, win.DUPLICATE_SAME_ACCESS); err != nil {
			continue // a closed stdio stays closed for the child
		}
		defer win.CloseHandle(dup)
		std[i] = dup
		handles = append(handles, dup)
	}
	si := new(win.StartupInfoEx)
	si.Cb = uint32(unsafe.Sizeof(*si))
	si.Flags = win.STARTF_USESTDHANDLES
	si.StdInput, si.StdOutput, si.StdErr = std[0], std[1], std[2]
	inherit := len(handles) > 0
	if inherit {
		al, err := win.NewProcThreadAttributeList(1)
		if err != nil {
			return nil, fmt.Errorf("windows launcher: attribute list: %v: %w", err, plan.ErrSetup)
		}
		defer al.Delete()
		if err := al.Update(win.PROC_THREAD_ATTRIBUTE_HANDLE_LIST, unsafe.Pointer(&handles[0]), uintptr(len(handles))*unsafe.Sizeof(handles[0])); err != nil {
			return nil, fmt.Errorf("windows launcher: handle list: %v: %w", err, plan.ErrSetup)
		}
		si.ProcThreadAttributeList = al.List()
	}
	flags := uint32(win.CREATE_SUSPENDED | win.CREATE_UNICODE_ENVIRONMENT | win.EXTENDED_STARTUPINFO_PRESENT)
	pi := new(win.ProcessInformation)
	if token != 0 {
		err = win.CreateProcessAsUser(token, app, &cmd[0], nil, nil, inherit, flags, &env[0], dirp, &si.StartupInfo, pi)
	} else {
		err = win.CreateProcess(app, &cmd[0], nil, nil, inherit, flags, &env[0], dirp, &si.StartupInfo, pi)
	}
	if err != nil {
		var errno syscall.Errno
		errors.As(err, &errno)
		return nil, startError(program, uint32(errno), err)
	}
	return pi, nil
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// setupErr marks a validation failure as the sandbox's.
func setupErr(err error) error {
	if errors.Is(err, plan.ErrSetup) || errors.Is(err, plan.ErrNotFound) || errors.Is(err, plan.ErrDenied) {
		return err
	}
	return fmt.Errorf("%w: %w", err, plan.ErrSetup)
}

// protectedDirs are the directories whose labelling would open up the
// system or the user's profile, taken from aar-exec's own environment
// (not the command's, which the agent may shape).
func protectedDirs() []string {
	var dirs []string
	for _, v := range []string{"USERPROFILE", "SystemRoot", "ProgramFiles", "ProgramFiles(x86)", "ProgramW6432", "ProgramData", "APPDATA", "LOCALAPPDATA", "PUBLIC"} {
		if d := os.Getenv(v); d != "" {
			dirs = append(dirs, d)
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, home)
	}
	return dirs
}
