package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A setsKey is a statement and a variable name, for surelySets; own
// tells that the name is a local of the function being walked, where
// local and declare set it.
type setsKey struct {
	s    *syntax.Stmt
	name string
	own  bool
	// fnDefs and off: the functions defined or unset so far and whether
	// enable ran, which change what exits.
	fnDefs int
	off    bool
}

// surelySets reports whether s, an if, a case or an && or || list, gives
// name a value on every path through it that goes on past it: if/else
// whose every branch sets it or exits, a case with a *) arm, a && x=1 ||
// x=2. A test && x=v, an if without else, a case without *) do not:
// past them a variable never set may still be unset. A return, break or
// continue counts as an exit: what follows in the function or loop does
// not run, and past the call (see callFunc) or the loop (forClause) the
// variable may still be unset.
func (w *walker) surelySets(s *syntax.Stmt, name string) bool {
	if w.isReadonly(name) {
		return false // readonly x; ... x=1: refused, and bash goes on
	}
	r := w.rareOnes()
	k := setsKey{s, name, w.ownLocal(name), r.fnDefs, w.builtinsOff}
	if v, ok := r.sets[k]; ok {
		return v
	}
	a := setsAnalysis{w, name, k.own}
	v := a.setsOnEnd(s)
	if r.sets == nil {
		r.sets = map[setsKey]bool{}
	}
	r.sets[k] = v
	return v
}

// ownLocal reports whether name is a local of the function being walked.
func (w *walker) ownLocal(name string) bool {
	for sc := w.scope; sc != nil && len(w.funcs) > 0; sc = sc.parent {
		if _, ok := sc.locals[name]; ok {
			return true
		}
		if sc == w.fnScope {
			break
		}
	}
	return false
}

// A setsAnalysis answers surelySets for one name.
type setsAnalysis struct {
	w    *walker
	name string
	own  bool // a local of the function being walked
}

// setsOnEnd reports whether running s to its end surely assigns name.
func (a setsAnalysis) setsOnEnd(s *syntax.Stmt) bool {
	name := a.name
	if s == nil || s.Background || s.Coprocess || mayFailRedirect(s.Redirs) {
		return false
	}
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(x.Args) > 0 {
			return false // x=v cmd: the command's environment
		}
		for _, as := range x.Assigns {
			if setsName(as, name) {
				return true
			}
		}
	case *syntax.DeclClause:
		switch x.Variant.Value {
		case "export", "readonly":
		case "declare", "typeset":
			if !a.own && len(a.w.funcs) > 0 {
				return false // a new local, not the variable read after
			}
		default: // local: fails outside a function
			if !a.own {
				return false
			}
		}
		for _, as := range x.Args {
			if !as.Naked && setsName(as, name) {
				return true // export x=v, local x=v
			}
		}
	case *syntax.Block:
		return a.listSets(x.Stmts)
	case *syntax.IfClause:
		if a.listSets(x.Cond) {
			return true
		}
		for ic := x; ; ic = ic.Else {
			if ic == nil {
				return false // no else: no branch may run
			}
			if len(ic.Cond) > 0 && a.listSets(ic.Cond) {
				return true // an elif's condition, which every later path ran
			}
			if !a.listSets(ic.Then) {
				return false
			}
			if len(ic.Cond) == 0 {
				return true // else
			}
		}
	case *syntax.CaseClause:
		def := false
		for _, it := range x.Items {
			for _, p := range it.Patterns {
				def = def || p.Lit() == "*"
			}
			if !a.listSets(it.Stmts) {
				return false
			}
		}
		return def
	case *syntax.BinaryCmd:
		switch x.Op {
		case syntax.AndStmt:
			// X && Y: X runs; Y when X succeeds.
			return a.setsOnEnd(x.X)
		case syntax.OrStmt:
			// X || Y: Y runs when X fails, and X sets name when it
			// succeeds (a && x=1 || x=2), or Y exits (|| exit 1).
			return a.setsOnEnd(x.X) || (a.setsOnEnd(x.Y) || a.exits(x.Y, 0)) && a.setsOnSuccess(x.X)
		}
	}
	return false
}

// setsOnSuccess reports whether s surely assigns name when it succeeds.
func (a setsAnalysis) setsOnSuccess(s *syntax.Stmt) bool {
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && b.Op == syntax.AndStmt && !s.Negated && !s.Background {
		return a.setsOnSuccess(b.X) || a.setsOnEnd(b.Y)
	}
	return !s.Negated && a.setsOnEnd(s)
}

// listSets reports whether running list to its end surely assigns name:
// one of its statements does, or exits the shell, and none before it may
// leave the list early (return, break, continue).
func (a setsAnalysis) listSets(list []*syntax.Stmt) bool {
	for _, s := range list {
		if a.setsOnEnd(s) || a.exits(s, 0) {
			return true
		}
		if a.mayLeave(s) {
			return false
		}
	}
	return false
}

// exits reports whether s surely ends the shell: exit, a block or if
// that surely does, or a function of the script that surely does (die()
// { echo "$*" >&2; exit 1; }), or return for a name own.
func (a setsAnalysis) exits(s *syntax.Stmt, depth int) bool {
	if s == nil || s.Background || s.Coprocess || depth > 4 || mayFailRedirect(s.Redirs) {
		return false
	}
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(x.Args) == 0 {
			return false
		}
		name := x.Args[0].Lit()
		w := a.w
		if _, alias := w.scope.alias(name); alias || len(w.scope.fnAltsOf(name)) > 0 || w.rare != nil && (w.rare.shaky[name] || w.rare.shaky[dynMark]) {
			return false // exit() { :; }, alias exit=:, unset -f die would go on
		}
		body := w.scope.fn(name)
		if body == nil {
			switch name {
			case "exit":
				return !w.builtinsOff
			case "return", "break", "continue":
				// The rest of the function or loop does not run; past it
				// the caller sees the variable maybe unset (callFunc,
				// forClause). Outside one bash goes on.
				return !w.builtinsOff && (name == "return" && len(w.funcs) > 0 || name != "return" && w.inLoop)
			}
			return false
		}
		return a.exits(body, depth+1)
	case *syntax.Block:
		return a.listExits(x.Stmts, depth)
	case *syntax.IfClause:
		for ic := x; ic != nil; ic = ic.Else {
			if !a.listExits(ic.Then, depth) {
				return false
			}
			if len(ic.Cond) == 0 {
				return true
			}
		}
	}
	return false
}

// mayLeave reports whether s may return, break or continue without
// surely doing so: the statements after it may not run, and those that
// do run do not. A function's body, a subshell and a substitution leave
// only themselves. (By hand, not syntax.Walk: its visitor is an
// allocation, and this runs for every if and for of a script.)
func (setsAnalysis) mayLeave(s *syntax.Stmt) bool {
	if s == nil {
		return false
	}
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(x.Args) > 0 {
			switch x.Args[0].Lit() {
			case "return", "break", "continue":
				return true
			}
		}
	case *syntax.Block:
		return anyLeaves(x.Stmts)
	case *syntax.IfClause:
		for ic := x; ic != nil; ic = ic.Else {
			if anyLeaves(ic.Cond) || anyLeaves(ic.Then) {
				return true
			}
		}
	case *syntax.WhileClause:
		return anyLeaves(x.Cond) || anyLeaves(x.Do)
	case *syntax.ForClause:
		return anyLeaves(x.Do)
	case *syntax.CaseClause:
		for _, it := range x.Items {
			if anyLeaves(it.Stmts) {
				return true
			}
		}
	case *syntax.BinaryCmd:
		if x.Op == syntax.AndStmt || x.Op == syntax.OrStmt {
			var a setsAnalysis
			return a.mayLeave(x.X) || a.mayLeave(x.Y)
		}
	case *syntax.TimeClause:
		var a setsAnalysis
		return a.mayLeave(x.Stmt)
	}
	return false
}

// anyLeaves reports whether a statement of list may leave (mayLeave).
func anyLeaves(list []*syntax.Stmt) bool {
	var a setsAnalysis
	for _, s := range list {
		if a.mayLeave(s) {
			return true
		}
	}
	return false
}

// runsOnce reports whether the loop x surely runs its body to its end:
// for (not select) over words that are plain text, one at least, with
// no break or continue that may cut a pass short.
func runsOnce(x *syntax.ForClause) bool {
	wi, ok := x.Loop.(*syntax.WordIter)
	if !ok || x.Select || !wi.InPos.IsValid() || len(wi.Items) == 0 {
		return false
	}
	for _, st := range x.Do {
		if (setsAnalysis{}).mayLeave(st) {
			return false
		}
	}
	for _, it := range wi.Items {
		if lit := it.Lit(); lit == "" || strings.ContainsAny(lit, "*?[{\\") {
			return false
		}
	}
	return true
}

// walkSyntax is syntax.Walk for trees the walk has already been through:
// syntax.SplitBraces leaves BraceExp parts in the words it expanded,
// which syntax.Walk refuses (a panic). Their elements are walked instead.
func walkSyntax(node syntax.Node, f func(syntax.Node) bool) {
	syntax.Walk(node, func(n syntax.Node) bool {
		if be, ok := n.(*syntax.BraceExp); ok {
			for _, e := range be.Elems {
				walkSyntax(e, f)
			}
			return false
		}
		return f(n)
	})
}

// setsName reports whether the assignment as sets $name, which is
// ${name[0]}: x=v and x=(a), not x[1]=v, x=() or x=([1]=a).
func setsName(as *syntax.Assign, name string) bool {
	if as.Name == nil || as.Name.Value != name || as.Index != nil {
		return false
	}
	return as.Array == nil || len(as.Array.Elems) > 0 && as.Array.Elems[0].Index == nil
}

// mayFailRedirect reports whether one of rs may fail, so that bash skips
// the command: anything but a here-document, /dev/null, or a copy of
// descriptor 0, 1 or 2.
func mayFailRedirect(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			continue
		case syntax.DplOut, syntax.DplIn:
			switch r.Word.Lit() {
			case "0", "1", "2", "-":
				continue
			}
		default:
			if r.Word.Lit() == "/dev/null" {
				continue
			}
		}
		return true
	}
	return false
}

// exitGuard returns the variable that s, a test whose other side exits,
// leaves not empty for the code after it, or "": [ -n "$x" ] || exit 1,
// [ -z "$x" ] && die no, if [ -z "$x" ]; then ...; exit 1; fi, and
// : "${x:?}".
func (w *walker) exitGuard(s *syntax.Stmt) string {
	if s.Background || s.Negated || len(s.Redirs) > 0 {
		return ""
	}
	a := setsAnalysis{w: w}
	switch x := s.Cmd.(type) {
	case *syntax.BinaryCmd:
		if (x.Op == syntax.AndStmt || x.Op == syntax.OrStmt) && a.exits(x.Y, 0) {
			return emptyGuard(w.scope, x.X, x.Op == syntax.AndStmt, w.arith)
		}
	case *syntax.IfClause:
		if len(x.Cond) == 1 && x.Else == nil && a.listExits(x.Then, 0) {
			return emptyGuard(w.scope, x.Cond[0], true, w.arith)
		}
	case *syntax.CallExpr:
		if len(x.Args) == 2 && len(x.Assigns) == 0 && x.Args[0].Lit() == ":" {
			return errorIfEmpty(x.Args[1])
		}
	}
	return ""
}

// errorIfEmpty returns x for a word that is ${x:?...}, or ${x:=d} with
// d not empty, quoted or not: past it x is not empty.
func errorIfEmpty(wd *syntax.Word) string {
	if len(wd.Parts) != 1 {
		return ""
	}
	part := wd.Parts[0]
	if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		part = dq.Parts[0]
	}
	pe, ok := part.(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Excl || pe.Index != nil || pe.Exp == nil {
		return ""
	}
	switch pe.Exp.Op {
	case syntax.ErrorUnsetOrNull:
		return pe.Param.Value
	case syntax.AssignUnsetOrNull:
		if d := pe.Exp.Word; d != nil && d.Lit() != "" {
			return pe.Param.Value // : ${x:=build}
		}
	}
	return ""
}

// listExits reports whether running list surely ends the shell: one of
// its statements does, and none before it may leave it early.
func (a setsAnalysis) listExits(list []*syntax.Stmt, depth int) bool {
	for _, s := range list {
		if a.exits(s, depth) {
			return true
		}
		if a.mayLeave(s) {
			return false
		}
	}
	return false
}

// holdNotEmpty records that name is not empty from here on, where an
// exit guard (see exitGuard) let the shell go on: its empty other values
// go, and an unknown one is known not to be empty.
func (w *walker) holdNotEmpty(name string) {
	if len(w.traps) > 0 || w.builtinsOff || implicitVar(name) {
		return // a trap may set it again; [ may be a program
	}
	v, ok := w.scope.getQuiet(name)
	if !ok {
		v = w.fromEnvironment(name)
	}
	olds, _ := w.scope.altsOf(name)
	kept := notEmptyOnes(olds)
	if isEmptyValue(v) {
		v = field{s: dynMark, dyn: true, opaque: true}
		if len(kept) > 0 {
			v, kept = kept[0], kept[1:]
		}
	}
	w.scope.set(name, notEmpty(v))
	w.scope.addAlts(name, kept...)
}
