package policy

import (
	"errors"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/google/shlex"
	"mvdan.cc/sh/v3/syntax"
)

// A class is a set of command classes, one bit each.
type class uint16

// The command classes the walker and the rules use.
const (
	clsShell       class = 1 << iota // sh, bash, zsh ...
	clsInterpreter                   // python, perl, node ...
	clsReader                        // takes file operands to read
	clsWriter                        // writes or removes its operands
	clsLastWriter                    // writes its last operand (cp, ln ...)
	clsReadOnly                      // known not to write
	clsFilterFirst                   // its first operand is a pattern or program
	clsNoPaths                       // its operands are never paths
)

// classOf returns the classes of a command's base name. A switch, not a
// map, so that nothing is built at start-up: aar-exec runs in front of
// every command of a build.
func classOf(name string) class {
	switch name {
	case "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "fish", "rbash", "posh", "lksh", "pdksh",
		"oksh", "csh", "tcsh", "hush":
		return clsShell
	case "python", "python2", "python3", "pypy", "pypy3", "perl", "ruby", "node", "nodejs", "deno", "bun",
		"php", "lua", "luajit", "tclsh", "wish", "pwsh", "powershell", "osascript", "jshell", "irb", "R",
		"Rscript":
		return clsInterpreter
	case "awk", "gawk", "mawk", "nawk":
		return clsInterpreter | clsFilterFirst
	case "cat", "tac", "less", "more", "most", "head", "tail", "nl", "od", "xxd", "hexdump", "hd", "strings",
		"diff", "cmp", "comm", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum",
		"b2sum", "cksum", "sum", "file", "stat", "wc", "sort", "uniq", "fold", "fmt", "expand", "unexpand",
		"paste", "join", "column", "shasum", "look", "bat", "batcat", "getfacl", "lsattr", "type", "cut", "rev",
		"shuf":
		return clsReader | clsReadOnly
	case "base64", "base32", "basenc", "vi", "vim", "nvim", "view", "nano", "emacs", "code", "subl", "ed",
		"ex", "gpg", "age", "openssl", "ssh-keygen", "ssh-add", "source", ".", "tar", "zip", "unzip", "gzip",
		"gunzip", "zcat", "bzip2", "bzcat", "xz", "xzcat", "zstd", "zstdcat", "7z", "jar", "split", "csplit",
		"pr", "iconv", "dos2unix", "unix2dos", "sqlite3", "pygmentize", "highlight", "dd":
		return clsReader
	case "tee", "sponge", "mv", "shred", "truncate", "touch", "rm", "rmdir", "unlink", "mkdir", "chmod", "chown",
		"chgrp", "chattr", "setfacl":
		return clsReader | clsWriter
	case "scp", "rsync", "cp", "ln", "install":
		return clsReader | clsLastWriter
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "jq", "yq", "gojq", "zgrep", "zegrep", "zfgrep", "bzgrep",
		"xzgrep", "zstdgrep", "lzgrep":
		return clsFilterFirst | clsReadOnly
	case "jaq", "sed":
		return clsFilterFirst
	case "echo", "printf", ":", "true", "false", "test", "[", "which", "command", "hash", "help":
		return clsNoPaths | clsReadOnly
	case "[[", "alias", "unalias", "export", "unset", "set", "shopt", "declare", "local", "readonly", "kill":
		return clsNoPaths
	case "ls", "dir", "vdir", "tr", "pwd", "whoami", "id", "groups", "date", "cal", "env", "printenv",
		"du", "df", "tree", "basename", "dirname", "realpath", "readlink", "uname", "hostname", "arch",
		"nproc", "uptime", "ps", "pgrep", "top", "htop", "free", "vmstat", "seq", "yes", "sleep", "wait",
		"cd", "pushd", "popd", "dirs", "man", "info", "apropos", "whatis", "locale", "tty", "lscpu", "lsblk",
		"lsusb", "lspci", "getent", "nslookup", "dig", "host", "ping", "tracepath", "cloc", "tokei", "mount",
		"findmnt":
		return clsReadOnly
	}
	return 0
}

func isDownloader(name string) bool {
	switch name {
	case "curl", "wget", "fetch", "aria2c", "http", "https", "httpie", "xh", "curlie", "lwp-request", "lwp-download", "GET", "axel",
		"lynx", "links", "elinks", "w3m", "ftp", "tftp",
		// Raw network content is a download too: nc host 80 | sh.
		"nc", "ncat", "netcat", "socat", "telnet":
		return true
	}
	return false
}

// isDecoder reports whether a command turns encoded text into something a
// shell could run (base64 -d, xxd -r, gunzip, rev, tr ...).
func isDecoder(s *simple) bool {
	switch s.name {
	case "base64", "base32", "basenc":
		return hasFlag(s.argv, "d", "decode") || hasFlag(s.argv, "D", "")
	case "xxd":
		return hasFlag(s.argv, "r", "revert")
	case "gzip", "bzip2", "xz", "zstd":
		return hasFlag(s.argv, "d", "decompress")
	case "uudecode", "openssl", "gunzip", "zcat", "bzcat", "bunzip2", "xzcat", "unxz", "zstdcat", "unzstd", "rev", "tr":
		return true
	}
	return false
}

// unwrapped is a command with its wrappers taken off.
type unwrapped struct {
	argv  []field
	xargs bool
	stop  bool    // the wrapper runs no command (command -v, sudo -e)
	cwd   string  // a directory the wrapper changes to (env -C)
	named []field // programs options name (start-stop-daemon -a, -x): the first runs
	guess []field // stop: words after an option unwrap cannot read, any of which may start the program
	child bool    // a wrapper is a program: the command runs in its process
	reads []field // files a wrapper's options name for it to read (xargs -a)
	env   []field // NAME=value words env and sudo put in the command's environment
	vars  bool    // env -S split a string: env expands the ${NAME} in it
}

// optSpec describes a wrapper's options. getopt_long takes any unique
// prefix of a long option, so each getopt_long wrapper lists all of its
// long options: one not in the lists makes where the program starts unsure.
type optSpec struct {
	shortArg string // short options that take a value, e.g. "ugp"
	shortOpt string // short options whose value is attached only (xargs -i[R])
	longArg  string // long options that take a value, without dashes, space-separated
	longArg2 string // long options that take two values (bwrap --bind SRC DEST)
	long     string // long options that take none, or one after "=" only
	stop     string // short options that mean "run nothing"
	cwd      string // options (letters and long names) that set the command's working directory
	exact    bool   // not getopt_long: long options match exactly, unknown ones take no value
	posix    bool   // options end at the first operand (BSD getopt)
}

func (w *walker) wrapperSpec(name string) (optSpec, bool) {
	switch name {
	case "sudo", "doas", "pkexec", "run0":
		// One table for the four: sudo's, with the long options of pkexec
		// (--keep-cwd) and run0 (--setenv ...) that take no value too.
		return optSpec{shortArg: "ughpcCDrtUTRa", longArg: "auth-type login-class user group host prompt close-from chdir " +
			"role type other-user command-timeout chroot setenv unit property description slice nice machine",
			long: "askpass background bell preserve-env edit set-home help login remove-timestamp reset-timestamp list " +
				"non-interactive preserve-groups stdin shell version validate disable-internal-agent keep-cwd " +
				"slice-inherit no-ask-password",
			stop: "elV", cwd: "D chdir"}, true
	case "nice":
		return optSpec{shortArg: "n", longArg: "adjustment", long: "help version"}, true
	case "nohup", "builtin", "caffeinate":
		return optSpec{long: "help version"}, true
	case "unbuffer", "fakeroot", "chronic", "catchsegv", "nocache", "proxychains", "proxychains4", "torsocks", "tsocks":
		return optSpec{exact: true}, true
	case "setsid":
		return optSpec{long: "ctty fork wait help version"}, true
	case "systemd-run":
		return optSpec{shortArg: "pEuMHC", longArg: "unit property uid gid setenv working-directory description slice " +
			"machine host on-active on-boot on-startup on-unit-active on-unit-inactive on-calendar timer-property " +
			"path-property socket-property service-type nice expand-environment json job-mode background capsule",
			long: "collect help no-ask-password no-block on-clock-change on-timezone-change pipe pty pty-late quiet " +
				"remain-after-exit same-dir scope send-sighup shell slice-inherit user system version wait " +
				"ignore-failure no-pager",
			cwd: "working-directory"}, true
	case "exec":
		return optSpec{shortArg: "a", exact: true}, true
	case "command":
		return optSpec{stop: "vV", exact: true}, true
	case "time":
		return optSpec{shortArg: "fo", longArg: "format output", long: "append portability quiet verbose help version"}, true
	case "stdbuf":
		return optSpec{shortArg: "ioe", longArg: "input output error", long: "help version"}, true
	case "ionice":
		return optSpec{shortArg: "cnpPu", longArg: "class classdata pid pgid uid", long: "ignore help version"}, true
	case "timeout":
		return optSpec{shortArg: "sk", longArg: "signal kill-after", long: "foreground preserve-status verbose help version"}, true
	case "xargs":
		return optSpec{shortArg: "adEILnPs", shortOpt: "eil", longArg: "arg-file delimiter max-lines max-args max-procs " +
			"max-chars process-slot-var", long: "eof replace null exit interactive no-run-if-empty open-tty show-limits " +
			"verbose help version"}, true
	case "strace", "ltrace":
		return optSpec{shortArg: "abeEIoOpPsSuUX", longArg: "output trace signal", exact: true}, true
	case "chroot":
		return optSpec{longArg: "userspec groups", long: "skip-chdir help version"}, true
	case "unshare":
		return optSpec{shortArg: "RwSGc", longArg: "root wd setuid setgid boottime monotonic map-user map-users " +
			"map-group map-groups propagation setgroups load-interp",
			long: "cgroup fork ipc keep-caps kill-child map-auto map-current-user map-root-user mount mount-proc " +
				"mount-binfmt net pid time user uts help version", cwd: "w wd"}, true
	case "nsenter":
		return optSpec{shortArg: "tSGW", shortOpt: "muinpCUTrw", longArg: "target setuid setgid wdns env",
			long: "all cgroup ipc mount net pid time user uts root wd follow-context no-fork preserve-credentials " +
				"user-parent join-cgroup keep-caps help version", cwd: "w wd"}, true
	case "env":
		return optSpec{shortArg: "uCPS", longArg: "unset chdir split-string", long: "block-signal debug " +
			"default-signal ignore-environment ignore-signal list-signal-handling null help version",
			cwd: "C chdir"}, true
	case "flock":
		// flock LOCK -c CMD is read after the lock file, exactly (in unwrap).
		return optSpec{shortArg: "wE", longArg: "timeout wait conflict-exit-code",
			long: "close exclusive fcntl no-fork nonblock nb shared unlock verbose help version"}, true
	}
	return w.moreWrapperSpec(name)
}

// moreWrapperSpec is wrapperSpec for the tools that run a command after
// changing how it runs: scheduling, limits, personality, sandboxes,
// sessions, debuggers. Their own operands (chrt's priority, taskset's
// mask, faketime's time, setarch's arch) are taken off in unwrap.
func (w *walker) moreWrapperSpec(name string) (optSpec, bool) {
	switch name {
	case "chrt":
		return optSpec{shortArg: "TPD", longArg: "sched-runtime sched-period sched-deadline", long: "all-tasks batch " +
			"deadline fifo idle max other pid reset-on-fork rr verbose help version", stop: "pm"}, true
	case "taskset":
		return optSpec{long: "all-tasks cpu-list pid help version", stop: "p"}, true
	case "setpriv":
		return optSpec{longArg: "groups inh-caps ambient-caps bounding-set rgid egid regid ruid euid reuid securebits " +
			"pdeathsig selinux-label apparmor-profile landlock-access landlock-rule seccomp-filter ptracer",
			long: "clear-groups dump init-groups keep-groups nnp no-new-privs reset-env help version", stop: "d"}, true
	case "prlimit":
		// The resource options take their limits attached only (-n10).
		return optSpec{shortArg: "po", shortOpt: "cdefilmnqrstuvxy", longArg: "pid output",
			long: "as core cpu data fsize locks memlock msgqueue nice nofile noheadings nproc raw rss rtprio " +
				"rttime sigpending stack verbose help version"}, true
	case "setarch", "linux32", "linux64", "i386", "x86_64", "uname26":
		return optSpec{long: "32bit fdpic-funcptrs short-inode whole-seconds sticky-timeouts 3gb 4gb uname-2.6 " +
			"addr-no-randomize addr-compat-layout read-implies-exec mmap-page-zero list show verbose help version"}, true
	case "numactl":
		return optSpec{shortArg: "ipmNCPwLoSfMI", longArg: "interleave preferred membind cpunodebind cpubind physcpubind " +
			"preferred-many weighted-interleave length offset shm file shmmode shmid",
			long: "all localalloc huge hardware show touch strict dump dump-nodes version", stop: "sH"}, true
	case "eatmydata", "valgrind", "firejail":
		// valgrind and firejail take option values after "=" only.
		return optSpec{exact: true}, true
	case "faketime":
		return optSpec{shortArg: "p", longArg: "date-prog", exact: true}, true
	case "bwrap":
		return optSpec{longArg: "args argv0 userns userns2 pidns uid gid hostname chdir unsetenv lock-file sync-fd perms size " +
			"remount-ro proc dev tmpfs mqueue dir seccomp add-seccomp-fd exec-label file-label block-fd userns-block-fd info-fd " +
			"json-status-fd cap-add cap-drop overlay-src tmp-overlay ro-overlay",
			longArg2: "setenv bind bind-try dev-bind dev-bind-try ro-bind ro-bind-try file bind-data ro-bind-data symlink chmod",
			exact:    true, cwd: "chdir"}, true
	case "cgexec":
		return optSpec{shortArg: "g", long: "sticky"}, true
	case "xvfb-run":
		return optSpec{shortArg: "efnpsw", longArg: "error-file auth-file server-num xauth-protocol server-args wait",
			long: "auto-servernum auto-display help"}, true
	case "dbus-run-session":
		return optSpec{longArg: "config-file dbus-daemon", exact: true}, true
	case "dbus-launch":
		return optSpec{longArg: "autolaunch config-file", exact: true}, true
	case "ssh-agent":
		return optSpec{shortArg: "aEtPO", stop: "k", exact: true}, true
	case "cpulimit":
		return optSpec{shortArg: "pelcs", longArg: "pid exe path limit cpu signal", long: "verbose lazy " +
			"include-children help background quiet kill restore monitor-forks"}, true
	case "schroot":
		return optSpec{shortArg: "cudno", longArg: "chroot user directory session-name option config location shell",
			long: "all all-chroots all-sessions all-source-chroots begin-session run-session end-session " +
				"recover-session list info preserve-environment quiet verbose automatic-session force help version",
			stop: "lieV", cwd: "d directory"}, true
	case "screen":
		return optSpec{shortArg: "cehpStTs", stop: "rRxXlQ", exact: true}, true
	case "daemonize":
		return optSpec{shortArg: "ceopluE", exact: true}, true
	case "start-stop-daemon":
		return optSpec{shortArg: "pxnugsRacrdONPIk", longArg: "pid ppid pidfile exec name user group signal retry startas " +
			"chuid chroot chdir notify-timeout output nicelevel procsched iosched umask",
			long: "help stop start status version oknodo quiet test verbose background notify-await no-close " +
				"make-pidfile remove-pidfile", stop: "KTHV", cwd: "d chdir"}, true
	case "sg", "capsh":
		return optSpec{exact: true}, true
	}
	return optSpec{}, false
}

// unwrap takes wrappers off a command: sudo env nice nohup timeout command
// exec time xargs busybox ... so the rules see the program that runs.
func (w *walker) unwrap(argv []field, c ctx) unwrapped {
	u := unwrapped{argv: argv}
	for range maxUnwrap {
		if len(u.argv) == 0 {
			return u
		}
		name := progName(u.argv[0])
		switch name {
		case "busybox", "toybox":
			if len(u.argv) < 2 || strings.HasPrefix(u.argv[1].s, "-") {
				return u
			}
			u.argv = u.argv[1:]
			u.child = true
			continue
		}
		spec, ok := w.wrapperSpec(name)
		if !ok {
			return u
		}
		u.child = u.child || !inList("builtin command exec time", name)
		u.named = nil
		args, sure := wrapperOpts(name, spec, u.argv[1:], &u)
		if u.stop {
			return u
		}
		if !sure {
			// An unknown or ambiguous long option may take the next
			// word: any later word may start the program.
			u.stop, u.guess = true, args
			return u
		}
		if u.vars {
			args = w.expandBraces(args)
			u.vars = false
		}
		args, ok = wrapperOperands(name, u.argv, args, u.named)
		if !ok {
			u.stop = true
			return u
		}
		switch name {
		case "timeout":
			if len(args) > 0 {
				args = args[1:] // the duration
			}
		case "chroot":
			if len(args) > 0 {
				args = args[1:] // the new root
			}
		case "flock":
			if len(args) > 1 && (args[1].s == "-c" || args[1].s == "--command") {
				if len(args) > 2 {
					w.childString(args[2], nil, "flock -c", c)
				}
				u.stop = true
				return u
			}
			if len(args) > 0 {
				args = args[1:] // the lock file
			}
		case "xargs":
			u.xargs = true
			if len(args) == 0 {
				args = litFields("echo")
			}
		case "sudo", "doas", "pkexec", "run0":
			if len(args) == 0 && ((name == "sudo" || name == "doas") && hasFlag(u.argv, "s", "shell") ||
				name == "sudo" && hasFlag(u.argv, "i", "login")) {
				// sudo -s and sudo -i with no command: a shell that reads
				// its commands from stdin.
				args = litFields("sh")
			}
			if len(args) == 0 {
				u.stop = true
				return u
			}
		}
		u.argv = args
	}
	return u
}

// wrapperOpts takes a wrapper's options off args the way getopt_long
// reads them, notes in u a working directory or "runs nothing", and
// returns what follows. sure is false after a long option that is not
// in spec or is the prefix of more than one: the rest starts there.
func wrapperOpts(name string, spec optSpec, args []field, u *unwrapped) (rest []field, sure bool) {
	for len(args) > 0 && !u.stop {
		a := args[0].s
		switch {
		case a == "--":
			return args[1:], true
		case name == "env" && strings.Contains(a, "=") && !strings.HasPrefix(a, "-"):
			u.env = append(u.env, args[0])
			args = args[1:] // NAME=value
		case (name == "sudo" || name == "doas" || name == "run0") && isAssignment(a):
			u.env = append(u.env, args[0])
			args = args[1:] // sudo VAR=value command
		case (name == "env" || name == "sudo") && a == "-" && !args[0].dyn:
			// A mere - is -i to env. What sudo makes of it is not
			// certain: the word after it is taken for the program.
			args = args[1:]
		case mayVanish(args[0]) && len(args) > 1 && name != "xargs":
			// "$@" may be no word, or options: any later word may start
			// the program (timeout "$@" 5 rm -rf /). xargs keeps its
			// word as the program, judged with operands from stdin.
			return args, false
		case !strings.HasPrefix(a, "-") || a == "-":
			// A word only known at run time is the program, unless it
			// starts with a written - (--log-file="$log").
			return args, true
		case strings.HasPrefix(a, "--"):
			key, v, hasVal := strings.Cut(a[2:], "=")
			long, n := spec.resolveLong(key)
			if n < 0 {
				return args[1:], false
			}
			val := field{s: v, dyn: args[0].dyn}
			args = args[1:]
			if n == 1 && !hasVal && len(args) > 0 {
				val, args = args[0], args[1:]
			}
			if n == 2 {
				args = args[min(2, len(args)):]
			}
			if n > 0 || hasVal {
				args = wrapperOptValue(name, spec, long, val, args, u)
			}
		default:
			args = shortOpts(name, spec, args, u)
		}
	}
	return args, true
}

// shortOpts reads the bundle of short options in args[0]; one that
// takes a value ends it.
func shortOpts(name string, spec optSpec, args []field, u *unwrapped) []field {
	bundle, dyn := args[0].s[1:], args[0].dyn
	args = args[1:]
	for j := 0; j < len(bundle); j++ {
		ch := bundle[j : j+1]
		switch {
		case strings.Contains(spec.stop, ch):
			u.stop = true
			return args
		case strings.Contains(spec.shortOpt, ch):
			// -i[R]: the rest of the bundle is its value (nsenter -w/).
			if rest := bundle[j+1:]; rest != "" {
				return wrapperOptValue(name, spec, ch, field{s: rest, dyn: dyn}, args, u)
			}
			return args
		case !strings.Contains(spec.shortArg, ch):
			continue
		}
		val := field{s: bundle[j+1:], dyn: dyn}
		if val.s == "" && len(args) > 0 {
			val, args = args[0], args[1:]
		}
		return wrapperOptValue(name, spec, ch, val, args, u)
	}
	return args
}

// wrapperOptValue acts on an option's value: a working directory (env
// -C, sudo -D, systemd-run -p WorkingDirectory=), the program
// start-stop-daemon runs, or env -S's command line, which goes in front
// of the words left.
func wrapperOptValue(name string, spec optSpec, opt string, val field, args []field, u *unwrapped) []field {
	switch {
	case inList(spec.cwd, opt) && u.cwd != "" && !strings.HasPrefix(val.s, "/"):
		u.cwd += "/" + val.s // env -C / sudo -D usr: relative to the last one
	case inList(spec.cwd, opt):
		u.cwd = val.s
	case name == "xargs" && (opt == "a" || opt == "arg-file"):
		u.reads = append(u.reads, val) // the arguments come from this file
	case name == "env" && (opt == "S" || opt == "split-string"):
		u.vars = u.vars || strings.Contains(val.s, "${")
		return append(splitString(val.s), args...)
	case name == "start-stop-daemon" && (opt == "a" || opt == "startas"):
		u.named = append([]field{val}, u.named...) // it runs rather than --exec
	case name == "start-stop-daemon" && (opt == "x" || opt == "exec"):
		u.named = append(u.named, val)
	case name == "systemd-run" && (opt == "p" || opt == "property"):
		if dir, ok := strings.CutPrefix(val.s, "WorkingDirectory="); ok {
			u.cwd = strings.TrimPrefix(dir, "-") // "-" only says a missing one is fine
		}
	}
	return args
}

// resolveLong finds the long option key names the way getopt_long does:
// an exact match, else the one option it is a prefix of. n is how many
// values it takes, -1 when key is unknown or ambiguous.
func (s optSpec) resolveLong(key string) (name string, n int) {
	lists := [3]string{s.long, s.longArg, s.longArg2}
	for i, l := range lists {
		if inList(l, key) {
			return key, i
		}
	}
	if s.exact {
		return key, 0 // the tool's own parser: unknown ones are flags
	}
	n = -1
	for i, l := range lists {
		for l != "" {
			var opt string
			opt, l, _ = strings.Cut(l, " ")
			if key == "" || !strings.HasPrefix(opt, key) {
				continue
			}
			if n >= 0 {
				return key, -1 // ambiguous
			}
			name, n = opt, i
		}
	}
	return name, n
}

// wrapperOperands takes a wrapper's own operands off args, what is left
// after its options, and returns the command it runs; false when it runs
// none. all is the wrapper's whole argv.
func wrapperOperands(name string, all, args, named []field) ([]field, bool) {
	switch name {
	case "chrt":
		if len(args) > 0 && isNumber(args[0].s) {
			args = args[1:] // the priority
		}
	case "taskset", "faketime":
		if len(args) > 0 {
			args = args[1:] // the mask, the time
		}
	case "setarch":
		// setarch ARCH [options] [program]: the arch comes first.
		if len(args) > 0 && len(args) == len(all)-1 && !strings.HasPrefix(args[0].s, "-") {
			args = skipFlags(args[1:])
		}
		fallthrough
	case "linux32", "linux64", "i386", "x86_64", "uname26", "firejail":
		if len(args) == 0 {
			args = litFields("sh") // no program: a shell that reads stdin
		}
	case "sg":
		// sg [-] [group [-c] command]: the command is run by sh -c.
		if len(args) > 0 && args[0].s == "-" {
			args = args[1:]
		}
		if len(args) > 0 {
			args = args[1:] // the group
		}
		if len(args) > 0 && args[0].s == "-c" {
			args = args[1:]
		}
		if len(args) == 0 {
			return litFields("sh"), true
		}
		text, known := joinFields(args)
		return append(litFields("sh", "-c"), field{s: text, dyn: !known}), true
	case "capsh":
		// capsh ... -- ARGS runs bash ARGS (== re-runs capsh on the rest).
		for i, f := range all {
			if f.s == "--" {
				return append(litFields("bash"), all[i+1:]...), true
			}
		}
		return nil, false
	case "start-stop-daemon":
		// -x/--exec or -a/--startas is the program; the operands after
		// "--" are its arguments.
		if len(named) == 0 {
			return nil, false
		}
		return append(named[:1:1], args...), true
	}
	return args, true
}

// skipFlags drops leading options that take no value.
func skipFlags(args []field) []field {
	for len(args) > 0 && strings.HasPrefix(args[0].s, "-") && len(args[0].s) > 1 && args[0].s != "--" {
		args = args[1:]
	}
	if len(args) > 0 && args[0].s == "--" {
		args = args[1:]
	}
	return args
}

func isNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// inList reports whether key is one of the space-separated words of list.
func inList(list, key string) bool {
	for list != "" {
		var w string
		w, list, _ = strings.Cut(list, " ")
		if w == key {
			return true
		}
	}
	return false
}

// expandBraces expands the ${NAME} env -S leaves in the words it splits,
// from what the request set, else HOME and PWD; any other may be set in
// the environment, so is not known. It looks at the words after them too, which
// only adds scrutiny.
func (w *walker) expandBraces(args []field) []field {
	out := make([]field, len(args))
	for i, f := range args {
		s, rest := "", f.s
		for {
			before, after, ok := strings.Cut(rest, "${")
			name, tail, closed := strings.Cut(after, "}")
			if !ok || !closed || !isVarName(name) {
				s += rest
				break
			}
			v, known := w.lookup(name)
			if !known {
				v, f.dyn = dynMark, true
			}
			s, rest = s+before+v, tail
		}
		f.s = s
		out[i] = f
	}
	return out
}

func splitString(s string) []field {
	words, err := shlex.Split(s)
	if err != nil {
		return []field{{s: s + dynMark, dyn: true}}
	}
	return litFields(words...)
}

// expandsWordList reports whether a -W word list holds $ or a backquote,
// which compgen and complete expand when they run.
func expandsWordList(argv []field) bool {
	for i, f := range argv[1:] {
		if strings.HasPrefix(f.s, "-") && strings.HasSuffix(f.s, "W") && !strings.HasPrefix(f.s, "--") {
			if i+2 < len(argv) && (argv[i+2].dyn || strings.ContainsAny(argv[i+2].s, "$`")) {
				return true
			}
		}
	}
	return false
}

// hasFlag reports whether argv (after argv[0], before "--") has the short
// option ch in a bundle or the long option long.
func hasFlag(argv []field, ch, long string) bool {
	for _, f := range argv[1:] {
		a := f.s
		if a == "--" {
			return false
		}
		if long != "" && strings.HasPrefix(a, "--") {
			key, _, _ := strings.Cut(a[2:], "=")
			if key != "" && strings.HasPrefix(long, key) {
				return true
			}
			continue
		}
		if ch != "" && strings.HasPrefix(a, "-") && len(a) > 1 && !strings.HasPrefix(a, "--") && strings.Contains(a[1:], ch) {
			return true
		}
	}
	return false
}

// operands returns the arguments that are not options, honouring "--".
func operands(argv []field) []field {
	var out []field
	for i := 1; i < len(argv); i++ {
		a := argv[i].s
		if a == "--" {
			return append(out, argv[i+1:]...)
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 && !argv[i].dyn {
			continue
		}
		out = append(out, argv[i])
	}
	return out
}

// readNames returns the names read, mapfile, readarray and getopts
// (argv) set: their operands past the values of their options (read -p
// "$prompt" x, mapfile -u "$fd" a), which are no names; getopts sets its
// second word.
func readNames(argv []field) []field {
	var takes string // the options that take a value
	switch progName(argv[0]) {
	case "read":
		takes = "dinNptu" // and -a, whose value is a name
	case "mapfile", "readarray":
		takes = "dnOsuCc"
	case "getopts":
		return argv[min(2, len(argv)):min(3, len(argv))]
	}
	var out []field
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a.s == "--" {
			return append(out, argv[i+1:]...)
		}
		if !strings.HasPrefix(a.s, "-") || len(a.s) < 2 || a.dyn {
			out = append(out, a)
			continue
		}
		for j := 1; j < len(a.s); j++ {
			if c := a.s[j]; c == 'a' && takes != "dnOsuCc" || strings.IndexByte(takes, c) >= 0 {
				switch {
				case j+1 < len(a.s) && c == 'a':
					out = append(out, field{s: a.s[j+1:]}) // -aname
				case j+1 < len(a.s):
				case i+1 < len(argv):
					i++
					if c == 'a' {
						out = append(out, argv[i])
					}
				}
				break
			}
		}
	}
	return out
}

// procScript judges the known text of a process substitution that name
// runs (source <(echo ...)), and its other reading (field.guess).
func (w *walker) procScript(f field, name string) {
	if f.guess != nil {
		w.shellString(f.otherReading(), nil, name+" <(...)", ctx{})
	}
	w.script(*f.procText, name+" <(...)", ctx{})
}

// shellString judges a string that a shell will run as code.
func (w *walker) shellString(f field, args []field, via string, c ctx) {
	if f.guess != nil && f.known() {
		// eval "${CMD:-true} -rf /": CMD may hold any text. After the
		// text's own walk, so that what the other reading may set stays
		// beside what the text sets (eval "y=${Y:-echo}"; $y -rf /).
		defer w.shellString(f.otherReading(), args, via, c)
	}
	if !f.known() {
		w.unknownCode(f, args, via, c, false)
		return
	}
	if len(args) == 0 {
		w.script(f.s, via, c)
		return
	}
	// Positional parameters: sh -c '$0 -rf "$1"' rm /
	defer w.leave(w.subshell())
	w.scope.setPositional(args, true)
	w.script(f.s, via, c)
}

// unknownCode judges shell code f that is not known in whole: what can be
// seen of it (see partlyKnown), and the request then holds code that
// cannot be known (an ask in the approval modes). lenient is for text
// that may be another language's, not refused where it parses nowhere.
func (w *walker) unknownCode(f field, args []field, via string, c ctx, lenient bool) {
	if w.a.dynCode == "" {
		w.a.dynCode = via + " " + strings.ReplaceAll(f.s, dynMark, "…")
	}
	if strings.Trim(f.s, dynMark+" \t\n;") != "" {
		w.partlyKnown(f.s, args, via, c, lenient)
	}
}

// partlyKnown judges shell text with unknown parts for what can be seen
// of it: eval "$y; rm -rf /" removes / whatever $y holds. It is walked
// twice, each time in a scope thrown away after: once with the unknown
// parts empty, which is a run bash may make, and once with each unknown
// part an unset variable, which the walk takes as unknown ($y rm -rf /
// meets the dynamic-command rule). The unknown parts may open or close a
// quote, so text that does not parse is judged by lines, and a line by
// pieces between ;, && and ||; text that parses neither way, nor with an
// operator or a bare name for its unknown parts, is refused then, as
// known text that does not parse is. Each walk walks the text nested in it
// twice again: a budget of bytes bounds that, and beyond it the request
// is refused.
//
// What the text sets in this shell (args is nil) it may or may not set
// (x=/; eval "$y x=/tmp"; rm -rf "$x" removes / when $y is true, and
// x=tmp; eval "x=/ $y"; rm -rf "$x" when it is empty): the variables keep
// their values from before, with what each walk set as alternatives (see
// alts.go). Functions it defines the same way in both walks are kept, so
// that their calls are judged; one it defines in one walk only, or
// differently, is refused, and so is an alias. Lenient text that parses
// in no way is not refused.
func (w *walker) partlyKnown(text string, args []field, via string, c ctx, lenient bool) {
	if w.rewalking > 0 && !w.chargeRewalk(2*len(text)) {
		return
	}
	if w.partlyBytes += 2 * len(text); w.partlyBytes > maxPartlyKnown {
		w.fail("more than %d MiB of shell text that cannot be known in whole to judge (%s)", maxPartlyKnown>>20, via)
		return
	}
	var defined []*scope // by the walks that parsed the text whole
	var walked [2]*scope
	for i, stand := range [...]string{"", "${" + unknownVar + "}"} {
		inner, err := w.walkStandIn(text, stand, args, via, c)
		if err == nil {
			defined = append(defined, inner)
		}
		walked[i] = inner
	}
	if len(defined) == 0 && !w.parsesWithOthers(text, via, c) && !lenient {
		// bash may run it all the same: sh -c `'r -c `'rm -rf /' does.
		w.fail("cannot parse the string given to %s, with its unknown parts empty or not", via)
		return
	}
	if len(args) == 0 {
		w.keepDefinitions(defined, via)
		w.keepValues(walked[:])
	}
}

// parsesWithOthers walks partly known text that parses neither empty nor
// with the stand-in variable with other stand-ins, each in a scope thrown
// away after, until one parses, and reports whether one did: an operator
// (eval "[[ $a $op $b ]]", eval "(( $x $op $y ))", a reason to use eval),
// and a bare name (eval 'export '"$n"'="${'"$n"':+x}"').
func (w *walker) parsesWithOthers(text, via string, c ctx) bool {
	for _, stand := range [...]string{"==", "+1", unknownVar} {
		if _, err := w.walkStandIn(text, stand, nil, via, c); err == nil {
			return true
		}
	}
	return false
}

// walkStandIn walks partly known text with each unknown part stand, and
// with args as $0, $1 ... when there are any, in a scope thrown away
// after, which it returns with the error that kept the text from parsing
// as a whole, if any.
func (w *walker) walkStandIn(text, stand string, args []field, via string, c ctx) (*scope, error) {
	outer := w.subshell()
	defer w.leave(outer)
	if len(args) > 0 {
		w.scope.setPositional(args, true)
	}
	return w.scope, w.linesThatParse(strings.ReplaceAll(text, dynMark, stand), via, c, false, true)
}

// maxPartlyKnown bounds the bytes of partly known text walked for one
// request, nested walks included: twice the largest script, and more.
const maxPartlyKnown = 3 * MaxScriptSize

// keepDefinitions keeps the functions that the walks of partly known
// text which parsed it whole defined (the last one's, with the unknown
// parts unknown, when both did). Both must define the same functions
// alike, their bodies the same but for the stand-in: else, and for an
// alias, the request is refused.
func (w *walker) keepDefinitions(walks []*scope, via string) {
	for _, sc := range walks {
		for name := range sc.aliases {
			w.fail("text given to %s that cannot be known in whole makes the alias %s, whose uses the policy cannot follow", via, name)
			return
		}
	}
	if len(walks) == 0 {
		return
	}
	last := walks[len(walks)-1]
	if len(walks) == 1 {
		// The other walk's text did not parse: bash may stop there and
		// never define it. A function that exists already is not
		// replaced on that guess (g() { rm -rf "$1"; }; eval "${y}x=(a
		// b); g() { echo; }"; g /).
		for name, body := range last.funcs {
			// The same text again (the loop that defines it walked a
			// second time) replaces nothing.
			if cur := w.scope.fn(name); cur != nil && w.bodyText(cur) != w.bodyText(body) {
				w.fail("text given to %s that cannot be known in whole may or may not redefine the function %s; the policy cannot follow its calls", via, name)
				return
			}
		}
	}
	if len(walks) == 2 {
		stand := "${" + unknownVar + "}"
		for _, sc := range walks {
			for name := range sc.funcs {
				a, b := walks[0].funcs[name], walks[1].funcs[name]
				if a == nil || b == nil || w.bodyText(a) != strings.ReplaceAll(w.bodyText(b), stand, "") {
					w.fail("text given to %s that cannot be known in whole may or may not define the function %s, or define it otherwise; the policy cannot follow its calls", via, name)
					return
				}
			}
		}
	}
	for name, body := range last.funcs {
		if w.scope.funcs == nil {
			w.scope.funcs = map[string]*syntax.Stmt{}
		}
		w.scope.funcs[name] = body
	}
}

// bodyText is the text a function body was parsed from.
func (w *walker) bodyText(body *syntax.Stmt) string {
	src := w.funcSrc[body]
	from, to := body.Pos().Offset(), body.End().Offset()
	if from > to || to > uint(len(src)) {
		return "\x00?" // not located: never equal to another
	}
	return src[from:to]
}

// shellCode judges the code a shell runs with -c: the words after it are
// $0, $1 and on, and without them there are no $1 and on (sh -c 'rm
// $@-rf /' removes /) and $0 is the name the shell was run by, which
// exec -a may have chosen.
func (w *walker) shellCode(code field, rest []field, s *simple) {
	if len(rest) == 0 {
		rest = []field{{s: dynMark, dyn: true}}
	}
	// The code's commands read the shell's stdin (echo 'rm -rf /' | bash
	// -c sh).
	c := ctx{stdinDL: s.c.stdinDL, stdinDec: s.c.stdinDec, stdinPipe: s.c.stdinPipe,
		stdinText: s.c.stdinText, stdinKnown: s.c.stdinKnown, stdinOthers: s.c.stdinOthers}
	w.shellString(code, rest, s.name+" -c", c)
}

// vanishedCode finds the code a shell runs when the unknown parts of its
// words are empty: "$@" is no word then, and -e$y is -e (sh "$@" -c
// 'rm -rf /' and sh -e$y -c 'rm -rf /' are sh -c 'rm -rf /'). The code
// and the words after it are returned as written, and nil when that code
// is the one found as written.
func vanishedCode(argv []field, code *field) (*field, []field) {
	var empty, kept []field // kept[i] is what empty[i] is written as
	for i, f := range argv {
		if !f.dyn {
			if kept != nil {
				empty, kept = append(empty, f), append(kept, f)
			}
			continue
		}
		if kept == nil {
			empty, kept = append(empty, argv[:i]...), append(kept, argv[:i]...)
		}
		if v := strings.ReplaceAll(f.s, dynMark, ""); v != "" {
			empty, kept = append(empty, field{s: v}), append(kept, f)
		}
	}
	if kept == nil {
		return nil, nil
	}
	alt, _, _, _ := shellArgs(empty)
	if alt == nil {
		return nil, nil
	}
	i := -1 // alt points into empty
	for j := range empty {
		if &empty[j] == alt {
			i = j
		}
	}
	if i < 0 || code != nil && kept[i].s == code.s && kept[i].dyn == code.dyn {
		return nil, nil
	}
	return &kept[i], kept[i+1:]
}

// stdinScript judges the code a shell reads from its stdin, when that is
// known in whole or in part (sh <<EOF with an unknown $y in the body).
// child: another process runs it, so what it sets stays there.
func (w *walker) stdinScript(c ctx, via string, child bool) {
	if slices.Contains(c.stdinOthers, tooManyTexts) {
		w.fail("%s may read more than %d texts; the policy cannot follow them all", via, maxOlder+1)
		return
	}
	w.runTexts(c.stdinText, c.stdinKnown, c.stdinOthers, via, child)
}

// runTexts judges code a shell runs, from a file or its stdin, that is
// last or may be any of others instead: each as code that may not run, so
// that none hides the others' values (. ./x.sh may leave those of any). A
// text known in part holds dynMark; one of which nothing is known is
// judged as a file the request did not write, by nothing. child: another
// process runs it, so what it sets stays there.
func (w *walker) runTexts(last string, known bool, others []string, via string, child bool) {
	judge := func(text string) {
		switch {
		case known && !strings.Contains(text, dynMark):
			if child {
				w.childScript(text, via, ctx{})
			} else {
				w.script(text, via, ctx{})
			}
		case text == "":
		case child:
			w.childString(field{s: text, dyn: true}, nil, via, ctx{})
		default:
			w.shellString(field{s: text, dyn: true}, nil, via, ctx{})
		}
	}
	if len(others) == 0 {
		judge(last)
		return
	}
	w.maybe(func() { judge(last) })
	for _, t := range others {
		w.maybe(func() { judge(t) })
	}
}

// setArgs follows set: the positional parameters it sets start after --
// or -, or at the first word that is not an option (set rm -fr ~; "$@"
// runs rm). A set that fails (an option bash does not have, an -o name it
// does not know) or sets none (set -, set -x) leaves them. A word that
// may vanish ($x, "$@") where options go is read as gone (set $x keeps
// them); another unknown word there may be anything: the parameters are
// it and the words after it, as written.
// Each o of a bundle takes the next word as its name, unless that starts
// with - or + (set -o then lists the options and goes on).
func (w *walker) setArgs(args []field) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case mayVanish(a):
			// set $x a rm -rf /: with x empty, $1 is a. The words after
			// it are read as if it were not there.
			continue
		case !a.known():
			w.scope.setPositional(append([]field{{}}, args[i:]...), false)
			return
		case a.s == "--":
			w.scope.setPositional(append([]field{{}}, args[i+1:]...), false)
			return
		case a.s == "-":
			if i+1 < len(args) {
				w.scope.setPositional(append([]field{{}}, args[i+1:]...), false)
			}
			return
		case len(a.s) > 1 && (a.s[0] == '-' || a.s[0] == '+'):
			if strings.Trim(a.s[1:], setFlags) != "" {
				return // bash refuses the option and sets nothing
			}
			for range strings.Count(a.s[1:], "o") {
				if i+1 == len(args) {
					return // set -o alone lists the options
				}
				name := args[i+1]
				if name.known() && (strings.HasPrefix(name.s, "-") || strings.HasPrefix(name.s, "+")) {
					break
				}
				if name.known() && !slices.Contains(setOptionNames, name.s) {
					return // a name bash does not know: set fails
				}
				i++ // a name, or an unknown word taken for one
			}
		default:
			w.scope.setPositional(append([]field{{}}, args[i:]...), false)
			return
		}
	}
}

// shift follows shift [n]: the positional parameters lose their first n
// (f() { shift; "$@"; }; f x rm -rf / runs rm). A count bash refuses, or
// one past their end, leaves them; an unknown count or unknown
// parameters leave them unknown.
func (w *walker) shift(args []field) {
	n := 1
	if len(args) > 0 && args[0].s == "--" {
		args = args[1:]
	}
	if len(args) > 0 && !mayVanish(args[0]) {
		v, err := strconv.Atoi(strings.TrimSpace(args[0].s))
		if !args[0].known() || err != nil {
			w.forgetPositional()
			return
		}
		n = v
	}
	params, known := w.scope.getArray("@")
	switch {
	case !known:
		w.forgetPositional()
	case n < 0 || n > len(params):
		// bash refuses: nothing moves.
	case n > 0:
		zero, _ := w.scope.get("0")
		w.scope.setPositional(append([]field{zero}, params[n:]...), true)
	}
}

// forgetPositional marks $1 to $9 and $@ unknown.
func (w *walker) forgetPositional() {
	unknown := field{s: dynMark, dyn: true}
	for d := 1; d <= 9; d++ {
		w.scope.set(string(rune('0'+d)), unknown)
	}
	w.scope.setArray("@", nil)
}

// setFlags are the option letters of bash's set.
const setFlags = "abefhkmnoprstuvxBCEHPT"

// setOptionNames are the names set -o takes.
var setOptionNames = []string{"allexport", "braceexpand", "emacs", "errexit", "errtrace", "functrace",
	"hashall", "histexpand", "history", "ignoreeof", "interactive-comments", "keyword", "monitor",
	"noclobber", "noexec", "noglob", "nolog", "notify", "nounset", "onecmd", "physical", "pipefail",
	"posix", "privileged", "verbose", "vi", "xtrace"}

// mayVanish reports whether f may expand to no word or an empty one: all
// of it is unknown parts that may be empty ("$@", $y, $(cmd)).
func mayVanish(f field) bool {
	return f.emptyable && !f.opaque && strings.Trim(f.s, dynMark) == ""
}

// unknownVar is the variable that stands for an unknown part of shell
// text. Code may set it; the walk with the unknown parts empty does not
// depend on it.
const unknownVar = "__aar_exec_unknown"

// childString judges a string another shell process runs: what it sets
// and where it cd's stay in that process.
func (w *walker) childString(f field, args []field, via string, c ctx) {
	defer w.asChild()()
	w.shellString(f, args, via, c)
}

// asChild sets the walk up for code another process's shell runs, until
// what it returns is called: a subshell of its own, none of this shell's
// guards (see withoutGuards), and sh, which may be dash, for the shell.
func (w *walker) asChild() (restore func()) {
	outer := w.subshell()
	endGuards, endArith := w.withoutGuards(), w.withArith(false)
	return func() {
		endArith()
		endGuards()
		w.leave(outer)
	}
}

// withArith sets whether the code walked next runs in a shell with (( and
// [[, and returns what puts it back.
func (w *walker) withArith(arith bool) (restore func()) {
	saved := w.arith
	w.arith = arith
	return func() { w.arith = saved }
}

// childCommand judges a command a program runs (find -exec, watch -x):
// a builtin such as cd changes nothing in this shell.
func (w *walker) childCommand(argv []field, c ctx, via string) {
	defer w.leave(w.subshell())
	w.command(argv, c, via)
}

// childScript is childString for text known to be static.
func (w *walker) childScript(src, via string, c ctx) {
	defer w.leave(w.subshell())
	defer w.withoutGuards()()
	w.script(src, via, c)
}

// onlyOnExit reports whether the signals of a trap are all EXIT: its code
// runs when the shell ends, after every command it could mislead.
// A trap is code the shell runs when a signal comes, or on EXIT.
type trap struct {
	sig  string // EXIT, HUP, ..., or dynMark for a name the walk cannot know
	code field
}

// noteTraps records the traps trap's operands set. A reset (trap - SIG,
// trap ” SIG, trap SIG) forgets a trap only where it surely runs as the
// walk took it: outside code that may not run and function calls, with no
// variable holding other values (trap - $s, a function with another body
// that resets, $c - EXIT). Elsewhere it forgets none, and judgeTraps
// judges every trap set at the end, with the values then.
func (w *walker) noteTraps(ops []field) {
	if len(ops) == 0 {
		return
	}
	code, sigs := ops[0], ops[1:]
	reset := len(ops) == 1 || code.known() && (code.s == "-" || code.s == "")
	if len(ops) == 1 {
		sigs = ops
	}
	for _, f := range sigs {
		sig := dynMark
		if f.known() {
			sig = strings.TrimPrefix(strings.ToUpper(f.s), "SIG")
			if sig == "0" {
				sig = "EXIT"
			}
		}
		if reset {
			if sig != dynMark && w.maybes == 0 && len(w.funcs) == 0 && w.rewalking == 0 && w.altGen == 0 {
				w.traps = slices.DeleteFunc(w.traps, func(t trap) bool { return t.sig == sig })
			}
			continue
		}
		t := trap{sig, code}
		if !slices.ContainsFunc(w.traps, func(u trap) bool { return u.sig == t.sig && sameField(u.code, t.code) }) {
			w.traps = append(w.traps, t)
		}
	}
}

// judgeExitTraps judges, where the script may exit (exit), the code of
// the EXIT traps set, with the values there: trap 'rm -rf "$x"' EXIT; x=/;
// [ -n "$y" ] || exit; x=/tmp/a.
func (w *walker) judgeExitTraps() {
	// Inside a statement judged again, the exit was judged where it was
	// walked; and with nothing set since the last exit judged, it would
	// judge alike (a function of many exits called many times).
	if w.inTrap || w.rewalking > 0 || len(w.traps) == 0 || w.scope.loop != nil && w.scope.loop.sets == w.exitSets {
		return
	}
	if w.scope.loop != nil {
		w.exitSets = w.scope.loop.sets
	}
	// Judged again, under the budget of what is (a function a trap
	// calls, at each of many exits, counts its body).
	w.rewalking++
	w.runTraps(w.traps, func(t trap) bool {
		return (t.sig == "EXIT" || t.sig == dynMark) && w.chargeRewalk(len(t.code.s))
	})
	w.rewalking--
}

// runTraps judges the code of each trap of ts that run accepts (nil: all),
// unless trap code is being judged already.
func (w *walker) runTraps(ts []trap, run func(trap) bool) {
	if w.inTrap {
		return
	}
	w.inTrap = true
	for _, t := range ts {
		if w.a.fatal == "" && (run == nil || run(t)) {
			w.childString(t.code, nil, "trap on "+t.sig, ctx{})
		}
	}
	w.inTrap = false
}

// ownTraps walks code whose traps are its own (a subshell, a function's
// definition): those it sets are judged at its end, with its values, and
// what it sets or resets is gone after it.
func (w *walker) ownTraps(walk func()) {
	saved, execs := w.traps, w.execs
	w.traps = slices.Clone(saved)
	walk()
	own := slices.DeleteFunc(w.traps, func(t trap) bool { return slices.Contains(saved, t) })
	if len(own) > 0 && w.execs != execs {
		// An exec inside set descriptors that the end of a block put
		// back in the walk, but bash's subshell may exit first and run
		// the traps with them ({ trap ... EXIT; exec 3>&1; } 3>/dev/null).
		fds := w.fds
		for i := 1; i < len(w.fds); i++ {
			w.fds[i] = toAnywhere
		}
		defer func() { w.fds = fds }()
	}
	w.runTraps(own, nil)
	w.traps = saved
}

// judgeTraps judges, once the script is walked, the code of the traps it
// left set: trap 'rm -rf "$x"' EXIT; x=/ removes / as the shell exits, and
// a signal may come then as well as earlier.
func (w *walker) judgeTraps() {
	traps := w.traps
	w.traps = nil // a trap set inside one is not judged again
	w.runTraps(traps, nil)
	w.inTrap = true // the walk is over: what comes after judges no trap
	if w.a.fatal != "" {
		return
	}
	if !w.p.retainCmds {
		w.release(w.a.cmds)
		w.p.flush(w.a)
	}
}

func onlyOnExit(sigs []field) bool {
	for _, f := range sigs {
		if !f.known() || !strings.EqualFold(f.s, "EXIT") && f.s != "0" {
			return false
		}
	}
	return len(sigs) > 0
}

// shellArgs finds what a shell invocation runs: the -c string, a script
// file, or its stdin.
func shellArgs(argv []field) (code *field, rest []field, script *field, stdin bool) {
	cflag := false
	i := 1
	for ; i < len(argv); i++ {
		a := argv[i].s
		if a == "--" || a == "-" {
			i++
			break
		}
		if argv[i].dyn {
			// -$@c, -c$x, or $opt: it may be -c, so a word after it may be
			// code (bashdiff: sh -$@c 'rm -rf /'). A word alone, or one a
			// download or decoder made, stays the script, for the rules
			// that judge where a script came from. After -c, it is taken
			// as the code: sh -c "$cmd" sh.
			if !cflag && (strings.HasPrefix(a, "-") || strings.HasPrefix(a, dynMark)) && i+1 < len(argv) && !argv[i].dl && !argv[i].dec {
				cflag = true
				i++
			}
			break
		}
		if !(strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+")) || len(a) < 2 {
			break
		}
		if strings.HasPrefix(a, "--") {
			if a == "--rcfile" || a == "--init-file" {
				i++
			}
			if a == "--command" { // fish
				cflag = true
			}
			continue
		}
		if strings.ContainsAny(a[1:], "oO") && i+1 < len(argv) {
			i++ // -o pipefail
		}
		if a[0] == '-' && strings.Contains(a[1:], "c") {
			cflag = true
		}
		if a[0] == '-' && strings.Contains(a[1:], "s") {
			stdin = true
		}
	}
	ops := argv[min(i, len(argv)):]
	switch {
	case cflag && len(ops) > 0:
		return &ops[0], ops[1:], nil, false
	case cflag:
		return nil, nil, nil, false
	case stdin || len(ops) == 0:
		return nil, nil, nil, true
	}
	return nil, nil, &ops[0], false
}

// interpreterReadsStdin reports whether python, perl, node ... will read
// their program from stdin.
func interpreterReadsStdin(s *simple) bool {
	for i := 1; i < len(s.argv); i++ {
		a := s.argv[i].s
		if a == "-" {
			return true
		}
		if !strings.HasPrefix(a, "-") || s.argv[i].dyn {
			return false // a script file
		}
		switch a {
		case "-c", "-e", "-E", "-m", "-r", "-Command", "-command", "-File", "-file", "--eval", "--print", "-p", "-f":
			return false
		}
	}
	return true
}

// declareWords applies the NAME=value operands of a declaration builtin,
// local ones when local, which start unset when fresh (see declOpts).
func (w *walker) declareWords(words []field, local, fresh bool) {
	for _, f := range words {
		k, v, ok := strings.Cut(f.s, "=")
		if !ok && local && isVarName(k) && !f.dyn {
			if fresh {
				w.bareLocal(k) // builtin local x
			} else {
				w.scope.markLocal(k)
			}
			continue
		}
		if !ok || !isVarName(k) {
			switch {
			case strings.Contains(k, dynMark) && ok:
				w.setUnknownName(k, field{s: v, dyn: strings.Contains(v, dynMark), dl: f.dl, dec: f.dec, emptyable: f.emptyable}) // export "$n=/"
			case strings.Contains(k, dynMark):
				// export "$line", local "$1": it may hold x=/, or make a
				// new, unset local x.
				w.setUnknownName(anyNameIn(k), anyValue())
			case ok && !w.declareElement(k, field{s: v, dyn: strings.Contains(v, dynMark), dl: f.dl, dec: f.dec}, local, fresh):
				w.scope.forgetElement(k)
			}
			continue
		}
		w.scope.forgetElement(k)
		if local {
			w.scope.markLocal(k)
		}
		if strings.HasPrefix(v, "~") {
			v = w.tilde(v) // bash expands x=~ in a declaration's operands
		}
		w.scope.set(k, field{s: v, dyn: f.dyn, dl: f.dl, dec: f.dec, guess: valueGuess(f, k)})
	}
}

// setElementNamed sets the element that name, a builtin's operand,
// names (read 'x[1]', printf -v 'x[0]'), and reports whether it names
// one.
func (w *walker) setElementNamed(name string, v field) bool {
	base, sub, ok := strings.Cut(name, "[")
	sub, closed := strings.CutSuffix(sub, "]")
	if !ok || !closed || !isVarName(base) {
		return false
	}
	n, known := plainIndex(sub)
	w.assignElement(base, n, known, v, false)
	return true
}

// declareElement applies an operand NAME[sub]=v or NAME+=v of a
// declaration builtin, k being what comes before the =, and reports
// whether k was one. Its subscript is text already expanded, which bash
// reads as arithmetic or a key: known here only when plain (0, 12).
func (w *walker) declareElement(k string, v field, local, fresh bool) bool {
	k, app := strings.CutSuffix(k, "+")
	name, sub, hasSub := strings.Cut(k, "[")
	sub, closed := strings.CutSuffix(sub, "]")
	if !isVarName(name) || hasSub && !closed || !hasSub && !app {
		return false
	}
	switch {
	case local && fresh:
		w.bareLocal(name) // local x[1]=a, local x+=a: a new x
	case local:
		w.scope.markLocal(name)
	}
	if hasSub {
		n, known := plainIndex(sub)
		w.assignElement(name, n, known, v, app) // as setElementNamed, and +=
		return true
	}
	old, ok := w.scope.get(name)
	if !ok {
		old = field{s: dynMark, dyn: true}
	}
	v = appended(old, v)
	w.scope.set(name, v)
	w.scope.setElement(name, v)
	return true
}

// valueGuess returns the other reading (field.guess) of the value of the
// word f, a NAME=value operand of name k (export "x=${Y:-a}"), or nil.
func valueGuess(f field, k string) *string {
	if f.guess == nil {
		return nil
	}
	if gk, gv, ok := strings.Cut(*f.guess, "="); ok && gk == k {
		return &gv
	}
	return anyText() // the name is the guess's too: declare ${Y:-x}=a
}

// isAssignment reports whether a word is NAME=value.
func isAssignment(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	return ok && isVarName(name)
}

// isVarName reports whether s is a shell variable name.
func isVarName(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) || i == 0 && '0' <= s[i] && s[i] <= '9' {
			return false
		}
	}
	return s != ""
}

// shellHooks judges the variables a starting shell runs as code:
// PROMPT_COMMAND before each prompt of bash -i, and the prompts, whose
// $( ) bash expands (PS4 with set -x, PS0-PS2 when interactive).
func (w *walker) shellHooks(s *simple) {
	if v, ok := w.scope.get("PROMPT_COMMAND"); ok && v.s != "" {
		w.shellString(v, nil, s.name+" PROMPT_COMMAND", ctx{})
	}
	for _, name := range [...]string{"PS0", "PS1", "PS2", "PS3", "PS4"} {
		if v, ok := w.scope.get(name); ok && strings.ContainsAny(v.s, "$`") {
			w.prompt(v.s, s.name+" "+name)
		}
	}
	// bash -O lastpipe, or BASHOPTS=lastpipe in its environment: the
	// child runs the last stage of its pipelines in itself (see stage).
	if v, ok := w.scope.get("BASHOPTS"); ok && (v.dyn || strings.Contains(v.s, "lastpipe")) {
		w.scope.lastpipe = true
	}
	for i, a := range s.argv[1:] {
		if (a.s == "-O" || a.s == "+O") && i+2 < len(s.argv) {
			if o := s.argv[i+2]; o.dyn || strings.Contains(o.s, "lastpipe") {
				w.scope.lastpipe = a.s == "-O" || o.dyn
			}
		}
	}
}

// shopt follows lastpipe: -s turns it on, -u off, and an option the walk
// cannot read may be it (shopt -s $opt).
func (w *walker) shopt(args []field) {
	on := true
	for _, a := range args {
		switch {
		case a.s == "-s" || a.s == "-u":
			on = a.s == "-s"
		case a.dyn:
			w.scope.lastpipe = true
		case a.s == "lastpipe":
			w.scope.lastpipe = on
		case on && strings.Contains(a.s, "cdable_vars"):
			// cd NAME then goes to $NAME when there is no directory NAME.
			w.fail("shopt -s cdable_vars: cd may go to a variable's value; cd to the value itself")
		case strings.Contains(a.s, "lastpipe"):
			w.scope.lastpipe = true
		}
	}
}

// prompt judges the substitutions in a prompt, which bash expands as in
// double quotes each time it prints it.
func (w *walker) prompt(text, via string) {
	if w.nestedParser == nil {
		w.nestedParser = w.p.parser()
	}
	wd, err := w.nestedParser.Document(strings.NewReader(text))
	if err != nil {
		w.fail("cannot parse %s as a prompt: %v", via, err)
		return
	}
	w.nested(wd)
}

// subscriptRuns reports whether a variable name given to a builtin holds
// an array subscript with a command in it: bash evaluates the subscript
// when the builtin runs (read 'a[$(cmd)]', declare, let, printf -v, [[ -v ]]).
// Only a name right before the [ makes a subscript, and only code before
// its ] runs: "- [x] ran `make`" and "[$(date)] done" are plain text.
func subscriptRuns(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '[' {
			continue
		}
		j := i
		for j > 0 && isNameByte(s[j-1]) {
			j--
		}
		if !isVarName(s[j:i]) {
			continue
		}
		sub := s[i:]
		if end := strings.IndexByte(sub, ']'); end >= 0 {
			sub = sub[:end]
		}
		if strings.Contains(sub, "$(") || strings.Contains(sub, "`") {
			return true
		}
	}
	return false
}

func isNameByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// takesNames reports whether the builtin name takes variable names,
// subscripts included, as operands. A switch, not a list: it is asked of
// every command.
func takesNames(name string) bool {
	switch name {
	case "read", "declare", "typeset", "local", "export", "readonly", "let", "printf",
		"unset", "mapfile", "readarray", "getopts", "wait", "test", "[":
		return true
	}
	return false
}

// special handles the commands that run other code or change state the
// walk depends on.
func (w *walker) special(s *simple) {
	c := s.c
	if takesNames(s.name) {
		for _, a := range nameOperands(s.name, s.argv) {
			if subscriptRuns(a.s) {
				w.fail("%s evaluates the array subscript in %q when it runs, which the policy cannot follow; compute the index first", s.name, a.s)
				return
			}
		}
	}
	w.builtinsOff = w.builtinsOff || s.name == "enable"
	switch {
	case s.name == "fc" && !hasFlag(s.argv, "l", ""):
		// fc -s re-runs history; fc and fc -e run an editor ($FCEDIT) on it.
		w.fail("fc runs commands from the history, which the policy cannot see; run them directly")
	case (s.name == "compgen" || s.name == "complete") && (hasFlag(s.argv, "C", "") || expandsWordList(s.argv)):
		w.fail("%s -C runs a command, and -W expands its word list, where the policy cannot follow; run the command directly", s.name)
	case s.name == "hash" && hasFlag(s.argv, "p", ""):
		w.fail("hash -p makes a name run another program, which the policy cannot follow; call the program by its own name")
	case s.name == "enable" && hasFlag(s.argv, "f", ""):
		w.fail("enable -f loads a builtin from a shared object, which the policy cannot see")
	case s.is(clsShell):
		// A child shell: its hooks, options and code change nothing here.
		defer w.leave(w.subshell())
		defer w.withoutGuards()()
		defer w.withArith(hasArith(s.name))()
		w.shellHooks(s)
		w.shellStartupFiles(s)
		code, rest, script, stdin := shellArgs(s.argv)
		if alt, altRest := vanishedCode(s.argv, code); alt != nil {
			w.shellCode(*alt, altRest, s)
		}
		switch {
		case code != nil:
			w.shellCode(*code, rest, s)
			if !code.known() && len(rest) > 0 && (strings.HasPrefix(code.s, "-") || strings.HasPrefix(code.s, dynMark)) {
				// The unknown word may be another option (sh -c "$opt"
				// 'rm -rf /'), and the word after it the code.
				w.shellCode(rest[0], rest[1:], s)
			}
		case script != nil && readsStdinPath(script.s):
			w.stdinScript(c, s.name+" reading stdin", false)
			s.stdinCode = true
		case script != nil && script.procText != nil:
			w.procScript(*script, s.name)
		case script != nil:
			w.addPath(*script, false, false)
			w.runFile(s, *script, s.name+" "+script.s)
		case stdin:
			w.stdinScript(c, s.name+" reading stdin", false)
		}
	case s.name == "source" || s.name == ".":
		if ops := operands(s.argv); len(ops) > 0 {
			if readsStdinPath(ops[0].s) {
				s.stdinCode = true
				w.stdinScript(c, s.name+" reading stdin", false)
			}
			w.runFile(s, ops[0], s.name+" "+ops[0].s)
			if ops[0].procText != nil {
				w.procScript(ops[0], s.name)
			}
		}
	case s.name == "trap":
		// trap 'code' SIGNAL: the code runs later, in this shell. On EXIT
		// that is after every other command, so what it sets reaches none
		// of them; a signal may come before any of them (kill -USR1 $$),
		// so its changes are kept.
		ops := operands(s.argv)
		if !hasFlag(s.argv, "p", "") && !hasFlag(s.argv, "P", "") && !hasFlag(s.argv, "l", "") {
			w.noteTraps(ops) // trap -p EXIT prints it, and changes nothing
		}
		if len(ops) > 1 && ops[0].s != "-" {
			if onlyOnExit(ops[1:]) {
				w.childString(ops[0], nil, "trap", ctx{})
			} else {
				sc := w.scope
				cwd, stack := sc.cwd, sc.dirStack
				// It may never run: what it sets keeps its old value too
				// (i=; trap 'i=2' USR1; rm -rf "$i"/*, helper-87).
				w.maybe(func() { w.shellString(ops[0], nil, "trap", ctx{}) })
				if sc.cwd != cwd || len(sc.dirStack) != len(stack) || len(stack) > 0 && &sc.dirStack[0] != &stack[0] {
					// trap 'cd /' DEBUG runs before every later command,
					// after each one's cd.
					w.fail("a trap that changes directory: it may run before any later command; cd outside the trap")
				}
			}
		}
	case strings.EqualFold(s.name, "cmd"):
		// cmd /c STRING, cmd /k STRING: judged with the same rules.
		for i := 1; i < len(s.argv); i++ {
			if a := strings.ToLower(s.argv[i].s); a == "/c" || a == "/k" || a == "/r" {
				text, known := joinFields(s.argv[i+1:])
				w.childString(field{s: text, dyn: !known}, nil, "cmd /c", ctx{})
				break
			}
		}
	case strings.EqualFold(s.name, "pwsh") || strings.EqualFold(s.name, "powershell"):
		for i := 1; i < len(s.argv); i++ {
			if a := strings.ToLower(s.argv[i].s); a == "-command" || a == "-c" {
				// PowerShell is not bash: judge what parses, ignore the rest.
				text, _ := joinFields(s.argv[i+1:])
				w.lenientScript(text, s.name+" -Command")
				break
			}
		}
	case s.name == "ssh":
		w.sshCommand(s)
	case isDownloader(s.name):
		w.downloadOutput(s)
	case s.is(clsInterpreter):
		w.interpreterCode(s)
		if script, ok := interpreterScript(s); ok {
			w.runsDownloaded(s, script)
		}
	case s.name == "eval":
		args := s.argv[1:]
		if len(args) > 0 && args[0].s == "--" && !args[0].dyn {
			args = args[1:] // bash's eval takes -- before its words
		}
		text, _ := joinFields(args)
		f := field{s: text, guess: otherOfJoined(" ", args...)}
		for _, a := range args {
			f.dyn = f.dyn || a.dyn
		}
		w.shellString(f, nil, "eval", ctx{})
	case s.name == "mapfile" || s.name == "readarray":
		// The array read into (MAPFILE by default) is replaced whole.
		w.scope.forgetArray("MAPFILE")
		for _, a := range append(readNames(s.argv), field{s: "MAPFILE"}) {
			w.scope.forgetArray(a.s)
			switch {
			case strings.Contains(a.s, dynMark):
				w.setUnknownNameRead(anyNameIn(a.s), c) // mapfile -t "$n" <<< /
			case isVarName(a.s):
				// $x is ${x[0]}: the first line, empty where there is
				// none (x=/tmp/a; mapfile -t x < empty; rm -rf "$x"/*).
				w.scope.set(a.s, anyValue())
				w.setUnknownNameRead(a.s, c)
			}
		}
		// -C CALLBACK is shell code, run once per -c lines read.
		for i := 1; i < len(s.argv); i++ {
			switch a := s.argv[i].s; {
			case a == "-C" && i+1 < len(s.argv):
				w.shellString(s.argv[i+1], nil, s.name+" -C", ctx{})
			case strings.HasPrefix(a, "-C") && len(a) > 2:
				w.shellString(field{s: a[2:], dyn: s.argv[i].dyn}, nil, s.name+" -C", ctx{})
			}
		}
	case s.name == "runuser" && hasWord(s.argv, "-u"):
		// runuser -u USER [--] CMD ARGS runs CMD directly.
		for i := 1; i < len(s.argv); i++ {
			a := s.argv[i].s
			if a == "-u" || a == "-g" || a == "-G" {
				i++
				continue
			}
			if a == "--" {
				i++
			} else if strings.HasPrefix(a, "-") {
				continue
			}
			if i < len(s.argv) {
				w.childCommand(s.argv[i:], c, "runuser -u")
			}
			break
		}
	case s.name == "at" || s.name == "batch":
		// at reads the commands it will run from stdin.
		w.stdinScript(c, s.name, true)
	case s.name == "parallel":
		// parallel CMD ::: ARGS
		for i := 1; i < len(s.argv); i++ {
			if s.argv[i].s == ":::" || s.argv[i].s == "::::" {
				start := 1
				for start < i && strings.HasPrefix(s.argv[start].s, "-") {
					start++
				}
				if start < i {
					w.childCommand(append(append([]field{}, s.argv[start:i]...), s.argv[i+1:]...), c, "parallel")
				}
				break
			}
		}
	case s.name == "su" || s.name == "runuser" || s.name == "script":
		command := false
		for i := 1; i < len(s.argv); i++ {
			a := s.argv[i].s
			bundleC := len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, "c") // -qc, -lc
			if (a == "-c" || a == "--command" || bundleC) && i+1 < len(s.argv) {
				w.childString(s.argv[i+1], nil, s.name+" -c", ctx{})
				command = true
			} else if v, ok := strings.CutPrefix(a, "--command="); ok {
				w.childString(field{s: v, dyn: s.argv[i].dyn}, nil, s.name+" -c", ctx{})
				command = true
			}
		}
		if s.name == "su" && !command {
			// su without a command starts a shell that reads stdin.
			w.stdinScript(c, "su reading stdin", true)
			s.stdinCode = true
		}
	case s.name == "watch":
		i := 1
		exec := false
		for ; i < len(s.argv); i++ {
			a := s.argv[i].s
			if !strings.HasPrefix(a, "-") {
				break
			}
			if a == "-x" || a == "--exec" {
				exec = true
			}
			if a == "-n" || a == "--interval" || a == "-q" || a == "--equexit" {
				i++
			}
		}
		if i < len(s.argv) {
			if exec {
				w.childCommand(s.argv[i:], c, "watch -x")
			} else {
				text, known := joinFields(s.argv[i:])
				w.childString(field{s: text, dyn: !known}, nil, "watch", ctx{})
			}
		}
	case s.name == "find":
		w.findExec(s)
	case s.name == "gdb" || s.name == "perf" || s.name == "tmux":
		// What they run runs in another process.
		defer w.leave(w.subshell())
		switch s.name {
		case "gdb":
			w.gdbRuns(s)
		case "perf":
			w.perfRuns(s)
		default:
			w.tmuxRuns(s)
		}
	case s.name == "cd":
		w.cd(s.argv[1:])
	case s.name == "pushd":
		w.pushd(s.argv[1:])
	case s.name == "popd":
		w.popd(s.argv[1:])
	case s.name == "dirs":
		w.dirs(s.argv[1:])
	case s.name == "export" || s.name == "declare" || s.name == "typeset" || s.name == "readonly" || s.name == "local":
		// Reached as a command, not as the parser's declaration clause:
		// builtin export x=/, command declare, \export, "declare".
		words := s.argv[1:]
		opts := slices.IndexFunc(words, func(f field) bool { return surelyName(f, f.glob) })
		if opts < 0 {
			opts = len(words)
		}
		split := make([]bool, opts)
		for i, f := range words[:opts] {
			split[i] = f.dyn || f.glob // unknown text a field may hide blanks in
		}
		w.declaration(s.name, words[:opts], split, len(words),
			func(o declOpts, local bool) {
				for _, f := range words[opts:] {
					if !w.globalPastLocal(s.name, o.global, f.s) || !w.followsWordArray(s.name, o, f.s) {
						return
					}
				}
				w.declareWords(words, local, o.fresh())
			},
			func(mark func(string)) {
				for i, f := range words {
					if i >= opts || !isOption(f, split[i]) {
						mark(f.s)
					}
				}
			})
	case s.name == "alias":
		for _, a := range s.argv[1:] {
			k, v, ok := strings.Cut(a.s, "=")
			if ok && strings.Contains(k, dynMark) {
				// alias x$@='rm -rf': any later command word may be it.
				w.fail("an alias whose name cannot be known before it runs (%s): the policy cannot follow its uses", text([]field{a}))
				return
			}
			if ok && hiddenAlias(k) {
				// Quoted ('time=...') or run through builtin, the name
				// escapes the check on the tree; bash expands it all the same.
				w.fail("an alias named %s: the parser reads its uses as the builtin or keyword", k)
				return
			}
			if ok {
				// Text known in part too (alias k="kubectl --context
				// $CTX"): its uses are judged as such (expandAliasText).
				w.otherAlias(k, v)
				if w.scope.aliases == nil {
					w.scope.aliases = map[string]string{}
				}
				w.scope.aliases[k] = v
				if a.guess != nil {
					w.guessedAlias(k, guessText(*a.guess))
				}
			}
		}
	case s.name == "shopt":
		w.shopt(s.argv[1:])
	case s.name == "set":
		w.setArgs(s.argv[1:])
	case s.name == "shift":
		w.shift(s.argv[1:])
	case s.name == "unset":
		for _, a := range operands(s.argv) {
			w.shakyFn(a.s) // unset -f die, or unset die: bash's falls back to the function
			if strings.Contains(a.s, dynMark) {
				w.setUnknownName(a.s, field{unset: true})
			}
			if w.setElementNamed(a.s, field{unset: true}) {
				continue // unset 'x[0]'
			}
			if strings.Contains(a.s, "[") {
				w.scope.forgetElement(a.s)
			} else {
				w.scope.forgetArray(a.s)
			}
			w.scope.set(a.s, field{unset: true})
			// Unset in a function called by the one whose local it is,
			// bash shows the value from before the local (x=/; f() {
			// local x=/tmp/a; g; rm -rf "$x"; }; g() { unset x; }).
			for sc := w.scope; sc != nil; sc = sc.parent {
				if _, ok := sc.locals[a.s]; !ok {
					continue
				}
				if at := sc.parent.holder(a.s, false); at != nil {
					w.scope.addAlts(a.s, at.vars[a.s])
					w.scope.addAlts(a.s, at.alts[a.s]...)
				} else {
					w.scope.addAlts(a.s, w.fromEnvironment(a.s))
				}
				break
			}
		}
	case s.name == "read" && w.readKnown(s.argv, c):
	case s.name == "read" || s.name == "mapfile" || s.name == "readarray" || s.name == "getopts":
		whole := s.name != "read" && s.name != "getopts" || hasFlag(s.argv, "a", "")
		for _, a := range readNames(s.argv) {
			if strings.Contains(a.s, dynMark) {
				w.setUnknownNameRead(anyNameIn(a.s), c) // read "$n" <<< /
			}
			v := field{s: dynMark, dyn: true, dl: c.stdinDL}
			switch {
			case whole:
				w.scope.setArray(a.s, nil) // read -a a <<< "": any elements, or none
			case w.setElementNamed(a.s, field{s: dynMark, dyn: true, dl: c.stdinDL, emptyable: true}): // read 'a[1]' <<< ""
				continue
			case strings.Contains(a.s, "["):
				w.scope.forgetElement(a.s)
			default:
				w.scope.forgetArray(a.s) // a=(); read a: a[0] may be empty
			}
			w.scope.set(a.s, v)
		}
	case s.name == "printf":
		vars, rest := printfOpts(s.argv)
		val := field{s: dynMark, dyn: true}
		if len(vars) == 1 {
			// printf -v c '%s' 'rm -rf /'; $c: the text, as far as known.
			out, known := printfText(rest)
			if len(out) > MaxScriptSize {
				w.fail("the value of %s grows past %d MiB", vars[0].s, MaxScriptSize>>20)
				return
			}
			if known || strings.Contains(out, dynMark) {
				val = field{s: out, dyn: !known}
			}
			if g, ok := guessedOutput(&simple{name: "printf", argv: append(s.argv[:1:1], rest...)}); ok && val.known() {
				val.guess = &g // printf -v x %s "${CMD:-echo}"
			}
		}
		for _, v := range vars {
			if strings.Contains(v.s, dynMark) {
				w.setUnknownName(v.s, val) // printf -v "$n" /
			}
			if w.setElementNamed(v.s, val) {
				continue // printf -v 'a[1]' /
			}
			if val.known() {
				w.scope.setElement(v.s, val) // printf -v a "": a[0] is ""
			} else {
				w.scope.forgetElement(v.s)
			}
			w.scope.set(v.s, val)
		}
	}
}

// readKnown follows a plain read (options -r, -s and -e only, names
// without subscripts) of a stdin the walk knows (read x <<< /, echo / >
// f; read x < f): its variables get the words of each line, split as
// read splits them, as other values beside the unknown one any read
// gives. That one stays, since what read takes is often not the first
// line: another read or command may have taken part of the text, a loop
// reads to the end (and empties them), the file may have changed, a
// redirection may fail. It reports false, setting nothing, where it
// cannot tell: more lines than a file keeps texts (maxOlder+1), a
// backslash read without -r, an IFS unknown or with other characters
// than blanks.
func (w *walker) readKnown(argv []field, c ctx) bool {
	if !c.stdinKnown || len(c.stdinOthers) > 0 || c.stdinDL || c.stdinDec {
		return false
	}
	raw := false
	var names []string
	for i, f := range argv[1:] {
		if !f.known() || f.glob {
			return false
		}
		if f.s == "--" {
			for _, n := range argv[i+2:] {
				names = append(names, n.s)
			}
			break
		}
		if strings.HasPrefix(f.s, "-") && len(names) == 0 {
			if f.s == "-" || strings.Trim(f.s[1:], "rse") != "" {
				return false
			}
			raw = raw || strings.Contains(f.s, "r")
			continue
		}
		names = append(names, f.s)
	}
	ifs, ok := w.ifs()
	if len(names) == 0 {
		names, ifs = []string{"REPLY"}, "" // REPLY takes the line whole
	}
	if !ok || strings.Trim(ifs, " \t\n") != "" || slices.ContainsFunc(names, func(n string) bool { return !syntax.ValidName(n) }) {
		return false
	}
	lines := strings.Split(strings.TrimSuffix(c.stdinText, "\n"), "\n")
	if len(lines) > maxOlder+1 || !raw && strings.Contains(c.stdinText, "\\") {
		return false
	}
	for i, line := range lines {
		line = strings.ReplaceAll(line, "\x00", "") // read drops NUL bytes
		rest := strings.TrimLeft(line, ifs)
		for j, n := range names {
			val := strings.TrimRight(rest, ifs)
			if k := strings.IndexAny(rest, ifs); j < len(names)-1 && k >= 0 {
				val, rest = rest[:k], strings.TrimLeft(rest[k:], ifs)
			} else {
				rest = ""
			}
			if i == 0 {
				w.scope.forgetArray(n) // a=(); read a: a[0] may be empty
				w.scope.set(n, field{s: dynMark, dyn: true})
			}
			w.scope.addAlts(n, field{s: val})
		}
	}
	return true
}

// nameOperands returns the words a builtin takes as variable names: for
// printf only -v's, for test only -v's, for read not its prompt or
// delimiter; a format, a prompt or a string compared is text.
func nameOperands(name string, argv []field) []field {
	switch name {
	case "printf":
		vars, _ := printfOpts(argv)
		return vars
	case "test", "[":
		var names []field
		for i := 1; i+1 < len(argv); i++ {
			if argv[i].s == "-v" {
				names = append(names, argv[i+1])
			}
		}
		return names
	case "read":
		var names []field
		for i := 1; i < len(argv); i++ {
			a := argv[i].s
			switch {
			case !strings.HasPrefix(a, "-") || a == "-":
				names = append(names, argv[i])
			case i+1 == len(argv):
			case strings.HasSuffix(a, "a"): // -a NAME, -ra NAME
				names = append(names, argv[i+1])
				i++
			case strings.IndexByte("dinNptu", a[len(a)-1]) >= 0: // -p PROMPT, -rp PROMPT
				i++
			}
		}
		return names
	}
	return argv[1:]
}

// printfOpts reads printf's options: the variables -v NAME or -vNAME
// set, and the format and arguments after the options (from the first
// other option on, which printfText then refuses as a format).
func printfOpts(argv []field) (vars, rest []field) {
	restAt := -1
	for i := 1; i < len(argv); i++ {
		a := argv[i].s
		switch {
		case a == "-v" && i+1 < len(argv):
			vars = append(vars, argv[i+1])
			i++
		case strings.HasPrefix(a, "-v"):
			vars = append(vars, field{s: a[2:], dyn: argv[i].dyn})
		case a == "--" || !strings.HasPrefix(a, "-"):
			if restAt < 0 {
				restAt = i
				if a == "--" {
					restAt++
				}
			}
			return vars, argv[restAt:]
		default:
			if restAt < 0 {
				restAt = i
			}
		}
	}
	if restAt < 0 {
		return vars, nil
	}
	return vars, argv[restAt:]
}

// readsStdinPath reports whether the script a shell or source is given
// may be its stdin, whose text the walk then judges as code: "-", and
// stdin under any spelling, glob or unreadable part the shell would
// resolve to it (found by bashdiff: source /dev/*stdin <<<'rm -rf ~').
func readsStdinPath(p string) bool {
	if p == "-" {
		return true
	}
	c := path.Clean(p) // /dev/./stdin, //dev/stdin, /dev/../dev/stdin
	if c == "/dev/stdin" || strings.HasPrefix(c, "/dev/fd/") ||
		strings.HasPrefix(c, "/proc/") && strings.Contains(c, "/fd/") {
		// Any descriptor's file: /dev/fd/00 is stdin, and after
		// exec 3<&0 so is /dev/fd/3.
		return true
	}
	if !strings.ContainsAny(c, "*?[") && !strings.Contains(c, dynMark) {
		return false
	}
	// A glob, or a word the walk cannot read (/proc/$$/fd/0), that may
	// match a name of stdin: /dev/*stdin, /dev/fd/?.
	pat := strings.ReplaceAll(c, dynMark, "*")
	for _, name := range stdinFiles {
		if ok, err := path.Match(pat, name); ok || err != nil {
			return true
		}
	}
	return false
}

// stdinFiles are names of a process's stdin for readsStdinPath's globs.
var stdinFiles = [...]string{"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "/proc/thread-self/fd/0", "/proc/1/fd/0"}

// sshCommand judges the command ssh runs on the other side: it may be
// this very machine.
func (w *walker) sshCommand(s *simple) {
	i := 1
	for ; i < len(s.argv); i++ {
		a := s.argv[i].s
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "-") {
			break
		}
		if len(a) == 2 && strings.IndexByte("BbcDEeFIiJLlmOoPpQRSWw", a[1]) >= 0 {
			i++
		}
	}
	if i+1 < len(s.argv) {
		text, known := joinFields(s.argv[i+1:])
		w.childString(field{s: text, dyn: !known}, nil, "ssh", ctx{})
	}
}

// interpreterCode looks inside python -c, perl -e, node -e, awk programs
// ...: when the code calls out to a shell, each quoted string in it is
// judged as a shell command, leniently (it may not be shell at all).
func (w *walker) interpreterCode(s *simple) {
	var code []field
	for i := 1; i < len(s.argv); i++ {
		switch s.argv[i].s {
		case "-c", "-e", "-E", "-r", "--eval", "-p", "--print", "-Command", "-command":
			if i+1 < len(s.argv) {
				code = append(code, s.argv[i+1])
			}
		}
	}
	if strings.HasSuffix(s.name, "awk") {
		if ops := operands(s.argv); len(ops) > 0 {
			code = append(code, ops[0])
		}
	}
	for _, f := range code {
		if !f.known() {
			continue
		}
		shell := callsShell(f.s)
		for _, lit := range quotedStrings(f.s) {
			switch {
			case shell && (strings.ContainsAny(lit, " \t") || classOf(progName(field{s: lit}))&clsShell != 0):
				w.lenientScript(lit, s.name+" code")
				if u := ansiC(lit); u != lit {
					// The interpreter turns \n and the like into the
					// characters the shell it starts then reads.
					w.lenientScript(u, s.name+" code")
				}
			case looksLikePath(lit) && (strings.ContainsAny(lit, "/~") || strings.HasPrefix(lit, ".")):
				// open(".env"), File.read("~/.ssh/id_rsa")
				w.addPath(field{s: lit}, false, false)
			}
		}
	}
}

// callsShell reports whether program text in another language starts
// commands.
func callsShell(code string) bool {
	for _, k := range []string{"system", "popen", "exec", "spawn", "subprocess", "`", "shell_exec", "passthru", "proc_open", "Process", "%x", "os.Command", "Start-Process", "Invoke-Expression", "iex"} {
		if strings.Contains(code, k) {
			return true
		}
	}
	return false
}

// quotedStrings returns the contents of the '...', "..." and `...`
// strings in program text (backslash escapes kept simple).
func quotedStrings(code string) []string {
	var out []string
	for i := 0; i < len(code); i++ {
		q := code[i]
		if q != '\'' && q != '"' && q != '`' {
			continue
		}
		j := i + 1
		for j < len(code) && code[j] != q {
			if code[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(code) {
			break
		}
		out = append(out, code[i+1:j])
		i = j
	}
	return out
}

// findExec judges the commands of find -exec/-execdir/-ok with {} standing
// for find's starting points.
func (w *walker) findExec(s *simple) {
	roots := findRoots(s.argv)
	for i := 1; i < len(s.argv); i++ {
		switch s.argv[i].s {
		case "-exec", "-execdir", "-ok", "-okdir":
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if i+1 < len(s.argv) {
				w.addPath(s.argv[i+1], true, false)
			}
			continue
		default:
			continue
		}
		j := i + 1
		for j < len(s.argv) && s.argv[j].s != ";" && s.argv[j].s != "+" {
			j++
		}
		sub := s.argv[i+1 : j]
		i = j
		if len(sub) == 0 {
			continue
		}
		for _, r := range roots {
			argv := make([]field, len(sub))
			for k, f := range sub {
				if strings.Contains(f.s, "{}") {
					f.s = strings.ReplaceAll(f.s, "{}", r.s)
					f.dyn = f.dyn || r.dyn
					f.glob = f.glob || r.glob
				}
				argv[k] = f
			}
			w.childCommand(argv, s.c, "find -exec")
		}
	}
}

// producedText returns what a pipeline stage writes, when it is a plain
// echo, printf or cat of a known stdin; false with text holding dynMark
// when that is known in part.
func producedText(cmds []*simple) (string, bool) {
	if len(cmds) != 1 {
		return "", false
	}
	s := cmds[0]
	switch s.name {
	case "echo":
		args := s.argv[1:]
		escapes, nl := false, "\n"
		for len(args) > 0 && len(args[0].s) > 1 && args[0].s[0] == '-' && strings.Trim(args[0].s[1:], "neE") == "" {
			for _, f := range args[0].s[1:] {
				switch f {
				case 'e', 'E':
					escapes = f == 'e'
				case 'n':
					nl = ""
				}
			}
			args = args[1:]
		}
		text, known := joinFields(args)
		if escapes {
			var stop bool
			if text, stop = echoEscapes(text, false); stop {
				nl = "" // \c: nothing more, not even the newline
			}
		}
		return text + nl, known
	case "printf":
		return printfText(s.argv[1:])
	case "cat", "tee":
		// cat and tee pass their stdin through, known or in part.
		if len(s.argv) == 1 || s.name == "tee" {
			return s.c.stdinText, s.c.stdinKnown
		}
		if s.catOut != nil { // cat x.sh, of a file the request wrote
			return string(s.catOut.text), s.catOut.known
		}
	}
	return "", false
}

// producedOthers returns the texts the command s may write instead of
// its producedText, each to be judged on its own: those its stdin may
// hold, for a cat or tee that passes stdin on, those of the files a cat
// copies, and for an echo or printf of a default taken for a variable the
// walk does not know (echo "${CMD:-true} -rf /"), its text with that
// variable's value unknown (field.guess).
func producedOthers(s *simple) []string {
	switch {
	case s.name == "tee" || s.name == "cat" && len(s.argv) == 1:
		return s.c.stdinOthers
	case s.name == "cat" && s.catOut != nil:
		return s.catOut.others() // tooManyTexts too
	case s.name == "echo" || s.name == "printf":
		if t, ok := guessedOutput(s); ok {
			return []string{t}
		}
	}
	return nil
}

// guessedOutput returns what the echo or printf s writes in the other
// reading of its words (field.guess), when one has one.
func guessedOutput(s *simple) (string, bool) {
	if !slices.ContainsFunc(s.argv, func(f field) bool { return f.guess != nil }) {
		return "", false
	}
	other := *s
	other.argv = make([]field, len(s.argv))
	for i, f := range s.argv {
		if f.guess != nil {
			f = f.otherReading()
		}
		other.argv[i] = f
	}
	if t, ok := producedText([]*simple{&other}); ok || strings.Contains(t, dynMark) {
		return t, true
	}
	return dynMark, true
}

// printfText returns what printf FORMAT ARGS... writes, for formats of
// plain text, escapes, %s, %b and %%, reused while arguments remain as
// printf does, with widths and precisions; with an argument known in
// part, the text holds dynMark there and is not known. A format with
// unknown parts, numbers or other directives writes dynMark for those,
// then printfGuess. -v writes no text.
func printfText(args []field) (string, bool) {
	if len(args) > 0 && args[0].s == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return "", false
	}
	known := true // else the text holds dynMark where it is not
	for _, a := range args {
		known = known && a.known()
	}
	format, rest := args[0].s, args[1:]
	if strings.HasPrefix(format, "-") {
		return "", false
	}
	// An unknown part of the format may be a directive that prints any
	// argument: what it shows is judged, and the arguments too.
	guess := strings.Contains(format, dynMark)
	var b strings.Builder
	for {
		used := false
		for i := 0; i < len(format); i++ {
			if format[i] != '%' {
				j := strings.IndexByte(format[i:], '%')
				if j < 0 {
					j = len(format) - i
				}
				b.WriteString(ansiC(format[i : i+j]))
				i += j - 1
				continue
			}
			// %[-][width][.precision]conversion
			j := i + 1
			for j < len(format) && strings.IndexByte("-+ #0", format[j]) >= 0 {
				j++
			}
			left := strings.Contains(format[i+1:j], "-")
			k := j
			for k < len(format) && format[k] >= '0' && format[k] <= '9' {
				k++
			}
			width, _ := strconv.Atoi(format[j:k])
			if k < len(format) && format[k] == '*' {
				// The width is an argument: what it pads is a guess.
				if len(rest) > 0 {
					rest, used = rest[1:], true
				}
				k, guess = k+1, true
			}
			prec := -1
			if k < len(format) && format[k] == '.' {
				m := k + 1
				for m < len(format) && format[m] >= '0' && format[m] <= '9' {
					m++
				}
				prec, _ = strconv.Atoi(format[k+1 : m])
				if m < len(format) && format[m] == '*' {
					if len(rest) > 0 {
						rest, used = rest[1:], true
					}
					m, prec, guess = m+1, -1, true
				}
				k = m
			}
			for k < len(format) && strings.IndexByte("hlLjzt", format[k]) >= 0 {
				k++ // length modifiers: bash takes and ignores them
			}
			if k >= len(format) {
				return b.String() + "\n" + printfGuess(args[1:]), false
			}
			i = k
			var arg string
			switch format[i] {
			case '%':
				b.WriteByte('%')
				continue
			case 's', 'b', 'c':
				if len(rest) > 0 {
					arg, rest, used = rest[0].s, rest[1:], true
				}
				stop := false
				switch format[i] {
				case 'b':
					arg, stop = echoEscapes(arg, true)
				case 'c':
					arg = arg[:min(1, len(arg))]
				}
				if prec >= 0 && prec < len(arg) {
					arg = arg[:prec]
				}
				pad := strings.Repeat(" ", max(0, width-len(arg)))
				if left {
					arg += pad
				} else {
					arg = pad + arg
				}
				b.WriteString(arg)
				if stop { // %b's \c: printf writes nothing more
					return b.String(), known && !guess
				}
			default:
				// A number, or a directive the walk does not follow: what
				// it prints is not known, and may be any argument.
				if len(rest) > 0 {
					rest, used = rest[1:], true
				}
				b.WriteString(dynMark)
				guess = true
			}
		}
		if !used || len(rest) == 0 || b.Len() > MaxScriptSize {
			if guess {
				return b.String() + "\n" + printfGuess(args[1:]), false
			}
			return b.String(), known
		}
	}
}

// echoEscapes decodes s as echo -e and printf's %b (percentB) read it:
// \0nnn (up to three octal digits after the 0; for %b also \nnn), \xHH,
// \uHHHH, \UHHHHHHHH and the letters; \c stops the output (stop reports
// it); any other backslash, \" and \' among them, stays as written.
func echoEscapes(s string, percentB bool) (text string, stop bool) {
	if !strings.Contains(s, `\`) {
		return s, false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch c := s[i+1]; c {
		case 'c':
			return b.String(), true
		case '0':
			j := i + 2
			for j < len(s) && j-i-2 < 3 && '0' <= s[j] && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint("0"+s[i+2:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		case '1', '2', '3', '4', '5', '6', '7':
			if !percentB {
				b.WriteByte('\\') // echo -e leaves \1 as it is
				continue
			}
			j := i + 1
			for j < len(s) && j-i-1 < 3 && '0' <= s[j] && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i+1:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		case '\\', 'a', 'b', 'e', 'E', 'f', 'n', 'r', 't', 'v', 'x', 'u', 'U':
			// ansiC reads these as $'...' does; \xHH with no digit stays.
			j, digits := i+2, 0
			switch c {
			case 'x':
				digits = 2
			case 'u':
				digits = 4
			case 'U':
				digits = 8
			}
			for j < len(s) && j-i-2 < digits && isHex(s[j]) {
				j++
			}
			b.WriteString(ansiC(s[i:j]))
			i = j - 1
		default:
			b.WriteByte('\\')
		}
	}
	return b.String(), false
}

// printfGuess is what printf may write when its format cannot be read
// (printf "$fmt" 'rm -rf /', printf '%10s' ...): any of its arguments,
// each taken as a line, between unknown text.
func printfGuess(args []field) string {
	var b strings.Builder
	b.WriteString(dynMark + "\n")
	for _, a := range args {
		b.WriteString(a.s + "\n")
	}
	b.WriteString(dynMark)
	return b.String()
}

// dynamicCommand handles a command whose name is not known: its -c string
// is still judged as shell code, and its arguments as paths.
func (w *walker) dynamicCommand(s *simple) {
	for i := 1; i+1 < len(s.argv); i++ {
		if s.argv[i].s == "-c" {
			w.guessedShellCode(s.argv[i+1])
			break
		}
	}
	// The unknown parts of the name may be empty: e$@val is eval then.
	if name := s.argv[0]; name.emptyable && !name.opaque {
		v := strings.ReplaceAll(name.s, dynMark, "")
		if v == "alias" {
			// An alias that may or may not be made: the walk can neither
			// expand its uses nor leave them be (alias$@ x='rm -rf'; x /).
			w.fail("%s may be alias, and whether it makes aliases cannot be known before it runs; write alias", text(s.argv[:1]))
			return
		}
		if v != "" && w.knownOrBuiltin(field{s: v}) {
			w.childCommand(append([]field{{s: v}}, s.argv[1:]...), s.c, "…")
		}
	}
	// The name may be a wrapper, or an option of one that vanishes
	// (command $@-- eval '...'): a program the rules know after it is
	// judged as what it runs.
	rest := s.argv[1:]
	for len(rest) > 0 && (rest[0].s == "--" || mayVanish(rest[0])) {
		rest = rest[1:] // "$@" "$@" eval ...
	}
	if len(rest) > 0 && rest[0].known() && !strings.HasPrefix(rest[0].s, "-") && w.knownOrBuiltin(rest[0]) {
		w.childCommand(rest, s.c, "…")
	}
	w.argPaths(s)
}

// guessedShellCode judges the -c code of a program whose name is not
// known. It may be python3 or perl, whose code need not parse as shell
// ($PYTHON -c 'print(1)'), or a shell, which runs each whole command
// before the one with its syntax error, and none after. So text that does
// not parse is judged up to the line where the parser stopped, as one
// text that must parse (if true; then rm -rf / on one line, print(1) on
// the next, is refused), and in that line, for what the parser may have
// missed, each piece between ;, && and || that parses. A divergence, an
// unclosed here-document (bash runs its command all the same) and text
// not known in whole that parses in no way are refused as for a known
// shell.
func (w *walker) guessedShellCode(code field) {
	if code.guess != nil {
		w.childString(code, nil, "-c", ctx{})
		return
	}
	defer w.asChild()()
	if !code.known() {
		w.unknownCode(code, nil, "-c", ctx{}, true)
		return
	}
	f, err := w.parse(code.s)
	var pe syntax.ParseError
	if err == nil {
		w.parsedScript(f, code.s, "-c", ctx{})
		return
	}
	if !errors.As(err, &pe) || strings.HasPrefix(pe.Text, "unclosed here-document") {
		w.script(code.s, "-c", ctx{}) // refused, as for a known shell
		return
	}
	start := lineStart(code.s, int(pe.Pos.Line()))
	if strings.TrimSpace(code.s[:start]) != "" {
		w.script(code.s[:start], "-c", ctx{})
	}
	line, _, _ := strings.Cut(code.s[start:], "\n")
	w.linesThatParse(line, "-c", ctx{}, false, false)
}

// lineStart returns the offset in s where its line n (from 1) starts.
func lineStart(s string, n int) int {
	at := 0
	for ; n > 1; n-- {
		i := strings.IndexByte(s[at:], '\n')
		if i < 0 {
			return len(s)
		}
		at += i + 1
	}
	return at
}

// gdbRuns judges what gdb runs: the program and arguments after --args,
// the program with the arguments of -ex 'run ARGS' or 'set args ARGS',
// and the shell commands of -ex 'shell CMD', '!CMD' and 'pipe X | CMD'.
func (w *walker) gdbRuns(s *simple) {
	var prog *field
	var cmds []field
	for i := 1; i < len(s.argv); i++ {
		a := s.argv[i].s
		key, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case a == "--args" || a == "-args":
			if i+1 < len(s.argv) {
				w.command(s.argv[i+1:], s.c, "gdb --args")
			}
			return
		case strings.HasPrefix(a, "-") && inList("ex eval-command iex init-eval-command", key):
			if hasVal {
				cmds = append(cmds, field{s: val, dyn: s.argv[i].dyn})
			} else if i+1 < len(s.argv) {
				i++
				cmds = append(cmds, s.argv[i])
			}
		case strings.HasPrefix(a, "-") && !hasVal && inList("x command init-command ix init-eval-command p pid d directory cd s symbols e exec se c core b l D data-directory tty", key):
			i++
		case !strings.HasPrefix(a, "-") && prog == nil:
			prog = &s.argv[i]
		}
	}
	for _, c := range cmds {
		w.gdbCommand(c, prog, s.c)
	}
}

// gdbCommand judges one gdb command given with -ex.
func (w *walker) gdbCommand(c field, prog *field, cx ctx) {
	if !c.known() {
		return
	}
	text := strings.TrimSpace(c.s)
	word, rest, _ := strings.Cut(text, " ")
	switch {
	case strings.HasPrefix(text, "!"):
		w.shellString(field{s: text[1:]}, nil, "gdb shell", ctx{})
	case len(word) >= 3 && strings.HasPrefix("shell", word):
		w.shellString(field{s: rest}, nil, "gdb shell", ctx{})
	case word == "pipe" || strings.HasPrefix(text, "|"):
		if _, cmd, ok := strings.Cut(strings.TrimPrefix(text, "|"), "|"); ok {
			w.shellString(field{s: cmd}, nil, "gdb pipe", ctx{})
		}
	case prog != nil && (word == "r" || word == "run" || word == "start" || word == "starti"):
		w.command(append([]field{*prog}, splitString(rest)...), cx, "gdb run")
	case prog != nil && word == "set" && strings.HasPrefix(rest, "args "):
		w.command(append([]field{*prog}, splitString(rest[5:])...), cx, "gdb set args")
	}
}

// perfRuns judges what perf stat/record/trace ... run: every suffix of
// its argv that starts with a program the rules know (perf's options are
// too many to skip one by one), and the shell commands of --pre/--post.
func (w *walker) perfRuns(s *simple) {
	if len(s.argv) < 2 {
		return
	}
	switch s.argv[1].s {
	case "stat", "record", "trace", "mem", "c2c", "lock", "sched", "kmem", "kvm", "timechart", "ftrace":
	default:
		return // report, script, top...: they run no workload
	}
	for i := 2; i < len(s.argv); i++ {
		a, prev := s.argv[i], s.argv[i-1].s
		// A variable right after an option may be that option's value
		// (-o "$f"), not the workload.
		optValue := strings.HasPrefix(prev, "-") && prev != "--" && !strings.Contains(prev, "=")
		switch {
		case (a.s == "--pre" || a.s == "--post") && i+1 < len(s.argv):
			w.shellString(s.argv[i+1], nil, "perf "+a.s, ctx{})
		case strings.HasPrefix(a.s, "--pre=") || strings.HasPrefix(a.s, "--post="):
			_, v, _ := strings.Cut(a.s, "=")
			w.shellString(field{s: v, dyn: a.dyn}, nil, "perf --pre", ctx{})
		case strings.HasPrefix(a.s, "-"):
		case a.dyn && !optValue || !a.dyn && w.knownProgram(progName(a)):
			w.command(s.argv[i:], s.c, "perf")
		}
	}
}

// guessRuns judges, when unwrap cannot tell where a wrapper's program
// starts, every suffix of args that starts with a program the rules
// know or a word only known at run time, as perfRuns does.
func (w *walker) guessRuns(args []field, c ctx, wrapper string) {
	for i, a := range args {
		if a.dyn || !strings.HasPrefix(a.s, "-") && w.knownProgram(progName(a)) {
			w.command(args[i:], c, wrapper)
		}
	}
}

// knownOrBuiltin reports whether the word f names a program the rules
// know or a bash builtin: worth judging as a command when it may be one.
func (w *walker) knownOrBuiltin(f field) bool {
	return w.knownProgram(progName(f)) || isBashBuiltin(f.s)
}

// knownProgram reports whether the rules know name: a program with a
// class, a wrapper, a downloader or one of the built-in denied commands.
func (w *walker) knownProgram(name string) bool {
	if classOf(name) != 0 || isDownloader(name) {
		return true
	}
	if _, ok := w.wrapperSpec(name); ok {
		return true
	}
	switch name {
	case "find", "dd", "rsync", "mkfs", "mke2fs", "mkswap", "wipefs", "shutdown", "reboot", "halt", "poweroff",
		"kexec", "init", "telinit", "systemctl", "loginctl", "eval", "history":
		return true
	}
	return strings.HasPrefix(name, "mkfs.")
}

// tmuxShellCmds lists the tmux commands that run a shell command, by
// name and alias, with their options that take a value.
var tmuxShellCmds = []struct{ name, alias, args string }{
	{"new-session", "new", "cefFnstxy"},
	{"new-window", "neww", "ceFnt"},
	{"split-window", "splitw", "celtF"},
	{"respawn-pane", "respawnp", "cet"},
	{"respawn-window", "respawnw", "cet"},
	{"run-shell", "run", "cdt"},
	{"if-shell", "if", "t"},
	{"display-popup", "popup", "bcdehsStTwxy"},
	{"pipe-pane", "pipep", "t"},
	{"send-keys", "send", "cNt"},
}

// tmuxRuns judges the shell commands tmux runs: tmux -c CMD, and those of
// new-session, new-window, run-shell, if-shell ... and the keys send-keys
// types (leniently: they may not be shell at all), in each command of a
// ";"-separated list.
func (w *walker) tmuxRuns(s *simple) {
	args := s.argv[1:]
	for len(args) > 0 && strings.HasPrefix(args[0].s, "-") {
		a := args[0].s
		if a == "-c" && len(args) > 1 {
			w.shellString(args[1], nil, "tmux -c", ctx{})
		}
		args = args[1:]
		if len(a) == 2 && strings.IndexByte("cfLST", a[1]) >= 0 && len(args) > 0 {
			args = args[1:]
		}
	}
	// As in tmux, an argument ending in ";" (not "\;") ends a command.
	var cur []field
	for _, a := range args {
		if !strings.HasSuffix(a.s, ";") || strings.HasSuffix(a.s, `\;`) {
			cur = append(cur, a)
			continue
		}
		if a.s = strings.TrimSuffix(a.s, ";"); a.s != "" {
			cur = append(cur, a)
		}
		w.tmuxCommand(cur)
		cur = nil
	}
	w.tmuxCommand(cur)
}

// tmuxCommand judges one tmux command (name and arguments).
func (w *walker) tmuxCommand(cmd []field) {
	if len(cmd) == 0 {
		return
	}
	name := cmd[0].s
	for _, tc := range tmuxShellCmds {
		if name != tc.alias && !(len(name) >= 3 && strings.HasPrefix(tc.name, name)) {
			continue
		}
		ops := cmd[1:]
		for len(ops) > 0 && strings.HasPrefix(ops[0].s, "-") && len(ops[0].s) > 1 {
			a := ops[0].s
			ops = ops[1:]
			if a == "--" {
				break
			}
			if strings.IndexByte(tc.args, a[len(a)-1]) >= 0 && len(ops) > 0 {
				ops = ops[1:]
			}
		}
		if len(ops) == 0 {
			return
		}
		if tc.name == "if-shell" {
			ops = ops[:1]
		}
		text, known := joinFields(ops)
		if tc.name == "send-keys" {
			if known {
				w.lenientScript(text, "tmux send-keys")
			}
			return
		}
		w.shellString(field{s: text, dyn: !known}, nil, "tmux "+tc.name, ctx{})
		return
	}
}

// setUnknownName gives each variable and array the walk holds whose name
// fits target, a name with dynMark where it is unknown ("$n", VAR_$k,
// "$n[0]", "$n+" for +=), and HOME, v as another value (to the first
// element of an array; appended for +=; an empty array for an unset):
// bash may have set any of them (n=$(cat f); export "$n=/" sets x when f
// holds x). A name the walk does not hold reads as the environment's,
// unknown, already.
func (w *walker) setUnknownName(target string, v field) {
	pattern, app := strings.CutSuffix(target, "+")
	pattern, _, _ = strings.Cut(pattern, "[") // "$n[0]": the element, as $x reads it
	// $PWD and $OLDPWD read where the shell is until set: held here
	// as variables with those values, they get v like any other.
	if fitsName(pattern, "PWD") && w.scope.holder("PWD", false) == nil {
		w.lookup("PWD") // with the directories the shell may be in instead
		if w.scope.holder("PWD", false) == nil {
			w.scope.set("PWD", field{s: w.scope.cwd, dyn: strings.Contains(w.scope.cwd, dynMark)})
		}
	}
	if fitsName(pattern, "OLDPWD") && w.scope.holder("OLDPWD", false) == nil && w.scope.oldpwd != "" {
		w.scope.set("OLDPWD", field{s: w.scope.oldpwd, dyn: strings.Contains(w.scope.oldpwd, dynMark)})
	}
	in := w.scope.forked()
	in.vars, in.arrays = map[string]field{}, map[string][]field{}
	with := func(cur field) field {
		if !app {
			return v
		}
		return field{s: cur.s + v.s, dyn: cur.dyn || v.dyn, dl: cur.dl || v.dl, dec: cur.dec || v.dec}
	}
	for sc := w.scope; sc != nil; sc = sc.parent {
		for k, cur := range sc.vars {
			if _, done := in.vars[k]; !done && isVarName(k) && fitsName(pattern, k) {
				in.vars[k] = with(cur)
			}
		}
		for k, a := range sc.arrays {
			if _, done := in.arrays[k]; done || !isVarName(k) || !fitsName(pattern, k) {
				continue
			}
			switch {
			case v.unset:
				in.arrays[k] = []field{}
			case len(a) > 0:
				in.arrays[k] = append([]field{with(a[0])}, a[1:]...)
			default:
				in.arrays[k] = []field{with(field{})}
			}
		}
	}
	if _, done := in.vars["HOME"]; !done && fitsName(pattern, "HOME") {
		in.vars["HOME"] = with(w.fromEnvironment("HOME"))
	}
	w.keepAsOther(w.scope, &in)
}

// setUnknownNameRead is setUnknownName for a read or mapfile into the
// names pattern may be: any value, and where stdin is known the first
// lines it holds, each whole and its first word, with and without its
// newline (mapfile without -t keeps it).
func (w *walker) setUnknownNameRead(pattern string, c ctx) {
	w.setUnknownName(pattern, anyValue())
	if !c.stdinKnown {
		return
	}
	for i, line := range strings.SplitAfter(c.stdinText, "\n") {
		if i == maxAlts || line == "" {
			break
		}
		text := strings.TrimSpace(line)
		first, _, _ := strings.Cut(text, " ")
		for _, v := range []string{text, first, line} {
			w.setUnknownName(pattern, field{s: v})
		}
	}
}

// anyNameIn returns the names a word (its text, with dynMark where
// unknown) that holds no known = may set, as a pattern for
// setUnknownName: its unknown part may hold NAME=value (export "$line"),
// so the name is its known start and anything after.
func anyNameIn(word string) string {
	i := strings.Index(word, dynMark)
	return word[:i+len(dynMark)]
}

// anyValue returns what a variable set from text the walk cannot know
// may hold: anything, empty too.
func anyValue() field { return field{s: dynMark, dyn: true, emptyable: true} }

// fitsName reports whether name may be what pattern, a name with dynMark
// where it is unknown, expands to.
func fitsName(pattern, name string) bool {
	first, rest, wild := strings.Cut(pattern, dynMark)
	if !wild {
		return pattern == name
	}
	if !strings.HasPrefix(name, first) {
		return false
	}
	name = name[len(first):]
	for {
		part, more, ok := strings.Cut(rest, dynMark)
		if !ok {
			return strings.HasSuffix(name, rest) // the last part
		}
		i := strings.Index(name, part)
		if i < 0 {
			return false
		}
		name, rest = name[i+len(part):], more
	}
}
