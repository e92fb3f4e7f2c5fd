package shellargs

// The tables below are bash 5.2's, written as switches so that nothing is
// built at start-up. A newer bash may know more names; Parse refuses those
// until they are added here.

// longKind says what Parse does with one of bash's long options.
type longKind int

const (
	longUnknown longKind = iota // not a bash long option
	longFlag                    // passed on as is
	longFile                    // passed on with its FILE argument
	longLogin                   // -l
	longHelp                    // answered by aar-exec
	longVersion                 // answered by aar-exec
	longRefused                 // never passed on
)

// bashLong classifies a long option name given without its dashes.
func bashLong(name string) longKind {
	switch name {
	case "noprofile", "norc", "posix", "restricted", "verbose", "noediting":
		return longFlag
	case "rcfile", "init-file":
		return longFile
	case "login":
		return longLogin
	case "help":
		return longHelp
	case "version":
		return longVersion
	case "debug", "debugger", "dump-po-strings", "dump-strings", "pretty-print", "wordexp", "protected":
		return longRefused
	}
	return longUnknown
}

// isBashLong reports whether name is one of bash's long option names.
func isBashLong(name string) bool { return bashLong(name) != longUnknown }

// isFlag reports whether c is a flag bash takes as -c or +c at invocation,
// other than c, i, l, s, o, O and D, which Parse handles itself.
func isFlag(c rune) bool {
	switch c {
	case 'a', 'b', 'e', 'f', 'h', 'k', 'm', 'n', 'p', 'r', 't', 'u', 'v', 'x',
		'B', 'C', 'E', 'H', 'P', 'T':
		return true
	}
	return false
}

// isSetOption reports whether name is valid after -o or +o.
func isSetOption(name string) bool {
	switch name {
	case "allexport", "braceexpand", "emacs", "errexit", "errtrace", "functrace",
		"hashall", "histexpand", "history", "ignoreeof", "interactive-comments",
		"keyword", "monitor", "noclobber", "noexec", "noglob", "nolog", "notify",
		"nounset", "onecmd", "physical", "pipefail", "posix", "privileged",
		"verbose", "vi", "xtrace":
		return true
	}
	return false
}

// isShopt reports whether name is valid after -O or +O.
func isShopt(name string) bool {
	switch name {
	case "autocd", "assoc_expand_once", "cdable_vars", "cdspell", "checkhash",
		"checkjobs", "checkwinsize", "cmdhist", "compat31", "compat32",
		"compat40", "compat41", "compat42", "compat43", "compat44",
		"complete_fullquote", "direxpand", "dirspell", "dotglob", "execfail",
		"expand_aliases", "extdebug", "extglob", "extquote", "failglob",
		"force_fignore", "globasciiranges", "globskipdots", "globstar",
		"gnu_errfmt", "histappend", "histreedit", "histverify", "hostcomplete",
		"huponexit", "inherit_errexit", "interactive_comments", "lastpipe",
		"lithist", "localvar_inherit", "localvar_unset", "login_shell",
		"mailwarn", "no_empty_cmd_completion", "nocaseglob", "nocasematch",
		"noexpand_translation", "nullglob", "patsub_replacement", "progcomp",
		"progcomp_alias", "promptvars", "restricted_shell", "shift_verbose",
		"sourcepath", "varredir_close", "xpg_echo":
		return true
	}
	return false
}
