package policy

import (
	"slices"

	"mvdan.cc/sh/v3/syntax"
)

// The walk follows one path through a script: it takes every branch as
// run. A variable that code which may not run sets (a branch, a loop
// body, what follows && or ||) may also still hold its value from before,
// and x=/; false && x=/tmp; rm -rf "$x" removes /. So past such code
// the variable keeps, besides the value the walk took, the values it may
// hold instead (its alternatives), and a statement that reads one is
// judged again with each of them, in a scope thrown away after.

// maxAlts bounds the alternatives of one variable; past it the variable
// is unknown.
const maxAlts = 4

// maxRewalk bounds the bytes of statements judged again for one request:
// each nesting level that reads a variable with alternatives judges its
// statement again.
const maxRewalk = 3 * MaxScriptSize

// A change is what a block that may not run found in a variable or
// array before it first set it.
type change struct {
	at      *scope // where it changed
	name    string
	array   bool
	had     bool // the scope had it (else the environment's, or none)
	old     field
	oldArr  []field
	alts    []field
	arrAlts [][]field
}

type logKey struct {
	name  string
	array bool
}

// noteChange logs name's value before a change, while a block that may
// not run is walked (see maybe).
func (s *scope) noteChange(name string, array bool) {
	if s.log == nil {
		return
	}
	k := logKey{name, array}
	if i, ok := s.logged[k]; ok && i >= s.logFrom && i < len(*s.log) && (*s.log)[i].at == s && (*s.log)[i].name == name && (*s.log)[i].array == array {
		return // the innermost block logged it already
	}
	if s.logged == nil {
		s.logged = map[logKey]int{}
	}
	s.logged[k] = len(*s.log)
	c := change{at: s, name: name, array: array}
	for sc := s; sc != nil && !c.had; sc = sc.parent {
		if array {
			c.oldArr, c.had = sc.arrays[name]
			c.arrAlts = sc.arrAlts[name]
		} else {
			c.old, c.had = sc.vars[name]
			c.alts = sc.alts[name]
		}
	}
	*s.log = append(*s.log, c)
}

// noteRead records that name, which has alternatives, was read.
func (s *scope) noteRead(name string) {
	if s.reads != nil {
		*s.reads = append(*s.reads, name)
	}
}

// altsOf returns the alternatives of the variable name, and of the array.
func (s *scope) altsOf(name string) ([]field, [][]field) {
	var vs []field
	var as [][]field
	varFound, arrFound := false, false
	for ; s != nil && !(varFound && arrFound); s = s.parent {
		if _, ok := s.vars[name]; ok && !varFound {
			vs, varFound = s.alts[name], true
		}
		if _, ok := s.arrays[name]; ok && !arrFound {
			as, arrFound = s.arrAlts[name], true
		}
	}
	return vs, as
}

// sameField reports whether a and b are the same value to the rules.
func sameField(a, b field) bool {
	return a.s == b.s && a.dyn == b.dyn && a.unset == b.unset && a.emptyable == b.emptyable &&
		a.dl == b.dl && a.dec == b.dec
}

func sameFields(a, b []field) bool {
	if (a == nil) != (b == nil) {
		return false // unknown, or known and empty
	}
	return slices.EqualFunc(a, b, sameField)
}

// mergeAlts gives each variable and array that a block that may not run
// changed in sc (log) its values from before as alternatives.
func (w *walker) mergeAlts(sc *scope, log []change) {
	var seen map[logKey]bool // for a long log; a short one is searched
	if len(log) > 16 {
		seen = map[logKey]bool{}
	}
	for i, c := range log {
		if c.at != sc {
			continue
		}
		// The first change holds the value from before.
		if seen != nil {
			if k := (logKey{c.name, c.array}); seen[k] {
				continue
			} else {
				seen[k] = true
			}
		} else if slices.ContainsFunc(log[:i], func(d change) bool { return d.at == sc && d.name == c.name && d.array == c.array }) {
			continue
		}
		if c.array {
			cur, ok := sc.arrays[c.name]
			if !ok {
				continue
			}
			alts := withValue(nil, c.oldArr, cur, sameFields) // nil, unknown, when it had none
			alts = withValues(alts, c.arrAlts, cur, sameFields)
			alts = withValues(alts, sc.arrAlts[c.name], cur, sameFields)
			if !putValues(&sc.arrAlts, c.name, alts) {
				sc.arrays[c.name] = nil
			}
			continue
		}
		cur, ok := sc.vars[c.name]
		if !ok {
			continue
		}
		old := c.old
		if !c.had {
			old = w.fromEnvironment(c.name)
		}
		if sameField(old, cur) && len(sc.alts[c.name]) == 0 && !slices.ContainsFunc(c.alts, func(g field) bool { return sameField(g, cur) }) {
			// Set again to what it held (a loop's variable, each time
			// the loop comes): its alternatives stay as they were, the
			// same list (never changed in place).
			putValues(&sc.alts, c.name, c.alts)
			continue
		}
		alts := withValue(nil, old, cur, sameField)
		alts = withValues(alts, c.alts, cur, sameField)
		alts = withValues(alts, sc.alts[c.name], cur, sameField)
		if !putValues(&sc.alts, c.name, alts) {
			sc.vars[c.name] = field{s: dynMark, dyn: true, emptyable: true}
		}
	}
}

// withValue returns alts with v added, unless it is cur or there already.
// It never changes alts in place: lists of alternatives are shared.
func withValue[T any](alts []T, v, cur T, same func(a, b T) bool) []T {
	if same(v, cur) || slices.ContainsFunc(alts, func(b T) bool { return same(v, b) }) {
		return alts
	}
	return append(alts[:len(alts):len(alts)], v)
}

func withValues[T any](alts, vs []T, cur T, same func(a, b T) bool) []T {
	for _, v := range vs {
		alts = withValue(alts, v, cur, same)
	}
	return alts
}

// putValues records alts as name's alternatives in m, and reports false,
// recording none, when there are more than maxAlts: name is then unknown.
func putValues[T any](m *map[string][]T, name string, alts []T) bool {
	switch {
	case len(alts) == 0:
		delete(*m, name)
	case len(alts) > maxAlts:
		delete(*m, name)
		return false
	default:
		if *m == nil {
			*m = map[string][]T{}
		}
		(*m)[name] = alts
	}
	return true
}

// fromEnvironment is what a variable the walk never set holds: HOME is
// known, any other is unknown and may be empty.
func (w *walker) fromEnvironment(name string) field {
	if name == "HOME" && w.p.home != "" {
		return field{s: w.p.home}
	}
	return field{s: dynMark, dyn: true, emptyable: true}
}

// rereads reports whether s's own words may read a variable: the
// statements of an if, a loop, a block, a subshell and an && or || list
// are judged again by themselves.
func rereads(s *syntax.Stmt) bool {
	if len(s.Redirs) > 0 {
		return true
	}
	switch x := s.Cmd.(type) {
	case *syntax.IfClause, *syntax.WhileClause, *syntax.Block, *syntax.Subshell, *syntax.FuncDecl:
		return false
	case *syntax.BinaryCmd:
		return x.Op == syntax.Pipe || x.Op == syntax.PipeAll
	}
	return true
}

// rewalk judges s again for each alternative of the variables in read
// (read while s was judged), each time in a scope thrown away after. What
// s assigns on such a walk becomes an alternative of what it assigned.
func (w *walker) rewalk(s *syntax.Stmt, c ctx, read []string) {
	names := make([]string, 0, len(read))
	for _, n := range read {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	type bound struct {
		vs []field
		as [][]field
	}
	binds := make([]bound, len(names))
	rounds := 0
	for i, n := range names {
		vs, as := w.scope.altsOf(n)
		binds[i] = bound{vs, as}
		rounds = max(rounds, len(vs), len(as))
	}
	size := int(s.End().Offset() - s.Pos().Offset())
	sc := w.scope
	for r := 0; r < rounds && w.a.fatal == ""; r++ {
		if w.rewalkBytes += max(size, 1); w.rewalkBytes > maxRewalk {
			w.fail("more than %d MiB of commands to judge again for the other values their variables may hold", maxRewalk>>20)
			return
		}
		outer := w.subshell()
		for i, n := range names {
			if r < len(binds[i].vs) {
				w.scope.set(n, binds[i].vs[r])
			}
			if r < len(binds[i].as) {
				w.scope.setArray(n, binds[i].as[r])
			}
		}
		// What the walk keeps of the last statement besides the scope
		// stays the value's it took.
		cdOK, cdDone, lastDec := w.cdOK, w.cdDone, w.lastDec
		w.rewalking++
		w.stmtOnce(s, c)
		w.rewalking--
		w.cdOK, w.cdDone, w.lastDec = cdOK, cdDone, lastDec
		fork := w.scope
		w.leave(outer)
		if fork.parent != sc {
			continue // a subshell of the walk's own was left behind
		}
		if fork.cwd != sc.cwd { // cd "$x"
			sc.stay = sc.stay.with(sc.cwd, fork.cwd)
			if w.cdDone {
				w.cdOK = w.cdOK.with(sc.cwd, fork.cwd)
			}
		}
		for k, v := range fork.vars {
			if _, ok := sc.vars[k]; ok {
				sc.addAlt(k, v)
			}
		}
		for k, a := range fork.arrays {
			if _, ok := sc.arrays[k]; ok {
				sc.addArrAlt(k, a)
			}
		}
	}
}

// addAlt adds v to the alternatives of the variable k, set in s.
func (s *scope) addAlt(k string, v field) {
	if !putValues(&s.alts, k, withValue(s.alts[k], v, s.vars[k], sameField)) {
		s.vars[k] = field{s: dynMark, dyn: true, emptyable: true}
	}
}

// addArrAlt adds a to the alternatives of the array k, set in s.
func (s *scope) addArrAlt(k string, a []field) {
	if !putValues(&s.arrAlts, k, withValue(s.arrAlts[k], a, s.arrays[k], sameFields)) {
		s.arrays[k] = nil
	}
}

// keepValues gives each variable and array that a walk of partly known
// text set (walks, each thrown away after) what it set there as an
// alternative: bash may or may not have run that assignment.
func (w *walker) keepValues(walks []*scope) {
	for _, in := range walks {
		if in == nil {
			continue
		}
		for k, v := range in.vars {
			if k == unknownVar {
				continue
			}
			at := w.scope.holder(k, false)
			if at == nil {
				at = w.scope
				at.set(k, w.fromEnvironment(k))
			}
			at.addAlt(k, v)
		}
		for k, a := range in.arrays {
			at := w.scope.holder(k, true)
			if at == nil {
				at = w.scope
				at.setArray(k, nil)
			}
			at.addArrAlt(k, a)
		}
	}
}

// holder returns the scope that holds the variable, or the array, name.
func (s *scope) holder(name string, array bool) *scope {
	for ; s != nil; s = s.parent {
		if _, ok := s.vars[name]; ok && !array {
			return s
		}
		if _, ok := s.arrays[name]; ok && array {
			return s
		}
	}
	return nil
}
