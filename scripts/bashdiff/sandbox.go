package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Paths inside the sandbox. The policy is compiled for the same home and
// working directory, so both sides judge the same "~" and "./".
const (
	sbHome  = "/home/u"
	sbWork  = "/home/u/proj"
	sbStubs = "/stubs"
	sbKey   = sbHome + "/.ssh/id_rsa"
	logFD   = 9 // the stubs' log; high, so that scripts' "exec 3>&-" and "{fd}>" (10 up) leave it alone
)

// stubNames are the programs a script can reach: PATH holds nothing else.
// Each stub logs its argv and exits 0; the shells in realShells also run
// their arguments, so that "sh -c 'rm -rf /'" reaches the rm stub.
var stubNames = []string{
	"awk", "base64", "bash", "cat", "chmod", "chown", "cp", "curl", "dash", "dd",
	"doas", "env", "find", "git", "grep", "head", "ionice", "less", "ls", "mkfs",
	"more", "mv", "nc", "nice", "nohup", "od", "perl", "python", "python3", "rm",
	"scp", "sed", "setsid", "sh", "shred", "ssh", "stdbuf", "strings", "sudo",
	"tail", "tee", "timeout", "touch", "truncate", "wget", "xargs", "xxd", "zsh",
}

// A sandbox runs scripts in a real shell under bubblewrap. It holds no
// state that changes between runs, so workers share one.
type sandbox struct {
	bwrap   string   // host path of bwrap
	bash    string   // host path of bash, which runs the wrapper and the stubs
	shell   string   // host path of the shell that runs the scripts
	stubDir string   // host directory of the stubs, bound read-only
	args    []string // bwrap arguments up to the command
	timeout time.Duration
}

// A call is one program run that a stub (or the key canary) logged.
type call struct {
	Dir  string // the caller's working directory
	Name string // the stub's name, or "<open>" for the key canary
	Args []string
}

// A result is what one run of a script did.
type result struct {
	calls    []call
	status   int  // the shell's exit status; -1 when killed
	timedOut bool // killed at the timeout
	syntax   bool // the shell reported a syntax error
}

// wrapper runs inside the sandbox before the script. It makes the SSH key
// a FIFO and waits, in the background, for someone to open it: the shell's
// own reads ("< ~/.ssh/id_rsa", "source", "$(<...)") never reach a stub,
// and this way they are logged too. Then it replaces itself with the shell.
const wrapper = `/usr/bin/mkfifo -m 600 "$HOME/.ssh/id_rsa" || { echo "bwrap: wrapper: no key FIFO" >&2; exit 125; }
{ exec 8>"$HOME/.ssh/id_rsa" && printf '%s\0' 1 "$PWD" '<open>' "$HOME/.ssh/id_rsa" >&9; } 2>/dev/null &
exec "$0" -c "$1"`

// newSandbox writes the stubs into a fresh directory and builds the bwrap
// command line. The caller removes s.stubDir.
func newSandbox(shellName string, timeout time.Duration) (*sandbox, error) {
	bw, err := exec.LookPath("bwrap")
	if err != nil {
		return nil, errMissing{"bwrap", err}
	}
	bash, err := hostProgram("bash")
	if err != nil {
		return nil, err
	}
	sh, err := hostProgram(shellName)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "bashdiff-stubs-")
	if err != nil {
		return nil, fmt.Errorf("create stub directory: %w", err)
	}
	for _, name := range stubNames {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(stub(bash, name)), 0o755); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("write stub %s: %w", name, err)
		}
	}
	s := &sandbox{bwrap: bw, bash: bash, shell: sh, stubDir: dir, timeout: timeout}
	s.args = bwrapArgs(dir)
	return s, nil
}

// realShells are the stubs that, after logging, run the host's shell of
// that name with their arguments.
var realShells = map[string]string{"sh": "/bin/sh", "bash": "/bin/bash", "dash": "/bin/dash"}

// stub returns the script of the stub called name. It writes the record
// "argc NUL cwd NUL name NUL args... NUL" to the log fd in one printf, so
// records from concurrent stubs do not interleave (a pipe write under
// PIPE_BUF is atomic).
func stub(bash, name string) string {
	s := "#!" + bash + "\nprintf '%s\\0' \"$#\" \"$PWD\" '" + name + "' \"$@\" >&" + strconv.Itoa(logFD) + " 2>/dev/null\n"
	if real, ok := realShells[name]; ok {
		return s + "[ -x " + real + " ] && exec " + real + " \"$@\"\nexit 0\n"
	}
	return s + "exit 0\n"
}

// bwrapArgs is the sandbox. Why the host cannot be changed:
//   - The root is bwrap's own tmpfs, remounted read-only at the end; the
//     host's /usr (and the /bin, /lib... links or directories) and the
//     stubs are bound read-only. Nothing else of the host is visible: no
//     /home, /run (sockets), /var, /sys, /etc.
//   - The writable places are /tmp and /home (tmpfs, 16 MiB each), and
//     bwrap's /dev (a tmpfs with only null, zero, full, random, urandom
//     and tty). All vanish with the sandbox.
//   - --unshare-all with --unshare-user: new user, mount, pid, net, ipc,
//     uts and cgroup namespaces, so no network, no host processes to
//     signal, and capabilities (dropped anyway) only over the sandbox.
//     --disable-userns stops the script nesting namespaces to undo this.
//   - --new-session: no controlling terminal to inject keystrokes into.
//   - --die-with-parent and the pid namespace: killing bwrap at the
//     timeout kills every process the script started.
//
// The log leaves through an inherited pipe, not a file.
func bwrapArgs(stubDir string) []string {
	a := []string{
		"--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL",
		"--die-with-parent", "--new-session",
		"--ro-bind", "/usr", "/usr",
	}
	for _, d := range []string{"/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"} {
		fi, err := os.Lstat(d)
		switch {
		case err != nil:
		case fi.Mode()&os.ModeSymlink != 0:
			if t, err := os.Readlink(d); err == nil {
				a = append(a, "--symlink", t, d)
			}
		case fi.IsDir():
			a = append(a, "--ro-bind", d, d)
		}
	}
	return append(a,
		"--ro-bind", stubDir, sbStubs,
		"--proc", "/proc", "--dev", "/dev",
		"--size", "16777216", "--tmpfs", "/tmp",
		"--size", "16777216", "--tmpfs", "/home",
		"--dir", sbHome+"/.ssh", "--dir", sbWork,
		"--remount-ro", "/",
		"--chdir", sbWork,
		"--clearenv", "--setenv", "PATH", sbStubs, "--setenv", "HOME", sbHome,
		"--setenv", "LC_ALL", "C",
	)
}

// run runs one script and returns what it did.
func (s *sandbox) run(ctx context.Context, script string) (result, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	args := append(s.args[:len(s.args):len(s.args)], s.bash, "-c", wrapper, s.shell, script)
	cmd := exec.CommandContext(ctx, s.bwrap, args...)
	logR, logW, err := os.Pipe()
	if err != nil {
		return result{}, fmt.Errorf("create log pipe: %w", err)
	}
	defer logR.Close()
	// ExtraFiles[i] becomes fd 3+i; the nil entries are closed in the child.
	cmd.ExtraFiles = make([]*os.File, logFD-2)
	cmd.ExtraFiles[logFD-3] = logW
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	killGroup(cmd)
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		logW.Close()
		return result{}, fmt.Errorf("start bwrap: %w", err)
	}
	logW.Close()
	// The pipe reaches EOF when the last process of the sandbox is gone;
	// the deadline only guards against a sandbox that outlives its kill.
	logR.SetReadDeadline(time.Now().Add(s.timeout + 2*time.Second))
	logData, readErr := io.ReadAll(logR)
	waitErr := cmd.Wait()
	r := result{calls: parseLog(logData), timedOut: ctx.Err() != nil}
	// bash says "syntax error", dash "Syntax error".
	errText := bytes.ToLower(stderr.Bytes())
	r.syntax = bytes.Contains(errText, []byte("syntax error")) || bytes.Contains(errText, []byte("unexpected eof"))
	var exitErr *exec.ExitError
	switch {
	case waitErr == nil:
	case errors.As(waitErr, &exitErr):
		r.status = exitErr.ExitCode()
	case r.timedOut:
		r.status = -1
	default:
		return r, fmt.Errorf("run bwrap: %w", waitErr)
	}
	if readErr != nil && !r.timedOut {
		return r, fmt.Errorf("read the stubs' log: %w", readErr)
	}
	// Both bwrap and the wrapper start their complaints so.
	if bytes.HasPrefix(stderr.Bytes(), []byte("bwrap:")) {
		return r, fmt.Errorf("sandbox setup failed (status %d): %s", r.status, bytes.TrimSpace(stderr.Bytes()))
	}
	return r, nil
}

// parseLog splits the stubs' records. A torn record (which only a stub
// killed mid-write could leave) ends the parse.
func parseLog(b []byte) []call {
	f := strings.Split(string(b), "\x00")
	var out []call
	for i := 0; i+2 < len(f); {
		n, err := strconv.Atoi(f[i])
		if err != nil || n < 0 || i+3+n > len(f) {
			break
		}
		out = append(out, call{Dir: f[i+1], Name: f[i+2], Args: f[i+3 : i+3+n]})
		i += 3 + n
	}
	return out
}

// limitedBuffer keeps the first 64 KiB written to it: enough to see a
// syntax error, and a noisy script cannot grow it without bound.
type limitedBuffer struct{ bytes.Buffer }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := 64<<10 - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// hostProgram finds a program by name. The sandbox binds only /usr, so
// the program must live there once links are resolved.
func hostProgram(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err == nil {
		p, err = filepath.EvalSymlinks(p)
	}
	if err != nil {
		return "", errMissing{name, err}
	}
	if !strings.HasPrefix(p, "/usr/") {
		return "", fmt.Errorf("%s is %s, outside /usr, which is all the sandbox binds", name, p)
	}
	return p, nil
}

// errMissing says a program the harness needs is not installed.
type errMissing struct {
	name string
	err  error
}

func (e errMissing) Error() string {
	return fmt.Sprintf("%s not found (%v); install it, e.g. apt-get install -y bubblewrap bash dash", e.name, e.err)
}
