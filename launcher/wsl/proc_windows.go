//go:build windows

package wsl

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// A tree is the job object holding wsl.exe and any Windows process it
// starts. Closing the last handle kills them all (KILL_ON_JOB_CLOSE), so
// nothing outlives aar-exec. The Linux processes live in the WSL VM, out
// of the job's reach; they end when wsl.exe's session ends.
type tree struct {
	job windows.Handle
}

// prepareTree creates the job, hands os/exec the exact command line built
// by winargv.Join (rather than its own quoting), and starts wsl.exe in
// the checked working directory so that it has nothing odd to translate.
func prepareTree(cmd *exec.Cmd, cmdLine string, dir winPath) (*tree, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("create job object: %v", err)
	}
	var li windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	li.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&li)), uint32(unsafe.Sizeof(li))); err != nil {
		windows.CloseHandle(job)
		return nil, fmt.Errorf("configure job object: %v", err)
	}
	t := &tree{job: job}
	cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: cmdLine}
	if dir.drive != 0 {
		cmd.Dir = dir.String()
	}
	cmd.Cancel = func() error { return t.kill(cmd) }
	return t, nil
}

// started puts wsl.exe in the job. wsl.exe runs briefly outside it; it is
// Microsoft's own program, not the agent's, and starts no Windows process
// of ours in that time.
func (t *tree) started(cmd *exec.Cmd) error {
	var err error
	werr := cmd.Process.WithHandle(func(h uintptr) {
		err = windows.AssignProcessToJobObject(t.job, windows.Handle(h))
	})
	if werr != nil {
		return fmt.Errorf("assign wsl.exe to job: %v", werr)
	}
	if err != nil {
		return fmt.Errorf("assign wsl.exe to job: %v", err)
	}
	return nil
}

func (t *tree) kill(*exec.Cmd) error { return windows.TerminateJobObject(t.job, 1) }

func (t *tree) close() { windows.CloseHandle(t.job) }

func exitSignal(*os.ProcessState) int { return 0 }

// defaultExe prefers the system's own wsl.exe by absolute path, so that a
// wsl.exe planted in the workspace or early in PATH is never picked.
func defaultExe() (string, error) {
	if root := os.Getenv("SystemRoot"); root != "" {
		p := filepath.Join(root, "System32", "wsl.exe")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return findExe("wsl.exe")
}
