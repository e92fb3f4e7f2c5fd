package policy

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// pushd follows bash's directory stack, so that pushd -n DIR, which only
// stores DIR, and a later bare pushd, which goes there, leave the
// working directory where bash leaves it. The stack is replaced, never
// changed in place: forked scopes share it.
func (w *walker) pushd(args []field) {
	noCd, ops := dirStackArgs(args)
	switch {
	case len(ops) == 0 && len(w.scope.dirStack) == 0:
		// bash: "no other directory"; nothing changes.
	case len(ops) == 0:
		// Swap the two top entries: go to the one below.
		top := w.scope.dirStack[0]
		w.scope.dirStack = append([]string{w.scope.cwd}, w.scope.dirStack[1:]...)
		w.cdTo(top)
	case isStackIndex(ops[0]) && !noCd:
		// pushd +N (-N from the right) rotates [cwd, stack...] to put
		// entry N on top and goes there.
		list := append([]string{w.scope.cwd}, w.scope.dirStack...)
		i, ok := stackIndex(ops[0].s, len(list))
		if !ok {
			return // bash: out of range; nothing changes
		}
		rotated := append(append([]string{}, list[i:]...), list[:i]...)
		w.scope.dirStack = rotated[1:]
		w.cdTo(rotated[0])
	case isStackIndex(ops[0]):
		w.unknownCwd()
	case noCd:
		w.scope.dirStack = pushed(w.stackEntry(ops[0]), w.scope.dirStack)
	default:
		old := w.scope.cwd
		w.cd(ops[:1])
		w.scope.dirStack = pushed(old, w.scope.dirStack)
	}
}

// maxDirStack bounds the stack the walk keeps: each pushd copies it.
const maxDirStack = 64

// pushed returns a new stack with dir on top of stack. Past maxDirStack
// the bottom entries give way to one unknown directory, where a popd
// that reaches them goes.
func pushed(dir string, stack []string) []string {
	out := append([]string{dir}, stack[:min(len(stack), maxDirStack-1)]...)
	if len(stack) >= maxDirStack {
		out[len(out)-1] = "/" + dynMark
	}
	return out
}

// popd takes the top of the stack off and goes to the next entry.
func (w *walker) popd(args []field) {
	noCd, ops := dirStackArgs(args)
	switch {
	case len(w.scope.dirStack) == 0:
		// bash: "directory stack empty"; nothing changes.
	case len(ops) > 0 && isStackIndex(ops[0]) && !noCd:
		// popd +N (-N from the right) removes entry N of [cwd, stack...];
		// removing the top goes to the next.
		list := append([]string{w.scope.cwd}, w.scope.dirStack...)
		i, ok := stackIndex(ops[0].s, len(list))
		if !ok {
			return
		}
		rest := append(append([]string{}, list[:i]...), list[i+1:]...)
		w.scope.dirStack = rest[1:]
		if i == 0 {
			w.cdTo(rest[0])
		}
	case len(ops) > 0:
		if !noCd {
			w.unknownCwd()
		}
		w.scope.dirStack = nil
	case noCd:
		w.scope.dirStack = w.scope.dirStack[1:]
	default:
		next := w.scope.dirStack[0]
		w.scope.dirStack = w.scope.dirStack[1:]
		w.cdTo(next)
	}
}

// dirStackArgs splits pushd's or popd's words into -n and the operands.
func dirStackArgs(args []field) (noCd bool, ops []field) {
	for i, a := range args {
		switch {
		case a.s == "--":
			return noCd, append(ops, args[i+1:]...)
		case a.s == "-n":
			noCd = true
		case strings.HasPrefix(a.s, "-") && !isStackIndex(a):
		default:
			ops = append(ops, a)
		}
	}
	return noCd, ops
}

// stackIndex returns the position in a list of n directories that +N
// (from the left) or -N (from the right) names.
func stackIndex(s string, n int) (int, bool) {
	k, err := strconv.Atoi(s[1:])
	if err != nil || k >= n {
		return 0, false
	}
	if s[0] == '-' {
		k = n - 1 - k
	}
	return k, true
}

// isStackIndex reports whether a word is +N or -N, an entry of the stack.
func isStackIndex(a field) bool {
	if a.dyn || len(a.s) < 2 || a.s[0] != '+' && a.s[0] != '-' {
		return false
	}
	return strings.Trim(a.s[1:], "0123456789") == ""
}

// stackEntry is the directory pushd -n stores for a word.
func (w *walker) stackEntry(a field) string {
	if a.dyn || a.glob {
		return "/" + dynMark
	}
	return w.resolvePath(a.s)
}

// cdTo goes to a directory of the stack, which may be unknown.
func (w *walker) cdTo(dir string) {
	w.cd([]field{{s: dir, dyn: strings.Contains(dir, dynMark)}})
}

// unknownCwd notes that the working directory is no longer known.
func (w *walker) unknownCwd() {
	w.cd([]field{{s: dynMark, dyn: true}})
}

// cdThenPwd returns what $(cd DIR; pwd) or $(cd DIR && pwd) prints: the
// directory those cds reach. The idiom names a directory the script then
// reads from ($(cd /etc; pwd)/shadow).
func (w *walker) cdThenPwd(stmts []*syntax.Stmt) (string, bool) {
	calls, ok := flatCalls(stmts, nil)
	if !ok || len(calls) < 2 || calls[len(calls)-1].Args[0].Lit() != "pwd" || len(calls[len(calls)-1].Args) > 2 {
		return "", false
	}
	dir := w.scope.cwd
	for _, c := range calls[:len(calls)-1] {
		if c.Args[0].Lit() != "cd" || len(c.Args) != 2 || !plainWord(c.Args[1]) {
			return "", false
		}
		arg := w.wordString(c.Args[1])
		if !arg.known() || arg.s == "-" || strings.HasPrefix(arg.s, "-") {
			return "", false
		}
		dir = resolve(arg.s, dir)
	}
	return dir, strings.HasPrefix(dir, "/") && !strings.Contains(dir, dynMark)
}

// flatCalls lists the plain calls of statements joined by ";" or "&&",
// or reports false when there is anything else.
func flatCalls(stmts []*syntax.Stmt, out []*syntax.CallExpr) ([]*syntax.CallExpr, bool) {
	for _, st := range stmts {
		if st.Negated || st.Background || len(st.Redirs) > 0 {
			return nil, false
		}
		switch x := st.Cmd.(type) {
		case *syntax.CallExpr:
			if len(x.Assigns) > 0 || len(x.Args) == 0 {
				return nil, false
			}
			out = append(out, x)
		case *syntax.BinaryCmd:
			if x.Op != syntax.AndStmt {
				return nil, false
			}
			var ok bool
			if out, ok = flatCalls([]*syntax.Stmt{x.X, x.Y}, out); !ok {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return out, true
}
