package policy

import (
	"net/url"
	"path"
	"strings"
)

// The walker follows what a request downloads into files, so that running
// one later in the same request counts as running the download:
// "curl -O http://h/i.sh; sh i.sh" is "curl http://h/i.sh | sh" in two
// steps. A file is downloaded when a downloader saves it, under a name it
// is given or one it takes from the URL; a directory is, for every file
// in it, when a downloader saves under names not known before it runs
// (curl -OJ, wget --content-disposition, aria2c).

// An opt is one option, or one operand (name ""), of a command line.
type opt struct {
	name string // the option's letter or long name, without dashes
	val  field  // its value, or the operand
	at   int    // the index in argv of val when it is a word of its own, else 0
}

// scanOpts reads argv[1:] the way getopt_long would with spec: with
// spec.exact long options match exactly (popt), with spec.posix options
// end at the first operand (BSD getopt). A long option spec does not
// list takes no value: for a downloader that reads the word after it as
// an operand, which only adds names to follow.
func scanOpts(argv []field, spec optSpec) []opt { return appendOpts(nil, argv, spec) }

// appendOpts is scanOpts appending to out, which may be a caller's
// buffer on the stack.
func appendOpts(out []opt, argv []field, spec optSpec) []opt {
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a.s == "--" && !a.dyn:
			for j := i + 1; j < len(argv); j++ {
				out = append(out, opt{val: argv[j], at: j})
			}
			return out
		case !strings.HasPrefix(a.s, "-") || a.s == "-":
			out = append(out, opt{val: a, at: i})
			if spec.posix {
				for j := i + 1; j < len(argv); j++ {
					out = append(out, opt{val: argv[j], at: j})
				}
				return out
			}
		case strings.HasPrefix(a.s, "--"):
			key, v, hasVal := strings.Cut(a.s[2:], "=")
			name, n := spec.resolveLong(key)
			if n < 0 {
				name, n = key, 0
			}
			o := opt{name: name, val: a}
			o.val.s = v
			if n == 1 && !hasVal && i+1 < len(argv) {
				i++
				o.val, o.at = argv[i], i
			}
			out = append(out, o)
		default:
			out, i = shortBundle(out, argv, i, spec.shortArg)
		}
	}
	return out
}

// shortBundle appends the short options bundled in argv[i] (-sSLo FILE)
// to out: one that takes a value ends the bundle. It returns the index
// of the last word it used.
func shortBundle(out []opt, argv []field, i int, shortArg string) ([]opt, int) {
	bundle := argv[i].s[1:]
	for j := 0; j < len(bundle); j++ {
		ch := bundle[j : j+1]
		if !strings.Contains(shortArg, ch) {
			out = append(out, opt{name: ch})
			continue
		}
		o := opt{name: ch, val: argv[i]}
		o.val.s = bundle[j+1:]
		if o.val.s == "" && i+1 < len(argv) {
			i++
			o.val, o.at = argv[i], i
		}
		return append(out, o), i
	}
	return out, i
}

// dlTargets is where a download saves what it fetches.
type dlTargets struct {
	files []field // files it writes
	dirs  []field // directories it writes into under names not known here
	trees []field // the same, subdirectories included (wget -r)
}

// saveURLs adds the files a downloader saves each URL operand to, in
// dir under the URL's name; a name not known makes the whole dir count.
func (t *dlTargets) saveURLs(dir field, urls []field) {
	for _, u := range urls {
		names, ok := urlNames(u)
		if !ok {
			t.dirs = append(t.dirs, dir)
			continue
		}
		for _, n := range names {
			t.files = append(t.files, joinField(dir, field{s: n}))
		}
	}
}

// urlNames returns the names a downloader may save a URL under: its
// last path component, with and without the query (wget keeps it, curl
// drops it), as written and percent-decoded. ok is false when the name
// is not known: a variable, a curl glob ([1-9], {a,b}).
func urlNames(u field) ([]string, bool) {
	s := u.s
	if _, rest, ok := strings.Cut(s, "://"); ok {
		s = rest
		if _, p, ok := strings.Cut(s, "/"); ok {
			s = p
		} else {
			s = "" // http://host: no path
		}
	}
	s, _, _ = strings.Cut(s, "#")
	name := s[strings.LastIndex(s, "/")+1:]
	if strings.Contains(name, dynMark) || strings.ContainsAny(name, "[]{}") {
		return nil, false
	}
	noQuery, _, _ := strings.Cut(name, "?")
	if noQuery == "" {
		noQuery = "index.html" // wget's name for a directory
	}
	names := []string{noQuery}
	if name != noQuery && name != "" {
		names = append(names, name)
	}
	for _, n := range names {
		if d, err := url.PathUnescape(n); err == nil && d != n {
			names = append(names, d)
		}
	}
	return names, true
}

// joinField is dir/name, or name when it is absolute.
func joinField(dir, name field) field {
	if strings.HasPrefix(name.s, "/") || dir.s == "" || dir.s == "." {
		return name
	}
	return field{s: dir.s + "/" + name.s, dyn: dir.dyn || name.dyn}
}

// optVals returns the values of the named options among opts.
func optVals(opts []opt, names string) []field {
	var out []field
	for _, o := range opts {
		if o.name != "" && inList(names, o.name) {
			out = append(out, o.val)
		}
	}
	return out
}

// hasOpt reports whether one of the named options is among opts.
func hasOpt(opts []opt, names string) bool {
	for _, o := range opts {
		if o.name != "" && inList(names, o.name) {
			return true
		}
	}
	return false
}

// lastVal is the last value of the named options, or def.
func lastVal(opts []opt, names string, def field) field {
	for i := len(opts) - 1; i >= 0; i-- {
		if o := opts[i]; o.name != "" && inList(names, o.name) {
			return o.val
		}
	}
	return def
}

// operandsOf returns the operands among opts.
func operandsOf(opts []opt) []field {
	var out []field
	for _, o := range opts {
		if o.name == "" {
			out = append(out, o.val)
		}
	}
	return out
}

var (
	curlSpec = optSpec{shortArg: "AbcCdDeEFHKmoPQrtTuUwxXyYz",
		longArg: "output output-dir url header data data-raw data-binary data-urlencode data-ascii user " +
			"user-agent referer request write-out proxy cookie cookie-jar max-time connect-timeout retry " +
			"retry-delay retry-max-time limit-rate cacert capath cert key form form-string range resolve " +
			"connect-to proto proto-redir max-redirs max-filesize dns-servers interface oauth2-bearer config " +
			"upload-file time-cond continue-at dump-header proxy-user",
		long: "remote-name remote-name-all remote-header-name"}
	wgetSpec = optSpec{shortArg: "oaeiBtTwQPOUDXIARl",
		longArg: "output-document directory-prefix output-file append-output execute input-file base tries " +
			"timeout wait quota user-agent domains exclude-directories include-directories accept reject level " +
			"header post-data post-file body-data method user password http-user http-password referer " +
			"load-cookies save-cookies ca-certificate certificate private-key default-page cut-dirs",
		long: "content-disposition trust-server-names recursive mirror force-directories page-requisites"}
	aria2Spec = optSpec{shortArg: "dilojsxktmTMU",
		longArg: "dir out input-file log max-concurrent-downloads split max-connection-per-server " +
			"min-split-size timeout max-tries torrent-file metalink-file user-agent header"}
	httpieSpec = optSpec{shortArg: "oaApPs",
		longArg: "output auth auth-type print history-print style session session-read-only verify cert " +
			"cert-key proxy timeout max-redirects boundary pretty default-scheme",
		long: "download continue"}
	axelSpec  = optSpec{shortArg: "snoHUT", longArg: "max-speed num-connections output header user-agent timeout"}
	fetchSpec = optSpec{shortArg: "oBNSTi", longArg: "output"}
)

// downloadTargets returns where the downloader s saves what it fetches.
// Output to stdout is followed elsewhere, as for any command.
func downloadTargets(s *simple) dlTargets {
	switch s.name {
	case "curl", "curlie":
		return curlTargets(scanOpts(s.argv, curlSpec))
	case "wget":
		return wgetTargets(scanOpts(s.argv, wgetSpec))
	case "aria2c":
		return aria2Targets(scanOpts(s.argv, aria2Spec))
	case "http", "https", "httpie", "xh", "xhs":
		return httpieTargets(scanOpts(s.argv, httpieSpec))
	case "axel":
		return namedOrURLTargets(scanOpts(s.argv, axelSpec))
	case "fetch":
		return namedOrURLTargets(scanOpts(s.argv, fetchSpec))
	case "lwp-download":
		return lwpTargets(operands(s.argv))
	}
	return dlTargets{}
}

// curlTargets: -o FILE, and -O (--remote-name) the URL's name, both
// under --output-dir; with -J the server names the file.
func curlTargets(opts []opt) dlTargets {
	var t dlTargets
	dir := lastVal(opts, "output-dir", field{s: "."})
	for _, o := range optVals(opts, "o output") {
		t.files = append(t.files, o, joinField(dir, o)) // as written too: an absolute -o
	}
	if !hasOpt(opts, "O remote-name remote-name-all") {
		return t
	}
	if hasOpt(opts, "J remote-header-name") {
		t.dirs = append(t.dirs, dir)
		return t
	}
	t.saveURLs(dir, append(operandsOf(opts), optVals(opts, "url")...))
	return t
}

// wgetTargets: -O FILE, else each URL's name under -P; options that let
// the server or a recursion pick the names make the directory count.
func wgetTargets(opts []opt) dlTargets {
	var t dlTargets
	if outs := optVals(opts, "O output-document"); len(outs) > 0 {
		t.files = outs
		return t
	}
	dir := lastVal(opts, "P directory-prefix", field{s: "."})
	switch {
	case hasOpt(opts, "r recursive m mirror x force-directories p page-requisites"):
		t.trees = append(t.trees, dir)
	case hasOpt(opts, "content-disposition trust-server-names i input-file e execute default-page"):
		t.dirs = append(t.dirs, dir)
	default:
		t.saveURLs(dir, operandsOf(opts))
	}
	return t
}

// aria2Targets: -o FILE under -d DIR; without -o the name may come from
// the server, and a torrent or metalink makes directories of its own.
func aria2Targets(opts []opt) dlTargets {
	var t dlTargets
	dir := lastVal(opts, "d dir", field{s: "."})
	outs := optVals(opts, "o out")
	for _, o := range outs {
		t.files = append(t.files, joinField(dir, o))
	}
	if len(outs) == 0 {
		t.trees = append(t.trees, dir)
	}
	return t
}

// httpieTargets: -o FILE; --download without it saves under a name the
// server may pick.
func httpieTargets(opts []opt) dlTargets {
	var t dlTargets
	t.files = optVals(opts, "o output")
	if len(t.files) == 0 && hasOpt(opts, "d download") {
		t.dirs = append(t.dirs, field{s: "."})
	}
	return t
}

// namedOrURLTargets (axel, fetch): -o names a file, or a directory to
// save into; without it the URL's name.
func namedOrURLTargets(opts []opt) dlTargets {
	var t dlTargets
	if outs := optVals(opts, "o output"); len(outs) > 0 {
		t.files, t.dirs = outs, outs
		return t
	}
	t.saveURLs(field{s: "."}, operandsOf(opts))
	return t
}

// lwpTargets: lwp-download URL [LOCAL], LOCAL a file or a directory;
// without it the server may name the file.
func lwpTargets(ops []field) dlTargets {
	if len(ops) > 1 {
		return dlTargets{files: ops[1:2], dirs: ops[1:2]}
	}
	return dlTargets{dirs: []field{{s: "."}}}
}

// downloadOutput remembers the files a downloader saves, so that running
// them later in the request counts as running a download.
func (w *walker) downloadOutput(s *simple) {
	t := downloadTargets(s)
	for _, f := range t.files {
		if f.known() && f.s != "-" && f.s != "" {
			w.noteDownloaded(w.resolvePath(f.s))
		}
	}
	for i, dirs := range [2][]field{t.dirs, t.trees} {
		for _, d := range dirs {
			if d.known() && d.s != "" {
				w.noteDownloadDir(w.resolvePath(d.s), i == 1)
			}
		}
	}
}

// dlState is what the walker knows of the downloads a request saved,
// besides the files marked downloaded in walker.files. Its indexes keep
// each command's look-ups short in a long script.
type dlState struct {
	// dirs are directories downloads saved into under names not known
	// here; true: their subdirectories too.
	dirs    map[string]bool
	onPath  map[string]bool // names downloaded into a bin directory
	binDir  bool            // a bin directory is one of dirs
	parents map[string]bool // directories with downloads in them; nil: none yet
	work    int             // entries copies of directories went through
}

// maxDLWork bounds the downloaded entries copies of directories carry
// over (cp -r d e, again and again): past it the request is not judged.
const maxDLWork = 1 << 18

// noteDownloaded marks the file at the normalised path p as downloaded.
func (w *walker) noteDownloaded(p string) {
	if w.files == nil {
		w.files = map[string]fileInfo{}
	}
	w.files[p] = fileInfo{downloaded: true}
	dir := path.Dir(p)
	if path.Base(dir) == "bin" {
		if w.dl.onPath == nil {
			w.dl.onPath = map[string]bool{}
		}
		w.dl.onPath[path.Base(p)] = true
	}
	w.noteParents(dir)
}

// noteDownloadDir marks every file in the directory dir (and below it,
// with tree) as downloaded.
func (w *walker) noteDownloadDir(dir string, tree bool) {
	if w.dl.dirs == nil {
		w.dl.dirs = map[string]bool{}
	}
	w.dl.dirs[dir] = w.dl.dirs[dir] || tree
	w.dl.binDir = w.dl.binDir || path.Base(dir) == "bin"
	w.noteParents(dir)
}

// noteParents records dir and the directories above it as holding a
// download.
func (w *walker) noteParents(dir string) {
	if w.dl.parents == nil {
		w.dl.parents = map[string]bool{}
	}
	// The walk up ends at a directory already noted: "/" is noted first
	// time round, and is its own parent.
	for !w.dl.parents[dir] {
		w.dl.parents[dir] = true
		dir = parentDir(dir)
	}
}

// parentDir is path.Dir for a clean absolute path, in time independent of
// its length: walking a deep path up costs one step per level.
func parentDir(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		if strings.HasPrefix(p, "/") {
			return "/"
		}
		return "."
	}
	return p[:i]
}

// isDownloaded reports whether the request downloaded the file at the
// normalised path p.
func (w *walker) isDownloaded(p string) bool {
	if w.files[p].downloaded {
		return true
	}
	if len(w.dl.dirs) == 0 {
		return false
	}
	parent := path.Dir(p)
	for d := parent; ; d = parentDir(d) {
		if tree, ok := w.dl.dirs[d]; ok && (tree || d == parent) {
			return true
		}
		if d == "/" || d == "." {
			return false
		}
	}
}

// readsDownload reports whether a command names a downloaded file among
// its arguments (dd if=FILE too): what it prints may be the download, as
// in "cat f | sh" or sh -c "$(cat f)".
func (w *walker) readsDownload(argv []field) bool {
	if w.dl.parents == nil {
		return false
	}
	for _, a := range argv[1:] {
		s, _ := strings.CutPrefix(a.s, "if=")
		if a.known() && s != "" && !strings.HasPrefix(s, "-") && w.isDownloaded(w.resolvePath(s)) {
			return true
		}
	}
	return false
}

// runsDownloaded marks s when f, a file it runs as code, was downloaded.
// Unlike runFile it never reads f's known text as shell: python3 f runs
// Python.
func (w *walker) runsDownloaded(s *simple, f field) {
	if f.known() && f.s != "" && w.isDownloaded(w.resolvePath(f.s)) {
		s.runsDL = true
	}
}

// interpreterScript returns the script file an interpreter runs: its
// first operand (awk: the value of -f). ok is false when it runs code
// given inline (-c, -e, -m) or stdin.
func interpreterScript(s *simple) (f field, ok bool) {
	filterFirst := s.is(clsFilterFirst) // awk: the first operand is the program text
	for i := 1; i < len(s.argv); i++ {
		a := s.argv[i]
		switch {
		case a.dyn || !strings.HasPrefix(a.s, "-"):
			return a, !filterFirst
		case a.s == "-f" || a.s == "--file" || strings.EqualFold(a.s, "-File"):
			if i+1 < len(s.argv) {
				return s.argv[i+1], true
			}
			return field{}, false
		case a.s == "--" || a.s == "-":
			if a.s == "--" && i+1 < len(s.argv) && !filterFirst {
				return s.argv[i+1], true
			}
			return field{}, false
		case inlineCode(s.name, a.s) && !filterFirst:
			return field{}, false
		case inList("-W -X -I -C -r --require --import --loader -v -F", a.s):
			i++ // an option's value, not the script
		}
	}
	return field{}, false
}

// inlineCode reports whether an interpreter's option gives it code to
// run, so that no script file follows.
func inlineCode(name, a string) bool {
	switch {
	case inList("-c -e -E -m --eval --print -Command -command", a):
		return true
	case a == "-p":
		return name == "node" || name == "nodejs" || name == "deno" || name == "bun"
	case a == "-r":
		return name == "php"
	}
	return false
}

// shellStartupFiles marks s when the shell it starts reads a downloaded
// file first: BASH_ENV, ENV, --rcfile, --init-file.
func (w *walker) shellStartupFiles(s *simple) {
	for _, name := range [...]string{"BASH_ENV", "ENV"} {
		if v, ok := w.scope.get(name); ok {
			w.runsDownloaded(s, v)
		}
	}
	for i := 1; i+1 < len(s.argv); i++ {
		if a := s.argv[i].s; a == "--rcfile" || a == "--init-file" {
			w.runsDownloaded(s, s.argv[i+1])
		}
	}
}

// copyDownloads follows the downloaded files (and /dev/stdin, when it
// carries a download) that cp, mv, ln, install, rsync and scp copy
// elsewhere: a downloaded file they copy is a downloaded file still.
func (w *walker) copyDownloads(s *simple) {
	spec, ok := copySpec(s.name)
	if !ok || w.dl.parents == nil && !s.c.stdinDL {
		return
	}
	opts := scanOpts(s.argv, spec)
	if s.name == "install" && hasOpt(opts, "d directory") {
		return // install -d makes directories
	}
	srcs, dest := operandsOf(opts), lastVal(opts, "t target-directory", field{})
	switch {
	case dest.s != "":
	case len(srcs) == 1 && s.name == "ln":
		dest = field{s: "."} // ln -s /x/f: ./f
	case len(srcs) >= 2:
		srcs, dest = srcs[:len(srcs)-1], srcs[len(srcs)-1]
	default:
		return
	}
	if !dest.known() {
		return
	}
	to := w.resolvePath(dest.s)
	for _, src := range srcs {
		if !src.known() {
			continue
		}
		from := w.resolvePath(src.s)
		stdin := s.c.stdinDL && (src.s == "/dev/stdin" || src.s == "-")
		w.copyDownload(from, to, stdin)
		if s.name == "ln" && !strings.HasPrefix(src.s, "/") {
			// ln -s f d/g: a relative link points from d.
			w.copyDownload(path.Join(path.Dir(to), src.s), to, false)
		}
	}
}

// copyDownload notes that from (a file, or a directory) was copied to
// to, which may be the new name or a directory to copy into.
func (w *walker) copyDownload(from, to string, downloaded bool) {
	into := path.Join(to, path.Base(from))
	if downloaded || w.isDownloaded(from) {
		w.noteDownloaded(to)
		w.noteDownloaded(into)
	}
	if w.dl.parents[from] {
		w.copyDownloadDir(from, to, into)
	}
}

// copyDownloadDir carries the files and directories downloaded into the
// directory from over to its copies to and into.
func (w *walker) copyDownloadDir(from, to, into string) {
	// Collected first: the maps grow below.
	var files, dirs []string
	for p, info := range w.files {
		if info.downloaded && under(p, from) {
			files = append(files, p)
		}
	}
	for d := range w.dl.dirs {
		if under(d, from) {
			dirs = append(dirs, d)
		}
	}
	if w.dl.work += len(w.files) + len(w.dl.dirs); w.dl.work > maxDLWork {
		w.fail("more than %d downloaded files to follow through copies", maxDLWork)
		return
	}
	for _, dst := range [...]string{to, into} {
		for _, p := range files {
			w.noteDownloaded(dst + p[len(from):])
		}
		for _, d := range dirs {
			w.noteDownloadDir(dst+d[len(from):], w.dl.dirs[d])
		}
	}
}

// under reports whether the normalised path p is dir or inside it.
func under(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// pathDirs returns the known directories of a PATH the request set
// (PATH=.:$PATH f), in this shell or in words (env PATH=. f): running a
// name looks there first.
func (w *walker) pathDirs(words []field) []string {
	var paths []string
	if v, ok := w.scope.get("PATH"); ok {
		paths = append(paths, v.s)
	}
	for _, f := range words {
		if v, ok := strings.CutPrefix(f.s, "PATH="); ok {
			paths = append(paths, v)
		}
	}
	var dirs []string
	for _, d := range strings.Split(strings.Join(paths, ":"), ":") {
		if strings.Contains(d, dynMark) || len(paths) == 0 {
			continue // most likely the PATH it started with
		}
		if d == "" {
			d = "." // an empty entry is the working directory
		}
		dirs = append(dirs, w.resolvePath(d))
	}
	return dirs
}

// fillDownloads marks the files a command that reads a download fills
// with what it reads: tee and sponge write stdin to their operands
// (curl x | sudo tee /usr/local/bin/x), dd to of=.
func (w *walker) fillDownloads(s *simple) {
	var outs []field
	switch s.name {
	case "tee", "sponge":
		outs = operands(s.argv)
	case "dd":
		for _, a := range s.argv[1:] {
			if v, ok := strings.CutPrefix(a.s, "of="); ok {
				outs = append(outs, field{s: v, dyn: a.dyn})
			}
		}
	}
	for _, f := range outs {
		if f.known() && f.s != "" {
			w.noteDownloaded(w.resolvePath(f.s))
		}
	}
}
