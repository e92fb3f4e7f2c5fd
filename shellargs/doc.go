// Package shellargs parses the arguments a client hands to its shell, the way
// bash 5.2 parses them, and builds the canonical argv for the real shell.
//
// aar-exec stands in for bash: make, CI runners, agents and terminals call it
// with bash's arguments (-c STRING, -lc STRING, -xe FILE, no operand at all).
// [Parse] separates aar-exec's own long flags from bash's, finds the command
// string, script file or stdin mode, and validates every option against
// bash's grammar. [Invocation.ShellArgv] then builds the argv to execve for
// the real shell from the parsed fields only, never from the original words,
// so the string a policy checks in [Invocation.Command] is exactly the string
// the shell runs.
//
// The package is pure: it reads no files, no environment and no terminal.
//
// # Limitations
//
// The grammar is bash's. A POSIX sh such as dash accepts only the subset
// without long options and without -O. Options that make bash print rather
// than run (-D, --dump-strings, --pretty-print) and the debugger options are
// refused, and so is anything this package does not know: it never guesses.
package shellargs
