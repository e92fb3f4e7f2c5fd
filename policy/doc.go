// Package policy decides, before anything runs, whether a command is
// allowed, denied or needs approval, and names the rule that decided.
//
// It reads an Aar agent config ([ParseConfig]), binds it to one run
// ([Compile]) and judges requests ([Policy.Check]) by parsing them as bash
// with mvdan.cc/sh and applying structural rules to every simple command:
// pipelines, lists, subshells, substitutions, function bodies and the
// strings handed to sh -c, eval, su -c, watch and find -exec, looking
// through wrappers such as sudo, env, nice, timeout, xargs and busybox.
//
// The package is pure: it makes no system calls and reads no files,
// environment or clock, so the same decision is reached on every OS.
//
// # Limitations
//
// The policy judges the text of a command. Code that a program runs on its
// own (a Python script calling os.system, a Makefile, a script file's
// contents) is not seen; the OS sandbox is the boundary for that. Names
// and arguments that only exist at run time (unknown variables, command
// substitutions) are judged by what they could be: a dynamic command name
// is denied when any program known to the built-in rules would be denied
// with the same arguments.
package policy
