package policy

import "strings"

// maxWorkDirs bounds the -C directories of one command (see argPaths).
const maxWorkDirs = 16

// tarValueLetters are GNU tar's short options that take a value.
const tarValueLetters = "bCfFgHIKLNTVX"

// workDirs returns the directories a command that is not a wrapper
// changes to before it opens its file operands: tar -C DIR and
// --directory=DIR, git -C DIR and --work-tree=DIR. tar -C DIR applies
// only to the operands after it, but judging every operand from every
// such directory, and from the working directory, is never less.
func workDirs(s *simple) []field {
	var opts []string
	switch s.name {
	case "tar", "bsdtar", "gtar":
		opts = []string{"-C", "--directory"}
	case "git":
		opts = []string{"-C", "--work-tree"}
	default:
		return nil
	}
	var dirs []field
	add := func(v field) bool {
		if n := len(dirs); n > 0 && !strings.HasPrefix(v.s, "/") {
			// -C / -C etc: each is relative to the one before.
			v.s, v.dyn = dirs[n-1].s+"/"+v.s, v.dyn || dirs[n-1].dyn
		}
		dirs = append(dirs, v)
		return len(dirs) <= maxWorkDirs // else the caller refuses
	}
	i := 1
	if s.name != "git" && len(s.argv) > 1 && s.argv[1].s != "" && !strings.HasPrefix(s.argv[1].s, "-") {
		// The old style, tar cfC ARCHIVE DIR: the values of the letters
		// that take one follow the cluster, in order.
		i = 2
		for _, ch := range s.argv[1].s {
			if !strings.ContainsRune(tarValueLetters, ch) || i >= len(s.argv) {
				continue
			}
			if ch == 'C' && !add(s.argv[i]) {
				return dirs
			}
			i++
		}
	}
	for ; i < len(s.argv); i++ {
		a := s.argv[i]
		if a.s == "--" {
			break
		}
		if s.name != "git" && len(a.s) > 2 && a.s[0] == '-' && a.s[1] != '-' {
			// A cluster, -cC DIR or -xzC/etc: the first letter that takes
			// a value takes the rest of the word or the next word.
			if j := strings.IndexAny(a.s[1:], tarValueLetters); j >= 0 {
				v, next := a, i
				v.s = a.s[j+2:]
				if v.s == "" && i+1 < len(s.argv) {
					v, next = s.argv[i+1], i+1
				}
				if a.s[j+1] == 'C' && v.s != "" && !add(v) {
					return dirs
				}
				i = next
				continue
			}
		}
		if s.name == "git" && !strings.HasPrefix(a.s, "-") {
			break // the subcommand: its own -C is something else
		}
		if s.name == "git" && inList(gitValueOpts, a.s) && a.s != "-C" && a.s != "--work-tree" {
			i++ // a value that is not the subcommand
			continue
		}
		for _, opt := range opts {
			if v, ok := optValue(s.argv, i, opt, s.name != "git"); ok {
				if !add(v) {
					return dirs
				}
				if a.s == opt || strings.HasPrefix(opt, "--") && !strings.Contains(a.s, "=") {
					i++ // the value was the next word
				}
				break
			}
		}
	}
	return dirs
}

// optValue returns the value of opt (-C or --directory) when argv[i] is
// that option: -C DIR, -CDIR, --directory=DIR or --directory DIR, or
// with abbrev, as getopt_long reads it, --dir=DIR.
func optValue(argv []field, i int, opt string, abbrev bool) (field, bool) {
	a := argv[i]
	if long, ok := strings.CutPrefix(opt, "--"); ok && abbrev {
		key, _, _ := strings.Cut(strings.TrimPrefix(a.s, "--"), "=")
		if strings.HasPrefix(a.s, "--") && len(key) >= 3 && strings.HasPrefix(long, key) {
			opt = "--" + key
		}
	}
	if a.s == opt {
		if i+1 < len(argv) {
			return argv[i+1], true
		}
		return field{}, false
	}
	sep := "="
	if !strings.HasPrefix(opt, "--") {
		sep = ""
	}
	if v, ok := strings.CutPrefix(a.s, opt+sep); ok && v != "" {
		a.s = v
		return a, true
	}
	return field{}, false
}

// addOperand judges a file operand from the working directory and from
// each directory the command changes to (tar -C /etc -cf - shadow reads
// /etc/shadow).
func (w *walker) addOperand(a field, write bool, dirs []field) {
	w.addPath(a, write, false)
	for _, d := range dirs {
		saved := w.scope.cwd
		if d.dyn {
			w.scope.cwd = "/" + dynMark
		} else {
			w.scope.cwd = w.resolvePath(d.s)
		}
		w.addPath(a, write, false)
		w.scope.cwd = saved
	}
}
