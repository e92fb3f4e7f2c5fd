package linux

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"
	"testing"
)

// inMountLayer runs f on a locked thread inside the mount layer. The thread
// is never unlocked, so its private namespace dies with it.
func inMountLayer(t *testing.T, writable []string, g extraMounts, f func() error) error {
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
	err = inMountLayer(t, nil, extraMounts{sockets: []string{sock}}, func() error {
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
	err := inMountLayer(t, []string{ws}, extraMounts{}, func() error {
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

func TestMountLayerHidesDeniedPaths(t *testing.T) {
	dir := t.TempDir()
	store, key := filepath.Join(dir, "store"), filepath.Join(dir, "key")
	if err := os.Mkdir(store, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{filepath.Join(store, "id"), key} {
		if err := os.WriteFile(f, []byte("secret"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	hidden := []string{store, key, filepath.Join(dir, "missing")}
	err := inMountLayer(t, []string{dir}, extraMounts{hidden: hidden}, func() error {
		// The test still has its capabilities, so it sees the empty
		// twins; the command, which has none, gets EACCES from mode 000.
		for _, p := range []string{store, key} {
			st, err := os.Stat(p)
			if err != nil {
				return err
			}
			if st.Mode().Perm() != 0 {
				return errors.New(p + ": the cover is not mode 000: " + st.Mode().String())
			}
		}
		if entries, err := os.ReadDir(store); err != nil || len(entries) != 0 {
			return errors.New("the hidden directory is not empty: " + errString(err))
		}
		if b, err := os.ReadFile(key); err != nil || len(b) != 0 {
			return errors.New("the hidden file is not empty: " + errString(err))
		}
		if err := os.Chmod(key, 0o644); !errors.Is(err, syscall.EROFS) {
			return errors.New("chmod of a cover: want EROFS, got " + errString(err))
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
	if b, err := os.ReadFile(filepath.Join(store, "id")); err != nil || string(b) != "secret" {
		t.Errorf("the host lost the hidden file: %q, %v", b, err)
	}
}

// socketsUnder finds each kind of host socket, a session's included, and
// only sockets: a regular file or a symlink by a socket's name is not one.
func TestSocketsUnder(t *testing.T) {
	root := t.TempDir()
	mk := func(rel string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, rel := range []string{"run/docker.sock", "run/user/1000/bus", "run/user/1000/podman/podman.sock", "run/user/1001/systemd/private"} {
		l, err := net.Listen("unix", mk(rel))
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
	}
	if err := os.WriteFile(mk("run/user/1001/bus"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "run/docker.sock"), mk("run/user/1002/docker.sock")); err != nil {
		t.Fatal(err)
	}
	got := socketsUnder(root)
	want := []string{
		filepath.Join(root, "run/docker.sock"),
		filepath.Join(root, "run/user/1001/systemd/private"),
		filepath.Join(root, "run/user/1000/bus"),
		filepath.Join(root, "run/user/1000/podman/podman.sock"),
	}
	if !slices.Equal(got, want) {
		t.Errorf("socketsUnder:\n got %q\nwant %q", got, want)
	}
}
