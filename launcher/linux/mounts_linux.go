package linux

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// protectedInWorkspace are paths inside a writable root that stay
// read-only when the mount layer is available: a hook, or a config with
// core.hooksPath or core.fsmonitor, would run the command's code later,
// outside the sandbox, the next time the user runs git there. .git itself
// is pinned (bound on itself, still writable, so commits work): a mount
// point cannot be renamed or removed, so the command cannot move the
// protected .git aside and make a new one. It stops the obvious plants
// only: a mount cannot stop a new name, so a new .git/commondir, a
// missing hooks directory, a submodule's .git/modules/NAME, or a nested
// repository with a gitlink in the index still reach a later git (README).
var protectedInWorkspace = []string{".git/hooks", ".git/config"}

// hostSockets are unix sockets through which a root command could run
// code outside its sandbox: systemd-run, the D-Bus system bus, container
// engines. Landlock below ABI 9 does not stop connecting to them; the mount
// layer covers each with /dev/null, so connect gets ECONNREFUSED.
var hostSockets = []string{
	"/run/systemd/private", "/run/dbus/system_bus_socket", "/var/run/dbus/system_bus_socket",
	"/run/docker.sock", "/var/run/docker.sock", "/run/containerd/containerd.sock",
	"/run/podman/podman.sock", "/run/snapd.socket",
}

// userSockets are the same for each user's session, under /run/user/UID.
var userSockets = []string{"systemd/private", "bus", "docker.sock", "podman/podman.sock"}

// hiddenSockets lists the host sockets present on this machine.
func hiddenSockets() []string { return socketsUnder("/") }

// socketsUnder lists the sockets of hostSockets and userSockets present
// beneath root. /run/user is listed once for all of userSockets: a glob
// per pattern listed it, and every directory in it, once each (about 40
// system calls a launch).
func socketsUnder(root string) []string {
	var out []string
	add := func(p string) {
		if st, err := os.Lstat(filepath.Join(root, p)); err == nil && st.Mode()&os.ModeSocket != 0 {
			out = append(out, filepath.Join(root, p))
		}
	}
	for _, p := range hostSockets {
		add(p)
	}
	users, _ := os.ReadDir(filepath.Join(root, "/run/user")) // none: no sessions to cover
	for _, rel := range userSockets {
		for _, u := range users {
			add(filepath.Join("/run/user", u.Name(), rel))
		}
	}
	return out
}

// extraMounts are what the mount layer adds over the read-only tree.
type extraMounts struct {
	pin      []string // bound on themselves, writable: cannot be moved aside
	readOnly []string // bound on themselves, read-only
	sockets  []string // covered with /dev/null
	hidden   []string // covered with an empty, mode-000, read-only twin
}

// readOnlyMounts moves the calling thread into a private mount namespace
// in which every mount is read-only, then binds the writable paths back
// on top, writable, and the repository protections over those. Landlock
// cannot stop chmod, chown, utime or setxattr; a read-only mount does, so
// a root command without capabilities cannot, for example, make
// /etc/passwd world-writable or a system binary setuid.
//
// It needs CAP_SYS_ADMIN and runs on the locked thread before Landlock,
// which forbids mount changes once enforced. unshare(CLONE_NEWNS) is
// allowed on one thread of a multi-threaded process because CLONE_FS
// unshares only this thread's root and working directory.
func readOnlyMounts(writable []string, g extraMounts) error {
	if err := unix.Unshare(unix.CLONE_NEWNS | unix.CLONE_FS); err != nil {
		return fmt.Errorf("mount namespace: %w", err)
	}
	// System V shared memory, semaphores and message queues, and POSIX
	// message queues, are named by keys, not paths, so Landlock does not
	// see them: in the host's IPC namespace the command could read and
	// write the shared memory of any process of its uid (measured).
	if err := unix.Unshare(unix.CLONE_NEWIPC); err != nil {
		return fmt.Errorf("ipc namespace: %w", err)
	}
	// Nothing done here may propagate back to the host.
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("mount namespace: make private: %w", err)
	}
	// Clone the writable trees while they are still writable.
	clones := make([]int, 0, len(writable))
	defer func() {
		for _, fd := range clones {
			unix.Close(fd)
		}
	}()
	for _, w := range writable {
		fd, err := unix.OpenTree(unix.AT_FDCWD, w, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
		if err != nil {
			return fmt.Errorf("mount namespace: clone %q: %w", w, err)
		}
		clones = append(clones, fd)
	}
	ro := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
	if err := unix.MountSetattr(unix.AT_FDCWD, "/", unix.AT_RECURSIVE, &ro); err != nil {
		return fmt.Errorf("mount namespace: make / read-only: %w", err)
	}
	for i, fd := range clones {
		if err := unix.MoveMount(fd, "", unix.AT_FDCWD, writable[i], unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
			return fmt.Errorf("mount namespace: mount %q writable: %w", writable[i], err)
		}
	}
	for _, p := range g.pin {
		if err := bindOnItself(p, nil); err != nil {
			return fmt.Errorf("mount namespace: pin %q: %w", p, err)
		}
	}
	for _, p := range g.readOnly {
		if err := bindOnItself(p, &ro); err != nil {
			return fmt.Errorf("mount namespace: protect %q: %w", p, err)
		}
	}
	for _, s := range g.sockets {
		if err := unix.Mount("/dev/null", s, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("mount namespace: cover socket %q: %w", s, err)
		}
	}
	if len(g.hidden) > 0 {
		if err := hide(g.hidden); err != nil {
			return fmt.Errorf("mount namespace: %w", err)
		}
	}
	return nil
}

// hide covers each path with an empty twin of mode 000 from a detached
// tmpfs, read-only: the command, which has no capabilities left, gets
// EACCES whatever way it tries, cannot chmod the twin (read-only) and
// cannot unmount it (no CAP_SYS_ADMIN). This is read denial for the mount
// layer: unlike Landlock's, which must grant every sibling of every
// directory on the way down (the 143 entries of /etc, the 178 of /tmp
// here), it costs a few syscalls per hidden path. A path that is missing
// or reached through a symlink is skipped; its real location is in the
// list too.
func hide(paths []string) error {
	twins, err := emptyTwins()
	if err != nil {
		return err
	}
	defer unix.Close(twins)
	for _, p := range paths {
		target, err := unix.Openat2(unix.AT_FDCWD, p, &unix.OpenHow{
			Flags:   unix.O_PATH | unix.O_NOFOLLOW | unix.O_CLOEXEC,
			Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		})
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
			continue
		}
		if err != nil {
			return fmt.Errorf("hide %q: %w", p, err)
		}
		err = coverWithTwin(twins, target)
		unix.Close(target)
		if err != nil {
			return fmt.Errorf("hide %q: %w", p, err)
		}
	}
	return nil
}

// emptyTwins makes a detached tmpfs holding an empty directory "d" and an
// empty file "f", both mode 000, and makes it read-only.
func emptyTwins() (int, error) {
	fsfd, err := unix.Fsopen("tmpfs", unix.FSOPEN_CLOEXEC)
	if err != nil {
		return -1, fmt.Errorf("tmpfs for hiding: %w", err)
	}
	defer unix.Close(fsfd)
	if err := unix.FsconfigSetString(fsfd, "size", "4k"); err != nil {
		return -1, fmt.Errorf("tmpfs for hiding: %w", err)
	}
	if err := unix.FsconfigCreate(fsfd); err != nil {
		return -1, fmt.Errorf("tmpfs for hiding: %w", err)
	}
	mnt, err := unix.Fsmount(fsfd, unix.FSMOUNT_CLOEXEC, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV|unix.MOUNT_ATTR_NOEXEC)
	if err != nil {
		return -1, fmt.Errorf("tmpfs for hiding: %w", err)
	}
	err = unix.Mkdirat(mnt, "d", 0)
	if err == nil {
		var fd int
		fd, err = unix.Openat(mnt, "f", unix.O_CREAT|unix.O_EXCL|unix.O_WRONLY|unix.O_CLOEXEC, 0)
		if err == nil {
			unix.Close(fd)
			ro := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
			err = unix.MountSetattr(mnt, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE, &ro)
		}
	}
	if err != nil {
		unix.Close(mnt)
		return -1, fmt.Errorf("tmpfs for hiding: %w", err)
	}
	return mnt, nil
}

// coverWithTwin mounts the twin of target's type on target.
func coverWithTwin(twins, target int) error {
	var st unix.Stat_t
	if err := unix.Fstat(target, &st); err != nil {
		return err
	}
	twin := "f"
	if st.Mode&unix.S_IFMT == unix.S_IFDIR {
		twin = "d"
	}
	fd, err := unix.OpenTree(twins, twin, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return unix.MoveMount(fd, "", target, "", unix.MOVE_MOUNT_F_EMPTY_PATH|unix.MOVE_MOUNT_T_EMPTY_PATH)
}

// bindOnItself mounts p on itself, with attr applied when not nil.
func bindOnItself(p string, attr *unix.MountAttr) error {
	fd, err := unix.OpenTree(unix.AT_FDCWD, p, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_SYMLINK_NOFOLLOW)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	if attr != nil {
		if err := unix.MountSetattr(fd, "", unix.AT_EMPTY_PATH, attr); err != nil {
			return err
		}
	}
	return unix.MoveMount(fd, "", unix.AT_FDCWD, p, unix.MOVE_MOUNT_F_EMPTY_PATH)
}

// gitProtection finds the repositories at the top of each writable root.
// Symlinks are skipped: a bind would follow them somewhere else.
func gitProtection(roots []string) extraMounts {
	var g extraMounts
	for _, r := range roots {
		dotgit := filepath.Join(r, ".git")
		st, err := os.Lstat(dotgit)
		switch {
		case err != nil || st.Mode()&os.ModeSymlink != 0:
			continue
		case st.Mode().IsRegular(): // a worktree's pointer: re-pointing it is the attack
			g.readOnly = append(g.readOnly, dotgit)
			continue
		case !st.IsDir():
			continue
		}
		g.pin = append(g.pin, dotgit)
		for _, rel := range protectedInWorkspace {
			p := filepath.Join(r, rel)
			if st, err := os.Lstat(p); err == nil && st.Mode()&os.ModeSymlink == 0 {
				g.readOnly = append(g.readOnly, p)
			}
		}
	}
	return g
}

// canMount reports whether the mount layer is possible: it needs
// CAP_SYS_ADMIN in the effective set.
func canMount() bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if unix.Capget(&hdr, &data[0]) != nil {
		return false
	}
	return data[0].Effective&(1<<unix.CAP_SYS_ADMIN) != 0
}

// privatePTYs mounts a devpts instance of the command's own on /dev/pts,
// and its ptmx on /dev/ptmx, and grants both in the ruleset, which is
// enforced after this. On the host's devpts the command could open the
// terminal of any other session of its uid and read what the user types
// there (a password at a sudo prompt) or write to it; in its own instance
// it sees only the ptys it makes. Landlock skips mount points when it
// walks up a path, so the host's /dev/pts and /dev/ptmx rules do not
// cover the new mounts: they get rules of their own.
func privatePTYs(rulesetFD, abi int) error {
	if st, err := os.Lstat("/dev/pts"); err != nil || !st.IsDir() {
		return nil // no ptys to protect
	}
	fsfd, err := unix.Fsopen("devpts", unix.FSOPEN_CLOEXEC)
	if err != nil {
		return fmt.Errorf("devpts: %w", err)
	}
	defer unix.Close(fsfd)
	for _, o := range [][2]string{{"mode", "0620"}, {"ptmxmode", "0666"}} {
		if err := unix.FsconfigSetString(fsfd, o[0], o[1]); err != nil {
			return fmt.Errorf("devpts %s: %w", o[0], err)
		}
	}
	if err := unix.FsconfigCreate(fsfd); err != nil {
		return fmt.Errorf("devpts: %w", err)
	}
	mnt, err := unix.Fsmount(fsfd, unix.FSMOUNT_CLOEXEC, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NOEXEC)
	if err != nil {
		return fmt.Errorf("devpts: %w", err)
	}
	defer unix.Close(mnt)
	if err := unix.MoveMount(mnt, "", unix.AT_FDCWD, "/dev/pts", unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
		return fmt.Errorf("devpts on /dev/pts: %w", err)
	}
	grants := []string{"/dev/pts"}
	// A /dev/ptmx that is a symlink (to pts/ptmx, in containers) already
	// leads to the new instance.
	if st, err := os.Lstat("/dev/ptmx"); err == nil && st.Mode()&os.ModeSymlink == 0 {
		if err := bindOnto(mnt, "ptmx", "/dev/ptmx"); err != nil {
			return fmt.Errorf("ptmx on /dev/ptmx: %w", err)
		}
		grants = append(grants, "/dev/ptmx")
	}
	if rulesetFD < 0 {
		return nil
	}
	for _, p := range grants {
		if _, err := addRule(rulesetFD, rule{p, deviceRights & handledRights(abi)}); err != nil {
			return fmt.Errorf("landlock: grant %q: %w", p, err)
		}
	}
	return nil
}

// bindOnto mounts a clone of name beneath the mount dirfd on target.
func bindOnto(dirfd int, name, target string) error {
	fd, err := unix.OpenTree(dirfd, name, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return unix.MoveMount(fd, "", unix.AT_FDCWD, target, unix.MOVE_MOUNT_F_EMPTY_PATH)
}
