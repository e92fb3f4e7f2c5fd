package policy

import "strings"

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
		if v, ok := w.scope.get(name); ok && !v.unset && v.s != "" {
			w.childString(v, nil, name+" for "+program, ctx{})
		}
	}
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
