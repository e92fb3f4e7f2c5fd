package linux

import (
	"fmt"
	"path/filepath"
	"strings"
)

// systemDirs are directories whose whole tree must never become writable:
// granting one would let a command replace the tools later commands run.
var systemDirs = []string{"/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32",
	"/proc", "/run", "/sbin", "/sys", "/usr", "/var/lib", "/var/spool"}

// systemRoots may hold a writable subdirectory but must not be one themselves.
var systemRoots = []string{"/", "/home", "/root", "/tmp", "/var", "/var/tmp", "/opt", "/srv", "/mnt", "/media"}

// CheckWritable refuses to make path writable when that would hand the
// command the system or the user's whole home directory. path must be
// absolute with symlinks resolved; home is the caller's home directory.
func CheckWritable(path, home string, allowHome bool) error {
	path = filepath.Clean(path)
	if !filepath.IsAbs(path) {
		return fmt.Errorf("%q is not an absolute path", path)
	}
	for _, d := range systemRoots {
		if path == d {
			return fmt.Errorf("refusing to make %q writable: it is a system directory; use a project directory below it", path)
		}
	}
	for _, d := range systemDirs {
		if within(path, d) {
			return fmt.Errorf("refusing to make %q writable: it lies in the system directory %s", path, d)
		}
	}
	if home != "" && home != "/" {
		home = filepath.Clean(home)
		if path == home && !allowHome {
			return fmt.Errorf("refusing to make the home directory %q writable (shell rc files and ~/.ssh would be too); pass --allow-home if you mean it", path)
		}
		if within(home, path) && path != home {
			return fmt.Errorf("refusing to make %q writable: it contains the home directory %q", path, home)
		}
	}
	return nil
}

// within reports whether p is dir or lies beneath it.
func within(p, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}
