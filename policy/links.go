package policy

import (
	"path"
	"slices"
	"strings"
)

// systemLinks are symlinks every Linux system has. A ".." after them goes
// up from their target, which the lexical cleaning of a path gets wrong:
// /var/run/../etc/shadow is /etc/shadow, not /var/etc/shadow.
var systemLinks = map[string]string{
	"/var/run":  "/run",
	"/var/lock": "/run/lock",
	"/dev/fd":   "/proc/self/fd",
	"/bin":      "/usr/bin",
	"/sbin":     "/usr/sbin",
	"/lib":      "/usr/lib",
	"/lib64":    "/usr/lib64",
}

// maxLinkHops bounds the symlinks one path follows, as the kernel's
// ELOOP does, so that a loop the request made ends.
const maxLinkHops = 40

// recordLinks notes the symlinks ln -s and cp -s make, so that a later
// path through them (ln -s /etc e; cat e/shadow) is judged where it
// leads. The files are shared by every subshell, so the walker, not the
// scope, holds them.
func (w *walker) recordLinks(s *simple, ct copyTarget, ops []int) {
	if len(w.unknownLinks) > 0 && !w.unknownLink {
		// A link of unknown target that this moves, copies or links
		// (mv, cp -P, ln o p) may go anywhere now: so may any path (see
		// mayBeDev).
		for _, i := range ops {
			src := s.argv[i]
			if !src.known() || src.glob {
				w.unknownLink = true // it may be one
				break
			}
			from := w.resolvePath(src.s)
			if slices.ContainsFunc(w.unknownLinks, func(l string) bool { return under(l, from) }) {
				w.unknownLink = true
				break
			}
		}
	}
	w.carryLinks(s, ct, ops)
	var symbolic bool
	switch s.name {
	case "ln":
		symbolic = hasFlag(s.argv, "s", "symbolic")
	case "cp":
		symbolic = hasFlag(s.argv, "s", "symbolic-link")
	}
	if !symbolic || len(ops) == 0 {
		return
	}
	var sources []field
	for _, i := range ops {
		sources = append(sources, s.argv[i])
	}
	switch {
	case ct.hasDir:
		for _, src := range sources {
			if named(src.s) {
				w.addLinkIn(s.name, src, ct.dir)
			}
		}
	case len(sources) == 1 && s.name == "ln":
		if named(sources[0].s) {
			w.addLinkIn(s.name, sources[0], field{s: "."})
		}
	case len(sources) >= 2:
		dest := sources[len(sources)-1]
		for _, src := range sources[:len(sources)-1] {
			if len(sources) == 2 {
				w.addLink(s.name, src, dest)
			}
			if !ct.exact && named(src.s) {
				// The destination may be a directory the link goes into.
				w.addLinkIn(s.name, src, dest)
			}
		}
	}
}

// maxLinks bounds the links the walk records: each mv or cp -a of a
// directory copies those under it.
const maxLinks = 1024

// maxLinkWork bounds the links looked at over every mv and cp of a
// request, so that many links and many copies cost linear time.
const maxLinkWork = 1 << 20

// carryLinks follows the links the request made, and those under a
// directory, through mv and through a cp that copies links as links (-a,
// -d, -P, -R without -L or -H): the new name leads where the old did
// (ln -s / a; mv a b; rm -rf b/ empties /).
func (w *walker) carryLinks(s *simple, ct copyTarget, ops []int) {
	if len(w.links) == 0 || len(ops) == 0 {
		return
	}
	switch s.name {
	case "mv":
	case "cp":
		// Also for a plain cp, which follows a link: a new name that may
		// lead there is judged as if it did.
		if hasFlag(s.argv, "L", "dereference") || hasFlag(s.argv, "H", "") {
			return
		}
	default:
		return
	}
	var dest field
	sources := make([]field, 0, len(ops))
	for _, i := range ops {
		sources = append(sources, s.argv[i])
	}
	switch {
	case ct.hasDir:
		dest = ct.dir
	case len(sources) >= 2:
		dest, sources = sources[len(sources)-1], sources[:len(sources)-1]
	default:
		return
	}
	if !dest.known() || dest.glob {
		return
	}
	if w.linkWork += len(w.links) * len(sources); w.linkWork > maxLinkWork {
		w.fail("more than %d symlinks to follow through moves and copies", maxLinkWork)
		return
	}
	to := w.resolvePath(dest.s)
	type link struct{ at, target string }
	var carried []link
	for _, src := range sources {
		if !src.known() || src.glob {
			continue
		}
		from := w.resolvePath(src.s)
		for at, target := range w.links {
			if !under(at, from) {
				continue
			}
			rest := at[len(from):]
			for _, dst := range [...]string{to, path.Join(to, path.Base(from))} {
				carried = append(carried, link{dst + rest, w.movedTarget(at, dst+rest, target)})
			}
		}
	}
	for _, l := range carried {
		if len(w.links) >= maxLinks {
			w.fail("more than %d symlinks to follow", maxLinks)
			return
		}
		w.links[l.at] = l.target
	}
}

// movedTarget is where a link that was at from leads once at to: the
// same place for an absolute target, for a relative one (ln -s .. up)
// the same text read from the new directory.
func (w *walker) movedTarget(from, to, target string) string {
	if rel, ok := w.relLinks[from]; ok {
		if w.relLinks == nil {
			w.relLinks = map[string]string{}
		}
		w.relLinks[to] = rel
		return path.Dir(to) + "/" + rel
	}
	return target
}

// named reports whether a link to target can be named after it: ln -s ..
// DIR would make DIR/.., which exists, and ln -s / DIR makes nothing new.
func named(target string) bool {
	base := path.Base(target)
	return base != "." && base != ".." && base != "/"
}

// addLinkIn records the link ln or cp -s makes for target in the
// directory dir, named after the target: one whose name the walk cannot
// tell may be any path in dir.
func (w *walker) addLinkIn(cmd string, target, dir field) {
	if target.dyn || target.glob {
		if dir.known() && !dir.glob {
			if at := w.resolvePath(dir.s); strings.HasPrefix(at, "/") && at != "/" {
				w.unknownLinks = append(w.unknownLinks, at)
				return
			}
		}
		w.unknownLink = true
		return
	}
	w.addLink(cmd, target, field{s: dir.s + "/" + path.Base(target.s), dyn: dir.dyn})
}

// addLink records that link now points at target. ln reads a relative
// target from the link's directory, cp -s from the working directory.
func (w *walker) addLink(cmd string, target, link field) {
	if target.dyn || link.dyn || target.glob || link.glob || target.s == "" {
		// A path through it may lead to a device (mayBeDev): any path,
		// where the walk cannot tell the link's own name.
		if link.dyn || link.glob || link.s == "" {
			w.unknownLink = true
		} else if at := w.resolvePath(link.s); strings.HasPrefix(at, "/") {
			w.unknownLinks = append(w.unknownLinks, at)
		}
		return
	}
	at := w.resolvePath(link.s)
	if !strings.HasPrefix(at, "/") || windowsShaped(at) {
		return
	}
	to := target.s
	if cmd == "ln" && !strings.HasPrefix(to, "/") {
		to = path.Dir(at) + "/" + to
		if w.relLinks == nil {
			w.relLinks = map[string]string{}
		}
		w.relLinks[at] = target.s
	} else {
		to = w.resolvePath(to)
	}
	if w.links == nil {
		w.links = map[string]string{}
	}
	w.links[at] = to
}

// physical resolves the absolute Unix path p as the kernel does: each
// component that is a symlink the request made, a system link or a
// /proc/PID/root or cwd link is replaced by its target before the next
// "..", which then goes up from there. cwd is what /proc/self/cwd is.
func physical(p, cwd string, links map[string]string) string {
	if cwd == "" || !strings.HasPrefix(cwd, "/") {
		cwd = "/" + dynMark
	}
	var stack []string
	// buf is "/" + stack joined, kept as the stack moves so that each
	// lookup costs one component, not the whole path.
	var buf []byte
	var ends []int // len(buf) before each stack entry
	push := func(part string) {
		ends = append(ends, len(buf))
		buf = append(append(buf, '/'), part...)
		stack = append(stack, part)
	}
	reset := func(parts []string) {
		stack, buf, ends = stack[:0], buf[:0], ends[:0]
		for _, part := range parts {
			push(part)
		}
	}
	pending := strings.Split(p, "/")
	for hops := 0; len(pending) > 0; {
		if len(pending)+len(stack) > maxPathParts {
			return "/" + dynMark // the kernel refuses such a path too
		}
		part := pending[0]
		pending = pending[1:]
		switch part {
		case "", ".":
			continue
		case "..":
			if n := len(stack); n > 0 {
				stack, buf, ends = stack[:n-1], buf[:ends[n-1]], ends[:n-1]
			}
			continue
		}
		push(part)
		switch procLink(stack) {
		case "root":
			reset(nil)
			continue
		case "cwd":
			reset(strings.FieldsFunc(cwd, func(r rune) bool { return r == '/' }))
			continue
		}
		if hops >= maxLinkHops {
			continue
		}
		to, ok := links[string(buf)]
		if ok && len(pending) > 0 && pending[0] != "" && links[string(buf)+"/"+pending[0]] != "" {
			// ln -s /usr d records d and, should d be a directory, d/usr:
			// a path through d/usr is in the world where d is one.
			ok = false
		} else if !ok {
			to, ok = systemLinks[string(buf)]
		}
		if !ok {
			continue
		}
		hops++
		// The target's components replace the link, relative to its
		// directory unless absolute.
		if strings.HasPrefix(to, "/") {
			reset(nil)
		} else {
			n := len(stack)
			stack, buf, ends = stack[:n-1], buf[:ends[n-1]], ends[:n-1]
		}
		pending = append(strings.Split(to, "/"), pending...)
	}
	if len(stack) == 0 {
		return "/"
	}
	return string(buf)
}

// maxPathParts bounds the components of a path being resolved: a link to
// a long path, followed again and again, would otherwise grow it forty
// times over (PATH_MAX is 4096 bytes).
const maxPathParts = 2048

// hasDotDot reports whether s has a ".." component.
func hasDotDot(s string) bool {
	return s == ".." || strings.HasPrefix(s, "../") || strings.HasSuffix(s, "/..") || strings.Contains(s, "/../")
}

// afterLastDotDot returns what follows the last ".." of s anchored at /,
// when a component other than ".." comes before it: the policy cannot
// know which components are links, and X/.. may go up from anywhere.
// /var/run/../etc/shadow is also /etc/shadow; ../x alone is not.
func afterLastDotDot(s string) (string, bool) {
	if !hasDotDot(s) {
		return "", false
	}
	parts := strings.Split(s, "/")
	last := -1
	for i, part := range parts {
		if part == ".." {
			last = i
		}
	}
	if last < 0 {
		return "", false
	}
	named := false
	for _, part := range parts[:last] {
		if part != "" && part != "." && part != ".." {
			named = true
		}
	}
	if !named {
		return "", false
	}
	return path.Clean("/" + strings.Join(parts[last+1:], "/")), true
}

// pathAlternatives returns the other places the word s may name, besides
// its lexical resolution p: see linkAlternatives, and against the other
// directory an earlier cd may have entered.
func (w *walker) pathAlternatives(s, p string) []string {
	out := linkAlternatives(s, p, w.scope.cwd, w.links)
	if !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, dynMark) {
		// Where a failed cd may have left the shell.
		for _, d := range w.scope.stay.dirs {
			if q := resolve(s, d); q != p {
				out = append(out, q)
			}
		}
	}
	if w.scope.altCwd != "" && !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, dynMark) {
		if q := physical(w.scope.altCwd+"/"+s, w.scope.cwd, w.links); q != p {
			out = append(out, q)
		}
	}
	return out
}

// linkAlternatives returns the other places the word s, resolved
// lexically against cwd as p, may name: through the links the request
// made and the system's, and through the unknown physical target of a
// component before "..".
func linkAlternatives(s, p, cwd string, links map[string]string) []string {
	if strings.HasPrefix(s, dynMark) || windowsShaped(p) || !strings.HasPrefix(p, "/") {
		return nil
	}
	if len(links) == 0 && !hasDotDot(s) {
		return nil // the common case: nothing to see through
	}
	full := s
	if !strings.HasPrefix(s, "/") {
		full = cwd + "/" + s
	}
	var out []string
	add := func(q string) {
		if q != p {
			out = append(out, q)
		}
	}
	add(physical(full, cwd, links))
	if q, ok := afterLastDotDot(s); ok {
		add(physical(q, cwd, links))
	}
	return out
}
