package linux

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

// inMountLayer runs f on a locked thread inside the mount layer. The thread
// is never unlocked, so its private namespace dies with it.
func inMountLayer(t *testing.T, writable []string, g gitMounts, f func() error) error {
	t.Helper()
	if !canMount() {
		t.Skip("the mount layer needs CAP_SYS_ADMIN (root)")
	}
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if err := readOnlyMounts(writable, g); err != nil {
			errc <- err
			return
		}
		errc <- f()
	}()
	return <-errc
}

func TestMountLayerCoversHostSockets(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "host.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	err = inMountLayer(t, nil, gitMounts{sockets: []string{sock}}, func() error {
		c, err := net.Dial("unix", sock)
		if err == nil {
			c.Close()
			return errors.New("connected to a covered socket")
		}
		if !errors.Is(err, syscall.ECONNREFUSED) {
			return err
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
	// Outside the layer the socket still works: nothing leaked to the host.
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Errorf("the host's socket stopped working: %v", err)
	} else {
		c.Close()
	}
}

func TestMountLayerIsReadOnlyOutsideWritable(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "victim")
	if err := os.WriteFile(victim, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := inMountLayer(t, []string{ws}, gitMounts{}, func() error {
		if err := os.Chmod(victim, 0o4755); !errors.Is(err, syscall.EROFS) {
			return errors.New("chmod outside the writable paths: want EROFS, got " + errString(err))
		}
		return os.WriteFile(filepath.Join(ws, "ok"), nil, 0o644)
	})
	if err != nil {
		t.Error(err)
	}
	if st, _ := os.Stat(victim); st.Mode().Perm() != 0o644 {
		t.Errorf("victim mode is %v", st.Mode())
	}
}

func errString(err error) string {
	if err == nil {
		return "nil"
	}
	return err.Error()
}
