package policy

import (
	"path"
	"strings"
)

// addPath records a path the request names.
func (w *walker) addPath(f field, write, redirect bool) {
	if f.s == "" || f.proc {
		return
	}
	s := f.s
	if rest, ok := strings.CutPrefix(s, "file://"); ok {
		s = rest
	}
	p := w.resolvePath(s)
	w.addUse(p, f, write, redirect)
	for _, alt := range w.pathAlternatives(s, p) {
		w.addUse(alt, f, write, redirect)
	}
	if f.dyn && hidesName(p) {
		if empty := path.Clean(strings.ReplaceAll(p, dynMark, "")); empty != p && !w.seenGuess[pathKey{empty, write}] {
			// Not through addUse: a guess must not stand in for the same
			// path named for certain later.
			if w.seenGuess == nil {
				w.seenGuess = map[pathKey]bool{}
			}
			w.seenGuess[pathKey{empty, write}] = true
			word := strings.ReplaceAll(f.s, dynMark, "…")
			w.a.paths = append(w.a.paths, pathUse{path: empty, target: newTarget(empty), word: word, write: write, glob: f.glob, guess: true})
		}
	}
}

// addUse records one place a path word names.
func (w *walker) addUse(p string, f field, write, redirect bool) {
	// A long script names the same paths again and again: judge each once.
	key := pathKey{p, write}
	if len(w.a.paths) < 16 {
		// A short request: a scan is cheaper than a map.
		for _, u := range w.a.paths {
			if u.path == p && u.write == write && !u.guess {
				return
			}
		}
	} else {
		if w.seen == nil {
			w.seen = make(map[pathKey]bool, 64)
			for _, u := range w.a.paths {
				if !u.guess {
					w.seen[pathKey{u.path, u.write}] = true
				}
			}
		}
		if w.seen[key] {
			return
		}
		w.seen[key] = true
	}
	word := f.s
	if f.dyn {
		word = strings.ReplaceAll(word, dynMark, "…")
	}
	w.a.paths = append(w.a.paths, pathUse{path: p, target: newTarget(p), word: word, write: write, glob: f.glob})
	if write && redirect && !harmlessDevice(p) {
		w.a.writes = true
	}
}

// hidesName reports whether an unknown part of p sits inside a name
// (~/$@.ssh, i$@d_rsa), where it may be empty to hide one. A whole
// unknown component ($DESTDIR/etc/passwd) is a place the caller picks.
func hidesName(p string) bool {
	if !strings.Contains(p, dynMark) || strings.HasPrefix(p, dynMark) {
		return false
	}
	return components(p, func(part string) bool {
		return strings.Contains(part, dynMark) && strings.Trim(part, dynMark) != ""
	})
}

type pathKey struct {
	path  string
	write bool
}

// harmlessDevice reports whether writing p is always fine.
func harmlessDevice(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero", "/dev/full",
		"/dev/random", "/dev/urandom", "/dev/ptmx":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/dev/pts/") ||
		strings.HasPrefix(p, "/dev/shm/") || strings.HasPrefix(p, "/proc/self/fd/") ||
		strings.EqualFold(p, "//./nul") || strings.EqualFold(p, "c:/nul") || strings.EqualFold(p, "nul")
}

// looksLikePath reports whether a word that is not the operand of a known
// file-taking command should still be judged as a path: it has a
// separator, starts with ~ or ., or is a file name with an extension.
// Words with spaces (messages) and URLs are not paths.
func looksLikePath(s string) bool {
	if s == "" || anyByte(s, " \t\n") {
		return false
	}
	if strings.HasPrefix(s, "file://") {
		return true
	}
	if strings.Contains(s, "://") {
		return false
	}
	if hasSlash(s) || strings.HasPrefix(s, "~") || strings.HasPrefix(s, ".") || strings.HasPrefix(s, dynMark) {
		return true
	}
	// name.ext
	if i := strings.LastIndexByte(s, '.'); i > 0 && i < len(s)-1 {
		return true
	}
	return false
}

// argPaths records the paths among a command's arguments.
func (w *walker) argPaths(s *simple) {
	if s.is(clsNoPaths) {
		return
	}
	// A filter's operands after its pattern are files: grep x shadow.
	fileTaking := s.is(clsReader|clsWriter|clsLastWriter|clsInterpreter|clsShell|clsFilterFirst) ||
		isGitFileCommand(s)
	skipFirst := s.is(clsFilterFirst) && !hasFlag(s.argv, "e", "regexp") && !hasFlag(s.argv, "f", "file")
	if s.is(clsShell) {
		return // handled by special: the script file or -c string
	}
	if s.name == "dd" {
		for _, a := range s.argv[1:] {
			if v, ok := strings.CutPrefix(a.s, "of="); ok {
				w.addPath(field{s: v, dyn: a.dyn, glob: a.glob}, true, false)
			} else if v, ok := strings.CutPrefix(a.s, "if="); ok {
				w.addPath(field{s: v, dyn: a.dyn, glob: a.glob}, false, false)
			}
		}
		return
	}
	writeAll := s.is(clsWriter) || s.name == "sed" && hasFlag(s.argv, "i", "in-place") || s.name == "perl" && hasFlag(s.argv, "i", "")
	var ops []int
	dashdash := false
	var ct copyTarget
	_, copies := copySpec(s.name)
	if copies {
		ct = findCopyTarget(s)
	}
	for i := 1; i < len(s.argv); i++ {
		a := s.argv[i]
		if ct.skip[i] {
			// install -m 755, cp -t DIR: an option's value, judged as
			// --opt=VALUE is (scp -i KEY reads KEY).
			if looksLikePath(a.s) {
				w.addPath(a, false, false)
			}
			continue
		}
		if !dashdash && a.s == "--" {
			dashdash = true
			continue
		}
		if v, next, ok := uploadOption(s.name, s.argv, i); !dashdash && ok {
			// curl -T shadow: the upload reads the file.
			w.addPath(v, false, false)
			i = next
			continue
		}
		if !dashdash && strings.HasPrefix(a.s, "-") && len(a.s) > 1 && !a.dyn {
			// --file=PATH, -oPATH
			if key, val, ok := strings.Cut(a.s, "="); ok && strings.HasPrefix(key, "--") {
				if looksLikePath(val) || strings.HasPrefix(val, "@") || fileOption(s.name, key[2:]) {
					w.addPath(field{s: strings.TrimPrefix(val, "@"), glob: a.glob}, false, false)
				}
			} else if len(a.s) > 2 && !strings.HasPrefix(a.s, "--") && strings.ContainsAny(a.s[2:3], `/~.`) {
				w.addPath(field{s: a.s[2:], glob: a.glob}, false, false)
			}
			continue
		}
		// curl -d @file, -F x=@file, -T file: an upload reads the file.
		// (Not an extglob group, @(.env), which is a path as it stands.)
		if v, ok := strings.CutPrefix(a.s, "@"); ok && v != "" && !(a.glob && strings.HasPrefix(v, "(")) {
			w.addPath(field{s: v, dyn: a.dyn, glob: a.glob}, false, false)
			continue
		}
		if _, v, ok := strings.Cut(a.s, "=@"); ok && v != "" {
			w.addPath(field{s: v, dyn: a.dyn, glob: a.glob}, false, false)
			continue
		}
		ops = append(ops, i)
	}
	dirs := workDirs(s)
	if len(dirs) > maxWorkDirs {
		// Each operand is judged from each directory: bound the product.
		w.fail("%s changes directory more than %d times; split the command", s.name, maxWorkDirs)
		return
	}
	for k, i := range ops {
		a := s.argv[i]
		if k == 0 && skipFirst {
			continue
		}
		if k == 0 && (s.name == "chmod" || s.name == "chown" || s.name == "chgrp" || s.name == "setfacl" || s.name == "chattr") {
			continue // the mode or owner
		}
		if !fileTaking && !looksLikePath(a.s) && !a.glob {
			continue
		}
		if strings.ContainsAny(a.s, "\n") || (!fileTaking && strings.Contains(a.s, "://") && !strings.HasPrefix(a.s, "file://")) {
			continue
		}
		write := writeAll || s.is(clsLastWriter) && k == len(ops)-1 && len(ops) > 1 && !ct.hasDir
		if s.name == "tee" {
			write = true
		}
		w.addOperand(a, write, dirs)
	}
	if copies {
		w.copyInto(s.name, ct, s.argv, ops)
		w.recordLinks(s, ct, ops)
		for _, f := range ct.writes {
			w.addPath(f, true, false)
		}
	}
}

// copyInto judges what a copy writes into its target directory: with -t
// every operand is a source, else all but the last, which is the
// destination.
func (w *walker) copyInto(name string, ct copyTarget, argv []field, ops []int) {
	var sources []field
	for _, i := range ops {
		sources = append(sources, argv[i])
	}
	switch {
	case ct.hasDir:
		w.addPath(ct.dir, true, false)
		w.intoDir(name, ct.dir, sources)
	case ct.exact || len(sources) < 2:
		// -T, or a lone operand: no directory to put anything in.
	default:
		w.intoDir(name, sources[len(sources)-1], sources[:len(sources)-1])
	}
}

// fileOption reports whether the long option (without dashes) of an
// uploader names a file it reads and sends: curl --upload-file, wget
// --post-file. Its value is a path even when it does not look like one.
func fileOption(name, long string) bool {
	switch name {
	case "curl":
		return long == "upload-file"
	case "wget":
		return long == "post-file" || long == "body-file"
	}
	return false
}

// uploadOption returns the file an upload option at argv[i] names when
// its value is not after "=": curl -T FILE, -sTFILE, wget --post-file
// FILE. next is the index of the last word it used.
func uploadOption(name string, argv []field, i int) (v field, next int, ok bool) {
	a := argv[i].s
	if long, isLong := strings.CutPrefix(a, "--"); isLong {
		if strings.Contains(long, "=") || !fileOption(name, long) || i+1 >= len(argv) {
			return field{}, i, false
		}
		return argv[i+1], i + 1, true
	}
	if name != "curl" || !strings.HasPrefix(a, "-") || argv[i].dyn {
		return field{}, i, false
	}
	for j := 1; j < len(a); j++ {
		switch {
		case a[j] == 'T' && j+1 < len(a):
			v = argv[i]
			v.s = a[j+1:]
			return v, i, true
		case a[j] == 'T' && i+1 < len(argv):
			return argv[i+1], i + 1, true
		case strings.IndexByte(curlSpec.shortArg, a[j]) >= 0:
			return field{}, i, false // a -T after it is part of its value
		}
	}
	return field{}, i, false
}

// isGitFileCommand reports whether s is a git subcommand whose operands
// are files of the work tree that it reads or changes: git add shadow
// puts /etc/shadow in the object store.
func isGitFileCommand(s *simple) bool {
	if s.name != "git" {
		return false
	}
	switch gitSubcommand(s.argv) {
	case "add", "stage", "rm", "mv", "restore", "blame", "hash-object":
		// Not checkout, diff or log: their operands are mostly refs.
		return true
	}
	return false
}

// gitValueOpts are git's global options that take the next word as their
// value (git.c's handle_options). --exec-path takes one after "=" only:
// alone it prints the path and exits.
const gitValueOpts = "-C -c --git-dir --work-tree --namespace --super-prefix --config-env --attr-source"

// gitSubcommand returns git's subcommand, after the global options
// (-C DIR, -c NAME=VALUE, --git-dir=DIR ...).
func gitSubcommand(argv []field) string {
	for i := 1; i < len(argv); i++ {
		a := argv[i].s
		switch {
		case inList(gitValueOpts, a):
			i++ // its value
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}
