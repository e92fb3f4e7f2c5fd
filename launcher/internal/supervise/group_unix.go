//go:build unix

package supervise

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// A Group is a command started as the leader of its own session, so its
// pid is its process group's id, and what it left in the group goes with
// it. It is the [Tree] of the Unix launchers.
//
// Kill aims at the group only: the leader cannot leave its group (a
// session leader cannot call setpgid), and a kill aimed at its bare pid
// could reach another process once the pid is reaped and reused.
type Group int

func (g Group) Signal(sig os.Signal) { unix.Kill(-int(g), sig.(syscall.Signal)) }
func (g Group) Terminate()           { unix.Kill(-int(g), unix.SIGTERM) }
func (g Group) Kill()                { unix.Kill(-int(g), unix.SIGKILL) }

// Reap waits for pid to end and reaps it, retrying when a signal
// interrupts the wait.
func Reap(pid int) (unix.WaitStatus, error) {
	var ws unix.WaitStatus
	for {
		_, err := unix.Wait4(pid, &ws, 0, nil)
		if !errors.Is(err, unix.EINTR) {
			return ws, err
		}
	}
}
