//go:build !unix && !windows

package wsl

import (
	"os"
	"os/exec"
)

// A tree is the set of processes a run started; on this OS only wsl.exe
// itself can be killed.
type tree struct{}

func prepareTree(*exec.Cmd, string, winPath) (*tree, error) { return &tree{}, nil }

func (t *tree) started(*exec.Cmd) error { return nil }

func (t *tree) kill(cmd *exec.Cmd) error { return cmd.Process.Kill() }

func (t *tree) close() {}

func exitSignal(*os.ProcessState) int { return 0 }

func defaultExe() (string, error) { return findExe("wsl.exe") }
