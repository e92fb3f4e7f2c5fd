package policy

import (
	"path"
	"strings"
)

// copySpec returns the options of the commands that copy, move or link
// sources into a destination. findCopyTarget and copyDownloads both read
// argv with it, so that an option's value (install -m 755, rsync -T
// /tmp) is an operand to neither. cp, mv, ln and install list every long
// option, for getopt_long's abbreviations (--target=DIR).
func copySpec(name string) (optSpec, bool) {
	switch name {
	case "cp":
		return optSpec{shortArg: "St", longArg: "no-preserve sparse suffix target-directory",
			long: "archive attributes-only backup context copy-contents debug dereference force interactive " +
				"keep-directory-symlink link no-clobber no-dereference no-target-directory one-file-system parents " +
				"path preserve recursive reflink remove-destination strip-trailing-slashes symbolic-link update " +
				"verbose help version"}, true
	case "mv":
		return optSpec{shortArg: "St", longArg: "suffix target-directory",
			long: "backup context debug exchange force interactive no-clobber no-copy no-target-directory " +
				"strip-trailing-slashes update verbose help version"}, true
	case "ln":
		return optSpec{shortArg: "St", longArg: "suffix target-directory",
			long: "backup directory force interactive logical no-dereference no-target-directory physical " +
				"relative symbolic verbose help version"}, true
	case "install":
		return optSpec{shortArg: "gmoSt", longArg: "group mode owner strip-program suffix target-directory",
			long: "backup compare context debug directory no-target-directory preserve-context " +
				"preserve-timestamps strip verbose help version"}, true
	case "rsync":
		// popt matches long options exactly; rsync -t keeps times.
		return optSpec{shortArg: "@BMTef", exact: true, longArg: "address backup-dir block-size bwlimit cc " +
			"checksum-choice checksum-seed chmod chown compare-dest compress-choice compress-level config " +
			"contimeout copy-as copy-dest debug dparam early-input exclude exclude-from files-from filter " +
			"groupmap iconv include include-from info link-dest log-file log-file-format log-format max-alloc " +
			"max-delete max-size min-size modify-window only-write-batch out-format outbuf partial-dir " +
			"password-file port protocol read-batch remote-option rsh rsync-path skip-compress sockopts " +
			"stderr stop-after stop-at suffix temp-dir time-limit timeout usermap write-batch zc zl"}, true
	case "scp":
		// BSD getopt: no long options, none after the first operand.
		return optSpec{shortArg: "DFJPSXcilo", exact: true, posix: true}, true
	}
	return optSpec{}, false
}

// rsyncWrites are rsync's options whose value is a file it writes or a
// directory it writes into.
const rsyncWrites = "T temp-dir backup-dir partial-dir log-file write-batch only-write-batch"

// copyTarget is where a copying command puts its sources.
type copyTarget struct {
	dir    field // -t DIR, --target-directory=DIR
	hasDir bool
	skip   map[int]bool // argv indices that are option values, not operands
	exact  bool         // -T: the last operand is the file itself
	writes []field      // other files the command writes (rsync --log-file)
}

// findCopyTarget reads the options of cp, mv, ln, install, rsync or scp,
// as copySpec describes them, for the target directory and the values
// that are not operands (install -m 755).
func findCopyTarget(s *simple) copyTarget {
	spec, _ := copySpec(s.name)
	var ct copyTarget
	var buf [8]opt // most copies have few words: keep them off the heap
	for _, o := range appendOpts(buf[:0], s.argv, spec) {
		if o.name != "" && o.at > 0 {
			ct.skipArg(o.at)
		}
		switch {
		case s.name == "rsync" && inList(rsyncWrites, o.name):
			ct.writes = append(ct.writes, o.val)
			if strings.HasSuffix(o.name, "write-batch") {
				// and FILE.sh, a script to replay the batch
				ct.writes = append(ct.writes, field{s: o.val.s + ".sh", dyn: o.val.dyn, glob: o.val.glob})
			}
		case !strings.Contains(spec.shortArg, "t"):
			// rsync -t keeps times, scp -T is not -T.
		case o.name == "t" || o.name == "target-directory":
			ct.dir, ct.hasDir = o.val, true
		case o.name == "T" || o.name == "no-target-directory":
			ct.exact = true
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
