package policy

import "strings"

// maxWorkDirs bounds the -C directories of one command (see argPaths).
const maxWorkDirs = 16

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
	for i := 1; i < len(s.argv); i++ {
		a := s.argv[i]
		if a.s == "--" {
			break
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
				if n := len(dirs); n > 0 && !strings.HasPrefix(v.s, "/") {
					// -C / -C etc: each is relative to the one before.
					v.s, v.dyn = dirs[n-1].s+"/"+v.s, v.dyn || dirs[n-1].dyn
				}
				if len(dirs) > maxWorkDirs {
					return dirs // the caller refuses: no need to build more
				}
				dirs = append(dirs, v)
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
