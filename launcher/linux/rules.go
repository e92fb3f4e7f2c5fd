//go:build linux

package linux

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"syscall"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// Rights are sets of Landlock filesystem access rights.
const (
	rightsV1 = ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSReadFile |
		ll.AccessFSReadDir | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile |
		ll.AccessFSMakeChar | ll.AccessFSMakeDir | ll.AccessFSMakeReg |
		ll.AccessFSMakeSock | ll.AccessFSMakeFifo | ll.AccessFSMakeBlock |
		ll.AccessFSMakeSym

	// fileRights are the only rights a rule on a non-directory may carry.
	fileRights = ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSReadFile |
		ll.AccessFSTruncate | ll.AccessFSIoctlDev

	readExec = ll.AccessFSReadFile | ll.AccessFSExecute
	readAll  = readExec | ll.AccessFSReadDir

	// Devices are never created: a root command with make-char could
	// mknod /dev/mem's twin inside the workspace.
	neverGranted = ll.AccessFSMakeChar | ll.AccessFSMakeBlock | ll.AccessFSIoctlDev

	deviceRights = ll.AccessFSReadFile | ll.AccessFSWriteFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev
)

// handledRights returns every filesystem right the given Landlock ABI
// knows; aar-exec handles all of them so none is left unrestricted.
func handledRights(abi int) uint64 {
	var r uint64
	if abi >= 1 {
		r |= rightsV1
	}
	if abi >= 2 {
		r |= ll.AccessFSRefer
	}
	if abi >= 3 {
		r |= ll.AccessFSTruncate
	}
	if abi >= 5 {
		r |= ll.AccessFSIoctlDev
	}
	if abi >= 9 {
		r |= ll.AccessFSResolveUnix
	}
	return r
}

// handledScopes returns the IPC scopes the ABI supports (ABI 6 and later).
func handledScopes(abi int) uint64 {
	if abi >= 6 {
		return ll.ScopeAbstractUnixSocket | ll.ScopeSignal
	}
	return 0
}

// A rule grants access beneath one path. Dir rules may carry directory
// rights; the enforcer trims them for files.
type rule struct {
	path   string
	access uint64
}

// A layout is what the sandbox must allow, before it becomes rules.
type layout struct {
	abi       int
	writable  []string // workspace, private tmp, --allow-write paths
	readOnly  []string // the workspace in --read-only mode
	denyRead  []string // cleaned absolute paths whose contents must stay unreadable
	devices   []string // device files a shell writes to
	deviceDir []string // directories of ptys
}

// deviceFiles are the device nodes a shell and its tools open for writing.
var deviceFiles = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/random", "/dev/urandom"}

// rules turns a layout into Landlock rules. listDir reads the names and
// types of one directory's entries; it is a parameter so the read-denial
// walk can be tested without the real filesystem.
func (l *layout) rules(listDir func(dir string) ([]fs.DirEntry, error)) ([]rule, error) {
	handled := handledRights(l.abi)
	var rs []rule
	if len(l.denyRead) == 0 {
		rs = append(rs, rule{"/", readAll})
	} else {
		rs = append(rs, rule{"/", ll.AccessFSReadDir})
		grants, err := complement(l.denyRead, listDir)
		if err != nil {
			return nil, err
		}
		for _, p := range grants {
			rs = append(rs, rule{p, readExec})
		}
	}
	for _, p := range l.readOnly {
		rs = append(rs, rule{p, readAll})
	}
	for _, p := range l.writable {
		rs = append(rs, rule{p, handled &^ neverGranted})
	}
	for _, p := range l.devices {
		rs = append(rs, rule{p, deviceRights})
	}
	for _, p := range l.deviceDir {
		rs = append(rs, rule{p, deviceRights})
	}
	for i := range rs {
		rs[i].access &= handled
	}
	return rs, nil
}

// complement returns the paths to grant read and execute on so that
// everything is readable except what lies beneath a denied path. Landlock
// can only grant, so instead of granting "/" it grants every sibling along
// the way down to each denied entry. Symlinks are not granted: a rule on a
// link grants nothing, and its target is covered where it really lives.
func complement(denied []string, listDir func(string) ([]fs.DirEntry, error)) ([]string, error) {
	deny := make(map[string]bool, len(denied))
	ancestors := make(map[string]bool)
	for _, d := range denied {
		d = filepath.Clean(d)
		if d == "/" || !filepath.IsAbs(d) {
			continue
		}
		deny[d] = true
		for p := filepath.Dir(d); ; p = filepath.Dir(p) {
			ancestors[p] = true
			if p == "/" {
				break
			}
		}
	}
	var grants []string
	queue := []string{"/"}
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		entries, err := listDir(dir)
		if err != nil {
			// The denied path vanished or never existed: nothing to hide.
			if isNotExist(err) {
				continue
			}
			return nil, err
		}
		for _, e := range entries {
			child := filepath.Join(dir, e.Name())
			switch {
			case deny[child]:
			case ancestors[child]:
				if e.IsDir() {
					queue = append(queue, child)
				}
			case e.Type()&fs.ModeSymlink != 0:
			default:
				grants = append(grants, child)
			}
		}
	}
	slices.Sort(grants)
	return grants, nil
}

func isNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// rightNames names Landlock rights for the audit line and doctor.
var rightNames = []struct {
	bit  uint64
	name string
}{
	{ll.AccessFSExecute, "execute"}, {ll.AccessFSWriteFile, "write_file"}, {ll.AccessFSReadFile, "read_file"},
	{ll.AccessFSReadDir, "read_dir"}, {ll.AccessFSRemoveDir, "remove_dir"}, {ll.AccessFSRemoveFile, "remove_file"},
	{ll.AccessFSMakeChar, "make_char"}, {ll.AccessFSMakeDir, "make_dir"}, {ll.AccessFSMakeReg, "make_reg"},
	{ll.AccessFSMakeSock, "make_sock"}, {ll.AccessFSMakeFifo, "make_fifo"}, {ll.AccessFSMakeBlock, "make_block"},
	{ll.AccessFSMakeSym, "make_sym"}, {ll.AccessFSRefer, "refer"}, {ll.AccessFSTruncate, "truncate"},
	{ll.AccessFSIoctlDev, "ioctl_dev"}, {ll.AccessFSResolveUnix, "resolve_unix"},
}

func names(set uint64) []string {
	var out []string
	for _, r := range rightNames {
		if set&r.bit != 0 {
			out = append(out, r.name)
		}
	}
	return out
}

func scopeNames(set uint64) []string {
	var out []string
	if set&ll.ScopeAbstractUnixSocket != 0 {
		out = append(out, "abstract_unix_socket")
	}
	if set&ll.ScopeSignal != 0 {
		out = append(out, "signal")
	}
	return out
}
