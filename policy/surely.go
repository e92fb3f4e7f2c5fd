package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A setsKey is a statement and a variable name, for surelySets; own
// tells that the name is a local of the function being walked.
type setsKey struct {
	s    *syntax.Stmt
	name string
	own  bool
}

// surelySets reports whether s, an if, a case or an && or || list, gives
// name a value on every path through it that goes on past it: if/else
// whose every branch sets it or exits, a case with a *) arm, a && x=1 ||
// x=2. A test && x=v, an if without else, a case without *) do not:
// past them a variable never set may still be unset. For a local of the
// function being walked, a return counts as an exit: the variable ends
// with the call.
func (w *walker) surelySets(s *syntax.Stmt, name string) bool {
	k := setsKey{s, name, w.ownLocal(name)}
	r := w.rareOnes()
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
	own  bool // return ends the variable's life, as exit does
}

// setsOnEnd reports whether running s to its end surely assigns name.
func (a setsAnalysis) setsOnEnd(s *syntax.Stmt) bool {
	name := a.name
	if s == nil || s.Background || s.Coprocess {
		return false
	}
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(x.Args) > 0 {
			return false // x=v cmd: the command's environment
		}
		for _, as := range x.Assigns {
			if as.Name != nil && as.Name.Value == name {
				return true
			}
		}
	case *syntax.DeclClause:
		for _, as := range x.Args {
			if as.Name != nil && as.Name.Value == name && !as.Naked {
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
	if s == nil || s.Background || s.Coprocess || depth > 4 {
		return false
	}
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(x.Args) == 0 {
			return false
		}
		name := x.Args[0].Lit()
		w := a.w
		if _, alias := w.scope.alias(name); alias || len(w.scope.fnAltsOf(name)) > 0 {
			return false // exit() { :; } or alias exit=: would go on
		}
		body := w.scope.fn(name)
		if body == nil {
			return !w.builtinsOff && (name == "exit" || name == "return" && a.own)
		}
		return a.exits(body, depth+1)
	case *syntax.Block:
		for _, st := range x.Stmts {
			if a.exits(st, depth) {
				return true
			}
			if a.mayLeave(st) {
				return false
			}
		}
	case *syntax.IfClause:
		for ic := x; ic != nil; ic = ic.Else {
			ends := false
			for _, st := range ic.Then {
				if ends = a.exits(st, depth); ends || a.mayLeave(st) {
					break
				}
			}
			if !ends {
				return false
			}
			if len(ic.Cond) == 0 {
				return true
			}
		}
	}
	return false
}

// mayLeave reports whether s may return (unless own), break or
// continue.
func (a setsAnalysis) mayLeave(s *syntax.Stmt) bool {
	found := false
	walkSyntax(s, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.FuncDecl, *syntax.Subshell, *syntax.Word:
			// A word's substitutions run in subshells; and the walk
			// leaves syntax.SplitBraces' BraceExp in words, which
			// syntax.Walk refuses.
			return false
		case *syntax.CallExpr:
			if len(x.Args) > 0 {
				switch x.Args[0].Lit() {
				case "return":
					found = !a.own
				case "break", "continue":
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// runsOnce reports whether the loop x surely runs its body: for over
// words that are plain text, one at least.
func runsOnce(x *syntax.ForClause) bool {
	wi, ok := x.Loop.(*syntax.WordIter)
	if !ok || !wi.InPos.IsValid() || len(wi.Items) == 0 {
		return false
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
