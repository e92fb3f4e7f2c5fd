module github.com/aar-agent/aar-exec

go 1.26.0

require (
	github.com/alecthomas/kong v1.17.0
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/google/shlex v0.0.0-20191202100458-e7afc7fbc510
	github.com/landlock-lsm/go-landlock v0.11.0
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/sys v0.49.0
	mvdan.cc/sh/v3 v3.14.1
)

require (
	golang.org/x/tools v0.38.0 // indirect
	kernel.org/pub/linux/libs/security/libcap/psx v1.2.77 // indirect
)
