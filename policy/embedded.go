package policy

import (
	"fmt"
	"slices"
	"strings"
)

// Programs run other commands from an option's value, a config value or
// an environment variable: rsync -e, ssh -o ProxyCommand=, git -c
// core.pager=, GIT_SSH_COMMAND, tar -I, PAGER ... Each such value is
// judged as sh -c would judge it, and a program path as running that
// program; placeholders such as %h and %s stay as they are. Values in
// files (~/.ssh/config, .gitconfig, .lessfilter) are not seen: there the
// sandbox is the boundary.

// sshSpec reads ssh's options: BSD getopt, no long options. ssh reads
// the options after the host too, so the scan does not stop at it.
var sshSpec = optSpec{shortArg: "BbcDEeFIiJLlmOoPpQRSWw", exact: true}

// sftpSpec reads sftp's options, which end at its first operand.
var sftpSpec = optSpec{shortArg: "BbcDFiJloPRSsX", exact: true, posix: true}

// tarSpec reads GNU tar's options: its short options that take a value,
// and its long ones that do (argp takes any unique prefix; one not listed
// takes no value, so the word after it is read as an operand).
var tarSpec = optSpec{shortArg: "gCTXfFLbHVIKN",
	longArg: "listed-incremental hole-detection level sparse-version add-file directory exclude exclude-ignore " +
		"exclude-ignore-recursive exclude-tag exclude-tag-all exclude-tag-under files-from exclude-from " +
		"to-command group group-map mode mtime owner owner-map sort xattrs-exclude xattrs-include file " +
		"info-script new-volume-script tape-length rmt-command rsh-command volno-file blocking-factor " +
		"record-size format pax-option label use-compress-program starting-file newer-mtime newer after-date " +
		"suffix strip-components transform xform checkpoint-action index-file no-quote-chars quote-chars " +
		"quoting-style warning",
	long: "occurrence one-top-level atime-preserve backup checkpoint totals"}

// tarCode are tar's options whose value it runs: a compressor, a filter
// for each file extracted, a checkpoint action, a volume script, the
// remote shell and the remote rmt.
const tarCode = "I use-compress-program to-command F info-script new-volume-script rsh-command rmt-command"

// manSpec reads man-db's options that take a value, -P and -H among them.
// -H[BROWSER] takes its value attached only, which the man case reads.
var manSpec = optSpec{shortArg: "CRLmMSesPrEp",
	longArg: "config-file recode locale systems manpath sections extension pager prompt encoding preprocessor",
	long:    "html troff-device gxditview"}

// sshRunKeys are the ssh_config keywords whose value ssh runs as a
// command: on this machine, or on the host (RemoteCommand), which may
// be this one, as sshCommand judges ssh's command operand.
const sshRunKeys = "proxycommand localcommand knownhostscommand remotecommand"

// embeddedCode judges what s runs from its options and environment.
func (w *walker) embeddedCode(s *simple) {
	switch s.name {
	case "rsync":
		spec, _ := copySpec("rsync")
		var buf [8]opt
		for _, o := range appendOpts(buf[:0], s.argv, spec) {
			// rsync splits -e itself, without a shell; as sh -c it
			// is judged no less strictly. --rsync-path runs on the
			// host, through its shell.
			if o.name == "e" || o.name == "rsh" || o.name == "rsync-path" {
				w.childString(o.val, nil, "rsync --"+o.name, ctx{})
			}
		}
		w.envCode("rsync", "RSYNC_RSH")
	case "git":
		w.gitRuns(s.argv)
		w.lessOpen("git")
	case "tar":
		w.tarRuns(s.argv)
	case "zip":
		w.zipRuns(s.argv)
	case "install":
		spec, _ := copySpec("install")
		var buf [8]opt
		for _, o := range appendOpts(buf[:0], s.argv, spec) {
			if o.name == "strip-program" {
				w.childCommand([]field{o.val}, ctx{}, "install --strip-program")
			}
		}
	case "man":
		var buf [8]opt
		for _, o := range appendOpts(buf[:0], s.argv, manSpec) {
			if o.name == "P" || o.name == "pager" || o.name == "html" {
				w.childString(o.val, nil, "man --"+o.name, ctx{})
			}
		}
		for _, a := range s.argv[1:] {
			if b, ok := strings.CutPrefix(a.s, "-H"); ok && b != "" {
				w.childString(field{s: b, dyn: a.dyn}, nil, "man -H", ctx{})
			}
		}
		w.envCode("man", "MANPAGER PAGER BROWSER")
		w.lessOpen("man")
	case "less":
		w.lessOpen("less")
	case "crontab", "visudo", "vipw", "vigr", "edquota", "sensible-editor", "editor":
		w.envCode(s.name, "VISUAL EDITOR")
	case "sudoedit":
		w.envCode(s.name, "SUDO_EDITOR VISUAL EDITOR")
	case "kubectl":
		w.envCode(s.name, "KUBE_EDITOR EDITOR")
	case "journalctl", "systemctl":
		w.envCode(s.name, "SYSTEMD_PAGER PAGER SYSTEMD_EDITOR VISUAL EDITOR")
	case "gh":
		w.envCode(s.name, "GH_PAGER PAGER GH_EDITOR VISUAL EDITOR")
	case "ssh", "scp", "sftp":
		spec := sshSpec
		switch s.name {
		case "scp":
			spec, _ = copySpec("scp")
		case "sftp":
			spec = sftpSpec
		}
		var buf [8]opt
		for _, o := range appendOpts(buf[:0], s.argv, spec) {
			switch {
			case o.name == "o":
				w.sshOption(o.val, s.name+" -o")
			case o.name == "S" && s.name != "ssh":
				// -S PROGRAM: the program scp and sftp connect through.
				w.childCommand([]field{o.val}, ctx{}, s.name+" -S")
			case o.name == "D" && s.name != "ssh":
				// -D SFTP_SERVER: run here instead of over ssh.
				w.childString(o.val, nil, s.name+" -D", ctx{})
			}
		}
	}
}

// envCode judges the variables of names (space-separated) the request
// set, which name commands that program runs through a shell.
func (w *walker) envCode(program, names string) {
	for names != "" {
		var name string
		name, names, _ = strings.Cut(names, " ")
		v, ok := w.scope.get(name)
		if !ok || v.unset || v.s == "" {
			continue
		}
		// EDITOR=editor; editor f: judging the same code for the same
		// program again, inside itself, adds nothing, when the code is
		// only words; one with assignments or operators ('T=/ crontab
		// -e; rm -rf "$T"') differs inside, and is judged again.
		key := program + "\x00" + name + "\x00" + v.s
		if slices.Contains(w.envCodeIn, key) && v.known() && plainWords(v.s) {
			continue
		}
		w.envCodeIn = append(w.envCodeIn, key)
		w.childString(v, nil, name+" for "+program, ctx{})
		w.envCodeIn = w.envCodeIn[:len(w.envCodeIn)-1]
	}
}

// plainWords reports whether s is words of letters, digits and -./_+=,:
// only, with no '=' in the first: a command with no assignment,
// expansion, quote or operator.
func plainWords(s string) bool {
	first := true
	for _, f := range strings.Fields(s) {
		if first && strings.Contains(f, "=") {
			return false
		}
		first = false
		for _, r := range f {
			if !(r == '-' || r == '.' || r == '/' || r == '_' || r == '+' || r == '=' || r == ',' || r == ':' ||
				'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
				return false
			}
		}
	}
	return true
}

// sshOption judges ssh -o KEYWORD=VALUE (or "KEYWORD VALUE"), as ssh's
// readconf splits it: the keyword ends at a blank or "=", in any case.
func (w *walker) sshOption(o field, via string) {
	s := strings.TrimLeft(o.s, " \t")
	key, val := s, ""
	if i := strings.IndexAny(s, " \t="); i >= 0 {
		key, val = s[:i], strings.TrimLeft(s[i:], " \t=")
	}
	if strings.Contains(key, dynMark) {
		// ssh -o "$opt": it may be any keyword, ProxyCommand too.
		w.childString(o, nil, via, ctx{})
		return
	}
	if !foldInList(sshRunKeys, key) || strings.EqualFold(val, "none") {
		return
	}
	w.childString(field{s: val, dyn: o.dyn, dl: o.dl, dec: o.dec}, nil, via+" "+key, ctx{})
}

// foldInList is inList ignoring case.
func foldInList(list, key string) bool {
	for list != "" {
		var w string
		w, list, _ = strings.Cut(list, " ")
		if strings.EqualFold(w, key) {
			return true
		}
	}
	return false
}

// gitEnvCode are the variables whose value git runs through a shell:
// the pager, editors, ssh, proxy and external diff. PAGER and the
// editors serve other programs too.
const gitEnvCode = "GIT_SSH_COMMAND GIT_PAGER PAGER GIT_EDITOR GIT_SEQUENCE_EDITOR VISUAL EDITOR GIT_EXTERNAL_DIFF " +
	"GIT_PROXY_COMMAND"

// gitEnvPrograms are the variables that name a program git runs.
const gitEnvPrograms = "GIT_SSH GIT_ASKPASS SSH_ASKPASS"

// gitRuns judges the commands git runs from config values given on its
// command line (-c NAME=VALUE, --config-env NAME=VAR, clone -c), from
// its variables, and from the transport options that name the program
// to run for the other side (--upload-pack, --receive-pack, --exec),
// which runs here for a local repository.
func (w *walker) gitRuns(argv []field) {
	sub, config := false, 0 // config: where git config starts
	for i := 1; i < len(argv); i++ {
		a, val := argv[i], field{} // val: the next word, if any
		if i+1 < len(argv) {
			val = argv[i+1]
		}
		switch {
		case a.s == "-c" || sub && a.s == "--config":
			i++
			w.gitConfig(val, "git -c")
		case strings.HasPrefix(a.s, "--config=") && sub:
			w.gitConfig(field{s: a.s[len("--config="):], dyn: a.dyn}, "git clone --config")
		case a.s == "--config-env" && !sub:
			i++
			w.gitConfigEnv(val)
		case strings.HasPrefix(a.s, "--config-env=") && !sub:
			w.gitConfigEnv(field{s: a.s[len("--config-env="):], dyn: a.dyn})
		case !sub && inList(gitValueOpts, a.s):
			i++
		case sub && (a.s == "-u" || a.s == "--upload-pack" || a.s == "--receive-pack" || a.s == "--exec"):
			i++
			w.childString(val, nil, "git "+a.s, ctx{})
		case sub && strings.HasPrefix(a.s, "--") && strings.Contains(a.s, "="):
			if k, v, _ := strings.Cut(a.s, "="); k == "--upload-pack" || k == "--receive-pack" || k == "--exec" {
				w.childString(field{s: v, dyn: a.dyn}, nil, "git "+k, ctx{})
			}
		case !sub && !strings.HasPrefix(a.s, "-"):
			sub = true
			if a.s == "config" {
				config = i
			}
		}
	}
	if config > 0 {
		w.gitConfigSet(argv[config+1:])
	}
	w.envCode("git", gitEnvCode)
	w.gitConfigVars()
	w.envPrograms("git", gitEnvPrograms)
}

// gitConfigSet judges git config NAME VALUE (and config set NAME VALUE),
// which writes what a later git runs, where the policy no longer sees it.
func (w *walker) gitConfigSet(args []field) {
	var ops [3]field
	n := 0
	for i := 0; i < len(args) && n < len(ops); i++ {
		switch a := args[i]; {
		case inList(gitConfigValueOpts, a.s):
			i++
		case strings.HasPrefix(a.s, "-"):
		case n == 0 && a.s == "set":
		default:
			ops[n] = a
			n++
		}
	}
	if n >= 2 && ops[0].known() {
		w.gitValue(ops[0].s, ops[1], "git config "+ops[0].s)
	}
}

// gitConfigValueOpts are git config's options that take the next word.
const gitConfigValueOpts = "-f --file --blob --type -t --default --comment --value"

// gitConfigVars judges the config git takes from its environment:
// GIT_CONFIG_PARAMETERS ('NAME'='VALUE' ...) and GIT_CONFIG_COUNT pairs
// of GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n.
func (w *walker) gitConfigVars() {
	if v, ok := w.scope.get("GIT_CONFIG_PARAMETERS"); ok && !v.unset {
		if !v.known() {
			w.childString(v, nil, "GIT_CONFIG_PARAMETERS", ctx{})
		}
		for _, kv := range splitString(v.s) {
			w.gitConfig(kv, "GIT_CONFIG_PARAMETERS")
		}
	}
	if _, ok := w.scope.get("GIT_CONFIG_KEY_0"); !ok {
		return
	}
	for n := 0; n < maxGitConfigVars; n++ {
		k, ok := w.scope.get(fmt.Sprintf("GIT_CONFIG_KEY_%d", n))
		if !ok {
			return
		}
		v, _ := w.scope.get(fmt.Sprintf("GIT_CONFIG_VALUE_%d", n))
		if !k.known() {
			w.childString(v, nil, "GIT_CONFIG_VALUE", ctx{})
			continue
		}
		w.gitValue(k.s, v, "GIT_CONFIG_KEY "+k.s)
	}
}

// maxGitConfigVars bounds the GIT_CONFIG_KEY_n looked at.
const maxGitConfigVars = 100

// gitConfig judges one NAME=VALUE of git -c.
func (w *walker) gitConfig(f field, via string) {
	key, v, hasVal := strings.Cut(f.s, "=")
	if strings.Contains(key, dynMark) {
		w.childString(f, nil, via, ctx{}) // git -c "$kv": any key
		return
	}
	if !hasVal {
		return // git -c NAME: the boolean true
	}
	w.gitValue(key, field{s: v, dyn: f.dyn, dl: f.dl, dec: f.dec}, via+" "+key)
}

// gitConfigEnv judges --config-env NAME=VAR: git takes the value from
// VAR, which the environment may set when the request does not.
func (w *walker) gitConfigEnv(f field) {
	key, name, _ := strings.Cut(f.s, "=")
	v, ok := w.scope.get(name)
	if !ok {
		v = field{s: dynMark, dyn: true}
	}
	w.gitValue(key, v, "git --config-env "+key)
}

// gitValue judges a config value git runs: through a shell, or as a
// program. Keys are case-insensitive but for their subsection.
func (w *walker) gitValue(key string, v field, via string) {
	section, rest, _ := strings.Cut(key, ".")
	sub, name := "", rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		sub, name = rest[:i], rest[i+1:]
	}
	var code, program bool
	switch section, name = strings.ToLower(section), strings.ToLower(name); section {
	case "core":
		code = name == "sshcommand" || name == "pager" || name == "editor" || name == "gitproxy" ||
			name == "fsmonitor" && !gitBool(v.s)
		program = name == "askpass"
	case "sequence":
		code = name == "editor"
	case "pager":
		code = !gitBool(v.s) // pager.log=CMD; pager.log=false only turns it off
	case "alias":
		// A value starting with ! is a shell command; others are git's
		// own arguments, -c NAME=VALUE among them.
		after, bang := strings.CutPrefix(v.s, "!")
		if !bang && v.known() {
			w.gitRuns(append(litFields("git"), splitString(v.s)...))
			return
		}
		v.s, code = after, true
	case "credential":
		// helper=!CMD is a shell command; an absolute path is run as
		// it stands, and NAME ARGS as "git credential-NAME ARGS", both
		// by a shell.
		if name == "helper" && v.s != "" {
			switch {
			case strings.HasPrefix(v.s, "!"):
				v.s = v.s[1:]
			case !strings.HasPrefix(v.s, "/"):
				v.s = "git credential-" + v.s
			}
			code = true
		}
	case "diff":
		code = sub == "" && name == "external" || sub != "" && (name == "command" || name == "textconv")
	case "filter":
		code = name == "clean" || name == "smudge" || name == "process"
	case "merge":
		code = name == "driver"
	case "difftool", "mergetool", "browser", "man":
		code = name == "cmd"
	case "remote":
		code = name == "uploadpack" || name == "receivepack"
	case "uploadpack":
		code = name == "packobjectshook"
	case "gpg":
		program = name == "program"
		code = name == "defaultkeycommand"
	}
	switch {
	case code:
		w.childString(v, nil, via, ctx{})
	case program && v.s != "":
		w.childCommand([]field{v}, ctx{}, via)
	}
}

// gitBool reports whether a config value is one of git's booleans.
func gitBool(s string) bool {
	return foldInList("true false yes no on off 1 0", s) || s == ""
}

// envPrograms judges the variables of names the request set, which name
// a program that program runs.
func (w *walker) envPrograms(program, names string) {
	for names != "" {
		var name string
		name, names, _ = strings.Cut(names, " ")
		if v, ok := w.scope.get(name); ok && !v.unset && v.s != "" {
			w.childCommand([]field{v}, ctx{}, name+" for "+program)
		}
	}
}

// tarRuns judges the commands tar runs from its options, TAR_OPTIONS
// put in front of them included.
func (w *walker) tarRuns(argv []field) {
	if v, ok := w.scope.get("TAR_OPTIONS"); ok && !v.unset {
		if !v.known() {
			w.childString(v, nil, "TAR_OPTIONS", ctx{})
		}
		argv = append(append(argv[:1:1], splitString(v.s)...), argv[1:]...)
	}
	argv = tarOldStyle(argv)
	var buf [8]opt
	for _, o := range appendOpts(buf[:0], argv, tarSpec) {
		switch {
		case inList(tarCode, o.name):
			w.childString(o.val, nil, "tar --"+o.name, ctx{})
		case o.name == "checkpoint-action":
			// exec=COMMAND runs COMMAND with sh -c.
			if cmd, ok := strings.CutPrefix(o.val.s, "exec="); ok {
				w.childString(field{s: cmd, dyn: o.val.dyn}, nil, "tar --checkpoint-action=exec", ctx{})
			}
		}
	}
}

// tarOldStyle turns tar's first word, when it has no dash (tar cIf PROG
// a.tar), into options: each letter that takes a value takes the next
// word after it, in order.
func tarOldStyle(argv []field) []field {
	if len(argv) < 2 || strings.HasPrefix(argv[1].s, "-") || argv[1].dyn {
		return argv
	}
	out := argv[:1:1]
	rest := argv[2:]
	for _, ch := range argv[1].s {
		out = append(out, field{s: "-" + string(ch)})
		if strings.ContainsRune(tarSpec.shortArg, ch) && len(rest) > 0 {
			out, rest = append(out, rest[0]), rest[1:]
		}
	}
	return append(out, rest...)
}

// zipRuns judges zip -TT CMD (--unzip-command), the command zip -T
// tests the archive with, through a shell.
func (w *walker) zipRuns(argv []field) {
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a.s == "-TT" || a.s == "--unzip-command":
			if i+1 < len(argv) {
				i++
				w.childString(argv[i], nil, "zip -TT", ctx{})
			}
		case strings.HasPrefix(a.s, "--unzip-command="):
			w.childString(field{s: a.s[len("--unzip-command="):], dyn: a.dyn}, nil, "zip -TT", ctx{})
		case strings.HasPrefix(a.s, "-TT"):
			w.childString(field{s: strings.TrimPrefix(a.s[3:], "="), dyn: a.dyn}, nil, "zip -TT", ctx{})
		}
	}
}

// lessOpen judges LESSOPEN and LESSCLOSE, which less runs through a
// shell as its input preprocessor: "|CMD %s", "||CMD %s", "|-CMD %s" or
// "CMD %s".
func (w *walker) lessOpen(program string) {
	for _, name := range [...]string{"LESSOPEN", "LESSCLOSE"} {
		if v, ok := w.scope.get(name); ok && !v.unset && v.s != "" {
			v.s = strings.TrimPrefix(strings.TrimLeft(v.s, "|"), "-")
			w.childString(v, nil, name+" for "+program, ctx{})
		}
	}
}
