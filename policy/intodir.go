package policy

import (
	"path"
	"strings"
)

// copyValueOpts names, for the commands that copy, move or link sources
// into a destination, their short options that take a value; -t among
// them names the target directory. rsync and scp have no -t (rsync -t
// keeps times), so only their last operand is a destination.
func copyValueOpts(name string) (short string, ok bool) {
	switch name {
	case "cp", "mv", "ln":
		return "St", true
	case "install":
		return "gmoSt", true
	case "rsync", "scp":
		return "", true
	}
	return "", false
}

// copyTarget is where a copying command puts its sources.
type copyTarget struct {
	dir    field // -t DIR, --target-directory=DIR
	hasDir bool
	skip   map[int]bool // argv indices that are option values, not operands
	exact  bool         // -T: the last operand is the file itself
}

// findCopyTarget reads the options of cp, mv, ln, install, rsync or scp
// the way getopt_long does, for the target directory and the values that
// are not operands (install -m 755).
func findCopyTarget(s *simple) copyTarget {
	short, _ := copyValueOpts(s.name)
	var ct copyTarget
	if s.name != "rsync" && s.name != "scp" {
		ct.exact = hasFlag(s.argv, "T", "no-target-directory")
	}
	for i := 1; i < len(s.argv); i++ {
		a := s.argv[i].s
		switch {
		case a == "--":
			return ct
		case strings.HasPrefix(a, "--"):
			key, val, eq := strings.Cut(a[2:], "=")
			// Any prefix, down to --t: none of these has another long
			// option starting with t.
			if key == "" || !strings.HasPrefix("target-directory", key) || short == "" {
				continue
			}
			if eq {
				ct.dir, ct.hasDir = field{s: val, dyn: s.argv[i].dyn, glob: s.argv[i].glob}, true
			} else if i+1 < len(s.argv) {
				ct.dir, ct.hasDir = s.argv[i+1], true
				ct.skipArg(i + 1)
				i++
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			i = ct.shortCluster(s.argv, i, short)
		}
	}
	return ct
}

// skipArg marks argv[i] as an option's value. The map is made only then:
// most copies have no such option, and Check runs before every command.
func (ct *copyTarget) skipArg(i int) {
	if ct.skip == nil {
		ct.skip = map[int]bool{}
	}
	ct.skip[i] = true
}

// shortCluster reads one cluster of short options, -sfT or -m755 or
// -t DIR, and returns the index of the last word it used.
func (ct *copyTarget) shortCluster(argv []field, i int, short string) int {
	a := argv[i].s
	for j := 1; j < len(a); j++ {
		if !strings.ContainsRune(short, rune(a[j])) {
			continue
		}
		// The option takes the rest of the word, or the next word.
		val, next := a[j+1:], i
		if val == "" && i+1 < len(argv) {
			val, next = argv[i+1].s, i+1
			ct.skipArg(i + 1)
		}
		if a[j] == 't' {
			f := argv[next]
			f.s = val
			ct.dir, ct.hasDir = f, true
		}
		return next
	}
	return i
}

// isRemote reports whether an scp or rsync operand names another host:
// a ":" before any "/".
func isRemote(s string) bool {
	i := strings.IndexByte(s, ':')
	return i > 0 && !strings.Contains(s[:i], "/")
}

// intoDir judges, for a copy into a directory (cp passwd /etc/, cp -t /etc
// passwd), the file each source becomes there: DIR/basename(SOURCE). The
// policy cannot know whether the destination is a directory, so the
// destination itself is judged too, by the caller.
func (w *walker) intoDir(name string, dest field, sources []field) {
	if (name == "scp" || name == "rsync") && isRemote(dest.s) {
		return // host:dir/ is written on that host
	}
	for _, src := range sources {
		base := path.Base(strings.TrimRight(src.s, "/"))
		if base == "/" || base == "." || base == ".." || strings.Contains(src.s, "://") {
			continue
		}
		// scp host:passwd /etc/ writes /etc/passwd.
		if i := strings.LastIndexByte(base, ':'); i >= 0 && (name == "scp" || name == "rsync") {
			base = base[i+1:]
		}
		w.addPath(field{s: dest.s + "/" + base, dyn: dest.dyn || src.dyn, glob: dest.glob || src.glob}, true, false)
	}
}
