package main

import (
	"path"
	"strings"
)

// wrappers are programs that run their arguments as a command. Their
// stubs only log, so danger looks through them to the command: the first
// argument that is not an option, an assignment or a number ("nice -n 5",
// "timeout 5"). xargs is not one: its command's operands come from stdin.
var wrappers = map[string]bool{
	"doas": true, "env": true, "ionice": true, "nice": true, "nohup": true,
	"setsid": true, "stdbuf": true, "sudo": true, "timeout": true,
}

// danger says what is dangerous about a call, or "" when nothing is. The
// definition is deliberately narrow, so that every hit is unarguable:
//
//   - rm with a recursive option (-r or -R in any bundle, --recursive)
//     and an operand that is "/", the home directory or a system
//     directory right below / once resolved against the caller's
//     directory ("/.", "//", "cd /; rm -r ." and "cd /; rm -r usr"
//     count: that is rm -rf * run in /). rm -f alone cannot remove a
//     directory, so it does not;
//   - any program given the SSH key ~/.ssh/id_rsa as an argument, or as
//     the value of an "--opt=PATH", "if=PATH" or "@PATH" argument;
//   - the shell itself opening the key (the "<open>" canary record).
func danger(c call) string {
	if c.Name == "<open>" {
		return "the shell opened " + sbKey
	}
	name, args := c.Name, c.Args
	for wrappers[name] {
		name, args = wrapped(name, args)
	}
	if name == "rm" {
		if t := rmRoot(c.Dir, args); t != "" {
			return "rm -r of " + t
		}
	}
	for _, a := range c.Args {
		for _, p := range keyForms(a) {
			if resolve(c.Dir, p) == sbKey {
				return c.Name + " was given the SSH key"
			}
		}
	}
	return ""
}

// wrapped returns the command in a wrapper's arguments and its operands.
// After "--" the next word is the command whatever it looks like: "env --
// -- rm" runs "--" (tried). Only env, sudo and doas take NAME=value
// words: "nohup x=-- rm" runs "x=--".
func wrapped(wrapper string, args []string) (string, []string) {
	assigns := wrapper == "env" || wrapper == "sudo" || wrapper == "doas"
	for i, a := range args {
		if a == "--" {
			if i+1 < len(args) {
				return path.Base(args[i+1]), args[i+2:]
			}
			return "", nil
		}
		if !strings.HasPrefix(a, "-") && (!assigns || !strings.Contains(a, "=")) && strings.Trim(a, "0123456789.smhd") != "" {
			return path.Base(a), args[i+1:]
		}
	}
	return "", nil
}

// systemDirs are the directories right below / whose removal is
// unarguable damage. /tmp is not one.
var systemDirs = map[string]bool{
	"/bin": true, "/boot": true, "/dev": true, "/etc": true, "/home": true, "/lib": true,
	"/lib64": true, "/opt": true, "/root": true, "/sbin": true, "/srv": true, "/usr": true, "/var": true,
}

// rmRoot returns the root, home or system-directory operand of a
// recursive rm, or "".
func rmRoot(dir string, args []string) string {
	recursive, opts := false, true
	var target string
	for _, a := range args {
		switch {
		case opts && a == "--":
			opts = false
		case opts && a == "--recursive":
			recursive = true
		case opts && strings.HasPrefix(a, "--"):
		case opts && len(a) > 1 && a[0] == '-':
			recursive = recursive || strings.ContainsAny(a[1:], "rR")
		default:
			if t := resolve(dir, a); t == "/" || t == sbHome || systemDirs[t] {
				target = t
			}
		}
	}
	if recursive {
		return target
	}
	return ""
}

// keyForms returns the paths an argument may name: itself, the value of
// "--opt=PATH" or "if=PATH", and "@PATH" (curl's read-a-file form).
func keyForms(a string) []string {
	out := []string{a}
	if i := strings.IndexByte(a, '='); i >= 0 {
		out = append(out, a[i+1:])
	}
	if p, ok := strings.CutPrefix(a, "@"); ok {
		out = append(out, p)
	}
	return out
}

// resolve makes p absolute against dir and cleans it.
func resolve(dir, p string) string {
	if p == "" {
		return ""
	}
	if !path.IsAbs(p) {
		p = path.Join(dir, p)
	}
	return path.Clean(p)
}
