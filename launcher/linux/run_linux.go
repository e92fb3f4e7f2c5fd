package linux

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/aar-agent/aar-exec/internal/phase"
	"github.com/aar-agent/aar-exec/launcher/internal/supervise"
	"github.com/aar-agent/aar-exec/plan"
	"golang.org/x/sys/unix"
)

// Run runs p.Argv confined by Landlock and waits for it and everything it
// started. started runs alongside the last steps of the setup; the command
// is held at its exec until it returns, and its error aborts the run.
func Run(ctx context.Context, p *plan.Plan, started plan.Started) (plan.Result, error) {
	if len(p.Argv) == 0 || p.Argv[0] == "" {
		return plan.Result{}, fmt.Errorf("%w: empty command", plan.ErrSetup)
	}
	// The caller's signals are relayed once the relay is ready, which it
	// gets alongside the setup and the fork; the command is released from
	// its exec stop only after that. A signal before then ends aar-exec,
	// and with it the held command, before the command ran anything.
	relay := supervise.StartRelay(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer relay.Stop()

	prog, err := lookPath(cmp.Or(p.Path, p.Argv[0]), p.Env, p.Dir)
	if err != nil {
		return plan.Result{}, err
	}

	enf := plan.Enforcement{Mechanism: "landlock"}
	abi := landlockABI()
	enf.ABI = abi
	if abi < minABI {
		if !p.BestEffort {
			if abi == 0 {
				return plan.Result{}, fmt.Errorf("%w: this kernel has no Landlock (disabled or too old); use --mode local to run unconfined, or --best-effort", plan.ErrSetup)
			}
			return plan.Result{}, fmt.Errorf("%w: this kernel has Landlock ABI %d; aar-exec needs ABI %d (truncate control); use --best-effort to run with what it has", plan.ErrSetup, abi, minABI)
		}
		enf.Missing = append(enf.Missing, fmt.Sprintf("landlock ABI %d < %d", abi, minABI))
		if abi == 0 {
			enf.Mechanism = "none"
		}
	}

	tmp, err := os.MkdirTemp("", "aar-exec-")
	if err != nil {
		return plan.Result{}, fmt.Errorf("%w: private TMPDIR: %v", plan.ErrSetup, err)
	}
	defer os.RemoveAll(tmp)

	// As root, a private read-only mount namespace also stops what
	// Landlock cannot: chmod, chown, utime and setxattr outside the
	// writable paths, and rewriting a repository's hooks. It also hides
	// the denied paths, far more cheaply than Landlock can.
	mountLayer := canMount() && abi > 0
	var extra extraMounts

	lay := &layout{abi: abi, devices: deviceFiles, deviceDir: []string{"/dev/pts"}}
	if len(p.DenyRead) > 0 {
		// Raw disks would let a command read the filesystem's bytes around
		// Landlock, and /dev/input or /dev/kmsg a root user's keystrokes and
		// kernel log: with read denial on, /dev is unreadable but for the
		// device files a shell needs, which deviceFiles grants by name.
		lay.denyRead = []string{"/dev"}
		if mountLayer {
			extra.hidden = p.DenyRead
		} else {
			lay.denyRead = append(lay.denyRead, unprotected(p.DenyRead)...)
		}
	}
	required := map[string]bool{tmp: true}
	lay.writable = append(lay.writable, tmp)
	if p.ReadOnly {
		lay.readOnly = append(lay.readOnly, p.Workspace)
	} else {
		lay.writable = append(lay.writable, p.Workspace)
		lay.writable = append(lay.writable, p.Writable...)
		required[p.Workspace] = true
		for _, w := range p.Writable {
			required[w] = true
		}
	}

	rulesetFD := -1
	if abi > 0 {
		rs, err := newRuleset(lay, required)
		if err != nil {
			return plan.Result{}, fmt.Errorf("%w: %v", plan.ErrSetup, err)
		}
		defer rs.close()
		rulesetFD = rs.fd
		enf.FSRights = names(rs.handled)
		enf.Scopes = scopeNames(rs.scoped)
		enf.ReadDenial = len(p.DenyRead) > 0
	}
	phase.Mark("ruleset")

	if mountLayer {
		git := gitProtection(append([]string{p.Workspace}, p.Writable...))
		extra.pin, extra.readOnly = git.pin, git.readOnly
		extra.sockets = hiddenSockets()
		enf.ReadOnlyMounts = true
	}

	limits := rlimitsFor(p)
	enf.Rlimits = make(map[string]uint64, len(limits))
	for _, l := range limits {
		enf.Rlimits[l.name] = l.value
	}
	limits = tighterThanOwn(limits)
	if len(limits) > 0 && !canLimitOthers() {
		// Inside another aar-exec's sandbox (make's SHELL running a
		// sub-make), its filter refuses prlimit on any other process:
		// the command inherits the limits from us instead.
		if err := limitSelf(limits, unix.Geteuid() == 0); err != nil {
			return plan.Result{}, err
		}
		limits = nil
	}

	// The caller's start record (an audit line, 0.2 ms) is written while
	// the locked thread builds the sandbox and forks; the command, stopped
	// at its exec, is released only once that write succeeded.
	startedc := make(chan error, 1)
	if started != nil {
		go func() { startedc <- started(enf) }()
	} else {
		startedc <- nil
	}
	awaitStarted := sync.OnceValue(func() error { return <-startedc })
	defer awaitStarted()

	// Orphans of the command are re-parented to us, so we can kill them.
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return plan.Result{}, fmt.Errorf("%w: become a child subreaper: %v", plan.ErrSetup, err)
	}

	// syscall.StartProcess rather than os/exec: os probes pidfd support by
	// forking and reaping a throw-away child on first use, a whole extra
	// process per launch, and this launcher waits with wait4 anyway.
	attr := &syscall.ProcAttr{
		Dir:   p.Dir,
		Env:   withTMPDIR(p.Env, tmp),
		Files: []uintptr{stdinOf(p).Fd(), os.Stdout.Fd(), os.Stderr.Fd()},
		Sys: &syscall.SysProcAttr{
			Setsid:    true,            // no controlling terminal to inject keystrokes into
			Pdeathsig: syscall.SIGKILL, // dies with the thread that forks it
			Ptrace:    true,            // stops at exec, so rlimits land before its first instruction
		},
	}

	type exit struct {
		status unix.WaitStatus
		err    error
	}
	type forked struct {
		pid int
		err error
	}
	// The command can name the locked thread (its id is in
	// /proc/PID/task), which shares its Landlock domain: non-dumpable,
	// the supervisor cannot be ptraced, nor its /proc/PID/{environ,mem,
	// root} read, by a process without CAP_SYS_PTRACE. Signals are
	// refused by the thread's seccomp filter (supervisorCalls). An exec
	// makes the command dumpable again.
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return plan.Result{}, fmt.Errorf("%w: make aar-exec non-dumpable: %v", plan.ErrSetup, err)
	}
	stopc := make(chan forked, 1) // the command forked, or the setup failed
	goc := make(chan error, 1)    // nil: release it; else kill it
	donec := make(chan exit, 1)
	begin := time.Now()
	goRestricted(func() {
		phase.Mark("thread")
		if mountLayer {
			if err := readOnlyMounts(lay.writable, extra); err != nil {
				stopc <- forked{err: fmt.Errorf("%w: %v", plan.ErrSetup, err)}
				return
			}
			if err := privatePTYs(rulesetFD, abi); err != nil {
				stopc <- forked{err: fmt.Errorf("%w: mount namespace: %v", plan.ErrSetup, err)}
				return
			}
			phase.Mark("mounted")
		}
		err := restrictThread(rulesetFD)
		if err == nil {
			err = refuseCalls(unix.Gettid(), unix.Geteuid() == 0)
		}
		if err != nil {
			stopc <- forked{err: fmt.Errorf("%w: %v", plan.ErrSetup, err)}
			return
		}
		phase.Mark("restricted")
		pid, err := syscall.ForkExec(prog, p.Argv, attr)
		phase.Mark("forked")
		if err != nil {
			stopc <- forked{err: startError(prog, err)}
			return
		}
		relay.Ready()
		// The command's limits are set from another thread while it
		// execs (this one's filter refuses prlimit on any process but
		// itself, for the command's sake); it is released only from its
		// exec stop, having run nothing, once they are in force.
		stopc <- forked{pid: pid}
		err = awaitExecStop(pid)
		if err != nil {
			err = fmt.Errorf("%w: %v", plan.ErrSetup, err)
		} else if err = <-goc; err == nil {
			if err = unix.PtraceDetach(pid); err != nil {
				err = fmt.Errorf("%w: release command: %v", plan.ErrSetup, err)
			}
		}
		if err != nil {
			unix.Kill(pid, unix.SIGKILL)
			supervise.Reap(pid)
			donec <- exit{err: err}
			return
		}
		phase.Mark("released")
		ws, err := supervise.Reap(pid)
		phase.Mark("reaped")
		donec <- exit{ws, err}
	})
	st := <-stopc
	if st.err != nil {
		return plan.Result{}, st.err
	}
	pid := st.pid
	// Kill it if the start record failed or its limits cannot be set.
	err = awaitStarted()
	if err == nil {
		err = setLimits(pid, limits)
	}
	goc <- err
	if err != nil {
		<-donec
		return plan.Result{}, err
	}

	stopReaping := reapOrphans(pid)
	e, timedOut := supervise.Wait(ctx, donec, relay.C, supervise.Group(pid), p.Timeout, supervise.Grace)
	res := plan.Result{TimedOut: timedOut, Duration: time.Since(begin)}
	stopReaping()
	killDescendants()
	if e.err != nil {
		return res, fmt.Errorf("%w: wait: %v", plan.ErrSetup, e.err)
	}
	ws := e.status
	if ws.Signaled() {
		res.Signal = int(ws.Signal())
	} else {
		res.ExitCode = ws.ExitStatus()
	}
	return res, nil
}

// goRestricted runs f on a goroutine locked to a thread that is never
// unlocked: the thread f restricts exits with it, and only after the
// command is reaped, because the parent-death signal fires when the
// forking thread dies.
//
// That thread must not be the main thread. The main thread leads the
// thread group, and its credentials are what kill(2) and /proc/PID check
// when the command aims at its supervisor: restricted, it shares the
// command's Landlock domain and has no capabilities left, so the command
// could signal aar-exec and read its /proc/PID/environ and mem (seen in
// isolation.txtar once the main goroutine waited on a channel, which let
// the main thread pick this goroutine up). When Go starts the goroutine
// on the main thread, that thread stays locked and idle while f runs on
// another, and is handed back untouched.
func goRestricted(f func()) {
	go func() {
		runtime.LockOSThread()
		if unix.Gettid() != unix.Getpid() {
			f()
			return
		}
		done := make(chan struct{})
		go func() {
			runtime.LockOSThread() // never the main thread: it is locked to us
			f()
			close(done)
		}()
		<-done
		runtime.UnlockOSThread()
	}()
}

// awaitExecStop waits for the command to stop at its execve.
func awaitExecStop(pid int) error {
	var ws unix.WaitStatus
	for {
		_, err := unix.Wait4(pid, &ws, unix.WALL, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return fmt.Errorf("wait for exec stop: %w", err)
		}
		break
	}
	if !ws.Stopped() {
		return fmt.Errorf("command did not stop at exec (status %#x)", uint32(ws))
	}
	return nil
}

// setLimits sets the command's resource limits while it is held at its
// exec stop. Setting them on the supervisor instead would lower its own
// hard limits for good.
func setLimits(pid int, limits []rlimit) error {
	for _, l := range limits {
		lim := unix.Rlimit{Cur: l.value, Max: l.value}
		if err := unix.Prlimit(pid, l.resource, &lim, nil); err != nil {
			return fmt.Errorf("%w: set %s=%d: %v", plan.ErrSetup, l.name, l.value, err)
		}
	}
	return nil
}

// tighterThanOwn drops the limits the command would inherit from us
// anyway: one we already hold at or below the value (an outer aar-exec's
// core=0) needs no call.
func tighterThanOwn(limits []rlimit) []rlimit {
	var out []rlimit
	for _, l := range limits {
		var own unix.Rlimit
		if unix.Getrlimit(l.resource, &own) == nil && own.Max <= l.value {
			continue
		}
		out = append(out, l)
	}
	return out
}

// canLimitOthers reports whether prlimit may set another process's
// limits. Asked of our own pid with the limit we hold, it changes
// nothing; the filter an outer aar-exec installs refuses any pid but 0.
func canLimitOthers() bool {
	var own unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_CORE, &own) != nil {
		return false
	}
	return unix.Prlimit(unix.Getpid(), unix.RLIMIT_CORE, &own, nil) == nil
}

// selfHeadroom is the data aar-exec may still map after the fork: new
// threads' stacks and a little heap. A Go heap arena is mapped 64 MiB at
// a time, but the first one is mapped long before this point.
const selfHeadroom = 32 << 20

// limitSelf puts the limits on aar-exec itself, for the command to
// inherit at its fork, and refuses those aar-exec could not live under:
// going over them would crash it, not fail the command. A memory cap
// must leave it its mapped data and some room; a process cap holds it
// only when it is not root (the kernel exempts root from RLIMIT_NPROC),
// and its threads would then count against the cap.
func limitSelf(limits []rlimit, root bool) error {
	for _, l := range limits {
		switch l.resource {
		case unix.RLIMIT_DATA:
			used, err := dataMapped()
			if err != nil {
				return fmt.Errorf("%w: %v", plan.ErrSetup, err)
			}
			if need := used + selfHeadroom; l.value < need {
				// What it maps moves by a few MB from run to run.
				const step = 64 << 20
				return fmt.Errorf("%w: inside another aar-exec, a memory cap holds aar-exec too and it needs %d MB: give at least --max-memory-mb %d, or set the cap on the outer aar-exec",
					plan.ErrSetup, used>>20, (need+step-1)/step*step>>20)
			}
		case unix.RLIMIT_NPROC:
			if !root {
				return fmt.Errorf("%w: inside another aar-exec, a process cap tighter than its own holds aar-exec's threads too: set --max-processes on the outer aar-exec",
					plan.ErrSetup)
			}
		}
		lim := unix.Rlimit{Cur: l.value, Max: l.value}
		if err := unix.Setrlimit(l.resource, &lim); err != nil {
			return fmt.Errorf("%w: set %s=%d: %v", plan.ErrSetup, l.name, l.value, err)
		}
	}
	return nil
}

// dataMapped returns the bytes RLIMIT_DATA counts against us (VmData).
func dataMapped() (uint64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, fmt.Errorf("read own memory use: %v", err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmData:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("read own memory use: %q: %v", line, err)
			}
			return kb << 10, nil
		}
	}
	return 0, errors.New("read own memory use: no VmData in /proc/self/status")
}

type rlimit struct {
	name     string
	resource int
	value    uint64
}

// rlimitsFor returns the limits the command gets. Memory is RLIMIT_DATA,
// not RLIMIT_AS: Go, Node and Java reserve large address ranges at start
// and cannot even start under a modest RLIMIT_AS.
func rlimitsFor(p *plan.Plan) []rlimit {
	ls := []rlimit{{"core", unix.RLIMIT_CORE, 0}}
	if p.MaxMemoryMB > 0 {
		ls = append(ls, rlimit{"data", unix.RLIMIT_DATA, uint64(p.MaxMemoryMB) << 20})
	}
	if p.MaxProcesses > 0 {
		ls = append(ls, rlimit{"nproc", unix.RLIMIT_NPROC, uint64(p.MaxProcesses)})
	}
	return ls
}

// orphanReapInterval is how often reapOrphans looks for dead orphans.
const orphanReapInterval = 100 * time.Millisecond

// reapOrphans reaps, while the command runs, the processes it orphaned
// that have exited since: as the subreaper we are their parent, and a
// zombie nobody reaps holds its pid until the run ends, so a command
// that keeps double-forking would fill the pid space (or the uid's
// --max-processes) with them (measured: 300 zombies after 300 "( true & )").
// The command itself is left to the thread that waits for it. A run
// shorter than the interval costs nothing. The returned func stops it
// and returns once it has.
func reapOrphans(cmd int) (stop func()) {
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(orphanReapInterval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			// WNOWAIT: look without reaping, one syscall a tick when
			// there is nothing to reap. The command's own status is
			// never taken from the thread that waits for it.
			var info unix.Siginfo
			err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT|unix.WALL, nil)
			if err != nil || info.Signo == 0 {
				continue
			}
			for _, k := range children() {
				if k != cmd {
					unix.Wait4(k, nil, unix.WNOHANG|unix.WALL, nil)
				}
			}
		}
	}()
	return func() { close(done); <-stopped }
}

// killRounds bounds killDescendants, against a tree that grows as fast
// as it is killed.
var killRounds = 1000

// killDescendants kills and reaps every process still below us: the
// command's background jobs, re-parented to us as the subreaper. It loops
// because killing one orphans its own children onto us, and each round
// kills the whole tree it finds, not just our children: killing one
// level a round, a chain of 1,100 processes outlived the 1,000 rounds.
func killDescendants() {
	for round := 0; round < killRounds; round++ {
		// One wait4 answers the usual case, no child left at all, without
		// reading a children file per thread (0.15 ms a launch).
		if _, err := unix.Wait4(-1, nil, unix.WNOHANG|unix.WALL, nil); errors.Is(err, unix.ECHILD) {
			return
		}
		kids := children()
		if len(kids) == 0 {
			// wait4 says a child is left, but no children file lists it
			// yet: possibly an orphan being moved between our threads, as
			// when the locked thread exits after the reap. Look again
			// rather than let it outlive the command.
			time.Sleep(100 * time.Microsecond)
			continue
		}
		deeper := grandchildren(kids)
		for _, k := range kids {
			unix.Kill(k, unix.SIGKILL)
		}
		for _, fd := range deeper {
			unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
			unix.Close(fd)
		}
		reaped := false
		for {
			wpid, err := unix.Wait4(-1, nil, unix.WNOHANG|unix.WALL, nil)
			if wpid <= 0 || err != nil {
				break
			}
			reaped = true
		}
		if !reaped {
			time.Sleep(time.Millisecond)
		}
	}
}

// grandchildren returns pidfds of the processes below kids, found through
// their children files before any of them is killed (a killed parent
// hands its children to us, and out of its file). Not being our children,
// their pids could be reused once they exit: a pidfd is taken first, and
// kept only if the process behind the pid is still the child of the
// parent it was found under (or ours, orphaned since), so the signal
// reaches either that process or, if it has exited, no one.
func grandchildren(kids []int) []int {
	var fds []int
	self := os.Getpid()
	for len(kids) > 0 && len(fds) < 1<<16 {
		var next []int
		for _, parent := range kids {
			gs, _ := childrenOf(parent) // none: it has exited, or no children files
			for _, g := range gs {
				fd, err := unix.PidfdOpen(g, 0)
				if err != nil {
					continue
				}
				if pp := ppidOf(g); pp != parent && pp != self {
					unix.Close(fd)
					continue
				}
				fds = append(fds, fd)
				next = append(next, g)
			}
		}
		kids = next
	}
	return fds
}

// childrenOf lists pid's children from its threads' children files. It
// fails when pid's task directory cannot be read, or when its main
// thread has no children file: a kernel built without
// CONFIG_PROC_CHILDREN, or a process that has exited.
func childrenOf(pid int) ([]int, error) {
	dir := filepath.Join("/proc", strconv.Itoa(pid), "task")
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var pids []int
	for _, t := range tasks {
		b, err := os.ReadFile(filepath.Join(dir, t.Name(), "children"))
		if errors.Is(err, fs.ErrNotExist) && t.Name() == strconv.Itoa(pid) {
			return nil, err
		}
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				pids = append(pids, n)
			}
		}
	}
	return pids, nil
}

// ppidOf returns pid's parent, or -1.
func ppidOf(pid int) int {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return -1
	}
	// The command name is in parentheses and may hold spaces; the
	// parent pid is the second field after the closing one.
	rest := string(b)
	if i := strings.LastIndexByte(rest, ')'); i >= 0 {
		rest = rest[i+1:]
	}
	if f := strings.Fields(rest); len(f) > 1 {
		if ppid, err := strconv.Atoi(f[1]); err == nil {
			return ppid
		}
	}
	return -1
}

// children lists our child processes from every thread's children file,
// or, on a kernel built without CONFIG_PROC_CHILDREN, by scanning /proc:
// an empty answer must mean no children, never "could not look".
func children() []int {
	pids, err := childrenOf(os.Getpid())
	if err != nil {
		return childrenByScan()
	}
	return pids
}

// lookPath finds prog the way the command's own shell would: through the
// PATH of the environment it is given, not ours.
func lookPath(prog string, env []string, dir string) (string, error) {
	if strings.Contains(prog, "/") {
		p := prog
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%w: %s", plan.ErrNotFound, prog)
		}
		return p, nil
	}
	path := "/usr/local/bin:/usr/bin:/bin"
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			d = "."
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		if p, err := exec.LookPath(filepath.Join(d, prog)); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w: %s", plan.ErrNotFound, prog)
}

func startError(prog string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOENT):
		return fmt.Errorf("%w: %s", plan.ErrNotFound, prog)
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		return fmt.Errorf("%w: cannot execute %s: %v", plan.ErrDenied, prog, err)
	}
	return fmt.Errorf("%w: start %s: %v", plan.ErrSetup, prog, err)
}

// withTMPDIR points TMPDIR at the run's private directory.
func withTMPDIR(env []string, tmp string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "TMPDIR=") {
			out = append(out, kv)
		}
	}
	return append(out, "TMPDIR="+tmp)
}

func stdinOf(p *plan.Plan) *os.File {
	if p.Stdin != nil {
		return p.Stdin
	}
	return os.Stdin
}

// childrenByScan finds our children by their parent pid in /proc/*/stat.
func childrenByScan() []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var pids []int
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil && ppidOf(pid) == self {
			pids = append(pids, pid)
		}
	}
	return pids
}
