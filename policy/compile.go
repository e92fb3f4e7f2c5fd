package policy

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"mvdan.cc/sh/v3/syntax"
)

// Env holds the facts about this run that the CLI supplies. Paths are
// absolute; Windows-shaped strings are allowed.
type Env struct {
	Workspace, Cwd, Home string
	Mode                 string // "local", "linux", "windows" or "wsl"
	// WritesEnforced says the mode confines writes in the kernel (linux,
	// windows); false for local and wsl.
	WritesEnforced bool
}

// A Policy is a compiled [Config] for one [Env]. It is safe for concurrent
// use.
type Policy struct {
	cfg                  *Config
	env                  Env
	home, cwd, workspace string
	denied               []pathPat
	allowed              []pathPat
	allowWrite           []pathPat
	pathRules            []pathPat
	cmdRules             []cmdPat
	deniedCmds           []string
	sensitive            []string // literal names in denied patterns, for globs
	sensitiveDirs        []string // those of them that are directories
	approval             string
	literalBackslash     bool // windows mode: a backslash is a separator, not an escape
	parsers              sync.Pool
	deniedIndex          compIndex
	// retainCmds: some rule needs every command at the end of the walk.
	retainCmds bool
}

// compIndex answers "which is the first denied pattern matching one
// component of this path" in one pass over the components, for the
// "**/name", "**/*.ext" and "**/name.*" patterns that make up most of the
// list.
type compIndex struct {
	lit      map[string]int // component -> first pattern index
	suffixes []indexed      // "*.pem"
	prefixes []indexed      // ".env.*"
	others   []int          // patterns that need their own matcher
}

type indexed struct {
	s   string
	idx int
}

func newCompIndex(pats []pathPat) compIndex {
	ix := compIndex{lit: map[string]int{}}
	for i := range pats {
		pp := &pats[i]
		switch {
		case pp.kind != kindComponent || pp.windows():
			ix.others = append(ix.others, i)
		case pp.compLit != "":
			if _, ok := ix.lit[pp.compLit]; !ok {
				ix.lit[pp.compLit] = i
			}
		case pp.compSuffix != "":
			ix.suffixes = append(ix.suffixes, indexed{pp.compSuffix, i})
		case pp.compPrefix != "":
			ix.prefixes = append(ix.prefixes, indexed{pp.compPrefix, i})
		default:
			ix.others = append(ix.others, i)
		}
	}
	return ix
}

// first returns the index of the first pattern matching t, or -1.
func (ix *compIndex) first(pats []pathPat, t target) int {
	best := -1
	better := func(i int) {
		if best < 0 || i < best {
			best = i
		}
	}
	components(t.path, func(part string) bool {
		if i, ok := ix.lit[part]; ok {
			better(i)
		}
		for _, s := range ix.suffixes {
			if strings.HasSuffix(part, s.s) {
				better(s.idx)
			}
		}
		for _, s := range ix.prefixes {
			if strings.HasPrefix(part, s.s) {
				better(s.idx)
			}
		}
		return false
	})
	for _, i := range ix.others {
		if best >= 0 && i > best {
			break
		}
		if pats[i].matchTarget(t) {
			better(i)
			break
		}
	}
	return best
}

type pathPat struct {
	id     string // e.g. "denied_paths[3]:**/.ssh/**"
	raw    string
	glob   string
	lower  string // for case-insensitive (Windows) matching
	action Action
	access string
	// Fast forms of the common shapes, so a decision stays in microseconds.
	kind patKind
	lit  string // kindPrefix: the literal path; kindComponent: the component glob
	// kindComponent sub-forms: compare a literal, a "*.ext" suffix or a
	// "name.*" prefix without a glob engine.
	compLit, compPrefix, compSuffix string
	compGlob                        bool
	seq                             []string // kindSeq: "**/.config/gcloud/**"
	seqLit                          string   // "/.config/gcloud" when seq has no glob
}

type patKind int

const (
	kindGeneral   patKind = iota // doublestar on the path and its parents
	kindPrefix                   // "/etc/shadow", "/etc/sudoers.d/**"
	kindComponent                // "**/.env", "**/*.pem", "**/.ssh/**"
	kindSeq                      // "**/.config/gcloud/**": consecutive components
)

// windows reports whether the pattern is Windows-shaped.
func (pp *pathPat) windows() bool { return windowsShaped(pp.glob) }

// classify finds the fast form of a pattern.
func (pp *pathPat) classify() {
	g := pp.glob
	const meta = "*?[{\\"
	if rest, ok := strings.CutPrefix(g, "**/"); ok {
		rest = strings.TrimSuffix(rest, "/**")
		if rest != "" && !strings.Contains(rest, "/") && !strings.Contains(rest, "**") {
			pp.kind, pp.lit = kindComponent, rest
			if pp.windows() {
				pp.lit = strings.ToLower(rest)
			}
			body := pp.lit
			switch {
			case !strings.ContainsAny(body, meta):
				pp.compLit = body
			case strings.HasPrefix(body, "*") && !strings.ContainsAny(body[1:], meta):
				pp.compSuffix = body[1:]
			case strings.HasSuffix(body, "*") && !strings.ContainsAny(body[:len(body)-1], meta):
				pp.compPrefix = body[:len(body)-1]
			default:
				pp.compGlob = true
			}
			return
		}
		if rest != "" && !strings.Contains(rest, "**") && !strings.HasPrefix(rest, "/") && !strings.HasSuffix(rest, "/") {
			pp.kind = kindSeq
			if pp.windows() {
				rest = strings.ToLower(rest)
			}
			pp.seq = strings.Split(rest, "/")
			if !strings.ContainsAny(rest, meta) {
				pp.seqLit = "/" + rest
			}
			return
		}
	}
	base := strings.TrimSuffix(g, "/**")
	if !strings.ContainsAny(base, meta) && isAbs(base) {
		pp.kind, pp.lit = kindPrefix, base
	}
}

type cmdPat struct {
	id     string
	tokens []string
	action Action
}

// Compile validates every pattern of c once and binds it to env: "~" and
// "$HOME" become env.Home, "<cwd>" becomes env.Cwd and "<workspace>"
// becomes env.Workspace. c is copied; later changes to it have no effect.
func Compile(c *Config, env Env) (*Policy, error) {
	if c == nil {
		return nil, fmt.Errorf("policy: compile: nil config")
	}
	c = c.clone()
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("policy: compile: %w", err)
	}
	for _, s := range []string{env.Workspace, env.Cwd, env.Home} {
		if strings.Contains(s, "\x00") {
			return nil, fmt.Errorf("policy: compile: NUL byte in a path of the environment")
		}
	}
	p := &Policy{cfg: c, env: env, approval: c.Safety.ApprovalMode, literalBackslash: env.Mode == "windows"}
	if env.Home != "" {
		p.home = NormalizePath(env.Home, "")
	}
	if env.Workspace != "" {
		p.workspace = NormalizePath(env.Workspace, "")
	}
	p.cwd = NormalizePath(env.Cwd, "")
	if p.cwd == "" {
		p.cwd = p.workspace
	}
	if p.cwd != "" && !isAbs(p.cwd) {
		return nil, fmt.Errorf("policy: compile: working directory %q is not absolute", env.Cwd)
	}
	s := &c.Safety
	for i, g := range s.DeniedPaths {
		pp, err := p.pattern(g, false)
		if err != nil {
			return nil, fmt.Errorf("policy: compile: denied_paths[%d]: %w", i, err)
		}
		pp.id = ruleID("denied_paths", i, g)
		p.denied = append(p.denied, pp)
		p.addSensitive(pp.glob)
	}
	for i, g := range s.AllowedPaths {
		pp, err := p.pattern(g, true)
		if err != nil {
			return nil, fmt.Errorf("policy: compile: allowed_paths[%d]: %w", i, err)
		}
		pp.id = ruleID("allowed_paths", i, g)
		p.allowed = append(p.allowed, pp)
	}
	for i, g := range c.Exec.AllowWrite {
		pp, err := p.pattern(g, true)
		if err != nil {
			return nil, fmt.Errorf("policy: compile: aar_exec.allow_write[%d]: %w", i, err)
		}
		// A directory given to --allow-write covers what is under it.
		if !strings.HasSuffix(pp.glob, "/**") {
			pp.glob += "/**"
			pp.lower = strings.ToLower(pp.glob)
			pp.classify()
		}
		p.allowWrite = append(p.allowWrite, pp)
	}
	for i, r := range s.PathRules {
		pp, err := p.pattern(r.Pattern, false)
		if err != nil {
			return nil, fmt.Errorf("policy: compile: path_rules[%d]: %w", i, err)
		}
		pp.id = ruleID("path_rules", i, r.Pattern)
		pp.action, pp.access = r.Action, r.Access
		p.pathRules = append(p.pathRules, pp)
	}
	for i, r := range s.CommandRules {
		toks := strings.Fields(r.Pattern)
		for _, t := range toks {
			if _, err := path.Match(t, ""); err != nil {
				return nil, fmt.Errorf("policy: compile: command_rules[%d]: bad pattern %q: %w", i, t, err)
			}
		}
		p.cmdRules = append(p.cmdRules, cmdPat{id: ruleID("command_rules", i, r.Pattern), tokens: toks, action: r.Action})
	}
	for _, d := range s.DeniedCommands {
		p.deniedCmds = append(p.deniedCmds, strings.ToLower(strings.Join(strings.Fields(d), " ")))
	}
	p.deniedIndex = newCompIndex(p.denied)
	p.retainCmds = len(p.cmdRules) > 0 || len(p.deniedCmds) > 0 || s.ReadOnly || s.RequireApprovalForExecute ||
		s.RequireApprovalForWrites || p.approval != ApprovalAuto || len(p.allowed) > 0 && !env.WritesEnforced
	if p.approval == ApprovalAuto && s.RequireApprovalForWrites {
		p.approval = ApprovalAskForWrites
	}
	return p, nil
}

// pattern expands and validates one path glob. Relative patterns match at
// any depth ("secrets.json" is "**/secrets.json"), except in allowed_paths
// and allow_write, where they are relative to the working directory.
func (p *Policy) pattern(raw string, relToCwd bool) (pathPat, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return pathPat{}, fmt.Errorf("empty pattern")
	}
	if strings.ContainsRune(s, 0) {
		return pathPat{}, fmt.Errorf("NUL byte in pattern %q", raw)
	}
	for _, pre := range []struct{ prefix, value, what string }{
		{"<cwd>", p.cwd, "working directory"},
		{"<workspace>", p.workspace, "workspace"},
		{"${HOME}", p.home, "home directory"},
		{"$HOME", p.home, "home directory"},
		{"~", p.home, "home directory"},
	} {
		rest, ok := strings.CutPrefix(s, pre.prefix)
		if !ok || rest != "" && rest[0] != '/' && rest[0] != '\\' {
			continue
		}
		if pre.value == "" {
			return pathPat{}, fmt.Errorf("pattern %q needs the %s, which is not known", raw, pre.what)
		}
		s = pre.value + rest
		break
	}
	switch abs, ok := normAbs(s); {
	case ok:
		s = abs
	case relToCwd:
		if p.cwd == "" {
			return pathPat{}, fmt.Errorf("relative pattern %q needs the working directory, which is not known", raw)
		}
		s = resolve(s, p.cwd)
	default:
		s = strings.TrimPrefix(s, "./")
		if !strings.HasPrefix(s, "**/") && s != "**" {
			s = "**/" + s
		}
	}
	if !doublestar.ValidatePattern(s) {
		return pathPat{}, fmt.Errorf("bad glob %q", raw)
	}
	pp := pathPat{raw: raw, glob: s, lower: strings.ToLower(s)}
	pp.classify()
	return pp, nil
}

// addSensitive remembers the literal names of a denied pattern, so that a
// glob such as /etc/shado? can be tested against them.
func (p *Policy) addSensitive(glob string) {
	for rest := glob; rest != ""; {
		part, after, isDir := strings.Cut(rest, "/")
		rest = after
		if part == "" || hasGlobMeta(part) {
			continue
		}
		if !slices.Contains(p.sensitive, part) {
			p.sensitive = append(p.sensitive, part)
		}
		if isDir && !slices.Contains(p.sensitiveDirs, part) {
			p.sensitiveDirs = append(p.sensitiveDirs, part)
		}
	}
}

// hasGlobMeta reports whether part holds a glob operator or an escape.
func hasGlobMeta(part string) bool {
	for i := 0; i < len(part); i++ {
		switch part[i] {
		case '*', '?', '[', '{', '\\':
			return true
		}
	}
	return false
}

// ruleID names rule i of a config list in decisions and audit lines:
// denied_paths[3]:~/.ssh/**. Built with concatenation: fmt.Sprintf was a
// fifth of Compile, which runs on every launch.
func ruleID(list string, i int, pattern string) string {
	return list + "[" + strconv.Itoa(i) + "]:" + pattern
}

// match reports whether path or one of its parents matches the pattern:
// denying a directory denies what is inside it.
func (pp *pathPat) match(p string) bool {
	return pp.matchTarget(newTarget(p))
}

// A target is a path prepared once for matching against many patterns.
type target struct {
	path string // lower-cased when Windows-shaped
	fold bool
}

func newTarget(p string) target {
	if windowsShaped(p) {
		return target{path: strings.ToLower(p), fold: true}
	}
	return target{path: p}
}

// components calls yield with each non-empty component of p, in order,
// without allocating.
func components(p string, yield func(part string) bool) bool {
	for p != "" {
		var part string
		part, p, _ = strings.Cut(p, "/")
		if part != "" && yield(part) {
			return true
		}
	}
	return false
}

func (pp *pathPat) matchTarget(t target) bool {
	switch pp.kind {
	case kindPrefix:
		lit := pp.lit
		if t.fold {
			lit = strings.ToLower(lit)
		}
		return t.path == lit || strings.HasPrefix(t.path, lit) && (strings.HasSuffix(lit, "/") || len(t.path) > len(lit) && t.path[len(lit)] == '/')
	case kindComponent:
		lit := pp.lit
		if t.fold && !pp.windows() {
			// A Unix-shaped "**/.ssh/**" also matches C:/Users/u/.SSH.
			lit = strings.ToLower(lit)
		}
		return components(t.path, func(part string) bool {
			switch {
			case pp.compLit != "":
				return part == lit
			case pp.compSuffix != "":
				return strings.HasSuffix(part, lit[1:])
			case pp.compPrefix != "":
				return strings.HasPrefix(part, lit[:len(lit)-1])
			}
			ok, _ := path.Match(lit, part)
			return ok
		})
	case kindSeq:
		if pp.seqLit != "" && !t.fold {
			// Find "/.config/gcloud" ending at a component boundary.
			for rest := t.path; ; {
				i := strings.Index(rest, pp.seqLit)
				if i < 0 {
					return false
				}
				end := i + len(pp.seqLit)
				if end == len(rest) || rest[end] == '/' {
					return true
				}
				rest = rest[i+1:]
			}
		}
		comps := strings.FieldsFunc(t.path, func(r rune) bool { return r == '/' })
	outer:
		for i := 0; i+len(pp.seq) <= len(comps); i++ {
			for j, want := range pp.seq {
				part := comps[i+j]
				if t.fold && !pp.windows() {
					want = strings.ToLower(want)
				}
				if part == want {
					continue
				}
				if ok, _ := path.Match(want, part); !ok {
					continue outer
				}
			}
			return true
		}
		return false
	}
	glob, cur := pp.glob, t.path
	if t.fold || pp.windows() {
		glob, cur = pp.lower, strings.ToLower(cur)
	}
	for {
		if doublestar.MatchUnvalidated(glob, cur) {
			return true
		}
		parent, ok := parentOf(cur)
		if !ok {
			return false
		}
		cur = parent
	}
}

// parentOf returns the parent of a normalised path, and false at a root.
func parentOf(p string) (string, bool) {
	switch {
	case p == "/" || p == "" || p == ".":
		return "", false
	case isDrive(p) && len(p) <= 3:
		return "", false
	case strings.HasPrefix(p, "//") && strings.Count(p[2:], "/") <= 1:
		return "", false
	}
	d := path.Dir(p)
	if d == "." {
		return "", false
	}
	if isDrive(d) && len(d) == 2 {
		d += "/"
	}
	return d, true
}

// matchUse matches a path the command names; a glob in it is also tried
// against the literal names of the denied patterns.
func (p *Policy) matchUse(pp *pathPat, u pathUse) bool {
	if pp.matchTarget(u.target) {
		return true
	}
	if !u.glob {
		return false
	}
	m := globMatcher{p: p, pp: pp, parts: strings.Split(collapseStars(u.path), "/"), budget: maxGlobTries}
	return m.from(0)
}

// maxGlobTries bounds the names tried for the glob parts of one path:
// /*/*/*/*/x would otherwise try every combination. Past it the path is
// taken to match, which fails closed.
const maxGlobTries = 4096

// A globMatcher tries the sensitive names in place of a path's glob parts,
// each set of parts once, left to right.
type globMatcher struct {
	p      *Policy
	pp     *pathPat
	parts  []string
	budget int
	res    map[string]*regexp.Regexp // each part compiled once
}

func (m *globMatcher) from(start int) bool {
	parts := m.parts
	for i := start; i < len(parts); i++ {
		part := parts[i]
		// A last component of wildcards only ("ls *", "ls [!.]*") is not
		// tried against every denied name; /???/shadow and /etc/[s]* still
		// are, matched as bash matches them.
		if !hasBashGlob(part) {
			continue
		}
		dot := globMayMatchDot(part)
		if i == len(parts)-1 && wildcardOnly(part) && !dot {
			continue
		}
		if len(part) > maxGlobPart {
			return true
		}
		re := m.regexp(part)
		names := m.p.sensitive
		if i < len(parts)-1 {
			names = m.p.sensitiveDirs // "*/README.md" is not "credentials/README.md"
		}
		for _, name := range names {
			if strings.HasPrefix(name, ".") && !dot {
				continue // bash globs skip dot files
			}
			if re != nil && !re.MatchString(name) {
				continue
			}
			if m.budget--; m.budget < 0 {
				return true
			}
			parts[i] = name
			alternative := strings.Join(parts, "/")
			found := m.pp.matchTarget(newTarget(alternative)) || m.from(i+1)
			parts[i] = part
			if found {
				return true
			}
		}
	}
	return false
}

func (m *globMatcher) regexp(part string) *regexp.Regexp {
	if re, ok := m.res[part]; ok {
		return re
	}
	if m.res == nil {
		m.res = map[string]*regexp.Regexp{}
	}
	re := globRegexp(part)
	m.res[part] = re
	return re
}

// DeniedLocations returns the absolute locations of the denied paths that
// are absolute or ~-anchored, with a trailing "/**" or "/*" trimmed
// ("~/.ssh/**" -> "/home/u/.ssh"). Patterns matching at any depth, such as
// "**/.env", and patterns with other glob characters are left out. The
// Linux launcher makes these unreadable in the kernel.
func (p *Policy) DeniedLocations() []string {
	var out []string
	seen := map[string]bool{}
	for _, pp := range p.denied {
		g := pp.glob
		if strings.HasPrefix(g, "**") {
			continue
		}
		for _, tail := range []string{"/**", "/*"} {
			g = strings.TrimSuffix(g, tail)
		}
		if hasGlobMeta(g) || g == "/" || strings.HasSuffix(g, ":/") || g == "" {
			continue
		}
		if !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	return out
}

// parser returns a bash parser from the pool.
func (p *Policy) parser() *syntax.Parser {
	if v, ok := p.parsers.Get().(*syntax.Parser); ok {
		return v
	}
	return syntax.NewParser(syntax.Variant(syntax.LangBash))
}
