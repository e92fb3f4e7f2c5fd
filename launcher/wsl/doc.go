// Package wsl runs a planned command inside a dedicated WSL2 distro through
// wsl.exe, after a workspace-escape guard on the Windows working directory,
// and manages that distro's lifecycle (setup, status, reset).
//
// Everything here is plain Go around os/exec, so it builds and is tested on
// every OS; only the final path resolution in [Guard] and the process-tree
// kill are Windows-specific.
//
// # Invocation
//
// [Run] starts
//
//	wsl.exe -d DISTRO --exec SHELL -c SCRIPT aar-exec /mnt/c/ws/dir ARGV...
//
// With --exec, wsl.exe splits its command line once, with
// CommandLineToArgvW, and execs the result; with "--" it would hand the raw
// Windows command line to the distro's shell, which parses it a second
// time. SCRIPT is a constant: it enters the directory with a fail-closed cd
// and then runs exec "$@", so no argument is ever parsed by a shell.
//
// # Limitations
//
// WSL mode does not confine writes: the Windows drives are mounted under
// /mnt with the user's own rights, and the Linux processes can start
// Windows programs through interop. The guard constrains only the starting
// directory. Read denial, read-only runs and process caps are not
// available; the memory cap is a per-process ulimit -v. Job limits on
// wsl.exe do not reach the Linux processes, which run in the WSL VM.
package wsl
