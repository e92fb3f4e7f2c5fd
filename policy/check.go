package policy

import (
	"fmt"
	"path"
	"runtime"
	"strings"
	"unicode/utf8"
)

// A Request is one command to judge: either a shell string (the -c form,
// a script file or a script read from stdin) or an argv (the "--" form).
// When both are set, both are judged and the stricter decision wins.
type Request struct {
	Script string   // judged by parsing it as bash
	Argv   []string // judged as one simple command, and its sh -c payloads
	// Shell is the base name of the shell that runs Script ("bash",
	// "sh"). Only a shell with (( and [[ (bash, zsh, ksh) is spared the
	// check of what dash would run for them; "" is taken as sh.
	Shell string
}

// Check decides a request. The steps run in this order, and the first
// hard denial ends the evaluation; asks are held until every hard rule has
// passed:
//
//  1. read_only
//  2. path_rules (first match wins, per path)
//  3. denied_paths
//  4. allowed_paths (the workspace, the working directory and every
//     statically known write must lie inside them)
//  5. command_rules (first match wins, per command)
//  6. denied commands: the built-in structural rules and the user's
//     denied_commands (substrings of the whitespace-normalised text)
//  7. approval forced for shell commands when allowed_paths is set and the
//     mode cannot enforce writes (local, wsl)
//  8. require_approval_for_execute and approval_mode
//  9. allow
//
// Input that cannot be judged (a parse error, NUL bytes, invalid UTF-8,
// more than [MaxScriptSize] bytes, nesting beyond the limits) is denied
// with rule "parse".
func (p *Policy) Check(r Request) Decision {
	batch := 0
	if len(r.Script) >= pipelineMin && runtime.GOMAXPROCS(0) > 1 {
		batch = pipelineBatch
	}
	return p.check(r, batch)
}

// check is Check, with the script parsed on a goroutine of its own and
// handed to the walk in batches of that many statements when batch > 0.
func (p *Policy) check(r Request, batch int) (d Decision) {
	if p == nil {
		return Decision{Deny, "parse", "no policy was compiled"}
	}
	// A bug in the walk must deny, never crash the caller or allow.
	defer func() {
		if v := recover(); v != nil {
			d = Decision{Deny, "parse", fmt.Sprintf("internal error while judging the command (%v); please report it", v)}
		}
	}()
	a, d, ok := p.analyze(r, batch)
	if !ok {
		return d
	}
	return p.decide(a)
}

func parseDeny(format string, args ...any) Decision {
	return Decision{Deny, "parse", fmt.Sprintf(format, args...)}
}

// maxBracketDepth bounds the nesting the parser is ever given.
const maxBracketDepth = 1000

// nestingDepth is a linear over-estimate of how deeply s nests brackets.
// Quotes are ignored, so it never under-counts.
func nestingDepth(s string) int {
	depth, most := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{', '[':
			depth++
			most = max(most, depth)
		case ')', '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return most
}

// analyze parses the request and walks it.
func (p *Policy) analyze(r Request, batch int) (*analysis, Decision, bool) {
	size := len(r.Script)
	for _, s := range r.Argv {
		size += len(s) + 1
	}
	if size > MaxScriptSize {
		return nil, parseDeny("the command is %d bytes, more than the %d this policy judges", size, MaxScriptSize), false
	}
	if r.Script == "" && len(r.Argv) == 0 {
		return nil, parseDeny("empty request: no script and no argv"), false
	}
	check := func(what, s string) (Decision, bool) {
		if strings.IndexByte(s, 0) >= 0 {
			return parseDeny("%s has a NUL byte", what), false
		}
		if !utf8.ValidString(s) {
			return parseDeny("%s is not valid UTF-8", what), false
		}
		return Decision{}, true
	}
	if d, ok := check("the script", r.Script); !ok {
		return nil, d, false
	}
	for i, s := range r.Argv {
		if d, ok := check(fmt.Sprintf("argv[%d]", i), s); !ok {
			return nil, d, false
		}
	}
	if len(r.Argv) > 0 && r.Argv[0] == "" {
		return nil, parseDeny("argv[0] is empty"), false
	}
	for _, s := range append([]string{r.Script}, r.Argv...) {
		if n := nestingDepth(s); n > maxBracketDepth {
			// mvdan/sh recurses per level and a stack overflow is fatal,
			// not a panic: refuse before parsing.
			return nil, parseDeny("brackets nested more than %d deep", maxBracketDepth), false
		}
	}
	if commentJoinsLines(r.Script) {
		return nil, parseDeny("%v", errCommentJoinsLines), false
	}
	if reason := textDivergence(r.Script); reason != "" {
		return nil, parseDeny("%s", reason), false
	}
	parser := p.parser()
	defer p.parsers.Put(parser)
	// One allocation for the walk's state, with room for the commands and
	// paths of a typical request, instead of one for each as it grows.
	st := &struct {
		a     analysis
		w     walker
		sc    scope
		cmds  [8]*simple
		spare [8]*simple
		args  [8][]field
		forks [4][]scope
		words [4][]field
		paths [8]pathUse
	}{}
	a, w := &st.a, &st.w
	a.cmds, a.paths = st.cmds[:0], st.paths[:0]
	st.sc.cwd = p.cwd
	st.sc.reads, st.sc.gen, st.sc.loop = &st.w.altReads, &st.w.altGen, &st.w.loopLog
	// Re-walking function and loop bodies may add commands, but never more
	// than the input could hold twice over.
	*w = walker{p: p, a: a, scope: &st.sc, maxCmds: 2*size + 10000, arith: hasArith(r.Shell), spare: st.spare[:0],
		spareArgs: st.args[:0], forkPool: st.forks[:0], scratch: st.words[:0]}
	defer func() {
		if w.nestedParser != nil {
			p.parsers.Put(w.nestedParser)
		}
	}()
	if w.scope.cwd == "" {
		w.scope.cwd = "/" + dynMark
	}
	if r.Script != "" {
		var err error
		if batch > 0 {
			err = w.walkPipelined(parser, r.Script, batch)
		} else {
			err = w.walkStream(parser, r.Script)
		}
		if err != nil {
			return nil, parseDeny("the command cannot be parsed as bash: %v", err), false
		}
		if len(w.traps) > 0 && a.fatal == "" {
			w.judgeTraps()
		}
		a.text = r.Script
	}
	if len(r.Argv) > 0 {
		w.scope = &scope{cwd: w.scope.cwd, reads: &w.altReads, gen: &w.altGen, loop: &w.loopLog}
		w.command(litFields(r.Argv...), ctx{}, "")
		a.text += "\n" + strings.Join(r.Argv, " ")
	}
	if a.fatal != "" {
		return nil, parseDeny("%s", a.fatal), false
	}
	if len(p.deniedCmds) > 0 {
		a.text = strings.ToLower(strings.Join(strings.Fields(a.text), " "))
	}
	return a, Decision{}, true
}

// flush judges the commands of one top-level statement against the
// built-in rules and lets them go. With no rule that needs every command at
// the end (command rules, denied_commands, read_only, approvals), a large
// script then never holds all its commands, which keeps the garbage
// collector out of the way.
func (p *Policy) flush(a *analysis) {
	for _, c := range a.cmds {
		if a.early != nil {
			break
		}
		if v, ok := p.commandVerdict(c); ok {
			early := v // v itself would escape on every turn
			a.early = &early
		}
	}
	clear(a.cmds)
	a.cmds = a.cmds[:0]
}

// commandVerdict applies the built-in denied commands to one command.
func (p *Policy) commandVerdict(c *simple) (verdict, bool) {
	if v, ok := p.hardRule(c); ok {
		return v, true
	}
	if v, ok := p.execRule(c); ok {
		return v, true
	}
	if c.name == "" {
		return p.dynamicRule(c)
	}
	return verdict{}, false
}

// decide runs the evaluation order on a walked request.
func (p *Policy) decide(a *analysis) Decision {
	s := &p.cfg.Safety
	var ask *Decision
	hold := func(d Decision) {
		if ask == nil {
			ask = &d
		}
	}

	// 1. read_only.
	if s.ReadOnly {
		for _, u := range a.paths {
			if u.write && !u.guess && !harmlessDevice(u.path) {
				return Decision{Deny, "read_only", fmt.Sprintf("read-only mode: the command writes %s", u.word)}
			}
		}
		for _, c := range a.cmds {
			if p.writes(c) || !p.env.WritesEnforced && !p.readOnly(c) {
				return Decision{Deny, "read_only", fmt.Sprintf("read-only mode: %s is not known to be read-only", text(c.raw))}
			}
		}
	}

	// 2. path_rules, 3. denied_paths.
	var exempt []bool // paths allowed by a path rule
	if len(p.pathRules) > 0 {
		exempt = make([]bool, len(a.paths))
	}
	for i, u := range a.paths {
		for j := range p.pathRules {
			pr := &p.pathRules[j]
			if pr.access != "" && (pr.access == "write") != u.write {
				continue
			}
			if !p.matchUse(pr, u) {
				continue
			}
			switch pr.action {
			case Deny:
				return Decision{Deny, pr.id, fmt.Sprintf("%s of %s is denied by a path rule", access(u), u.word)}
			case Ask:
				hold(Decision{Ask, pr.id, fmt.Sprintf("%s of %s needs approval by a path rule", access(u), u.word)})
			case Allow:
				exempt[i] = true
			}
			break
		}
	}
	for i, u := range a.paths {
		if exempt != nil && exempt[i] {
			continue
		}
		if !u.glob && !u.target.fold {
			if j := p.deniedIndex.first(p.denied, u.target); j >= 0 {
				return Decision{Deny, p.denied[j].id, fmt.Sprintf("%s of %s, a denied path", access(u), u.word)}
			}
			continue
		}
		for j := range p.denied {
			if p.matchUse(&p.denied[j], u) {
				return Decision{Deny, p.denied[j].id, fmt.Sprintf("%s of %s, a denied path", access(u), u.word)}
			}
		}
	}

	// 4. allowed_paths.
	if len(p.allowed) > 0 {
		for _, place := range []struct{ what, dir string }{{"workspace", p.workspace}, {"working directory", p.cwd}} {
			if place.dir != "" && !p.allowedPath(place.dir) {
				return Decision{Deny, "allowed_paths", fmt.Sprintf("the %s %s is outside allowed_paths", place.what, place.dir)}
			}
		}
		for i, u := range a.paths {
			if exempt != nil && exempt[i] || !u.write || u.guess || harmlessDevice(u.path) || p.allowedPath(u.path) || p.writableExtra(u.path) {
				continue
			}
			if strings.Contains(u.path, dynMark) {
				continue // an unknown place: the sandbox decides
			}
			return Decision{Deny, "allowed_paths", fmt.Sprintf("the command writes %s, outside allowed_paths", u.word)}
		}
	}

	// 5. command_rules.
	allowed := make([]bool, len(a.cmds))
	firstAllow := ""
	for i, c := range a.cmds {
		pr, ok := p.commandRule(c)
		if !ok {
			continue
		}
		switch pr.action {
		case Deny:
			return Decision{Deny, pr.id, fmt.Sprintf("%s is denied by a command rule", text(c.raw))}
		case Ask:
			hold(Decision{Ask, pr.id, fmt.Sprintf("%s needs approval by a command rule", text(c.raw))})
		case Allow:
			allowed[i] = true
			if firstAllow == "" {
				firstAllow = pr.id
			}
		}
	}
	allAllowed := len(a.cmds) > 0
	for _, ok := range allowed {
		allAllowed = allAllowed && ok
	}

	// 6. denied commands: built-in structure first, then the user's text.
	if a.forkBomb != "" {
		return Decision{Deny, "default:fork-bomb", fmt.Sprintf("fork bomb: function %s starts copies of itself in the background or a pipeline", a.forkBomb)}
	}
	if a.early != nil {
		return Decision{Deny, a.early.rule, a.early.reason}
	}
	for i, c := range a.cmds {
		if allowed[i] {
			continue
		}
		if v, ok := p.commandVerdict(c); ok {
			return Decision{Deny, v.rule, v.reason}
		}
	}
	if a.reverseShell != "" {
		return Decision{Deny, "default:nc-exec", a.reverseShell}
	}
	for _, u := range a.paths {
		if u.write && (u.path == "/proc/sysrq-trigger" || u.path == "/proc/sys/kernel/sysrq") {
			return Decision{Deny, "default:shutdown", fmt.Sprintf("writing %s can reboot or halt the machine", u.word)}
		}
		if strings.HasPrefix(u.path, "/dev/tcp/") || strings.HasPrefix(u.path, "/dev/udp/") {
			return Decision{Deny, "default:dev-tcp", fmt.Sprintf("a redirection to the network (%s)", u.word)}
		}
		if u.write && isDevice(u.path) {
			return Decision{Deny, "default:write-device", fmt.Sprintf("writing the device %s", u.word)}
		}
	}
	for j, d := range p.deniedCmds {
		id := fmt.Sprintf("denied_commands[%d]:%s", j, s.DeniedCommands[j])
		for i, c := range a.cmds {
			if allowed[i] {
				continue
			}
			for _, form := range [][]field{c.raw, c.argv} {
				t, _ := joinFields(form)
				if strings.Contains(strings.ToLower(strings.Join(strings.Fields(t), " ")), d) {
					return Decision{Deny, id, fmt.Sprintf("%s contains the denied command %q", text(c.raw), s.DeniedCommands[j])}
				}
			}
		}
		if !allAllowed && strings.Contains(a.text, d) {
			return Decision{Deny, id, fmt.Sprintf("the command contains the denied command %q", s.DeniedCommands[j])}
		}
	}

	// 7. allowed_paths that the mode cannot enforce.
	if len(p.allowed) > 0 && !p.env.WritesEnforced && !allAllowed {
		hold(Decision{Ask, "allowed_paths:unenforced", fmt.Sprintf("allowed_paths is set but sandbox mode %q cannot confine writes, so every shell command needs approval", p.mode())})
	}

	// 8. approval requirements.
	if s.RequireApprovalForExecute && !allAllowed {
		hold(Decision{Ask, "require_approval_for_execute", "require_approval_for_execute: every command needs approval"})
	}
	switch p.approval {
	case ApprovalAskForDangerous:
		for i, c := range a.cmds {
			if allowed[i] {
				continue
			}
			if kind, ok := p.dangerous(c); ok {
				hold(Decision{Ask, "approval_mode:ask_for_dangerous", fmt.Sprintf("%s: %s", kind, text(c.raw))})
			}
		}
		if a.dynCode != "" && !allAllowed {
			hold(Decision{Ask, "approval_mode:ask_for_dangerous", fmt.Sprintf("code that cannot be known before it runs: %s", a.dynCode)})
		}
		for _, u := range a.paths {
			if u.write && strings.HasPrefix(u.path, "/dev/") && !harmlessDevice(u.path) {
				hold(Decision{Ask, "approval_mode:ask_for_dangerous", fmt.Sprintf("writing %s", u.word)})
			}
		}
	case ApprovalAskForWrites:
		rule := "approval_mode:ask_for_writes"
		if s.RequireApprovalForWrites && s.ApprovalMode == ApprovalAuto {
			rule = "require_approval_for_writes"
		}
		if a.writes && !allAllowed {
			hold(Decision{Ask, rule, "the command writes files"})
		}
		for i, c := range a.cmds {
			if !allowed[i] && !p.readOnly(c) {
				hold(Decision{Ask, rule, fmt.Sprintf("%s is not known to be read-only", text(c.raw))})
			}
		}
		if a.dynCode != "" && !allAllowed {
			hold(Decision{Ask, rule, fmt.Sprintf("code that cannot be known before it runs: %s", a.dynCode)})
		}
	}
	if ask != nil {
		return *ask
	}
	if allAllowed && firstAllow != "" {
		return Decision{Allow, firstAllow, "allowed by a command rule"}
	}
	return Decision{Allow, "default", "no rule objects"}
}

func access(u pathUse) string {
	if u.write {
		return "write"
	}
	return "read"
}

func (p *Policy) mode() string {
	if p.env.Mode != "" {
		return p.env.Mode
	}
	return p.cfg.Safety.Sandbox.Mode
}

func (p *Policy) allowedPath(dir string) bool {
	for i := range p.allowed {
		if p.allowed[i].match(dir) {
			return true
		}
	}
	return false
}

func (p *Policy) writableExtra(dir string) bool {
	for i := range p.allowWrite {
		if p.allowWrite[i].match(dir) {
			return true
		}
	}
	return false
}

// commandRule finds the first command rule matching a command, as written
// (with wrappers) or as it runs (without them).
func (p *Policy) commandRule(c *simple) (*cmdPat, bool) {
	for i := range p.cmdRules {
		r := &p.cmdRules[i]
		if matchTokens(r.tokens, c.raw) || matchTokens(r.tokens, c.argv) {
			return r, true
		}
	}
	return nil, false
}

// matchTokens matches a command pattern against an argv prefix, token by
// token with a glob per token. The program token is compared by base name
// unless it has a slash; a final "*" matches any rest, even none.
func matchTokens(toks []string, argv []field) bool {
	if len(toks) == 0 || len(argv) == 0 {
		return false
	}
	for i, t := range toks {
		if t == "*" && i == len(toks)-1 {
			return true
		}
		if i >= len(argv) {
			return false
		}
		f := argv[i]
		if f.dyn {
			return false
		}
		v := f.s
		if !strings.ContainsAny(t, `/\`) {
			if i == 0 {
				v = progName(f)
			}
			// A token without a slash globs across slashes too.
			v = strings.ReplaceAll(v, "/", dynMark)
		}
		if ok, _ := path.Match(t, v); !ok && t != f.s {
			return false
		}
	}
	return true
}
