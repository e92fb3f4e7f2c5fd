package policy

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The directory stack follows bash's pushd, popd and dirs builtins (dash
// has none): which words they read as options, as +N and -N, and as a
// directory, and what each leaves on the stack. A word whose text is
// unknown may be any of these, and input bash rejects does nothing in
// bash but would move the walk; both are refused rather than guessed. The
// stack is replaced, never changed in place: forked scopes share it.

// dirStackLost is the stack once DIRSTACK was assigned: bash then holds
// entries the walk cannot know.
const dirStackLost = dynMark + "DIRSTACK"

// pushd follows pushd [-n] [+N | -N | DIR], read as bash reads it: a
// first "--" makes every word after it cd's; otherwise -n, +N and -N are
// read up to the first other word, and a rotation ignores the words
// after it.
func (w *walker) pushd(args []field) {
	if w.pushdUnknown(args) {
		return
	}
	if !w.stackKnown("pushd", args) {
		return
	}
	skipopt := len(args) > 0 && args[0].s == "--"
	i := 0
	if skipopt {
		i = 1
	}
	if i == len(args) {
		w.swapStack()
		return
	}
	noCd, rotate, dashes := false, -1, false
loop:
	for ; !skipopt && i < len(args); i++ {
		s := args[i].s
		switch {
		case s == "":
			w.fail("pushd with an empty word: bash's cd does nothing, the stack grows")
			return
		case s == "-n":
			noCd = true
		case s == "--":
			i++
			dashes = true
			break loop
		case s == "-":
			break loop
		case s != "" && (s[0] == '+' || s[0] == '-'):
			k, ok := w.stackIndex("pushd", s)
			if !ok {
				// bash: out of range or no number; nothing changes, unless
				// bash's stack is longer.
				w.shakyStay(w.scope.dirStack)
				return
			}
			rotate = k
		default:
			break loop
		}
	}
	switch {
	case rotate >= 0:
		if rotate == 0 {
			return
		}
		list := append([]string{w.scope.cwd}, w.scope.dirStack...)
		rotated := append(append([]string{}, list[rotate:]...), list[:rotate]...)
		// With -n bash rotates without a cd, and the entry it would have
		// gone to is dropped.
		w.scope.dirStack = rotated[1:]
		if !noCd {
			w.cdTo(rotated[0])
		}
		w.shakyStay(list)
		return
	case i == len(args):
		return // pushd -n alone does nothing
	case len(args)-i > 1:
		w.fail("pushd with more than one directory: bash's cd refuses them, other shells take the first")
		return
	}
	dir := args[i].s
	if dir == "" {
		w.fail("pushd with an empty word: bash's cd does nothing, the stack grows")
		return
	}
	if strings.HasPrefix(dir, "-") && (dir != "-" || noCd || skipopt || dashes) {
		// bash's cd reads -x after pushd -- as an option, pushd -n -
		// stores a "-" that popd reads as cd -.
		w.fail("pushd of %q: bash reads it as an option or cd -; write ./%s", dir, dir)
		return
	}
	if noCd {
		// bash stores the word as written: popd cds to it from wherever
		// the shell then is.
		w.pushDir(dir)
		return
	}
	old := w.scope.cwd
	w.cd([]field{{s: "--"}, args[i]})
	w.pushDir(old)
	if !w.surelyExists(w.scope.cwd) {
		w.scope.stackShaky = true
	}
}

// pushdUnknown follows pushd "$dir", one word known only when it runs
// (after an optional --), and reports whether it did. bash reads the word
// as a directory unless it is -n, +N or -N, so the shell ends up in that
// directory, or where it was, or at any entry of the stack that a
// rotation reaches: it is followed as a cd that may fail, with every entry
// a place the shell may be and one bash's stack may hold.
func (w *walker) pushdUnknown(args []field) bool {
	if len(args) == 2 && args[0].s == "--" && !args[0].dyn {
		args = args[1:]
	}
	if len(args) != 1 || !args[0].dyn && !args[0].glob ||
		len(w.scope.dirStack) > 0 && w.scope.dirStack[0] == dirStackLost {
		return false
	}
	old := w.scope.cwd
	entries := append([]string{old}, w.scope.dirStack...)
	w.cd([]field{{s: "--"}, args[0]})
	w.pushDir(old)
	sc := w.scope
	for _, e := range entries {
		sc.stay = sc.stay.with(sc.cwd, w.resolvePath(e))
	}
	w.mayHold(entries, "pushd")
	return true
}

// mayHold notes that bash's stack may hold entries besides dirStack: the
// stack is shaky, and pops and rotations may reach them (shakyStay). who
// names what changed the stack, for the refusal past maxDirStack.
func (w *walker) mayHold(entries []string, who string) {
	sc := w.scope
	sc.stackShaky = true
	for _, e := range entries {
		if !slices.Contains(sc.ghosts, e) {
			sc.ghosts = append(sc.ghosts[:len(sc.ghosts):len(sc.ghosts)], e)
		}
	}
	if len(sc.ghosts) > maxDirStack {
		w.fail("more than %d directories on stacks that %s changed", maxDirStack, who)
	}
}

// pushDir puts dir on top of the stack.
func (w *walker) pushDir(dir string) {
	if len(w.scope.dirStack) >= maxDirStack {
		w.fail("more than %d directories pushed", maxDirStack)
		return
	}
	w.scope.dirStack = append([]string{dir}, w.scope.dirStack...)
}

// swapStack is pushd with no directory: the top two entries swap.
func (w *walker) swapStack() {
	if len(w.scope.dirStack) == 0 {
		w.shakyStay(nil) // bash's may hold more
		return           // bash: "no other directory"
	}
	list := append([]string{w.scope.cwd}, w.scope.dirStack...)
	w.scope.dirStack = append([]string{list[0]}, list[2:]...)
	w.cdTo(list[1])
	w.shakyStay(list)
}

// maxDirStack bounds the stack the walk keeps: each pushd copies it.
const maxDirStack = 64

// popd follows popd [-n] [+N | -N], read as bash reads it: the words up
// to "--", where it stops reading.
func (w *walker) popd(args []field) {
	if !w.stackKnown("popd", args) {
		return
	}
	noCd, index := false, ""
	for _, a := range args {
		s := a.s
		switch {
		case s == "--":
		case s == "":
			// bash then removes an entry without a cd, which one depending
			// on the words before.
			w.fail("popd with an empty word: bash removes an entry without a cd")
			return
		case s == "-n":
			noCd = true
			continue
		case s[0] == '+' || s[0] == '-':
			index = s // the last one counts
			continue
		default:
			return // bash: "invalid argument"; nothing changes
		}
		break
	}
	i := 0 // the entry of [cwd, stack...] to remove
	if index != "" {
		k, ok := w.stackIndex("popd", index)
		if !ok {
			return
		}
		i = k
	}
	stack := w.scope.dirStack
	if len(stack) == 0 {
		w.shakyStay(nil) // bash's may hold more
		return           // bash: "directory stack empty"
	}
	if i == 0 {
		// The top: bash goes to the next entry, which is taken off.
		w.scope.dirStack = stack[1:]
		if !noCd {
			w.cdTo(stack[0])
		}
		w.shakyStay(stack)
		return
	}
	w.scope.dirStack = append(append([]string{}, stack[:i-1]...), stack[i:]...)
}

// shakyStay notes, after a pop or a rotation of entries, that the shell
// may be in any of them when the stack is shaky: bash's lacks an entry a
// failed pushd did not push, so its popd and +N reach others.
func (w *walker) shakyStay(entries []string) {
	if !w.scope.stackShaky {
		return
	}
	for _, list := range [][]string{entries, w.scope.ghosts} {
		for _, e := range list {
			w.scope.stay = w.scope.stay.with(w.scope.cwd, w.resolvePath(e))
		}
	}
	if len(w.scope.dirStack) == 0 && len(w.scope.ghosts) == 0 {
		w.scope.stackShaky = false
	}
}

// stackKnown reports whether the words of pushd or popd and the stack
// are known; otherwise it refuses the input.
func (w *walker) stackKnown(name string, args []field) bool {
	for _, a := range args {
		if a.dyn || a.glob {
			w.fail("%s with a word that is known only when it runs: it may be an option or +N; use cd", name)
			return false
		}
	}
	if len(w.scope.dirStack) > 0 && w.scope.dirStack[0] == dirStackLost {
		w.fail("%s after an assignment to DIRSTACK, whose entries are not known", name)
		return false
	}
	return true
}

// stackIndex returns the entry of [cwd, stack...] that +N (from the left)
// or -N (from the right) names, or false when bash finds it out of range.
// Other numbers bash reads (+ 1, ++1, -+1) are refused.
func (w *walker) stackIndex(name, s string) (int, bool) {
	n := len(w.scope.dirStack) + 1
	digits := s[1:]
	k, err := strconv.Atoi(digits)
	if digits == "" || strings.Trim(digits, "0123456789") != "" || err != nil {
		w.fail("%s %q: bash reads it as a stack index or an option; write +N, -N, or ./%s for a directory", name, s, s)
		return 0, false
	}
	if k >= n {
		return 0, false
	}
	if s[0] == '-' {
		k = n - 1 - k
	}
	return k, true
}

// isStackRef reports whether ~name names a directory stack entry: N, +N
// or -N.
func isStackRef(name string) bool {
	digits := name
	if name != "" && (name[0] == '+' || name[0] == '-') {
		digits = name[1:]
	}
	return digits != "" && strings.Trim(digits, "0123456789") == ""
}

// stackEntry returns the entry of [cwd, stack...] that ~N, ~+N or ~-N
// names, or false when there is none and bash leaves the word as it is.
func (w *walker) stackEntry(name string) (string, bool) {
	if w.scope.stackShaky || len(w.scope.dirStack) > 0 && w.scope.dirStack[0] == dirStackLost {
		w.fail("~%s with a directory stack that bash may hold otherwise; name the directory", name)
		return "", false
	}
	list := append([]string{w.scope.cwd}, w.scope.dirStack...)
	k, err := strconv.Atoi(strings.TrimPrefix(name, "+"))
	if name[0] == '-' {
		k, err = strconv.Atoi(name[1:])
		k = len(list) - 1 - k
	}
	if err != nil || k < 0 || k >= len(list) {
		return "", false
	}
	return list[k], true
}

// dirs follows dirs -c, which empties the stack: bash does so only when
// every word is one it knows.
func (w *walker) dirs(args []field) {
	empty, other := false, false
	for _, a := range args {
		switch {
		case a.dyn || a.glob:
			w.fail("dirs with a word that is known only when it runs: it may be -c")
			return
		case a.s == "--":
			other = true
		case a.s == "-c":
			empty = true
		case a.s == "-l" || a.s == "-p" || a.s == "-v":
		default:
			other = true
		}
	}
	switch {
	case empty && other:
		w.fail("dirs -c with other words: bash may or may not empty the stack; write dirs -c alone")
	case empty:
		w.scope.dirStack = nil
	}
}

// cdTo goes to a directory of the stack, as written there: a word pushd
// -n stored is relative to wherever the shell then is.
func (w *walker) cdTo(dir string) {
	w.cd([]field{{s: "--"}, {s: dir, dyn: strings.Contains(dir, dynMark)}})
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

// maxStay bounds the directories a failed cd may have left the shell in.
const maxStay = 8

// stayDirs are the directories, besides cwd, the shell may be in because
// a cd failed; lost says there were more than the walk keeps.
type stayDirs struct {
	dirs []string
	lost bool
}

// cdMayFail notes, after a cd from old with operands ops, where the shell
// is should the cd fail (old, or where an earlier failure left it), and in
// w.cdOK where it is should it work (a relative cd goes on from each).
func (w *walker) cdMayFail(old string, ops []field) {
	prev, cwd := w.scope.stay, w.scope.cwd
	ok := stayDirs{lost: prev.lost}
	switch {
	case len(ops) == 1 && ops[0].s == "-":
		// OLDPWD is where the last cd that worked left from.
		ok = prev.with(cwd, old)
	case len(ops) == 1 && !ops[0].dyn && !ops[0].glob && !strings.HasPrefix(ops[0].s, "/"):
		for _, d := range prev.dirs {
			ok = ok.with(cwd, resolve(ops[0].s, d))
		}
	}
	all := ok
	if len(prev.dirs) > 0 || prev.lost || !w.surelyExists(cwd) {
		all = all.with(cwd, old)
		for _, d := range prev.dirs {
			all = all.with(cwd, d)
		}
	}
	w.scope.stay, w.cdOK, w.cdDone = all, ok, true
}

// surelyExists reports whether a cd to dir cannot fail: it is the
// working directory the request started in, one of its parents, or a
// directory every system has. Not the home directory: HOME may name one
// that does not exist (HOME=/nonexistent; cd /; cd; rm -rf usr).
func (w *walker) surelyExists(dir string) bool {
	switch dir {
	case "/", "/tmp", "/etc", "/usr", "/var", "/bin", "/dev":
		return true
	}
	d := w.p.cwd
	return d != "" && (dir == d || strings.HasPrefix(d, dir+"/"))
}

// with returns s with dir added, unless it is cwd, unknown or already
// there; s is not changed.
func (s stayDirs) with(cwd, dir string) stayDirs {
	if dir == cwd || dir == "" || strings.Contains(dir, dynMark) || slices.Contains(s.dirs, dir) {
		return s
	}
	if len(s.dirs) >= maxStay {
		s.lost = true
		return s
	}
	s.dirs = append(s.dirs[:len(s.dirs):len(s.dirs)], dir)
	return s
}

// maybe walks code that may not run (a branch, a loop body, what follows
// && or ||): past it, the shell may also be where it was, with the stack
// it had.
func (w *walker) maybe(walk func()) { w.maybeWithin(nil, walk) }

// maybeWithin is maybe for code that is part of in (an if, a case, an &&
// list): a variable it sets that the walk never held may stay unset past
// in unless in sets it on every path ([ -e x ] && p=build; rm -rf "$p"/*
// is /*; see surelySets).
func (w *walker) maybeWithin(in *syntax.Stmt, walk func()) {
	sc := w.scope
	cwd, stay, stack := sc.cwd, sc.stay, sc.dirStack
	// What the code changes in sc is logged in w.changes, which the
	// blocks around it share: they changed it too.
	guarded, open := w.guarded, w.openMaybe
	w.guarded, w.openMaybe = "", false
	start, prev, prevFrom := len(w.changes), sc.log, sc.logFrom
	sc.log, sc.logFrom = &w.changes, start
	w.maybes++
	region := w.mayRegion
	w.regions++
	w.mayRegion = w.regions
	walk()
	w.mayRegion = region
	w.maybes--
	sc.log, sc.logFrom = prev, prevFrom
	w.mergeAlts(sc, w.changes[start:], guarded, open, in)
	if prev == nil {
		w.changes = w.changes[:start]
	}
	if w.scope != sc {
		return // a subshell's changes were left behind
	}
	if sc.cwd != cwd || len(sc.stay.dirs) != len(stay.dirs) || sc.stay.lost != stay.lost {
		sc.stay = sc.stay.union(sc.cwd, stay).with(sc.cwd, cwd)
	}
	if len(sc.dirStack) != len(stack) || len(stack) > 0 && &sc.dirStack[0] != &stack[0] {
		// Bash's stack may still hold what the code took off.
		w.mayHold(stack, "branches")
	}
}

// union returns s with the directories of t added.
func (s stayDirs) union(cwd string, t stayDirs) stayDirs {
	for _, d := range t.dirs {
		s = s.with(cwd, d)
	}
	s.lost = s.lost || t.lost
	return s
}

// isCd reports whether s is a plain call of cd, pushd or popd.
func isCd(s *syntax.Stmt) bool {
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || s.Negated || s.Background {
		return false
	}
	switch call.Args[0].Lit() {
	case "cd", "pushd", "popd":
		return true
	}
	return false
}

// exits reports whether s is exit, alone or ending a block: past cd x ||
// exit, the cd worked. return is not one: outside a function bash goes
// on, and in one the caller goes on from where the cd failed. Nor is an
// exit with a redirection, which may fail.
func exits(s *syntax.Stmt) bool {
	for s != nil && !s.Negated && !s.Background && len(s.Redirs) == 0 {
		switch x := s.Cmd.(type) {
		case *syntax.CallExpr:
			if len(x.Args) == 0 || len(x.Assigns) > 0 {
				return false
			}
			return x.Args[0].Lit() == "exit"
		case *syntax.Block:
			if len(x.Stmts) == 0 {
				return false
			}
			s = x.Stmts[len(x.Stmts)-1]
		default:
			return false
		}
	}
	return false
}
