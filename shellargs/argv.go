package shellargs

// ShellArgv builds the argv to execve for the real shell at path shell,
// from the parsed fields alone. argv[0] is the base name of shell, with a
// leading '-' when [Invocation.LoginArgv0] is set. Then come the long
// options, which bash requires first, the short options unbundled, -i and
// -l, and last the mode:
//
//	-c -- STRING PARAMS...   with a command string
//	-s -- PARAMS...          when Stdin is set
//	-- FILE PARAMS...        otherwise, with a script file
//
// The "--" keeps a string, file or parameter that starts with '-' or '+'
// from being read as an option. ShellArgv returns nil for aar-exec's own
// argv form, which runs [Invocation.Argv] without a shell, and for Help and
// Version, which run nothing.
func (inv *Invocation) ShellArgv(shell string) []string {
	if inv.Argv != nil || inv.Help || inv.Version {
		return nil
	}
	name := shell[len(shellDir(shell)):]
	if inv.LoginArgv0 {
		name = "-" + name
	}
	argv := make([]string, 0, 6+len(inv.LongOptions)+len(inv.Options)+len(inv.Params))
	argv = append(argv, name)
	argv = append(argv, inv.LongOptions...)
	argv = append(argv, inv.Options...)
	if inv.Interactive {
		argv = append(argv, "-i")
	}
	// A caller that fills Login alone means -l; with LoginArgv0 the name
	// already says it, and adding -l would change what bash sources.
	if inv.LoginOption || inv.Login && !inv.LoginArgv0 {
		argv = append(argv, "-l")
	}
	switch {
	case inv.Command != nil:
		argv = append(argv, "-c", "--", *inv.Command)
	case inv.Stdin:
		argv = append(argv, "-s", "--")
	default:
		argv = append(argv, "--", inv.Script)
	}
	return append(argv, inv.Params...)
}

// shellDir returns the directory part of path, up to its last '/' or '\'.
func shellDir(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' || path[i] == '\\' {
			return path[:i+1]
		}
	}
	return ""
}
