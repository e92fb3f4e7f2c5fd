package policy

import (
	"iter"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The walk follows one path through a script: it takes every branch as
// run. A variable that code which may not run sets (a branch, a loop
// body, what follows && or ||) may also still hold its value from before,
// and x=/; false && x=/tmp; rm -rf "$x" removes /. So past such code
// the variable keeps, besides the value the walk took, the values it may
// hold instead (its alternatives), and a statement that reads one is
// judged again with each of them, in a scope thrown away after (rewalk).
// Tests of emptiness narrow them (emptyGuard). docs/policy.md, Limits,
// lists what this does not follow.

// maxAlts bounds the alternatives of one variable (see putValues): past
// it, the newest are dropped, values unknown in part before known ones,
// never the value taken (making the variable unknown would hide it). So
// x=/ on the tenth of ten case arms is not judged. Refusing there instead
// refused seven real scripts of the false-deny corpus (Python's
// makesetup, LVM2, xslt-config: case statements over platforms and
// flags), and keeping 64 still refused two, as too many commands.
const maxAlts = 8

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
		a.dl == b.dl && a.dec == b.dec && (a.guess == nil) == (b.guess == nil) && (a.guess == nil || *a.guess == *b.guess)
}

func sameFields(a, b []field) bool {
	if (a == nil) != (b == nil) {
		return false // unknown, or known and empty
	}
	return slices.EqualFunc(a, b, sameField)
}

// mergeAlts gives each variable and array that a block that may not run
// changed in sc (log) its values from before as alternatives.
//
// guarded names a variable that is not empty where the block did not run
// ([ -z "$x" ] && x=out): its values from before lose those that are
// empty.
func (w *walker) mergeAlts(sc *scope, log []change, guarded string, open bool, in *syntax.Stmt) {
	for c := range firstChanges(sc, log) {
		if c.array {
			cur, ok := sc.arrays[c.name]
			if !ok {
				continue
			}
			alts := make([][]field, 0, len(c.arrAlts)+1+len(sc.arrAlts[c.name]))
			alts = appendNew(alts, c.arrAlts, cur, sameFields)
			alts = appendNew(alts, [][]field{c.oldArr}, cur, sameFields) // nil, unknown, when it had none
			alts = appendNew(alts, sc.arrAlts[c.name], cur, sameFields)
			putValues(&sc.arrAlts, c.name, alts, knownArray)
			sc.stamp(c.name)
			continue
		}
		cur, ok := sc.vars[c.name]
		if !ok {
			continue
		}
		old := c.old
		if !c.had {
			old = w.fromEnvironment(c.name)
			if w.defWalk || !open && (in == nil || w.surelySets(in, c.name)) {
				// Not taken as empty where the statement around sets it
				// on every path (if/else, case with *), a && x=1 ||
				// x=2), or where the walk cannot tell.
				old = notEmpty(old)
			}
		}
		if c.name == guarded {
			c.alts = slices.DeleteFunc(slices.Clone(c.alts), isEmptyValue)
			for i := range c.alts {
				c.alts[i] = notEmpty(c.alts[i])
			}
			if isEmptyValue(old) {
				old = cur // nothing from before: only the value taken
			}
			old = notEmpty(old)
		}
		if sameField(old, cur) && len(sc.alts[c.name]) == 0 && !slices.ContainsFunc(c.alts, func(g field) bool { return sameField(g, cur) }) {
			// Set again to what it held (a loop's variable, each time
			// the loop comes): its alternatives stay as they were, the
			// same list (never changed in place).
			putValues(&sc.alts, c.name, c.alts, field.known)
			sc.stamp(c.name)
			continue
		}
		// Oldest first: past maxAlts the newest go (x=/ before many
		// branches stays).
		alts := make([]field, 0, len(c.alts)+1+len(sc.alts[c.name]))
		alts = appendNew(alts, c.alts, cur, sameField)
		alts = appendNew(alts, []field{old}, cur, sameField)
		alts = appendNew(alts, sc.alts[c.name], cur, sameField)
		putValues(&sc.alts, c.name, alts, field.known)
		sc.stamp(c.name)
	}
}

// appendNew appends to alts, which the caller owns, each of vs that is
// neither cur nor in alts already.
func appendNew[T any](alts, vs []T, cur T, same func(a, b T) bool) []T {
	for _, v := range vs {
		if !same(v, cur) && !slices.ContainsFunc(alts, func(b T) bool { return same(v, b) }) {
			alts = append(alts, v)
		}
	}
	return alts
}

// addValues returns alts with each of vs added as putValues would keep
// them added one at a time: neither cur nor twice, and past maxAlts the
// known ones first. Scopes share their lists, so alts is copied before
// its first change, once.
func addValues[T any](alts, vs []T, cur T, same func(a, b T) bool, known func(T) bool) []T {
	owned := false
	for _, v := range vs {
		if same(v, cur) || slices.ContainsFunc(alts, func(b T) bool { return same(v, b) }) {
			continue
		}
		if !owned {
			alts = append(make([]T, 0, len(alts)+len(vs)), alts...)
			owned = true
		}
		if alts = append(alts, v); len(alts) > maxAlts {
			alts = knownFirst(alts, known)
		}
	}
	return alts
}

// putValues records alts as name's alternatives in m: past maxAlts, the
// known ones first (a value unknown in part, such as what a loop appends
// to, tells the rules less), then the oldest.
func putValues[T any](m *map[string][]T, name string, alts []T, known func(T) bool) {
	if len(alts) == 0 {
		delete(*m, name)
		return
	}
	if *m == nil {
		*m = map[string][]T{}
	}
	if len(alts) > maxAlts {
		alts = knownFirst(alts, known)
	}
	(*m)[name] = alts[:len(alts):len(alts)]
}

// knownFirst returns maxAlts of alts: the known ones, then the others,
// each in their order.
func knownFirst[T any](alts []T, known func(T) bool) []T {
	kept := make([]T, 0, maxAlts)
	for _, first := range [...]bool{true, false} {
		for _, v := range alts {
			if known(v) == first && len(kept) < maxAlts {
				kept = append(kept, v)
			}
		}
	}
	return kept
}

func knownArray(a []field) bool {
	return a != nil && !slices.ContainsFunc(a, func(f field) bool { return f.dyn })
}

func knownBody(*syntax.Stmt) bool { return true }

// stamp records that name's alternatives were put now (see fresh).
func (s *scope) stamp(name string) {
	if s.gen == nil {
		return
	}
	if s.altAt == nil {
		s.altAt = map[string]int{}
	}
	*s.gen++
	s.altAt[name] = *s.gen
}

// fresh reports whether name's alternatives were put after gen.
func (s *scope) fresh(name string, gen int) bool {
	if fn, ok := strings.CutPrefix(name, fnRead); ok {
		for ; s != nil; s = s.parent {
			if _, ok := s.funcs[fn]; ok {
				return s.altAt[name] > gen
			}
		}
		return false
	}
	for ; s != nil; s = s.parent {
		_, v := s.vars[name]
		_, a := s.arrays[name]
		if v || a {
			return s.altAt[name] > gen
		}
	}
	return false
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
func (w *walker) rewalk(s *syntax.Stmt, c ctx, read []string, before *stmtBefore) {
	names := make([]string, 0, len(read))
	for _, n := range read {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	type bound struct {
		vs  []field
		as  [][]field
		fns []*syntax.Stmt
	}
	binds := make([]bound, len(names))
	rounds, fnRounds := 0, 0
	for i, n := range names {
		if fn, ok := strings.CutPrefix(n, fnRead); ok {
			binds[i].fns = w.scope.fnAltsOf(fn)
			fnRounds = max(fnRounds, len(binds[i].fns))
			continue
		}
		vs, as := before.othersBefore(w.scope, n)
		binds[i] = bound{vs: vs, as: as}
		rounds = max(rounds, len(vs), len(as))
	}
	size := int(s.End().Offset() - s.Pos().Offset())
	sc := w.scope
	// round judges s again with the fr-th other body of each function
	// and the r-th other value of each variable (of only the only-th name
	// when only is not -1); -1 takes the body or value taken.
	round := func(fr, r, only int) bool {
		return w.rewalkOnce(s, c, sc, before, names, func(i int, n string) {
			b := binds[i]
			if r >= 0 && (only < 0 || i == only) {
				if r < len(b.vs) {
					w.scope.set(n, b.vs[r])
				}
				if r < len(b.as) {
					w.scope.setArray(n, b.as[r])
				}
			}
			if fr >= 0 && fr < len(b.fns) {
				w.scope.bindBody(strings.TrimPrefix(n, fnRead), b.fns[fr])
			}
		}, size)
	}
	// Values index by index (round r binds the r-th other value of each
	// variable), each with the bodies taken and with every other body
	// (fr), the bodies being few: f "$x" with f's other body and x's
	// value taken is one such pair.
	for fr := -1; fr < fnRounds && w.a.fatal == ""; fr++ {
		for r := -1; r < rounds && w.a.fatal == ""; r++ {
			if fr < 0 && r < 0 {
				continue // the values and bodies taken: walked already
			}
			if !round(fr, r, -1) {
				return
			}
		}
	}
	if w.loopLog.again == 0 || len(names) == 1 {
		return
	}
	// In a loop's later pass a variable the pass before changed holds a
	// new value, and the others' other values must meet it: each
	// variable's other values alone, the others as taken ($y rm -rf "$x"
	// with y carried, x's other value /usr).
	for i, b := range binds {
		if b.fns != nil {
			continue
		}
		for r := 0; r < max(len(b.vs), len(b.as)) && w.a.fatal == ""; r++ {
			if !round(-1, r, i) {
				return
			}
		}
	}
}

// rewalkOnce judges s again in a scope thrown away after, from where it
// began (before), with bind(i, name) binding each name read, and keeps
// what it leaves as other values in sc. It reports false where the
// request is refused.
func (w *walker) rewalkOnce(s *syntax.Stmt, c ctx, sc *scope, before *stmtBefore, names []string, bind func(int, string), size int) bool {
	if !w.chargeRewalk(size) {
		return false
	}
	outer := w.subshell()
	// From where the statement began: y=${y:-$x} again sees y unset,
	// cd "$x" starts from the same directory.
	before.restore(w, w.scope)
	for i, n := range names {
		bind(i, n)
	}
	// What the walk keeps of the last statement besides the scope
	// stays the value's it took.
	cdOK, cdDone, lastDec, region := w.cdOK, w.cdDone, w.lastDec, w.region
	w.rewalking++
	w.region = w.altGen
	w.stmtOnce(s, c)
	w.rewalking--
	w.cdOK, w.cdDone, w.lastDec, w.region = cdOK, cdDone, lastDec, region
	fork := w.scope
	w.leave(outer)
	if fork.parent != sc {
		return true // a subshell of the walk's own was left behind
	}
	for _, n := range names {
		if fn, ok := strings.CutPrefix(n, fnRead); ok && fork.funcs[fn] != nil && fork.fnAlts != nil {
			if _, bound := fork.fnAlts[fn]; bound {
				delete(fork.funcs, fn) // bound here, not defined
			}
		}
	}
	if !w.keepOtherPath(sc, fork, "judged with another value of a variable or body of a function, this") {
		return false
	}
	w.keepUnchanged(sc, fork, before.changed)
	return true
}

// keepOtherPath takes into sc, where the walk is, what fork, a walk of
// another path thrown away after (a statement judged with other values,
// another body of a function), leaves: its values as other values, its
// directory as one the shell may be in, its directory stack's entries as
// ones it may hold. It refuses (and reports false) what cannot be kept
// two ways: a function defined otherwise, an alias, another previous
// directory. what names the walk in messages.
func (w *walker) keepOtherPath(sc, fork *scope, what string) bool {
	// x="f() { rm -rf /; }"; false && x=true; eval "$x"; f: the calls of
	// a function defined on one path only cannot be judged.
	for name := range fork.aliases {
		w.fail("%s makes the alias %s, whose uses the policy cannot follow", what, name)
		return false
	}
	for name, body := range fork.funcs {
		if cur := sc.fn(name); cur == nil || w.bodyText(cur) != w.bodyText(body) {
			w.fail("%s defines the function %s otherwise; the policy cannot follow its calls", what, name)
			return false
		}
	}
	if fork.cwd != sc.cwd { // cd "$x"
		sc.stay = sc.stay.with(sc.cwd, fork.cwd)
		if w.cdDone {
			w.cdOK = w.cdOK.with(sc.cwd, fork.cwd)
		}
	}
	if fork.oldpwd != sc.oldpwd {
		// x="cd /; cd /tmp"; ...; eval "$x"; cd -: one previous directory
		// is all cd - and ~- follow.
		w.fail("%s leaves another previous directory, which cd - would go to; the policy cannot follow both", what)
		return false
	}
	if !slices.Equal(fork.dirStack, sc.dirStack) {
		w.mayHold(fork.dirStack, "paths judged again") // popd may go there
	}
	w.keepAsOther(sc, fork)
	return true
}

// keepUnchanged gives each variable and array that the statement changed
// when the walk took its values (changed), but not on a walk with other
// values (fork), its value from before as another value:
// y=x=/tmp; false && y=true; eval "$y" may leave x as it was.
func (w *walker) keepUnchanged(sc, fork *scope, changed []change) {
	for c := range firstChanges(sc, changed) {
		if c.array {
			if _, set := fork.arrays[c.name]; !set {
				if at := sc.holder(c.name, true); at != nil {
					at.addArrAlts(c.name, c.oldArr)
				}
			}
			continue
		}
		if _, set := fork.vars[c.name]; set {
			continue
		}
		old := c.old
		if !c.had {
			old = notEmpty(w.fromEnvironment(c.name))
		}
		if at := sc.holder(c.name, false); at != nil {
			at.addAlts(c.name, old)
		}
	}
}

// addAlts adds vs to the alternatives of the variable k, set in s.
func (s *scope) addAlts(k string, vs ...field) {
	if len(vs) > 0 {
		putValues(&s.alts, k, addValues(s.alts[k], vs, s.vars[k], sameField, field.known), field.known)
		s.stamp(k)
	}
}

// addArrAlts adds as to the alternatives of the array k, set in s.
func (s *scope) addArrAlts(k string, as ...[]field) {
	if len(as) > 0 {
		putValues(&s.arrAlts, k, addValues(s.arrAlts[k], as, s.arrays[k], sameFields, knownArray), knownArray)
		s.stamp(k)
	}
}

// keepValues gives each variable and array that a walk of partly known
// text set (walks, each thrown away after) what it set there as an
// alternative: bash may or may not have run that assignment.
func (w *walker) keepValues(walks []*scope) {
	sc := w.scope
	for _, in := range walks {
		if in != nil {
			w.keepAsOther(sc, in)
			// eval "cd /; $y"; rm -rf *: the shell may be where the
			// code went, or where it went and failed to leave.
			sc.stay = sc.stay.with(sc.cwd, in.cwd).union(sc.cwd, in.stay)
		}
	}
}

// keepAsOther gives each variable and array that in, a thrown-away
// scope below sc, set alternatives: what in set, and what in holds as
// its alternatives (code nested in it, a branch). They go in sc, with
// what the name held there before: sc may be a subshell, whose changes
// go with it (x=/tmp/a; echo "x=/; $y" | sh; rm -rf "$x"), and a
// function's scope hands its own back on return (keep). A name the walk
// never set holds the environment's value otherwise (x=y=/; false &&
// x=true; eval "$x").
func (w *walker) keepAsOther(sc, in *scope) {
	for k, v := range in.vars {
		if k == unknownVar {
			continue
		}
		switch at := sc.holder(k, false); {
		case at == nil:
			sc.set(k, w.fromEnvironment(k))
		case at != sc:
			sc.set(k, at.vars[k])
			sc.addAlts(k, at.alts[k]...)
		}
		sc.addAlts(k, v)
		sc.addAlts(k, in.alts[k]...) // set by code nested in in (eval "eval \"x=/; \$z\"; $y")
	}
	for k, a := range in.arrays {
		switch at := sc.holder(k, true); {
		case at == nil:
			sc.setArray(k, nil)
		case at != sc:
			sc.setArray(k, at.arrays[k])
			sc.addArrAlts(k, at.arrAlts[k]...)
		}
		sc.addArrAlts(k, a)
		sc.addArrAlts(k, in.arrAlts[k]...)
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

// chargeRewalk counts n bytes judged again (a statement, and the text of
// evals and function bodies walked inside it) against maxRewalk, and
// refuses the request past it.
func (w *walker) chargeRewalk(n int) bool {
	if w.rewalkBytes += max(n, 1); w.rewalkBytes > maxRewalk {
		w.fail("more than %d MiB of commands to judge again for the other values their variables may hold", maxRewalk>>20)
		return false
	}
	return true
}

// firstChanges yields the first change in log of each variable and
// array of sc: it holds the value from before.
func firstChanges(sc *scope, log []change) iter.Seq[change] {
	return func(yield func(change) bool) {
		var seen map[logKey]bool // for a long log; a short one is searched
		if len(log) > 16 {
			seen = map[logKey]bool{}
		}
		for i, c := range log {
			if c.at != sc {
				continue
			}
			if seen != nil {
				if k := (logKey{c.name, c.array}); seen[k] {
					continue
				} else {
					seen[k] = true
				}
			} else if slices.ContainsFunc(log[:i], func(d change) bool { return d.at == sc && d.name == c.name && d.array == c.array }) {
				continue
			}
			if !yield(c) {
				return
			}
		}
	}
}

// isEmptyValue reports whether f is known to be empty.
func isEmptyValue(f field) bool { return !f.dyn && f.s == "" }

// notEmptyOnes returns vs without the empty values, the others known
// not to be empty: a variable's other values past a guard.
func notEmptyOnes(vs []field) []field {
	kept := slices.DeleteFunc(slices.Clone(vs), isEmptyValue)
	for i := range kept {
		kept[i] = notEmpty(kept[i])
	}
	return kept
}

// notEmpty returns f, unknown in part, as a value known not to be empty.
func notEmpty(f field) field {
	if f.emptyable {
		f.emptyable, f.opaque = false, true
	}
	return f
}

// emptyGuard returns the variable that the test s leaves non-empty where
// the code after it does not run: [ -z "$x" ] (test -z, [[ -z $x ]]) when
// that code runs if the test is true (&&, then), and [ -n "$x" ], [ "$x" ]
// or a test of a file ([ -d "$x" ], true only for an x not empty) when it
// runs if the test is false (||); ! inside the test turns one into the
// other. It returns "" for any other statement, and for [[ where the
// shell has none (arith) and the claim would need it to be false.
func emptyGuard(sc *scope, s *syntax.Stmt, runsIfTrue, arith bool) string {
	if s.Background || len(s.Redirs) > 0 {
		return ""
	}
	var op string
	var word *syntax.Word
	neg := false    // ! inside the test
	quoted := false // the word must be quoted: [ -n $x ] is true when x is empty
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		args := x.Args
		if len(x.Assigns) > 0 || len(args) < 2 {
			return ""
		}
		name := args[0].Lit()
		if _, alias := sc.alias(name); alias || sc.fn(name) != nil {
			return "" // test() { return 1; }
		}
		quoted = true
		switch name {
		case "[":
			if args[len(args)-1].Lit() != "]" {
				return ""
			}
			args = args[1 : len(args)-1]
		case "test":
			args = args[1:]
		default:
			return ""
		}
		if len(args) > 1 && args[0].Lit() == "!" {
			neg, args = true, args[1:] // [ ! -z "$x" ]
		}
		switch len(args) {
		case 1:
			op, word = "-n", args[0]
		case 2:
			op, word = args[0].Lit(), args[1]
		case 3:
			op, word = equalsEmpty(args, arith) // [ "$x" = "" ], [ "x$x" = x ]
		default:
			return ""
		}
	case *syntax.TestClause:
		if !arith && runsIfTrue {
			// sh (dash) has no [[: it fails whatever x holds, so code
			// that runs if it is true never does (x=out in [[ -z $x ]]
			// && x=out), and code after || always does.
			return ""
		}
		t := x.X
		if u, ok := t.(*syntax.UnaryTest); ok && u.Op == syntax.TsNot {
			neg, t = true, u.X
		}
		switch t := t.(type) {
		case *syntax.Word:
			op, word = "-n", t
		case *syntax.UnaryTest:
			word, _ = t.X.(*syntax.Word)
			op = t.Op.String()
		}
	}
	if fileTest(op) {
		op = "-n" // [ -d "" ] is false: -d "$x" is true only for an x not empty
	}
	if op != "-z" && op != "-n" {
		return ""
	}
	// The code must not run where the variable is empty.
	trueIfEmpty := (op == "-z") != s.Negated != neg
	if trueIfEmpty != runsIfTrue {
		return ""
	}
	return plainParam(word, quoted)
}

// equalsEmpty reads the test [ A = B ] (!=, and == where the shell is
// bash) of three words as [ -z "$x" ] (-n for !=) when one side is "$x"
// and the other empty, or both are the same text, one followed by "$x"
// ([ "x$x" = x ]).
func equalsEmpty(args []*syntax.Word, arith bool) (op string, word *syntax.Word) {
	switch args[1].Lit() {
	case "==":
		if !arith {
			return "", nil // dash's test refuses == and fails
		}
		op = "-z"
	case "=":
		op = "-z"
	case "!=":
		op = "-n"
	default:
		return "", nil
	}
	for _, lr := range [2][2]*syntax.Word{{args[0], args[2]}, {args[2], args[0]}} {
		v, other := lr[0], lr[1]
		if isEmptyWord(other) {
			return op, v
		}
		// "x$x" = x: the prefix, then the variable alone.
		if dq, ok := singlePart(v).(*syntax.DblQuoted); ok && len(dq.Parts) == 2 {
			if lit, ok := dq.Parts[0].(*syntax.Lit); ok && lit.Value != "" && wordText(other) == lit.Value {
				if pe, ok := dq.Parts[1].(*syntax.ParamExp); ok {
					return op, &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{pe}}}}
				}
			}
		}
	}
	return "", nil
}

// isEmptyWord reports whether w is an empty quoted string.
func isEmptyWord(w *syntax.Word) bool {
	switch p := singlePart(w).(type) {
	case *syntax.DblQuoted:
		return len(p.Parts) == 0
	case *syntax.SglQuoted:
		return p.Value == ""
	}
	return false
}

// singlePart returns w's only part, or nil.
func singlePart(w *syntax.Word) syntax.WordPart {
	if w == nil || len(w.Parts) != 1 {
		return nil
	}
	return w.Parts[0]
}

// wordText returns the text of w when it is plain or quoted text.
func wordText(w *syntax.Word) string {
	if lit := w.Lit(); lit != "" {
		return lit
	}
	switch p := singlePart(w).(type) {
	case *syntax.SglQuoted:
		return p.Value
	case *syntax.DblQuoted:
		if len(p.Parts) == 1 {
			if lit, ok := p.Parts[0].(*syntax.Lit); ok {
				return lit.Value
			}
		}
	}
	return ""
}

// fileTest reports whether op is a test of a file, false for the empty
// name.
func fileTest(op string) bool {
	// Not -N, which dash's test does not know: [ ! -N "" ] fails there,
	// as a test that is false does.
	return len(op) == 2 && op[0] == '-' && strings.IndexByte("bcdefghkprsuwxGLOS", op[1]) >= 0
}

// plainParam returns the name in a word that is only "$x", $x, ${x},
// ${x:-} or ${x-}, and double quoted if quoted.
func plainParam(w *syntax.Word, quoted bool) string {
	if w == nil || len(w.Parts) != 1 {
		return ""
	}
	part := w.Parts[0]
	if dq, ok := part.(*syntax.DblQuoted); ok {
		if len(dq.Parts) != 1 {
			return ""
		}
		part = dq.Parts[0]
	} else if quoted {
		return ""
	}
	p, ok := part.(*syntax.ParamExp)
	if !ok || p.Param == nil || !syntax.ValidName(p.Param.Value) || p.Excl || p.Length || p.Width || p.Index != nil ||
		p.Slice != nil || p.Repl != nil || p.NestedParam != nil || len(p.Modifiers) > 0 || p.IsSet || p.Names != 0 {
		return ""
	}
	if p.Exp != nil && (p.Exp.Op != syntax.DefaultUnset && p.Exp.Op != syntax.DefaultUnsetOrNull || p.Exp.Word != nil && len(p.Exp.Word.Parts) > 0) {
		return ""
	}
	return p.Param.Value
}

// stmtBefore is what a statement may change that judging it again must
// start from: where the shell is, and what it changed (every assignment,
// declaration, read, printf -v, set --, eval and function call logs the
// value it replaced; see noteChange).
type stmtBefore struct {
	at       *scope
	cwd      string
	oldpwd   string
	dirStack []string
	// changed is what the statement changed when the walk took its
	// values, each with its value from before (see maybe's log).
	changed []change
}

// before records where s starts, for rewalk: only while some variable
// has other values, since only then is a statement judged again.
func (w *walker) before() stmtBefore {
	return stmtBefore{at: w.scope, cwd: w.scope.cwd, oldpwd: w.scope.oldpwd, dirStack: w.scope.dirStack}
}

// restore sets, in sc, the scope of a statement judged again, what the
// statement began with: x=${x%/}, declare y=${y:-$x} and a=("${a[@]}")
// read what they replace.
func (b *stmtBefore) restore(w *walker, sc *scope) {
	if b.at == nil {
		return // nothing had other values when it began (see stmt)
	}
	sc.cwd, sc.oldpwd, sc.dirStack = b.cwd, b.oldpwd, b.dirStack
	for c := range firstChanges(b.at, b.changed) {
		switch {
		case c.array:
		case c.had:
			sc.set(c.name, c.old)
		default:
			sc.set(c.name, w.fromEnvironment(c.name))
		}
	}
	// Arrays after variables: a variable set here hides the array the
	// statement made where there was none (x[0]=$x starts from none).
	for c := range firstChanges(b.at, b.changed) {
		if _, hidden := sc.vars[c.name]; c.array && (c.had || !hidden) {
			sc.setArray(c.name, c.oldArr) // nil, unknown, when it had none
		}
	}
}

// othersBefore returns the other values name held when the statement
// began, when the statement changed it, and those it holds now.
func (b *stmtBefore) othersBefore(sc *scope, name string) ([]field, [][]field) {
	vs, as := sc.altsOf(name)
	for c := range firstChanges(b.at, b.changed) {
		if c.name != name {
			continue
		}
		if c.array {
			as = union(c.arrAlts, as, sameFields)
		} else {
			vs = union(c.alts, vs, sameField)
		}
	}
	return vs, as
}

// union returns a with the values of b it lacks, never changing a in
// place.
func union[T any](a, b []T, same func(x, y T) bool) []T {
	for _, v := range b {
		if !slices.ContainsFunc(a, func(u T) bool { return same(u, v) }) {
			a = append(slices.Clip(a), v)
		}
	}
	return a
}

// getQuiet is get without noting a read of alternatives.
func (s *scope) getQuiet(name string) (field, bool) {
	if at := s.holder(name, false); at != nil {
		return at.vars[name], true
	}
	return field{}, false
}

// notEmptyWhile drops, until the returned func is called, the other
// values of the variable name that are empty, for a block that runs only
// when it is not ([ -n "$x" ] && rm -rf "$x"/*). Those it dropped are
// then other values again: where the block did not run, they hold.
func (s *scope) notEmptyWhile(name string) (restore func()) {
	at := s.holder(name, false)
	if name == "" || at == nil || len(at.alts[name]) == 0 {
		return func() {}
	}
	saved := at.alts[name]
	putValues(&at.alts, name, notEmptyOnes(saved), field.known)
	return func() { at.addAlts(name, saved...) }
}

// A guardVar is a variable a guard holds not empty, and what the walk
// knew of it there: had, and its value v.
type guardVar struct {
	name string
	v    field
	had  bool
}

// notEmptyWhile is scope.notEmptyWhile for code, which a guard on name
// runs, and for a value the walk does not know (the environment's, a
// read's, a command's output) notes that it is not empty there, where
// nothing in code may set name again (see mayResetIn). It returns what
// ends both.
func (w *walker) notEmptyWhile(name string, code []*syntax.Stmt) (restore func()) {
	end := w.scope.notEmptyWhile(name)
	if name == "" || len(w.traps) > 0 || w.builtinsOff || implicitVar(name) || w.mayResetIn(code, name) {
		// A DEBUG trap may set it between any two commands; after
		// enable -n, [ and test may be programs on PATH. (Namerefs,
		// which set it under another name, are refused: declOptions.)
		return end
	}
	g := guardVar{name: name}
	if at := w.scope.holder(name, false); at != nil {
		g.v, g.had = at.vars[name], true
	}
	w.nonEmpty = append(w.nonEmpty, g)
	n := len(w.nonEmpty)
	return func() {
		w.nonEmpty = w.nonEmpty[:n-1]
		end()
	}
}

// implicitVar reports whether bash itself sets the variable name, as
// builtins and expansions run ($_, REPLY, BASH_REMATCH, OPTARG, PWD):
// no guard holds it.
func implicitVar(name string) bool {
	return strings.HasPrefix(name, "BASH") || strings.HasPrefix(name, "COPROC") || strings.HasPrefix(name, "EPOCH") ||
		inList("_ REPLY MAPFILE OPTARG OPTIND OPTERR PWD OLDPWD RANDOM SRANDOM SECONDS LINENO PIPESTATUS IFS "+
			"COLUMNS LINES HISTCMD FUNCNAME GROUPS DIRSTACK UID EUID PPID SHLVL", name)
}

// mayResetIn reports whether code may set name, or run what may, by
// its text: an assignment to it anywhere (x=, ${x:=}, for x in,
// $((x=0)), any arithmetic assignment or declaration), a function or
// alias it calls, a command whose name is not known, and any builtin but
// those that set no variable. A substitution's own code is looked into
// too, though it runs in a subshell: that only costs a guard.
func (w *walker) mayResetIn(code []*syntax.Stmt, name string) bool {
	found := false
	visit := func(n syntax.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *syntax.Assign:
			found = x.Name == nil || x.Name.Value == name || x.Naked
		case *syntax.ParamExp:
			found = x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull) || x.Excl
		case *syntax.ArithmCmd, *syntax.ArithmExp, *syntax.LetClause, *syntax.DeclClause, *syntax.CoprocClause, *syntax.FuncDecl:
			found = true // (( x=0 )), declare -n, local x, coproc x
		case *syntax.BinaryArithm:
			found = arithAssign(x.Op) // ${a[x=0]}
		case *syntax.UnaryArithm:
			found = x.Op == syntax.Inc || x.Op == syntax.Dec
		case *syntax.WordIter:
			found = x.Name != nil && x.Name.Value == name // for x in "", select x
		case *syntax.CallExpr:
			if len(x.Args) > 0 {
				cmd := x.Args[0].Lit()
				_, alias := w.scope.alias(cmd)
				found = cmd == "" || alias || w.scope.fn(cmd) != nil || isBashBuiltin(cmd) && !inList("echo true false : [ test pwd type", cmd)
			}
		}
		return !found
	}
	for _, st := range code {
		walkSyntax(st, visit)
	}
	return found
}

// arithAssign reports whether op assigns its left side (x=0, x+=1).
func arithAssign(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
		syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn,
		syntax.AndBoolAssgn, syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
		return true
	}
	return false
}

// withoutGuards sets the guards aside while another shell's code is
// walked, and returns what puts them back: what that shell sees of x is
// the environment's x, which the guard did not test unless x was
// exported (x=$(cat f); [ -n "$x" ] && sh -c 'rm -rf "$x"/*').
func (w *walker) withoutGuards() (restore func()) {
	saved := w.nonEmpty
	w.nonEmpty = nil
	return func() { w.nonEmpty = saved }
}

// guardedNotEmpty reports whether p, a plain $x, reads a variable a guard
// holds not empty, still with the value it had at the guard: code after
// the guard that sets x again (x=$y) ends it.
func (w *walker) guardedNotEmpty(p *syntax.ParamExp) bool {
	if len(w.nonEmpty) == 0 || !bareParam(p) {
		return false
	}
	name := p.Param.Value
	for i := len(w.nonEmpty) - 1; i >= 0; i-- {
		g := w.nonEmpty[i]
		if g.name != name {
			continue
		}
		at := w.scope.holder(name, false)
		if (at != nil) != g.had {
			return false
		}
		return !g.had || at.vars[name] == g.v
	}
	return false
}

// A loop's body runs again with the values its last pass left: x=/tmp/a;
// while read -r l; do rm -rf "$x"; x=/; done removes / on the second
// pass. So the walk logs what a loop's pass reads (loopReads): variables,
// arrays, functions called and the directory. Where something read holds
// another value after the pass, the loop is walked once more, as code
// that may not run, up to maxLoopPasses passes (two for a value that only
// grows at its end); where the last leaves one changed, what changed is
// unknown past the loop, with the values it had as other values (values
// that a later pass would reach, d=${d%/*} climbing past four levels, are
// not judged). A loop inside a pass walked again, or inside a statement
// judged again, gets one pass (nested loops would multiply the work at
// each level), and at most maxLoopBytes of loops are walked again per
// request.
const (
	maxLoopPasses = 4
	maxLoopBytes  = 2 * MaxScriptSize
)

// loopReads logs the variables, arrays and functions read, with what
// they held, while on is above 0 (a loop is walked): the first read of
// each in the innermost pass, which began at from.
type loopReads struct {
	on    int
	from  int
	again int // passes walked again being walked
	reads []loopRead
	first map[loopKey]int // where in reads a name's last logged read is
	// sets counts the assignments of the whole walk.
	sets int
}

type loopKey struct {
	name string
	kind byte // 'v'ariable, 'a'rray, 'f'unction
	at   *scope
}

type loopRead struct {
	loopKey
	had     bool
	v       field
	alts    []field
	arr     []field
	arrAlts [][]field
	fn      *syntax.Stmt // a function's body, with nFn other bodies
	nFn     int
}

// note logs a read, unless the pass logged one of that name, held by
// the same scope, already.
func (l *loopReads) note(r loopRead) {
	if i, ok := l.first[r.loopKey]; ok && i >= l.from && i < len(l.reads) && l.reads[i].loopKey == r.loopKey {
		return
	}
	if l.first == nil {
		l.first = map[loopKey]int{}
	}
	l.first[r.loopKey] = len(l.reads)
	l.reads = append(l.reads, r)
}

// loopPasses walks a loop (s) a pass at a time: cond, if any, then
// body, the first pass as code that may not run when ownMaybe (a for
// loop's first pass is inside one already), each further pass as such
// code, judged again. What a pass changed is looked at before the code
// that may not run ends, so that the values from before the pass, which
// that end adds as other values, do not count.
func (w *walker) loopPasses(s *syntax.Stmt, cond, body func(), ownMaybe bool) {
	defer func(in bool) { w.inLoop = in }(w.inLoop)
	w.inLoop = true
	l := w.scope.loop
	if l == nil {
		w.onePass(true, cond, body, ownMaybe, func() {})
		return
	}
	size := int(s.End().Offset() - s.Pos().Offset())
	// Every other value is judged again in the further passes, those
	// from before the loop too: they meet the values a pass left (f "$x"
	// with f's other body and the x a pass left, z=$y; $z rm -rf "$x").
	for n := 0; w.a.fatal == ""; n++ {
		start, from := len(l.reads), l.from
		cwd, oldpwd, stack, fds := w.scope.cwd, w.scope.oldpwd, w.scope.dirStack, w.fds
		var changed []loopKey
		var cwdMoved, fdsMoved, grown bool
		check := func() {
			changed, grown = w.changedSinceRead(l.reads[start:])
			cwdMoved = w.scope.cwd != cwd || w.scope.oldpwd != oldpwd || !slices.Equal(w.scope.dirStack, stack)
			// exec 3>&1 late in the body: the next pass's earlier
			// commands write there (each exec leaves a descriptor
			// anywhere or where it was, so this settles).
			fdsMoved = w.fds != fds
		}
		l.on++
		l.from = start
		if n == 0 {
			w.onePass(true, cond, body, ownMaybe, check)
		} else {
			saved := w.region
			w.rewalking++
			l.again++
			w.region = 0
			w.onePass(false, cond, body, true, check)
			w.rewalking--
			l.again--
			w.region = saved
		}
		l.on--
		l.from = from
		if l.on == 0 {
			l.reads = l.reads[:0] // the outermost loop: no one else reads them
			clear(l.first)
		}
		switch {
		case len(changed) == 0 && !cwdMoved && !fdsMoved || l.again > 0 || w.rewalking > 0 && n == 0:
			return
		case n+1 == maxLoopPasses || n >= 1 && grown && !cwdMoved:
			// Still changing, or growing on each pass: what changes is
			// unknown past the loop, with the values it had as other
			// values. (A pass with it unknown judged nothing the known
			// values had not: an unknown that is not empty is allowed
			// where they are.)
			w.widen(changed)
			if cwdMoved {
				w.scope.cwd, w.scope.oldpwd = "/"+dynMark, "/"+dynMark
				w.mayHold(w.scope.dirStack, "loops")
			}
			return
		}
		if w.loopBytes += size; w.loopBytes > maxLoopBytes {
			w.fail("more than %d MiB of loops to judge again for the values their passes leave", maxLoopBytes>>20)
			return
		}
	}
}

// onePass walks cond, if any, and body, and calls check at the end of
// body. With inMaybe, body is code that may not run, and on a pass after
// the first cond is too (on the first it runs at least once).
func (w *walker) onePass(first bool, cond, body func(), inMaybe bool, check func()) {
	if cond != nil && (first || !inMaybe) {
		cond()
		cond = nil
	}
	pass := func() {
		if cond != nil {
			cond()
		}
		body()
		check()
	}
	if inMaybe {
		w.openMaybe = true // the body may run no time at all
		w.maybe(pass)
	} else {
		pass()
	}
}

// isUnknown reports whether f is unknown whole, with no known text.
func isUnknown(f field) bool {
	return f.dyn && strings.Trim(f.s, dynMark) == ""
}

// below reports whether s is at, or below it.
func (s *scope) below(at *scope) bool {
	for ; s != nil; s = s.parent {
		if s == at {
			return true
		}
	}
	return false
}

// changedSinceRead reports whether something read (reads) now holds a
// value, or other values, that tell the rules more than those read: not
// one unknown after another, nor one unknown in part that grew at its
// end (r="$r$x", shift of unknown arguments), which a pass again would
// judge alike.
func (w *walker) changedSinceRead(reads []loopRead) (changed []loopKey, allGrown bool) {
	allGrown = true
	for _, r := range reads {
		if r.at != nil && !w.scope.below(r.at) {
			continue // a local of a function called, or a subshell's
		}
		more, grown := false, false
		switch r.kind {
		case 'f':
			// Another body, or another count of other bodies.
			more = w.scope.fn(r.name) != r.fn || len(w.scope.fnAltsOf(r.name)) != r.nFn
		case 'l':
			text, _ := w.scope.alias(r.name)
			more = text != r.v.s || len(w.scope.aliasAltsOf(r.name)) != r.nFn
		case 'a':
			a, at := w.scope.peekArray(r.name)
			more = (at != nil) != r.had || !sameFields(a, r.arr) && slices.ContainsFunc(a, field.known)
			// A known other array the pass added, as for a variable.
			_, as := w.scope.altsOf(r.name)
			for _, b := range as {
				more = more || knownArray(b) && !sameFields(b, r.arr) && !slices.ContainsFunc(r.arrAlts, func(c []field) bool { return sameFields(b, c) })
			}
		default:
			v, had := w.scope.getQuiet(r.name)
			more, grown = tellsMore(r.had, r.v, had, v)
			// A known other value the pass added (x=/; [ -z "$HOME" ] &&
			// x=/tmp/a): the next pass may read it. Empty and unknown
			// ones, which every reset of a variable in a branch adds,
			// are judged alike where the variable is read.
			vs, _ := w.scope.altsOf(r.name)
			for _, a := range vs {
				if a.known() && a.s != "" && !slices.ContainsFunc(r.alts, func(b field) bool { return sameField(a, b) }) {
					m, g := tellsMore(r.had, r.v, true, a)
					grown = more && grown || !more && g
					more = more || m
				}
			}
		}
		if more {
			changed = append(changed, r.loopKey)
			allGrown = allGrown && grown
		}
	}
	return changed, allGrown
}

// tellsMore reports whether the value now (had, when set) tells the rules
// more than the one read: not one unknown after another. grown reports
// that it is the one read with more text at its end (r="$r$l"): each
// pass may add more, without end, so it is judged for two passes and
// then widened (see loopPasses).
func tellsMore(readHad bool, read field, had bool, now field) (more, grown bool) {
	switch {
	case had == readHad && sameField(now, read):
	case (!had || isUnknown(now)) && (!readHad || isUnknown(read) || read.s == "" || !now.emptyable):
		// Unknown now, and unknown or empty then, or now unknown but
		// not empty: judged alike (a name the walk never set is the
		// environment's).
	default:
		return true, had && readHad && len(now.s) > len(read.s) && strings.HasPrefix(now.s, read.s)
	}
	return false, false
}

// widen makes what changed (changed, after the last pass judged) unknown,
// for one more pass, keeping what it held as other values: the values
// further passes would bring are not followed one by one.
func (w *walker) widen(changed []loopKey) {
	for _, k := range changed {
		switch k.kind {
		case 'f', 'l':
			w.fail("a loop that makes %s anew on each pass; the policy does not follow every one", k.name)
			return
		case 'a':
			at := w.scope.holder(k.name, true)
			if at == nil {
				continue
			}
			old, alts := at.arrays[k.name], at.arrAlts[k.name]
			at.setArray(k.name, nil)
			for _, a := range append([][]field{old}, alts...) {
				if a != nil {
					at.addArrAlts(k.name, a)
				}
			}
		default:
			at := w.scope.holder(k.name, false)
			if at == nil {
				at = w.scope
			}
			old, had := at.vars[k.name]
			alts := at.alts[k.name]
			at.set(k.name, field{s: dynMark, dyn: true, opaque: true})
			if had {
				at.addAlts(k.name, old)
			}
			at.addAlts(k.name, alts...)
		}
	}
}

// A function defined in code that may not run may still have its body
// from before: f() { rm -rf "$1"; }; false && f() { :; }; f / removes /.
// Its other bodies are kept (otherBody), and the statement that calls it
// is judged again with each of them, as with a variable's other values
// (fnRead).

// otherBody keeps the body name has, where the walk is, as another of its
// bodies, when a definition that may not run replaces it.
func (w *walker) otherBody(name string, body *syntax.Stmt) {
	sc := w.scope
	cur := sc.fn(name)
	if w.maybes == 0 {
		delete(sc.fnAlts, name) // defined for certain: one body
		return
	}
	alts := sc.fnAltsOf(name)
	if cur != nil && w.bodyText(cur) != w.bodyText(body) &&
		!slices.ContainsFunc(alts, func(b *syntax.Stmt) bool { return w.bodyText(b) == w.bodyText(cur) }) {
		alts = append(slices.Clip(alts), cur)
	}
	if len(alts) > maxAlts {
		w.fail("the function %s defined more than %d ways on paths that may not run; the policy cannot follow its calls", name, maxAlts)
		return
	}
	putValues(&sc.fnAlts, name, alts, knownBody)
	sc.stamp(fnRead + name) // statements now log what they change
}

// fnAltsOf returns the other bodies of the function name.
func (s *scope) fnAltsOf(name string) []*syntax.Stmt {
	for ; s != nil; s = s.parent {
		if _, ok := s.funcs[name]; ok {
			return s.fnAlts[name]
		}
	}
	return nil
}

// fnRead marks, among the names read (altReads), a function called that
// has other bodies: rewalk judges the statement again with each.
const fnRead = "\x00fn:"

// judgedInside marks, among the names read inside a statement judged as
// a whole, one that a statement inside it was judged again for.
const judgedInside = "\x00in:"

// bindBody makes body the function name's, in s, a scope of a statement
// judged again, and takes its other bodies away there.
func (s *scope) bindBody(name string, body *syntax.Stmt) {
	if s.funcs == nil {
		s.funcs = map[string]*syntax.Stmt{}
	}
	s.funcs[name] = body
	if s.fnAlts == nil {
		s.fnAlts = map[string][]*syntax.Stmt{}
	}
	s.fnAlts[name] = []*syntax.Stmt{} // bound: no other bodies here
}

// otherAlias keeps the text the alias name has, where the walk is, as
// another, when a definition that may not run replaces it: uses expand
// each (alias ls='rm -rf /'; false && alias ls=:; ls). One that did not
// exist before needs none: the word as written is judged anyway.
func (w *walker) otherAlias(name, text string) {
	sc := w.scope
	cur, had := sc.alias(name)
	if w.maybes == 0 {
		delete(sc.aliasAlts, name)
		return
	}
	alts := sc.aliasAltsOf(name)
	if had && cur != text && !slices.Contains(alts, cur) {
		alts = append(slices.Clip(alts), cur)
	}
	w.putAliasAlts(name, alts)
}

// putAliasAlts makes alts the other texts of the alias name in the
// scope being walked, and refuses more than maxAlts.
func (w *walker) putAliasAlts(name string, alts []string) {
	if len(alts) > maxAlts {
		w.fail("the alias %s defined more than %d ways on paths that may not run; the policy cannot follow its uses", name, maxAlts)
		return
	}
	putValues(&w.scope.aliasAlts, name, alts, func(string) bool { return true })
}

// guessedAlias gives the alias name, just defined by the word guess reads
// in its other reading (field.guess: alias x="${CMD:-echo}"), the text
// of that reading as another.
func (w *walker) guessedAlias(name, guess string) {
	k, v, _ := strings.Cut(guess, "=")
	if k != name {
		w.fail("an alias whose name cannot be known before it runs (%s): the policy cannot follow its uses", strings.ReplaceAll(guess, dynMark, "…"))
		return
	}
	if alts := w.scope.aliasAltsOf(name); !slices.Contains(alts, v) {
		w.putAliasAlts(name, append(slices.Clip(alts), v))
	}
}

// aliasAltsOf returns the other texts of the alias name.
func (s *scope) aliasAltsOf(name string) []string {
	for ; s != nil; s = s.parent {
		if _, ok := s.aliases[name]; ok {
			return s.aliasAlts[name]
		}
	}
	return nil
}
