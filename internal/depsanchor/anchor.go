package depsanchor

import (
	_ "github.com/alecthomas/kong"
	_ "github.com/bmatcuk/doublestar/v4"
	_ "github.com/google/shlex"
	_ "github.com/landlock-lsm/go-landlock/landlock"
	_ "github.com/landlock-lsm/go-landlock/landlock/syscall"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "golang.org/x/sys/unix"
	_ "mvdan.cc/sh/v3/expand"
	_ "mvdan.cc/sh/v3/syntax"
)
