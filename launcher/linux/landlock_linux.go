package linux

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// minABI is the oldest Landlock ABI aar-exec accepts without --best-effort:
// before ABI 3, truncate(2) on any file is unrestricted.
const minABI = 3

// landlockABI returns the kernel's Landlock ABI, or 0 when Landlock is
// missing or disabled.
func landlockABI() int {
	v, err := ll.LandlockGetABIVersion()
	if err != nil || v < 0 {
		return 0
	}
	return v
}

// A ruleset is an open Landlock ruleset, ready to be enforced.
type ruleset struct {
	fd      int
	abi     int
	handled uint64
	scoped  uint64
	rules   int
}

// newRuleset creates the ruleset for l and adds its rules. Each rule path
// is opened once, refusing symlinks in any component, so a path swapped for
// a symlink between planning and opening cannot widen a grant.
func newRuleset(l *layout, required map[string]bool) (*ruleset, error) {
	rs := &ruleset{abi: l.abi, handled: handledRights(l.abi), scoped: handledScopes(l.abi)}
	rules, err := l.rules(readDirNoFollow)
	if err != nil {
		return nil, fmt.Errorf("landlock: plan rules: %w", err)
	}
	attr := ll.RulesetAttr{HandledAccessFS: rs.handled, Scoped: rs.scoped}
	fd, err := ll.LandlockCreateRuleset(&attr, 0)
	if err != nil {
		return nil, fmt.Errorf("landlock: create ruleset (ABI %d): %w", l.abi, err)
	}
	rs.fd = fd
	for _, r := range rules {
		if r.access == readExec && len(l.denyRead) > 0 {
			continue // granted below, a directory at a time
		}
		ok, err := addRule(fd, r)
		if err != nil || (!ok && required[r.path]) {
			rs.close()
			if err == nil {
				err = errors.New("it is missing or a symlink")
			}
			return nil, fmt.Errorf("landlock: grant %q: %w", r.path, err)
		}
		if ok {
			rs.rules++
		}
	}
	if len(l.denyRead) > 0 {
		n, err := addSiblings(fd, rules)
		if err != nil {
			rs.close()
			return nil, fmt.Errorf("landlock: %w", err)
		}
		rs.rules += n
	}
	return rs, nil
}

// addSiblings adds the read-and-execute grants of read denial. They come
// sorted, so siblings are adjacent: each directory is opened once (no
// symlink anywhere in its path) and each entry beneath it with
// O_NOFOLLOW, which is as safe as opening the full path and a third of the
// syscalls. read_file|execute is valid on files and directories alike, so
// no fstat is needed. An entry that vanished or turned into a symlink since
// the listing is skipped: it stays unreadable.
func addSiblings(rulesetFD int, rules []rule) (int, error) {
	n := 0
	dirFD, dir := -1, ""
	defer func() {
		if dirFD >= 0 {
			unix.Close(dirFD)
		}
	}()
	for _, r := range rules {
		if r.access != readExec {
			continue
		}
		parent, name := filepath.Split(r.path)
		if parent != dir {
			if dirFD >= 0 {
				unix.Close(dirFD)
			}
			dir = parent
			var err error
			dirFD, err = unix.Openat2(unix.AT_FDCWD, dir, &unix.OpenHow{
				Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
				Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
			})
			if err != nil {
				dirFD = -1
				continue // the directory went away: nothing beneath it to grant
			}
		}
		if dirFD < 0 {
			continue
		}
		fd, err := unix.Openat(dirFD, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		attr := ll.PathBeneathAttr{AllowedAccess: readExec, ParentFd: fd}
		err = ll.LandlockAddPathBeneathRule(rulesetFD, &attr, 0)
		// Close at once: holding the descriptors to close them together
		// grows the fd table past 64, and growing the table of a
		// multi-threaded process waits for an RCU grace period
		// (expand_fdtable), which measured 7-14 ms here.
		unix.Close(fd)
		if err == nil {
			n++
		} else if !errors.Is(err, unix.EBADF) && !errors.Is(err, unix.EINVAL) {
			return n, fmt.Errorf("grant %q: %w", r.path, err)
		}
	}
	return n, nil
}

// addRule adds one rule; it reports false for a path that is missing or a
// symlink, which the caller decides whether to tolerate.
func addRule(rulesetFD int, r rule) (bool, error) {
	fd, err := unix.Openat2(unix.AT_FDCWD, r.path, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return false, err
	}
	access := r.access
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		access &= fileRights
	}
	if access == 0 {
		return false, nil
	}
	attr := ll.PathBeneathAttr{AllowedAccess: access, ParentFd: fd}
	if err := ll.LandlockAddPathBeneathRule(rulesetFD, &attr, 0); err != nil {
		return false, err
	}
	return true, nil
}

func (rs *ruleset) close() {
	if rs != nil && rs.fd > 0 {
		unix.Close(rs.fd)
		rs.fd = -1
	}
}

// readDirNoFollow lists a directory without following a symlink in its
// last component.
func readDirNoFollow(dir string) ([]fs.DirEntry, error) {
	fd, err := unix.Openat2(unix.AT_FDCWD, dir, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	if err != nil {
		if errors.Is(err, unix.ELOOP) {
			return nil, fs.ErrNotExist
		}
		return nil, err
	}
	f := os.NewFile(uintptr(fd), dir)
	defer f.Close()
	return f.ReadDir(-1)
}

// unprotected returns the denied paths that Landlock must hide: those
// the command could otherwise read. Without the mount layer every denied
// path costs a grant per sibling of each directory above it (/etc alone
// has over a hundred entries), so paths the file permissions already
// keep from the command are left out: a non-root command with no
// capabilities cannot read /etc/shadow, and cannot chmod what it does not
// own. A path whose owner is the command's uid, or which lies beneath a
// directory it owns, stays in, since the owner can change its mode. So
// does everything when the supervisor is root, and everything the
// supervisor can read, capabilities included. A missing path is left
// out: there is nothing to hide.
func unprotected(paths []string) []string {
	uid := os.Geteuid()
	var out []string
	for _, p := range paths {
		var st unix.Stat_t
		if err := unix.Lstat(p, &st); err != nil {
			continue
		}
		if uid == 0 || readable(p, st) || ownedOnTheWay(p, uid) {
			out = append(out, p)
		}
	}
	return out
}

// readable reports whether the supervisor can read p now: a file's
// contents, or a directory's listing or anything beneath it.
func readable(p string, st unix.Stat_t) bool {
	if unix.Faccessat(unix.AT_FDCWD, p, unix.R_OK, unix.AT_EACCESS) == nil {
		return true
	}
	return st.Mode&unix.S_IFMT == unix.S_IFDIR &&
		unix.Faccessat(unix.AT_FDCWD, p, unix.X_OK, unix.AT_EACCESS) == nil
}

// ownedOnTheWay reports whether uid owns p or any directory above it.
func ownedOnTheWay(p string, uid int) bool {
	for d := p; ; d = filepath.Dir(d) {
		var st unix.Stat_t
		if unix.Lstat(d, &st) == nil && int(st.Uid) == uid {
			return true
		}
		if d == "/" || d == "." {
			return false
		}
	}
}
