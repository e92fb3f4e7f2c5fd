package policy

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// A verdict is what one rule says about one command.
type verdict struct {
	rule, reason string
}

func text(fs []field) string {
	t, _ := joinFields(fs)
	t = strings.ReplaceAll(guessText(t), dynMark, "…")
	if len(t) > 120 {
		t = t[:117] + "..."
	}
	return t
}

// critical reports whether deleting p (recursively) would wreck the
// system or the user's home: "/", the top-level system directories, the
// home directory and its parent.
func (p *Policy) critical(dir string) bool {
	if dir == "/" || strings.HasSuffix(dir, ":/") && isDrive(dir) && len(dir) == 3 {
		return true
	}
	if p.home != "" && (dir == p.home || dir == path.Dir(p.home) && dir != "/") {
		return true
	}
	if strings.EqualFold(dir, p.home) {
		return true
	}
	if isDrive(dir) {
		switch strings.ToLower(dir[2:]) {
		case "/windows", "/users", "/program files", "/program files (x86)", "/programdata":
			return true
		}
		return false
	}
	if d, base := path.Split(dir); d == "/" {
		switch base {
		case "bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "libx32", "media", "mnt", "opt",
			"proc", "root", "run", "sbin", "srv", "sys", "usr", "var", "snap", "nix", "Users", "System", "Library", "Applications", "private":
			return true
		}
	}
	return false
}

// criticalNames lists the critical entries directly inside dir.
func (p *Policy) criticalNames(dir string) []string {
	var out []string
	if dir == "/" {
		out = append(out, "bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "libx32", "media", "mnt", "opt",
			"proc", "root", "run", "sbin", "srv", "sys", "usr", "var", "snap", "nix", "Users", "System", "Library", "Applications", "private")
	}
	if isDrive(dir) && len(dir) == 3 {
		out = append(out, "Windows", "Users", "Program Files", "Program Files (x86)", "ProgramData")
	}
	if p.home != "" {
		if parent, ok := parentOf(p.home); ok && strings.EqualFold(parent, dir) {
			out = append(out, path.Base(p.home))
		}
		if gp, ok := parentOf(path.Dir(p.home)); ok && strings.EqualFold(gp, dir) {
			out = append(out, path.Base(path.Dir(p.home)))
		}
	}
	return out
}

// criticalTarget reports whether a delete target reaches a critical
// directory: the directory itself, or everything in it through a glob
// (/*, ~/*, /u*).
// operandAlternatives is linkAlternatives for the operand of rm, mv and
// the like, which act on a link itself: only a path ending in / (or . or
// ..) goes on to where its last component leads (ln -s /usr u; rm -rf u
// removes the link, rm -rf u/ empties /usr).
func operandAlternatives(s, cwd string, links map[string]string) []string {
	base := path.Base(s)
	if strings.HasSuffix(s, "/") || base == "." || base == ".." {
		return linkAlternatives(s, resolve(s, cwd), cwd, links)
	}
	// Split without cleaning: /var/run/../usr must keep its "..".
	dir := "."
	if i := strings.LastIndexByte(s, '/'); i == 0 {
		dir = "/"
	} else if i > 0 {
		dir = s[:i]
	}
	var out []string
	for _, alt := range linkAlternatives(dir, resolve(dir, cwd), cwd, links) {
		out = append(out, path.Join(alt, base))
	}
	return out
}

func (p *Policy) criticalTarget(f field, s *simple) (string, bool) {
	t, ok := p.criticalLexical(f, s.cwd)
	if !ok && f.s != "" && !isAbs(f.s) && !strings.HasPrefix(f.s, dynMark) {
		// cd /; cd /nonexistent; rm -rf *: bash is still in /.
		for _, d := range s.stay.dirs {
			if t, ok := p.criticalLexical(f, d); ok {
				return t, true
			}
		}
		if s.stay.lost {
			return text([]field{f}) + " (in a directory a failed cd may have left the shell in)", true
		}
	}
	if ok || s.links == nil {
		return t, ok
	}
	// ln -s / r; rm -rf r/usr, rm -rf /var/run/../usr: where it leads.
	for _, alt := range operandAlternatives(f.s, s.cwd, *s.links) {
		if t, ok := p.criticalPath(f, alt); ok {
			return t, true
		}
	}
	return "", false
}

// criticalLexical is criticalTarget for the path as written, with only
// /proc's links seen through.
func (p *Policy) criticalLexical(f field, cwd string) (string, bool) {
	if f.s == "" {
		return "", false
	}
	if strings.HasPrefix(f.s, dynMark) || strings.Contains(cwd, dynMark) && !isAbs(f.s) {
		return "", false
	}
	// Another process's cwd is unknown: most daemons' is /, and the pid
	// may be this shell's own.
	t, ok := p.criticalPath(f, procTarget(f.s, cwd, "/"))
	if ok || !viaProc(f.s, cwd) {
		return t, ok
	}
	return p.criticalPath(f, procTarget(f.s, cwd, cwd))
}

// viaProc reports whether the path s, relative to cwd, may pass through
// /proc's links: written with proc/ in it, or relative from a cwd under
// /proc (cd /proc/self; rm -rf root/).
func viaProc(s, cwd string) bool {
	return strings.Contains(s, "proc/") || !strings.HasPrefix(s, "/") && strings.HasPrefix(cwd, "/proc")
}

// procTarget resolves a delete target against cwd, seeing through the
// /proc/PID/root and /proc/PID/cwd links (/proc/1/root/usr is /usr).
func procTarget(s, cwd, other string) string {
	t := resolve(s, cwd)
	if !viaProc(s, cwd) || !strings.HasPrefix(t, "/") || windowsShaped(cwd) {
		return t
	}
	if !strings.HasPrefix(s, "/") {
		s = cwd + "/" + s
	}
	return procLinks(s, cwd, other)
}

// criticalPath is criticalTarget for the resolved target t of f.
func (p *Policy) criticalPath(f field, t string) (string, bool) {
	if strings.Contains(t, dynMark) {
		return "", false
	}
	base := t
	if f.glob {
		// The directory above the first component with a glob in it. A
		// glob of wildcards only (/*, ~/*) takes everything in it; one
		// with text (/u*, /aar-*) only what it can match.
		parts := strings.Split(collapseStars(t), "/")
		for i, part := range parts {
			if !hasBashGlob(part) {
				continue
			}
			if len(part) > maxGlobPart {
				return t, true
			}
			part = bashGlob(part)
			base = strings.Join(parts[:i], "/")
			if base == "" {
				base = "/"
			}
			if isDrive(base) && len(base) == 2 {
				base += "/"
			}
			if strings.Trim(part, "*?") == "" || strings.Trim(part, "*?") == "." {
				break
			}
			for _, name := range p.criticalNames(base) {
				if ok, _ := path.Match(strings.ToLower(part), strings.ToLower(name)); ok {
					return t, true
				}
			}
			return "", false
		}
	}
	if p.critical(base) {
		return t, true
	}
	return "", false
}

// recursiveFlag reads rm-style options: -r, -R, or a long option of long
// (or an unambiguous prefix of it), anywhere before "--", bundled or not.
func recursiveFlag(argv []field, long ...string) bool {
	for _, f := range argv[1:] {
		a := f.s
		if a == "--" {
			return false
		}
		if strings.HasPrefix(a, "--") {
			key, _, _ := strings.Cut(a[2:], "=")
			for _, l := range long {
				if key != "" && strings.HasPrefix(l, key) && (len(key) >= 3 || l == "recursive" && len(key) >= 1) {
					return true
				}
			}
			continue
		}
		if strings.HasPrefix(a, "-") && strings.ContainsAny(a[1:], "rR") {
			return true
		}
	}
	return false
}

// mayRecurse is recursiveFlag for a command that deletes: an option
// word, or a word with an unknown start, may hold -r in its unknown parts
// (rm $y -f /, rm $opt-r -f ~, rm -f$y /).
func mayRecurse(argv []field) bool {
	if recursiveFlag(argv, "recursive") {
		return true
	}
	for _, f := range argv[1:] {
		if f.s == "--" {
			return false
		}
		if !f.dyn || !strings.HasPrefix(f.s, dynMark) && !strings.HasPrefix(f.s, "-") {
			continue
		}
		// What is known of it must fit an option: "$y/x" cannot be one,
		// -f$y and --r$y can (-fr, --recursive).
		if known := strings.ReplaceAll(f.s, dynMark, ""); known == "" || known[0] == '-' && !strings.ContainsAny(known, "/=") {
			return true
		}
	}
	return false
}

// The options of rm and shred, for refusedOption: for rm, what GNU,
// uutils (-g, and GNU's hidden ---presume-input-tty), BSD, busybox,
// toybox and AST (ksh) rm take between them.
const (
	rmShort = "cdfFgiIPqrRuvWx"
	rmLong  = "force interactive one-file-system no-preserve-root preserve-root recursive dir verbose help version " +
		"-presume-input-tty progress quiet clear clobber directory unconditional prompt"
	shredLong = "force iterations random-source remove size verbose exact zero help version"
)

// refusedOption reports whether the options argv starts with hold one
// the program refuses, so that it exits before it does anything: short
// is the letters it takes, shortArg those that take a value, long its
// long names. For a name only guessed to be rm, since $JAVA
// -Dx.root="$R/.." -cp lib Main is no rm: rm has no -D. It reads the
// words before the first operand only, where every getopt (GNU with
// POSIXLY_CORRECT, BSD, busybox) still takes options, and stops at a
// word it cannot read whole.
func refusedOption(argv []field, short, shortArg, long string) bool {
	for i := 1; i < len(argv); i++ {
		f := argv[i]
		known, _, _ := strings.Cut(f.s, dynMark)
		if !strings.HasPrefix(known, "-") || known == "-" || f.s == "--" || f.glob || strings.ContainsAny(known, " \t\n") {
			// Not an option, or not one word to every program: env -S
			// splits -S'rm -fr'.
			return false
		}
		if strings.HasPrefix(known, "--") {
			// getopt_long takes any prefix of a name: refused when none
			// starts so (--rec$y may be --recursive).
			key, _, _ := strings.Cut(known[2:], "=")
			if !anyHasPrefix(long, key) {
				return true
			}
		} else {
			for j := 1; j < len(known); j++ {
				ch := known[j : j+1]
				if strings.Contains(shortArg, ch) {
					if j+1 == len(known) && !f.dyn {
						i++ // -n 3: the next word is the value
						if i < len(argv) && (argv[i].dyn || argv[i].glob) {
							return false // -n $y may be -n 3 /
						}
					}
					break
				}
				if !strings.Contains(short, ch) {
					return true
				}
			}
		}
		if f.dyn {
			return false // an unquoted $y may split into operands
		}
	}
	return false
}

// refusedRunlevel is refusedOption for telinit: sysvinit's -t SECONDS,
// -e VAR=VALUE (upstart's; sysvinit takes -e only without a runlevel),
// systemd's --no-wall. [[ $x || $y -eq 0 ]], which sh runs as $y -eq 0
// ]], is no telinit 0.
func refusedRunlevel(argv []field) bool {
	for i := 1; i < len(argv); i++ {
		f := argv[i]
		if f.dyn || f.glob || !strings.HasPrefix(f.s, "-") || f.s == "-" || f.s == "--" {
			return false
		}
		if key, ok := strings.CutPrefix(f.s, "--"); ok {
			if key, _, _ = strings.Cut(key, "="); !strings.HasPrefix("no-wall", key) {
				return true // --help prints and exits
			}
			continue
		}
		val := f.s[2:]
		if val == "" && i+1 < len(argv) && (f.s[1] == 't' || f.s[1] == 'e') {
			i++
			if val = argv[i].s; argv[i].dyn {
				return false
			}
		}
		if f.s[1] != 't' && (f.s[1] != 'e' || !strings.Contains(val, "=")) {
			return true
		}
	}
	return false
}

// refusedSignal reports whether kill, given f as its first argument,
// kills nothing: an option word that is neither a signal bash, dash,
// procps or util-linux kill would take (they all refuse -eq) nor one of
// their options, or -l and -L, which list signals. For a name only
// guessed to be kill: sh reads [[ $x || $y -eq 1 ]] as [[ $x, then $y
// -eq 1 ]].
func refusedSignal(f field) bool {
	w, ok := strings.CutPrefix(f.s, "-")
	if !ok || w == "" || f.dyn || f.glob || strings.HasPrefix(w, "-") || strings.ContainsAny(w, " \t\n") {
		return false
	}
	u := strings.ToUpper(w)
	u = strings.TrimPrefix(u, "SIG") // procps takes -sig9 and -Sig9
	if strings.Trim(u, "+-0123456789") == "" || strings.HasPrefix(u, "RT") || inList(signalNames, u) {
		return false // strtol's -+9, -SIG09; RTMIN+3
	}
	switch w[0] {
	case 's', 'q', 'a', 'p', 'r':
		return false // -s SIG, -sKILL, -q VALUE, -a, -p, -r
	case 'n':
		return w != "n" && !isNumber(w[1:]) // -n 9, -n9; -ne is refused
	}
	return true
}

// signalNames are the Linux signal names kill takes, without SIG.
const signalNames = "HUP INT QUIT ILL TRAP ABRT IOT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM STKFLT CHLD CLD " +
	"CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO POLL PWR SYS UNUSED EXIT EMT INFO LOST"

// namedLater reports whether a word after the name names one of names,
// or holds blanks, which env -S splits into words that may: the name
// guessed may then be a wrapper that runs it ($X -uroot kill -9 1 with
// X=sudo, $X -S 'A=1 kill -9' 1 with X=env), and no option of the guess
// is refused for it.
func namedLater(argv []field, names ...string) bool {
	return slices.ContainsFunc(argv[1:], func(f field) bool {
		return slices.Contains(names, progName(f)) || strings.ContainsAny(f.s, " \t\n\v\f\r")
	})
}

// anyHasPrefix reports whether a name in the space-separated list
// starts with prefix.
func anyHasPrefix(list, prefix string) bool {
	for list != "" {
		var w string
		w, list, _ = strings.Cut(list, " ")
		if strings.HasPrefix(w, prefix) {
			return true
		}
	}
	return false
}

// criticalOperand is criticalTarget for a command that, when follow is
// set, acts on where a link operand leads rather than on the link (find
// -L, chown -R -H, chmod -R): as if the operand ended in /.
func (p *Policy) criticalOperand(f field, s *simple, follow bool) (string, bool) {
	if follow && !strings.HasSuffix(f.s, "/") {
		f.s += "/"
	}
	return p.criticalTarget(f, s)
}

// findFollows reports whether find follows a link given as a starting
// point: -H or -L before the starting points, or -follow after them.
func findFollows(argv []field) bool {
	for i := 1; i < len(argv); i++ {
		switch argv[i].s {
		case "-H", "-L", "-follow":
			return true
		}
	}
	return false
}

// findRoots returns find's starting points: the words after its leading
// options (-H -L -P -D opts -Olevel --) up to the expression, or ".".
func findRoots(argv []field) []field {
	i := 1
	for ; i < len(argv); i++ {
		a := argv[i].s
		if a == "--" {
			i++
			break
		}
		if a == "-D" {
			i++ // the debug options
			continue
		}
		if a != "-H" && a != "-L" && a != "-P" && !strings.HasPrefix(a, "-O") && !strings.HasPrefix(a, "-D") {
			break
		}
	}
	var roots []field
	for ; i < len(argv); i++ {
		a := argv[i].s
		if len(a) > 1 && strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == "," {
			break
		}
		roots = append(roots, argv[i])
	}
	if len(roots) == 0 {
		return litFields(".")
	}
	return roots
}

// findExecDeletes reports whether find runs a deleting program on what
// it finds (-exec rm, -execdir unlink, -ok sudo shred ...). Any word of
// the command counts, so that a wrapper in front does not hide it.
func findExecDeletes(argv []field) bool {
	inExec := false
	for _, f := range argv[1:] {
		switch f.s {
		case "-exec", "-execdir", "-ok", "-okdir":
			inExec = true
			continue
		case ";", "+":
			inExec = false
			continue
		}
		if !inExec || strings.HasPrefix(f.s, "-") {
			continue
		}
		switch progName(f) {
		case "rm", "unlink", "shred", "srm", "truncate":
			return true
		}
	}
	return false
}

// rsyncDeletes finds an rsync that deletes in a critical directory: the
// destination of --delete (and its variants), or a source of
// --remove-source-files.
func (p *Policy) rsyncDeletes(s *simple) (string, bool) {
	del, removeSrc := false, false
	for _, f := range s.argv[1:] {
		if f.s == "--" {
			break
		}
		key, _, _ := strings.Cut(strings.TrimPrefix(f.s, "--"), "=")
		del = del || strings.HasPrefix(f.s, "--") && (key == "del" || strings.HasPrefix(key, "delete"))
		removeSrc = removeSrc || f.s == "--remove-source-files"
	}
	spec, _ := copySpec("rsync")
	ops := operandsOf(scanOpts(s.argv, spec))
	if len(ops) < 2 {
		return "", false
	}
	var judged []field
	if del {
		judged = append(judged, ops[len(ops)-1])
	}
	if removeSrc {
		judged = append(judged, ops[:len(ops)-1]...)
	}
	for _, op := range judged {
		if t, ok := p.criticalTarget(op, s); ok {
			return t, true
		}
	}
	return "", false
}

// hardRule applies the built-in denied commands to one simple command.
func (p *Policy) hardRule(s *simple) (verdict, bool) {
	switch s.name {
	case "rm":
		// One guess at a time: an unknown word taken for -r only with a
		// known target, and not when the name is a guess already.
		sure := recursiveFlag(s.argv, "recursive")
		if !sure && (s.nameGuessed || !mayRecurse(s.argv)) {
			break
		}
		if s.nameGuessed && !namedLater(s.argv, "rm") && refusedOption(s.argv, rmShort, "", rmLong) {
			break
		}
		maybe := ""
		if !sure {
			maybe = ", if an unknown word is -r"
		}
		ops := operands(s.argv)
		for _, op := range ops {
			if t, ok := p.criticalTarget(op, s); ok {
				return verdict{"default:rm-root", fmt.Sprintf("recursive delete of %s (%s)%s", t, text(s.argv), maybe)}, true
			}
			if sure && op.emptyable && !op.opaque {
				// rm -rf "$DIR"/*: with DIR empty or unset, that is /*.
				empty := op
				empty.s = strings.ReplaceAll(op.s, dynMark, "")
				empty.dyn = false
				if t, ok := p.criticalTarget(empty, s); ok && empty.s != "" {
					return verdict{"default:rm-root", fmt.Sprintf("recursive delete of %s if the variable or command output is empty (%s); write ${VAR:?} to fail instead (for a command's output, set a variable first)", t, text(s.argv))}, true
				}
			}
		}
		if s.xargs {
			return verdict{"default:rm-root", fmt.Sprintf("recursive delete of paths read from stdin (%s)", text(s.raw))}, true
		}
	case "find":
		// find / -exec rm -f {} + deletes every file under / without -r.
		if !hasWord(s.argv, "-delete") && !findExecDeletes(s.argv) {
			break
		}
		follow := findFollows(s.argv)
		for _, f := range findRoots(s.argv) {
			if t, ok := p.criticalOperand(f, s, follow); ok {
				return verdict{"default:rm-root", fmt.Sprintf("recursive delete under %s (%s)", t, text(s.argv))}, true
			}
		}
	case "rsync":
		if t, ok := p.rsyncDeletes(s); ok {
			return verdict{"default:rm-root", fmt.Sprintf("rsync deleting what is in %s (%s)", t, text(s.argv))}, true
		}
	case "shred":
		if !recursiveFlag(s.argv, "recursive") && (s.nameGuessed || !mayRecurse(s.argv)) {
			break
		}
		if s.nameGuessed && !namedLater(s.argv, "shred") && refusedOption(s.argv, "fuvxz", "ns", shredLong) {
			break
		}
		for _, op := range operands(s.argv) {
			if t, ok := p.criticalTarget(op, s); ok {
				return verdict{"default:rm-root", fmt.Sprintf("recursive shred of %s (%s)", t, text(s.argv))}, true
			}
		}
	case "mv":
		// mv ~ /tmp/x, mv /usr /dev/null: moving a critical directory away
		// is deleting it.
		ops := operands(s.argv)
		for i, op := range ops {
			if i == len(ops)-1 && len(ops) > 1 {
				break
			}
			if t, ok := p.criticalTarget(op, s); ok {
				return verdict{"default:rm-root", fmt.Sprintf("moving %s away (%s)", t, text(s.argv))}, true
			}
		}
	case "chown", "chgrp":
		if recursiveFlag(s.argv, "recursive") {
			ops := operands(s.argv)
			// -H and -L follow a link operand (-P, the default, does not).
			follow := hasFlag(s.argv, "H", "") || hasFlag(s.argv, "L", "")
			for i := 1; i < len(ops); i++ {
				op := ops[i]
				if t, ok := p.criticalOperand(op, s, follow); ok {
					return verdict{"default:chmod-root", fmt.Sprintf("changing the owner of everything under %s (%s)", t, text(s.argv))}, true
				}
			}
		}
	case "mkfs", "mke2fs", "mkswap", "wipefs", "mkntfs", "mkdosfs", "mkexfatfs", "mkfs.fat":
		return verdict{"default:mkfs", fmt.Sprintf("creating a file system wipes a device (%s)", text(s.argv))}, true
	case "dd":
		for _, f := range s.argv[1:] {
			if v, ok := strings.CutPrefix(f.s, "of="); ok && isDevice(resolve(v, "/")) {
				return verdict{"default:dd-device", fmt.Sprintf("dd writing the device %s (%s)", v, text(s.argv))}, true
			}
		}
	case "shutdown", "reboot", "halt", "poweroff", "kexec":
		return verdict{"default:shutdown", fmt.Sprintf("shutting down or rebooting the machine (%s)", text(s.argv))}, true
	case "init", "telinit":
		ops := operandsOf(scanOpts(s.argv, optSpec{shortArg: "te"})) // telinit -t 3 6
		if s.nameGuessed && !namedLater(s.argv, "init", "telinit") && refusedRunlevel(s.argv) {
			break
		}
		if len(ops) > 0 && (ops[0].s == "0" || ops[0].s == "6") {
			return verdict{"default:shutdown", fmt.Sprintf("shutting down or rebooting the machine (%s)", text(s.argv))}, true
		}
	case "systemctl", "loginctl":
		for _, op := range operands(s.argv) {
			switch op.s {
			case "poweroff", "reboot", "halt", "kexec", "soft-reboot", "emergency", "rescue",
				"poweroff.target", "reboot.target", "halt.target", "kexec.target", "emergency.target", "rescue.target":
				return verdict{"default:shutdown", fmt.Sprintf("shutting down or rebooting the machine (%s)", text(s.argv))}, true
			}
		}
	case "kill":
		if s.nameGuessed && len(s.argv) > 1 && !namedLater(s.argv, "kill") && refusedSignal(s.argv[1]) {
			break
		}
		for _, op := range operands(s.argv) {
			if op.s == "1" {
				return verdict{"default:shutdown", fmt.Sprintf("killing init brings the machine down (%s)", text(s.argv))}, true
			}
		}
		if hasWord(s.argv, "-1") && len(operands(s.argv)) == 0 {
			// kill -9 -1: the last "-1" is the pid "every process".
			n := 0
			for _, f := range s.argv[1:] {
				if strings.HasPrefix(f.s, "-") {
					n++
				}
			}
			if n >= 2 || s.argv[len(s.argv)-1].s == "-1" && len(s.argv) > 2 {
				return verdict{"default:shutdown", fmt.Sprintf("killing every process (%s)", text(s.argv))}, true
			}
		}
	case "chmod":
		if mode, ok := worldWritableMode(s.argv); ok {
			return verdict{"default:chmod-777", fmt.Sprintf("making files world-writable with mode %s (%s)", mode, text(s.argv))}, true
		}
		if recursiveFlag(s.argv, "recursive") {
			if ops := operands(s.argv); len(ops) > 1 {
				for _, op := range ops[1:] {
					// chmod follows a link operand, and recurses there.
					if t, ok := p.criticalOperand(op, s, true); ok {
						return verdict{"default:chmod-root", fmt.Sprintf("changing the mode of everything under %s (%s)", t, text(s.argv))}, true
					}
				}
			}
		}
	case "nc", "ncat", "netcat", "nc.traditional", "nc.openbsd", "pwncat":
		for i, f := range s.argv[1:] {
			a := f.s
			exec := a == "--exec" || a == "--sh-exec" || a == "--lua-exec" || strings.HasPrefix(a, "--exec=") || strings.HasPrefix(a, "--sh-exec=") || strings.HasPrefix(a, "--lua-exec=") ||
				strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a[1:], "ec")
			if exec && (!s.nameGuessed || ncRunsShell(s.argv[i+1:])) {
				return verdict{"default:nc-exec", fmt.Sprintf("netcat handing a shell to the network (%s)", text(s.argv))}, true
			}
		}
	case "socat":
		for _, f := range s.argv[1:] {
			l := strings.ToLower(f.s)
			if strings.Contains(l, "exec:") || strings.Contains(l, "system:") {
				return verdict{"default:nc-exec", fmt.Sprintf("socat handing a program to the network (%s)", text(s.argv))}, true
			}
		}
	case "history":
		// For a name only guessed to be history, -c with a word after it
		// is far more likely $SHELL -c 'ls', whose code is judged as such.
		if hasFlag(s.argv, "c", "") && (!s.nameGuessed || len(operands(s.argv)) == 0 && !refusedOption(s.argv, "acnprsw", "d", "")) {
			return verdict{"default:history-clear", "clearing the shell history (history -c)"}, true
		}
	}
	if v, ok := p.windowsRule(s); ok {
		return v, true
	}
	if strings.HasPrefix(s.name, "mkfs.") || strings.HasPrefix(s.name, "mkfs_") {
		return verdict{"default:mkfs", fmt.Sprintf("creating a file system wipes a device (%s)", text(s.argv))}, true
	}
	return verdict{}, false
}

// windowsRule is the built-in denied commands in their cmd.exe and
// PowerShell spellings: rd /s, del /s, Remove-Item -Recurse, format,
// Stop-Computer. Names and switches compare case-insensitively.
func (p *Policy) windowsRule(s *simple) (verdict, bool) {
	name := strings.ToLower(s.name)
	switches := func(want ...string) bool {
		for _, f := range s.argv[1:] {
			a := strings.ToLower(f.s)
			for _, w := range want {
				if a == w || strings.HasPrefix(w, "-") && len(a) > 2 && strings.HasPrefix(w, a) && !strings.HasPrefix(a, "--") {
					return true
				}
			}
		}
		return false
	}
	targets := func() (string, bool) {
		for _, f := range s.argv[1:] {
			if strings.HasPrefix(f.s, "/") && len(f.s) <= 3 && !strings.Contains(f.s[1:], "/") || strings.HasPrefix(f.s, "-") {
				continue // a switch: /s /q -Force
			}
			if t, ok := p.criticalTarget(f, s); ok {
				return t, true
			}
		}
		return "", false
	}
	switch name {
	case "rd", "rmdir", "del", "erase", "remove-item", "ri", "rm":
		// cmd.exe's /s or PowerShell's -Recurse (or a prefix of it).
		if switches("/s", "-recurse") {
			if t, ok := targets(); ok {
				return verdict{"default:rm-root", fmt.Sprintf("recursive delete of %s (%s)", t, text(s.argv))}, true
			}
		}
	case "format", "format.com":
		for _, f := range s.argv[1:] {
			if len(f.s) == 2 && isDrive(f.s) {
				return verdict{"default:mkfs", fmt.Sprintf("formatting the drive %s (%s)", f.s, text(s.argv))}, true
			}
		}
	case "stop-computer", "restart-computer":
		return verdict{"default:shutdown", fmt.Sprintf("shutting down or rebooting the machine (%s)", text(s.argv))}, true
	}
	return verdict{}, false
}

func hasWord(argv []field, w string) bool {
	for _, f := range argv[1:] {
		if f.s == w {
			return true
		}
	}
	return false
}

// worldWritableMode finds a chmod mode that grants everything to everyone:
// 777, 0777, 1777, a+rwx, a=rwx, ugo+rwx.
func worldWritableMode(argv []field) (string, bool) {
	for _, f := range argv[1:] {
		m := f.s
		if m == "--" || f.dyn {
			continue
		}
		if strings.HasPrefix(m, "--") {
			continue
		}
		if len(m) >= 3 && len(m) <= 5 && strings.Trim(m, "01234567") == "" && strings.HasSuffix(m, "777") {
			return m, true
		}
		// Symbolic clauses: u=rwx,g=rwx,o=rwx adds up to 777 as well.
		full := map[byte]bool{}
		for _, clause := range strings.Split(m, ",") {
			who, perm, found := strings.Cut(clause, "+")
			if !found {
				who, perm, found = strings.Cut(clause, "=")
			}
			if !found || strings.Trim(who, "ugoa") != "" || !strings.Contains(perm, "r") || !strings.Contains(perm, "w") || !strings.Contains(perm, "x") {
				continue
			}
			if who == "" {
				continue // +rwx is masked by the umask
			}
			for _, c := range []byte(strings.ReplaceAll(who, "a", "ugo")) {
				full[c] = true
			}
		}
		if full['u'] && full['g'] && full['o'] {
			return m, true
		}
	}
	return "", false
}

// isDevice reports whether writing the normalised path p writes a device
// (a disk, memory, a Windows physical drive) rather than a harmless one.
func isDevice(p string) bool {
	if harmlessDevice(p) {
		return false
	}
	l := strings.ToLower(p)
	return strings.HasPrefix(p, "/dev/") || strings.HasPrefix(l, "//./") || strings.HasPrefix(l, "//?/globalroot")
}

// execRule finds code that comes from the network or from a decoder
// being run by a shell or an interpreter.
func (p *Policy) execRule(s *simple) (verdict, bool) {
	runsCode := s.is(clsShell|clsInterpreter) || s.name == "eval" || s.name == "source" || s.name == "." || s.name == "exec"
	if s.name == "" && len(s.argv) > 0 && s.argv[0].dl {
		return verdict{"default:download-exec", fmt.Sprintf("running a command name that comes from a download (%s)", text(s.argv))}, true
	}
	if s.name == "" && s.c.stdinDL {
		return verdict{"default:download-exec", fmt.Sprintf("a download piped into a program whose name cannot be known (%s)", text(s.argv))}, true
	}
	if s.runsDL {
		return verdict{"default:download-exec", fmt.Sprintf("running a file downloaded earlier in the command (%s)", text(s.argv))}, true
	}
	if !runsCode {
		return verdict{}, false
	}
	readsStdin := s.stdinCode
	if s.is(clsShell) {
		code, _, script, stdin := shellArgs(s.argv)
		readsStdin = readsStdin || stdin
		if code != nil && code.dl || script != nil && script.dl {
			return verdict{"default:download-exec", fmt.Sprintf("a shell running code from a download (%s)", text(s.raw))}, true
		}
	} else if s.is(clsInterpreter) {
		readsStdin = readsStdin || interpreterReadsStdin(s)
	}
	if s.argDL {
		return verdict{"default:download-exec", fmt.Sprintf("running code from a download (%s)", text(s.raw))}, true
	}
	if s.argDec {
		return verdict{"default:decoded-exec", fmt.Sprintf("running decoded (obfuscated) text as code (%s)", text(s.raw))}, true
	}
	if readsStdin && s.c.stdinDL {
		return verdict{"default:download-exec", fmt.Sprintf("a download piped into %s", s.name)}, true
	}
	if readsStdin && s.c.stdinDec {
		return verdict{"default:decoded-exec", fmt.Sprintf("decoded (obfuscated) text piped into %s", s.name)}, true
	}
	return verdict{}, false
}

// ncRunsShell reports whether the netcat option that starts args (-e,
// -c, a cluster ending in either, --exec and the like) runs a shell or
// an interpreter. For a name only guessed to be nc, an option merely
// spelt so is not enough: $SED -e 's/x/y/', $JAVA -cp lib Main.
func ncRunsShell(args []field) bool {
	a := args[0].s
	var val string
	switch {
	case strings.HasPrefix(a, "--sh-exec"), strings.HasPrefix(a, "--lua-exec"):
		return true
	case strings.HasPrefix(a, "--exec="):
		val = strings.TrimPrefix(a, "--exec=")
	case a == "--exec":
		if len(args) < 2 {
			return false
		}
		val = args[1].s
	default:
		// -e PROG, -ePROG, -ve PROG: the rest of the cluster or the next
		// word is the value.
		val = a[strings.IndexAny(a[1:], "ec")+2:]
		if val == "" && len(args) > 1 {
			val = args[1].s
		}
	}
	word, _, _ := strings.Cut(strings.TrimSpace(val), " ")
	return classOf(progName(field{s: word}))&(clsShell|clsInterpreter) != 0
}

// dynamicRule judges a command whose name cannot be known before it runs,
// such as $(echo rm) -rf /: it is denied when any program the built-in
// rules know would be denied with the same arguments.
func (p *Policy) dynamicRule(s *simple) (verdict, bool) {
	for _, cand := range []string{"rm", "find", "rsync", "shred", "chmod", "dd", "nc", "init", "systemctl", "kill", "history"} {
		alt := *s
		alt.argv = append([]field{{s: cand}}, s.argv[1:]...)
		alt.name, alt.nameGuessed = cand, true
		if v, ok := p.hardRule(&alt); ok {
			return verdict{"default:dynamic-command", fmt.Sprintf("the command name %q cannot be known before it runs, and as %s it would be denied: %s", text(s.argv[:1]), cand, v.reason)}, true
		}
	}
	// The name may be a wrapper that runs the rest, after a -- (exec,
	// env, nohup, command): exe$@c -- rm -rf / is exec -- rm -rf /.
	rest := s.argv[1:]
	if len(rest) > 0 && rest[0].s == "--" {
		rest = rest[1:]
	}
	if len(rest) > 0 && rest[0].known() {
		alt := *s
		alt.argv, alt.name = rest, progName(rest[0])
		if v, ok := p.hardRule(&alt); ok {
			return verdict{"default:dynamic-command", fmt.Sprintf("the command name %q cannot be known before it runs, and as a wrapper running the rest it would be denied: %s", text(s.argv[:1]), v.reason)}, true
		}
	}
	return verdict{}, false
}

// dangerous applies approval_mode ask_for_dangerous to one command.
func (p *Policy) dangerous(s *simple) (string, bool) {
	switch s.name {
	case "":
		return "the command name cannot be known before it runs", true
	case "rm", "rmdir", "unlink", "shred", "truncate":
		return s.name + " deletes or truncates files", true
	case "chmod":
		if _, ok := worldWritableMode(s.argv); ok {
			return "chmod 777", true
		}
	case "kill", "pkill", "killall":
		for i, f := range s.argv[1:] {
			a := f.s
			switch a {
			case "-9", "-KILL", "-SIGKILL", "--signal=9", "--signal=KILL", "--signal=SIGKILL":
				return s.name + " -9", true
			case "-s", "--signal":
				if i+2 < len(s.argv) {
					switch strings.ToUpper(s.argv[i+2].s) {
					case "9", "KILL", "SIGKILL":
						return s.name + " -9", true
					}
				}
			}
		}
	case "git":
		return gitDangerous(s.argv)
	}
	for _, f := range s.argv[1:] {
		if k, ok := sqlDangerous(f.s); ok {
			return k, true
		}
	}
	if s.c.stdinKnown {
		if k, ok := sqlDangerous(s.c.stdinText); ok {
			return k, true
		}
	}
	return "", false
}

func gitDangerous(argv []field) (string, bool) {
	i := 1
	for i < len(argv) && strings.HasPrefix(argv[i].s, "-") {
		switch argv[i].s {
		case "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env":
			i++
		}
		i++
	}
	if i >= len(argv) {
		return "", false
	}
	sub := argv[i:]
	switch sub[0].s {
	case "push":
		for _, f := range sub[1:] {
			a := f.s
			if a == "-f" || strings.HasPrefix(a, "--force") || strings.HasPrefix(a, "+") ||
				strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "f") || a == "--mirror" || a == "--delete" || a == "-d" {
				return "git push --force", true
			}
		}
	case "reset":
		if hasWord(sub, "--hard") || hasWord(sub, "--merge") || hasWord(sub, "--keep") {
			return "git reset --hard", true
		}
	case "clean":
		if !hasFlag(sub, "n", "dry-run") {
			return "git clean", true
		}
	case "checkout":
		for j, f := range sub[1:] {
			if f.s == "." || f.s == "--" && j+2 < len(sub) {
				return "git checkout .", true
			}
		}
	case "restore":
		if len(operands(sub)) > 0 && !hasWord(sub, "--staged") {
			return "git restore", true
		}
	case "branch":
		if hasWord(sub, "-D") || hasFlag(sub, "", "delete") && hasWord(sub, "--force") {
			return "git branch -D", true
		}
	case "stash":
		if len(sub) > 1 && (sub[1].s == "drop" || sub[1].s == "clear") {
			return "git stash drop", true
		}
	}
	return "", false
}

// sqlDangerous finds DROP TABLE / DROP DATABASE / TRUNCATE TABLE in text.
func sqlDangerous(s string) (string, bool) {
	if len(s) < 10 {
		return "", false
	}
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r == '_')
	})
	for i := 0; i+1 < len(words); i++ {
		switch {
		case words[i] == "drop" && (words[i+1] == "table" || words[i+1] == "database" || words[i+1] == "schema"):
			return "drop " + words[i+1], true
		case words[i] == "truncate" && words[i+1] == "table":
			return "truncate table", true
		}
	}
	return "", false
}

// readOnly reports whether a command is known not to write anything.
func (p *Policy) readOnly(s *simple) bool {
	if s.name == "" {
		return false
	}
	switch s.name {
	case "find":
		for _, f := range s.argv[1:] {
			switch f.s {
			case "-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls":
				return false
			}
		}
		return true
	case "sort":
		return !hasFlag(s.argv, "o", "output")
	case "git":
		return gitReadOnly(s.argv)
	case "go":
		ops := operands(s.argv)
		if len(ops) == 0 {
			return false
		}
		switch ops[0].s {
		case "version", "list", "doc":
			return true
		case "env":
			return !hasFlag(s.argv, "w", "") && !hasFlag(s.argv, "u", "")
		}
		return false
	case "env", "printenv":
		return true // with a command, unwrap already judged the command itself
	}
	return s.is(clsReadOnly)
}

func gitReadOnly(argv []field) bool {
	i := 1
	for i < len(argv) && strings.HasPrefix(argv[i].s, "-") {
		switch argv[i].s {
		case "-C", "-c", "--git-dir", "--work-tree":
			i++
		}
		i++
	}
	if i >= len(argv) {
		return true
	}
	sub := argv[i:]
	switch sub[0].s {
	case "status", "log", "diff", "show", "blame", "rev-parse", "ls-files", "ls-tree", "cat-file", "grep",
		"describe", "shortlog", "rev-list", "name-rev", "merge-base", "show-ref", "for-each-ref", "version", "help", "whatchanged", "count-objects":
		return true
	case "branch", "tag":
		for _, f := range sub[1:] {
			switch f.s {
			case "-l", "--list", "-a", "-r", "-v", "-vv", "--all", "--remotes", "--contains", "--merged", "--no-merged", "--show-current":
			default:
				return false
			}
		}
		return true
	case "remote":
		return len(sub) == 1 || sub[1].s == "-v" || sub[1].s == "show" || sub[1].s == "get-url"
	case "config":
		return hasWord(sub, "--get") || hasWord(sub, "--list") || hasWord(sub, "-l") || hasWord(sub, "--get-all") || hasWord(sub, "--get-regexp")
	case "stash":
		return len(sub) > 1 && (sub[1].s == "list" || sub[1].s == "show")
	}
	return false
}

// writes reports whether a command is known to write files.
func (p *Policy) writes(s *simple) bool {
	if s.is(clsWriter | clsLastWriter) {
		return true
	}
	switch s.name {
	case "dd", "mkfs", "sed", "perl":
		return s.name == "dd" || s.name == "mkfs" || hasFlag(s.argv, "i", "in-place")
	case "git":
		return !gitReadOnly(s.argv)
	}
	return false
}

// findLists returns the start points of a find that prints only its
// paths, each ended by a NUL (-print0), or nil for any other command.
// Each path it prints then lies inside a start point: it follows no
// symlink (-L, -H, -follow), takes no start points from a file
// (-files0-from), and prints nothing else (-print, -printf, -ls, -exec
// ...), which could put other text between the NULs.
func findLists(s *simple) []string {
	if s.name != "find" || len(s.argv) != len(s.raw) {
		return nil
	}
	var starts []string
	expr, print0 := false, false
	args := s.argv[1:]
	// Options come before the start points: -P (the default), -O<level>,
	// -D <list>, and -H and -L, which follow links.
opts:
	for len(args) > 0 {
		switch w := args[0].s; {
		case !args[0].known():
			return nil
		case w == "-P" || len(w) > 2 && strings.HasPrefix(w, "-O"):
			args = args[1:]
		case w == "-D" && len(args) > 1:
			args = args[2:]
		case w == "--":
			args = args[1:]
			break opts
		case w == "-H" || w == "-L":
			return nil
		default:
			break opts
		}
	}
	for _, a := range args {
		if !a.known() || a.glob {
			return nil
		}
		switch w := a.s; {
		case w == "-print0":
			print0 = true
		case w == "-L" || w == "-H" || w == "-follow" || w == "-files0-from" ||
			w == "-print" || w == "-fprint" || w == "-fprint0" || w == "-printf" || w == "-fprintf" ||
			w == "-ls" || w == "-fls" || w == "-exec" || w == "-execdir" || w == "-ok" || w == "-okdir":
			return nil
		case !expr && (strings.HasPrefix(w, "-") || w == "(" || w == "!"):
			expr = true
		case !expr:
			starts = append(starts, w)
		}
	}
	if !print0 {
		return nil
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	return starts
}

// xargsTakesEachWhole reports whether the xargs in raw splits its stdin
// at NULs only (-0) and appends each item whole to the command: no -I
// (which can put an item inside a word: {}/..), no -d, no -a (another
// input). Options it does not know count against it.
func xargsTakesEachWhole(raw []field) bool {
	i := slices.IndexFunc(raw, func(f field) bool { return progName(f) == "xargs" })
	if i < 0 {
		return false
	}
	null := false
	for j := i + 1; j < len(raw); j++ {
		w := raw[j].s
		if !raw[j].known() {
			return false
		}
		switch {
		case w == "-0" || w == "--null":
			null = true
		case w == "-r" || w == "--no-run-if-empty" || w == "-t" || w == "--verbose" || w == "-x" || w == "--exit":
		case w == "-n" || w == "-P" || w == "-s" || w == "-L":
			j++ // its number
		case len(w) > 2 && strings.ContainsRune("nPsL", rune(w[1])) && w[0] == '-' && w[1] != '-' && isNumber(w[2:]),
			strings.HasPrefix(w, "--max-args=") || strings.HasPrefix(w, "--max-procs=") || strings.HasPrefix(w, "--max-chars=") || strings.HasPrefix(w, "--max-lines="):
		case strings.HasPrefix(w, "-"):
			return false
		default:
			return null // the command
		}
	}
	return false
}
