package main

import (
	"os"
	"syscall"

	"github.com/aar-agent/aar-exec/launcher/linux"
	"golang.org/x/sys/unix"
)

func isatty(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
	return err == nil
}

func landlockUsable() bool { return linux.Available() }

// sealedCopy returns a read-only, sealed in-memory file holding data: the
// shell reads its stdin script from it, and nothing, the command included,
// can change the bytes the policy judged.
func sealedCopy(data []byte) (*os.File, error) {
	fd, err := unix.MemfdCreate("aar-exec-script", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), "aar-exec-script")
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, err
	}
	const seals = unix.F_SEAL_SEAL | unix.F_SEAL_SHRINK | unix.F_SEAL_GROW | unix.F_SEAL_WRITE
	if _, err := unix.FcntlInt(f.Fd(), unix.F_ADD_SEALS, seals); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(0, 0); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func syscallSignalName(sig syscall.Signal) string { return unix.SignalName(sig) }
