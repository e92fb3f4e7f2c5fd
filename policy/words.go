package policy

import (
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// dynMark stands for the part of a word that cannot be known before the
// command runs. Input with NUL bytes is refused, so it never occurs in a
// real word.
const dynMark = "\x00"

// A field is one argument as bash would pass it, as far as it is known.
type field struct {
	s    string // the text, with dynMark where an expansion is unknown
	dyn  bool   // some of it is unknown
	glob bool   // it has unquoted glob characters
	proc bool   // it is a process substitution
	dl   bool   // it holds the output of a download (curl, wget, ...)
	dec  bool   // it holds the output of a decoder (base64 -d, xxd -r, ...)
	// emptyable: every unknown part is a variable or a command
	// substitution that may be empty ("$DIR"/* is /* then), none guarded
	// by ${DIR:?}.
	emptyable bool
	opaque    bool // an unknown part that is not such a variable
	unset     bool // a variable removed by unset: ${x-/} is / then
	// procText is what a <(...) process substitution prints, when known:
	// a pointer, since it is rare and every field of every command pays
	// for the room.
	procText *string
	// guess is the field's other reading where it took a default for a
	// variable the walk does not know (${CC:-gcc}): the text with dynMark
	// for that variable, which may hold anything. The text itself is the
	// default, judged as before; nil when there is no other reading.
	guess *string
}

func (f field) known() bool { return !f.dyn }

// otherReading is f as its other reading (guess, which must be set): not
// known. The unknown value is taken as not empty where ${x:-d} or ${x:=d}
// gave d for an empty x, which the text reading judges, and as possibly
// empty where ${x-d} or ${x=d} took d (maybeEmpty): rm -rf ${x-/tmp/y}/*
// of an x set empty is rm -rf /*.
func (f field) otherReading() field {
	s := guessText(*f.guess)
	return field{s: s, dyn: true, glob: f.glob, emptyable: mayBeEmpty(f.guess)}
}

func litFields(ss ...string) []field {
	out := make([]field, len(ss))
	for i, s := range ss {
		out[i] = field{s: s}
	}
	return out
}

// fieldBuilder accumulates parts into fields, splitting where an unquoted
// expansion splits. A strings.Builder keeps long words linear; a field of
// one part, the common case, is that part's string, not a copy.
type fieldBuilder struct {
	out     []field
	cur     field
	sb      strings.Builder
	parts   int // added to cur; from the second on, they are in sb
	started bool
	// cur's other reading (field.guess) from its first guessed part on:
	// sole while that part is all there is (${CC:-gcc}), which needs no
	// copy, guess once more comes; both nil while it has none.
	sole  *string
	guess []byte
}

// addGuessed adds a part whose other reading is guess (see field.guess),
// or none when guess is nil.
func (b *fieldBuilder) addGuessed(s string, dyn, glob bool, guess *string) {
	switch {
	case guess == nil:
		b.add(s, dyn, glob)
	case b.parts == 0:
		b.add(s, dyn, glob)
		b.sole = guess
	default:
		b.startGuess()
		g := append(b.guess, *guess...)
		b.guess = nil // add must not write s into the other reading
		b.add(s, dyn, glob)
		b.guess = g
	}
}

// startGuess starts guess, the other reading of what cur holds so far.
func (b *fieldBuilder) startGuess() {
	switch {
	case b.guess != nil:
	case b.sole != nil:
		b.guess = append(make([]byte, 0, len(*b.sole)+16), *b.sole...)
		b.sole = nil
	default:
		text := b.cur.s
		if b.parts > 1 {
			text = b.sb.String()
		}
		b.guess = append(make([]byte, 0, len(text)+16), text...)
	}
}

func (b *fieldBuilder) add(s string, dyn, glob bool) {
	if b.sole != nil {
		b.startGuess()
	}
	if b.guess != nil {
		b.guess = append(b.guess, s...)
	}
	switch b.parts {
	case 0:
		b.cur.s = s
	case 1:
		// Room for this part and a few more at once, instead of a
		// copy each time the builder doubles.
		b.sb.Grow(max(2*(len(b.cur.s)+len(s)), 32))
		b.sb.WriteString(b.cur.s)
		fallthrough
	default:
		b.sb.WriteString(s)
	}
	b.parts++
	b.cur.dyn = b.cur.dyn || dyn
	b.cur.glob = b.cur.glob || glob
	b.started = true
}

// partVar returns the value of $x or ${x}, not known (ok is param's
// answer) but known in part: its text, with dynMark where it is not.
func (w *walker) partVar(p *syntax.ParamExp, ok bool) (field, bool) {
	if ok || !bareParam(p) {
		return field{}, false
	}
	f, found := w.scope.get(p.Param.Value)
	if !found || !f.dyn || strings.Trim(f.s, dynMark) == "" {
		return field{}, false
	}
	if _, isArr := w.scope.getArray(p.Param.Value); isArr {
		return field{}, false
	}
	return f, true
}

// addPart adds text of the value f known in part, with its marks.
func (b *fieldBuilder) addPart(f field, text string) {
	guess := f.guess
	if guess != nil && text != f.s {
		guess = anyText() // a piece of it: any piece
	}
	b.addGuessed(text, strings.Contains(text, dynMark), false, guess)
	b.cur.emptyable = b.cur.emptyable || f.emptyable
	b.cur.opaque = b.cur.opaque || f.opaque
	b.cur.dl, b.cur.dec = b.cur.dl || f.dl, b.cur.dec || f.dec
}

// addElem adds e, an element of an array, with its marks: an element
// from $(cat f) may be empty, as a variable would ("${a[@]}"/* is /*).
func (b *fieldBuilder) addElem(e field) {
	b.addGuessed(e.s, e.dyn, false, e.guess)
	b.cur.emptyable = b.cur.emptyable || e.emptyable
	b.cur.opaque = b.cur.opaque || e.opaque
	b.cur.dl = b.cur.dl || e.dl
}

// addOutput adds a command's output known in part (text holds dynMark).
// With no other character printed than blanks, it may be empty where its
// unknown parts are ($(echo "$y")), as a wholly unknown output may.
func (b *fieldBuilder) addOutput(text string) {
	b.add(text, true, false)
	if strings.Trim(text, dynMark+" \t\n") == "" {
		b.cur.emptyable = true
	} else {
		b.cur.opaque = true
	}
}

// addUnknown adds an expansion whose value is not known.
func (b *fieldBuilder) addUnknown(p *syntax.ParamExp) {
	if p != nil && (p.Exp == nil || p.Exp.Op != syntax.ErrorUnset && p.Exp.Op != syntax.ErrorUnsetOrNull) {
		b.cur.emptyable = true
	} else {
		b.cur.opaque = true
	}
	b.add(dynMark, true, false)
}

// addUnknownVar adds an expansion whose value is not known, with what is
// known of the variable behind it, v: its marks, and that it is not empty
// (v is opaque: ${x:?}, or past [ -z "$x" ] && x=...).
func (b *fieldBuilder) addUnknownVar(p *syntax.ParamExp, v field) {
	b.addUnknown(p)
	b.cur.dl, b.cur.dec = b.cur.dl || v.dl, b.cur.dec || v.dec
	// Only its value, or a default for it, is not empty: ${x:3},
	// ${x#"$x"} and ${x:+} of an x not empty may be (helper-90).
	if bareParam(p) || p.Exp != nil && isDefaultOp(p.Exp.Op) && p.Index == nil && p.Slice == nil && p.Repl == nil && !p.Excl && !p.Length && len(p.Modifiers) == 0 {
		b.cur.opaque = b.cur.opaque || v.opaque && !v.emptyable
	}
}

func (b *fieldBuilder) split() {
	if b.started {
		if b.parts > 1 {
			b.cur.s = b.sb.String()
		}
		switch {
		case b.sole != nil:
			b.cur.guess = b.sole
		case b.guess != nil:
			g := string(b.guess)
			b.cur.guess = &g
		}
		b.out = append(b.out, b.cur)
	}
	b.cur = field{}
	b.sole, b.guess = nil, nil
	b.sb.Reset()
	b.parts = 0
	b.started = false
}

func (b *fieldBuilder) done() []field {
	b.split()
	return b.out
}

// Brace expansion bounds: {1..100000} must not allocate.
const (
	maxBraceFields = 64
	maxBraceSample = 1024
)

// wordFields resolves a word into the fields bash would produce, judging
// every substitution inside it. split is false for assignment values and
// here-strings, which are not field-split.
func (w *walker) wordFields(wd *syntax.Word, split bool) []field {
	return w.appendFields(nil, wd, split)
}

// appendFields appends the fields of wd (see wordFields) to dst.
func (w *walker) appendFields(dst []field, wd *syntax.Word, split bool) []field {
	if wd == nil {
		return dst
	}
	// Brace expansion applies to command words only, not to assignments,
	// here-documents or here-strings.
	if split && syntax.SplitBraces(wd) {
		words, ok := expandBraces(wd, maxBraceFields, false)
		if !ok {
			// Too many to list: a sample with each sequence cut to its ends
			// ({1..100000} -> 1 100000) still shows a "/" or a "~" hidden
			// in a brace; beyond even that, refuse to judge.
			words, ok = expandBraces(wd, maxBraceSample, true)
			if !ok {
				w.fail("brace expansion with more than %d words", maxBraceSample)
				return dst
			}
		}
		for _, ww := range words {
			dst = w.appendParts(dst, ww.Parts, split)
		}
		return dst
	}
	return w.appendParts(dst, wd.Parts, split)
}

// wordString resolves a word into one string, as in an assignment.
func (w *walker) wordString(wd *syntax.Word) field {
	// The fields are needed only until they are joined; a word nested in
	// this one takes a list of its own from the pool.
	fs := w.appendFields(fromPool(&w.scratch, 0, 2), wd, false)
	defer toPool(&w.scratch, fs)
	switch len(fs) {
	case 0:
		return field{}
	case 1:
		return fs[0]
	}
	var f field
	for i, x := range fs {
		if i > 0 {
			f.s += " "
		}
		f.s += x.s
		f.dyn = f.dyn || x.dyn
		f.glob = f.glob || x.glob
		f.dl = f.dl || x.dl
		f.dec = f.dec || x.dec
	}
	f.guess = otherOfJoined(" ", fs...)
	return f
}

// otherOfJoined returns the other reading (field.guess) of fs joined by
// sep, or nil when none of them has one.
func otherOfJoined(sep string, fs ...field) *string {
	if !slices.ContainsFunc(fs, func(f field) bool { return f.guess != nil }) {
		return nil
	}
	var b strings.Builder
	for i, f := range fs {
		if i > 0 {
			b.WriteString(sep)
		}
		if f.guess != nil {
			b.WriteString(*f.guess)
		} else {
			b.WriteString(f.s)
		}
	}
	g := b.String()
	return &g
}

// appendWord appends the fields of a command word to dst.
func (w *walker) appendWord(dst []field, wd *syntax.Word) []field {
	if len(wd.Parts) == 1 {
		// Fast path: most words are one plain literal or one quoted string.
		switch p := wd.Parts[0].(type) {
		case *syntax.Lit:
			if !needsExpanding(p.Value) && !w.p.literalBackslash {
				return append(dst, field{s: p.Value})
			}
		case *syntax.SglQuoted:
			if !p.Dollar {
				return append(dst, field{s: p.Value})
			}
		}
	}
	return w.appendFields(dst, wd, true)
}

func (w *walker) appendParts(dst []field, parts []syntax.WordPart, split bool) []field {
	b := fieldBuilder{out: dst}
	for i, part := range parts {
		switch p := part.(type) {
		case *syntax.Lit:
			s := p.Value
			dyn := false
			if i == 0 && strings.HasPrefix(s, "~") {
				s = w.tilde(s)
				dyn = strings.Contains(s, dynMark) // ~1, an unknown directory pushed
			}
			text, glob := unescapeUnquoted(s)
			if w.p.literalBackslash {
				// Windows commands take C:\x literally, whatever bash would do.
				text, glob = s, strings.ContainsAny(s, "*?[")
			}
			b.add(text, dyn, glob)
		case *syntax.SglQuoted:
			if p.Dollar {
				// bash ends the string at a NUL: $'/\0x' is /.
				v, _, _ := strings.Cut(ansiC(p.Value), "\x00")
				b.add(v, false, false)
			} else {
				b.add(p.Value, false, false)
			}
		case *syntax.DblQuoted:
			if len(p.Parts) == 1 && len(parts) == 1 {
				if q, ok := p.Parts[0].(*syntax.ParamExp); ok && !joinsElems(q) {
					if elems, ok := w.arrayElems(q); ok && len(elems) == 0 {
						continue // "$@" with no arguments is no word at all
					}
				}
			}
			b.started = true
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					b.add(unescapeDouble(q.Value), false, false)
				case *syntax.ParamExp:
					if elems, ok := w.arrayElems(q); ok && joinsElems(q) {
						// "$*" and "${a[*]}": one field, the elements joined
						// by the first character of IFS.
						sep := w.joinSep()
						for j, e := range elems {
							if j > 0 {
								b.add(sep, sep == dynMark, false)
							}
							b.addElem(e)
						}
						continue
					} else if ok {
						// "${a[@]}" and "$@": one field per element.
						for j, e := range elems {
							if j > 0 {
								b.split()
							}
							b.addElem(e)
						}
						continue
					}
					w.guessed = nil
					v, ok := w.param(q)
					t := w.tainted(q)
					if f, part := w.partVar(q, ok); part {
						b.addPart(f, f.s)
					} else if ok {
						b.addGuessed(v, false, false, w.paramGuess(q, t))
					} else if w.guardedNotEmpty(q) {
						// [ -n "$x" ] && rm -rf "$x"/*: quoted, a value a
						// guard holds not empty is not (unquoted, blanks
						// split away).
						b.add(dynMark, true, false)
					} else {
						b.addUnknownVar(q, t)
						continue
					}
					b.cur.dl, b.cur.dec = b.cur.dl || t.dl, b.cur.dec || t.dec
				case *syntax.CmdSubst:
					dl := w.nested(q)
					dec := w.lastDec
					text, ok := w.staticOutput(q)
					guess := w.guessed
					w.guessed = nil
					if ok {
						b.addGuessed(text, false, false, guess)
						continue
					}
					if strings.Contains(text, dynMark) {
						b.addOutput(text) // "$(printf "%*s" 0 'rm -rf /')"
						continue
					}
					b.add(dynMark, true, false)
					b.cur.emptyable = true // it may print nothing
					b.cur.dl = b.cur.dl || dl
					b.cur.dec = b.cur.dec || dec
				default:
					dl := w.nested(q)
					b.add(dynMark, true, false)
					b.cur.dl = b.cur.dl || dl
				}
			}
		case *syntax.ParamExp:
			if elems, ok := w.arrayElems(p); ok {
				// $@ and ${a[@]}: a field per element, the first joined
				// to the text before and the last to the text after; with
				// none, nothing (r$@m is rm). Where no splitting happens
				// (x=$*), $* and ${a[*]} join them with IFS's first
				// character, as quoted.
				sep, joined := "", !split && joinsElems(p)
				if joined {
					sep = w.joinSep()
				}
				for j, e := range elems {
					if j > 0 && joined {
						b.add(sep, sep == dynMark, false)
					} else if j > 0 {
						b.split()
					}
					b.addGuessed(e.s, e.dyn, e.glob, e.guess)
					b.cur.dl = b.cur.dl || e.dl
				}
				continue
			}
			w.guessed = nil
			v, ok := w.param(p)
			t := w.tainted(p)
			guess := w.paramGuess(p, t)
			if f, part := w.partVar(p, ok); part {
				// x="$y; rm -rf /": what is known of its value stays,
				// split where it would be.
				ifs, known := w.ifs()
				if !split || !known {
					b.addPart(f, f.s)
					continue
				}
				for j, piece := range appendIFS(nil, f.s, ifs) {
					if j > 0 {
						b.split()
					}
					b.addPart(f, piece)
				}
				continue
			}
			if !ok {
				b.addUnknownVar(p, t)
				continue
			}
			if !split {
				b.addGuessed(v, false, false, guess)
				continue
			}
			ifs, known := w.ifs()
			if !known {
				b.add(dynMark, true, false)
				continue
			}
			// Unquoted: field splitting on IFS, then globbing.
			var room [1]string // most values are one field: no allocation
			pieces := appendIFS(room[:0], v, ifs)
			if len(pieces) > 0 && strings.ContainsRune(ifs, rune(v[0])) {
				b.split()
			}
			for j, piece := range pieces {
				if j > 0 {
					b.split()
				}
				// ${CC:-gcc -O2}: the first word stands for all that CC
				// may hold instead.
				b.addGuessed(piece, false, strings.ContainsAny(piece, "*?["), guess)
				guess = nil
			}
			if len(v) > 0 && strings.ContainsRune(ifs, rune(v[len(v)-1])) {
				b.split()
			}
		case *syntax.ProcSubst:
			dl := w.nested(p)
			b.add("/dev/fd/63", false, false)
			b.cur.proc = true
			if text, ok := w.staticOutput(&syntax.CmdSubst{Stmts: p.Stmts}); ok {
				b.cur.procText = &text  // source <(echo ...)
				b.cur.guess = w.guessed // the text's other reading, not the name's
			}
			w.guessed = nil
			b.cur.dl = b.cur.dl || dl
		case *syntax.ExtGlob:
			b.add(p.Op.String()+p.Pattern.Value+")", false, true)
		case *syntax.CmdSubst:
			dl := w.nested(p)
			dec := w.lastDec
			text, ok := w.staticOutput(p)
			guess := w.guessed
			w.guessed = nil
			if !ok && strings.Contains(text, dynMark) {
				b.addOutput(text)
				b.cur.dl = b.cur.dl || dl
				continue
			}
			if ok {
				// $(echo rm): the output is known, and unquoted it splits.
				for j, piece := range strings.Fields(text) {
					if j > 0 || len(text) > 0 && strings.ContainsRune(" \t\n", rune(text[0])) {
						b.split()
					}
					b.addGuessed(piece, false, strings.ContainsAny(piece, "*?["), guess)
					guess = nil // the first word stands for all (see param)
				}
				continue
			}
			b.add(dynMark, true, false)
			b.cur.emptyable = true // it may print nothing
			b.cur.dl = b.cur.dl || dl
			b.cur.dec = b.cur.dec || dec
		case *syntax.BraceExp:
			// Too many to enumerate: judge what is inside, keep it unknown.
			// (syntax.Walk does not accept a BraceExp.)
			dl := false
			for _, e := range p.Elems {
				dl = w.nested(e) || dl
			}
			b.add(dynMark, true, false)
			b.cur.dl = b.cur.dl || dl
		default: // ArithmExp
			dl := w.nested(p)
			w.arithSets(p)
			b.add(dynMark, true, false)
			b.cur.dl = b.cur.dl || dl
		}
	}
	return b.done()
}

// nested judges the commands inside a substitution or other node, and
// reports whether they download anything.
func (w *walker) nested(n syntax.Node) bool {
	if n == nil {
		return false
	}
	before, cmds, decodes := w.a.downloads, len(w.a.cmds), w.a.decodes
	if w.visitNested == nil {
		w.visitNested = w.nestedNode // one closure per request, not per word
	}
	syntax.Walk(n, w.visitNested)
	w.lastDec = w.a.decodes > decodes
	// curl x | bash -c "$(cat)": the substitution reads downloaded stdin.
	return w.a.downloads > before || w.argStdinDL && len(w.a.cmds) > cmds
}

// nestedNode is nested's visit of each node below the one it was given.
func (w *walker) nestedNode(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.BraceExp:
		// Left by syntax.SplitBraces; syntax.Walk refuses it.
		for _, e := range n.Elems {
			syntax.Walk(e, w.visitNested)
		}
		return false
	case *syntax.CmdSubst:
		// What it writes is taken as written where the statement's
		// output goes: cat <(...) | sh copies it there, and $(...) may
		// hand it on.
		w.sub(n.Stmts, ctx{})
		return false
	case *syntax.ProcSubst:
		// curl x | tee >(sh): what the command writes into >(...) is
		// what it read.
		w.sub(n.Stmts, ctx{stdinDL: n.Op == syntax.CmdOut && w.argStdinDL})
		return false
	case *syntax.ParamExp:
		// [[ ${x:=/} ]], (( ${x=/} )): the default is assigned here
		// too; param judges the default word and sets x.
		if n != w.inParam && n.Param != nil && n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
			w.param(n)
			w.guessed = nil // no word takes this value
			return false
		}
	}
	return true
}

// staticOutput returns what a command substitution prints when it is a
// lone echo or printf of known words, without the trailing newlines.
func (w *walker) staticOutput(cs *syntax.CmdSubst) (string, bool) {
	w.guessed = nil
	if dir, ok := w.cdThenPwd(cs.Stmts); ok {
		return dir, true
	}
	if len(cs.Stmts) != 1 {
		return "", false
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return "", false
	}
	if rs := cs.Stmts[0].Redirs; len(rs) > 0 {
		// $(cat <<'EOF' ... EOF): the here-document is the output.
		if len(rs) != 1 || len(call.Args) != 1 || call.Args[0].Lit() != "cat" {
			return "", false
		}
		switch rs[0].Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if rs[0].Hdoc != nil && plainWord(rs[0].Hdoc) {
				body := w.wordString(rs[0].Hdoc)
				if body.guess != nil {
					g := strings.TrimRight(*body.guess, "\n")
					w.guessed = &g
				}
				return strings.TrimRight(body.s, "\n"), body.known()
			}
		case syntax.WordHdoc:
			if plainWord(rs[0].Word) {
				body := w.wordString(rs[0].Word)
				w.guessed = body.guess
				return body.s, body.known()
			}
		}
		return "", false
	}
	for _, a := range call.Args {
		if !plainWord(a) {
			return "", false
		}
	}
	if lit := soleLit(call.Args[0]); lit != nil && !needsExpanding(lit.Value) && !w.p.literalBackslash && !printsItself(lit.Value) {
		// What appendWord would resolve the first word to, without the
		// list of fields below: $(git ...) is not worth one.
		return "", false
	}
	// Most substitutions run another program: know which before resolving
	// the rest of the words.
	fields, i := make([]field, 0, len(call.Args)+1), 0
	for ; len(fields) == 0 && i < len(call.Args); i++ {
		fields = w.appendWord(fields, call.Args[i]) // an empty $x is no word
	}
	if len(fields) == 0 {
		return "", false
	}
	name := progName(fields[0])
	switch name {
	case "echo", "printf", "pwd", "dirname", "basename", "realpath":
	default:
		return "", false
	}
	for _, a := range call.Args[i:] {
		fields = w.appendWord(fields, a)
	}
	s := &simple{argv: fields, name: name}
	ops := operands(fields)
	switch s.name {
	case "echo", "printf":
	case "pwd":
		// $PWD, with the other directories the shell may be in.
		cwd, ok := w.lookup("PWD")
		return cwd, ok && len(fields) == 1
	case "dirname", "basename", "realpath":
		// $(dirname "$HOME"): path arithmetic on a known word.
		if len(ops) != 1 || !ops[0].known() || len(fields) != 2 {
			return "", false
		}
		p := ops[0].s
		switch s.name {
		case "dirname":
			return path.Dir(strings.TrimSuffix(p, "/")), true
		case "basename":
			return path.Base(p), true
		}
		return w.resolvePath(p), true
	default:
		return "", false
	}
	text, ok := producedText([]*simple{s})
	if (s.name == "echo" || s.name == "printf") && ok {
		if t, guessed := guessedOutput(s); guessed {
			g := strings.TrimRight(t, "\n")
			w.guessed = &g // $(echo ${CC:-gcc})
		}
	}
	return strings.TrimRight(text, "\n"), ok
}

// soleLit returns the literal a word is made of alone, or nil.
func soleLit(wd *syntax.Word) *syntax.Lit {
	if len(wd.Parts) != 1 {
		return nil
	}
	lit, _ := wd.Parts[0].(*syntax.Lit)
	return lit
}

// printsItself reports whether staticOutput knows what the program word
// prints.
func printsItself(word string) bool {
	switch progName(field{s: word}) {
	case "echo", "printf", "pwd", "dirname", "basename", "realpath":
		return true
	}
	return false
}

// plainWord reports whether a word holds no substitution, so resolving it
// twice costs nothing and judges nothing twice.
func plainWord(wd *syntax.Word) bool {
	for _, p := range wd.Parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.ParamExp:
			if p.Exp != nil || p.Repl != nil || p.Slice != nil || p.Index != nil {
				return false
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
				case *syntax.ParamExp:
					if q.Exp != nil || q.Repl != nil || q.Slice != nil || q.Index != nil {
						return false
					}
				default:
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// sub walks statements in a subshell: changes of directory and variables do
// not leak out of it.
func (w *walker) sub(stmts []*syntax.Stmt, c ctx) {
	defer w.leave(w.subshell())
	// exec > f inside ends with the subshell.
	defer func(outer fdTable) { w.fds = outer }(w.fds)
	breaks, returns := w.breaks, w.returns // they leave the subshell
	w.ownTraps(func() { w.stmts(stmts, c) })
	w.breaks, w.returns = breaks, returns
}

// subshell forks the scope, for code that runs in a subshell or another
// process, and returns the scope leave goes back to. A pair of calls, not
// a closure, so that the walk allocates nothing more than the fork.
func (w *walker) subshell() *scope {
	saved := w.scope
	w.scope = saved.fork()
	return saved
}

// leave throws away the forks made since subshell returned outer.
func (w *walker) leave(outer *scope) { w.scope = outer }

// tainted returns the variable behind a parameter, for its dl and dec
// marks.
func (w *walker) tainted(p *syntax.ParamExp) field {
	if p.Param == nil {
		return field{}
	}
	v, _ := w.scope.get(p.Param.Value)
	return v
}

// tilde expands a leading ~ or ~user of an unquoted literal.
func (w *walker) tilde(s string) string {
	name, rest, _ := strings.Cut(s[1:], "/")
	var home string
	homeVar, homeKnown := w.lookup("HOME") // HOME=/; rm -rf ~
	switch {
	case name == "+":
		pwd, ok := w.lookup("PWD") // ~+ is $PWD, which the script may set
		if !ok || pwd != "" && !strings.HasPrefix(pwd, "/") {
			return s
		}
		home = pwd // empty too: PWD=; rm -rf ~+/* is /*
	case name == "-":
		prev, ok := w.lookup("OLDPWD") // ~- is $OLDPWD
		if !ok || prev != "" && !strings.HasPrefix(prev, "/") {
			return s
		}
		home = prev
	case isStackRef(name):
		// ~N, ~+N, ~-N: an entry of the directory stack, as dirs +N.
		dir, ok := w.stackEntry(name)
		if !ok {
			return s
		}
		home = dir
	case name == "" && homeKnown && homeVar != "":
		home = homeVar
	case name == "root":
		home = "/root"
	case name != "" && w.p.home != "" && isSimpleName(name):
		home = path.Dir(w.p.home) + "/" + name
	default:
		return s
	}
	if rest == "" && !strings.Contains(s, "/") {
		return home
	}
	return home + "/" + rest
}

func isSimpleName(s string) bool {
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}

// plainOnly returns the plain variable name, when no array of that name
// is nearer: bash's $x is also ${x[0]} and ${x[@]}.
func (s *scope) plainOnly(name string) (field, bool) {
	for ; s != nil; s = s.parent {
		if _, ok := s.arrays[name]; ok {
			return field{}, false
		}
		if _, ok := s.vars[name]; ok {
			return s.get(name)
		}
	}
	return field{}, false
}

// arrayElems resolves ${a[@]}, ${a[*]}, $@ and $* when the array is known.
func (w *walker) arrayElems(p *syntax.ParamExp) ([]field, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Exp != nil || p.Repl != nil {
		return nil, false
	}
	name := p.Param.Value
	var elems []field
	var ok bool
	switch {
	case name == "@" || name == "*":
		if elems, ok = w.scope.getArray("@"); ok && p.Slice != nil {
			// ${@:1} starts at $1: $0 comes first.
			zero, _ := w.scope.get("0")
			elems = append([]field{zero}, elems...)
		}
	case indexLit(p.Index) == "@" || indexLit(p.Index) == "*":
		elems, ok = w.scope.getArray(name)
		if v, plain := w.scope.plainOnly(name); !ok && plain && !v.unset {
			elems, ok = []field{v}, true // x=/; "${x[@]}" is "$x"
		}
	default:
		return nil, false
	}
	if !ok || p.Slice == nil {
		return elems, ok
	}
	return sliceElems(elems, p.Slice, w.arithInt)
}

// arithInt evaluates a slice's offset or length: integers, $#, variables
// and ${#x} the walk knows, joined by + - * / % and parentheses ("${@:1:$#-1}",
// all but the last). ok is false for anything else.
func (w *walker) arithInt(x syntax.ArithmExpr) (int, bool) {
	switch e := x.(type) {
	case *syntax.Word:
		if n, ok := bashInt(e.Lit()); ok {
			return n, true
		}
		if len(e.Parts) == 1 {
			p, ok := e.Parts[0].(*syntax.ParamExp)
			plain := ok && p.Param != nil && p.Exp == nil && p.Slice == nil && p.Repl == nil && p.Index == nil &&
				!p.Excl && !p.Width && !p.IsSet && p.NestedParam == nil && len(p.Modifiers) == 0 && p.Names == 0
			switch {
			case plain && p.Param.Value == "#" && !p.Length:
				params, known := w.scope.getArray("@")
				return len(params), known
			case plain && p.Length && p.Param.Value != "@" && p.Param.Value != "*":
				if v, ok := w.scope.get(p.Param.Value); ok && v.known() {
					return utf8.RuneCountInString(v.s), true // ${#x}
				}
				return 0, false
			}
		}
		f := w.wordString(e)
		if !f.known() {
			return 0, false
		}
		if n, ok := bashInt(strings.TrimSpace(f.s)); ok {
			return n, true
		}
		// A bare name is a variable: (( n - 1 )).
		if v, ok := w.scope.get(f.s); ok && v.known() && syntax.ValidName(f.s) {
			return bashInt(strings.TrimSpace(v.s))
		}
	case *syntax.ParenArithm:
		return w.arithInt(e.X)
	case *syntax.UnaryArithm:
		n, ok := w.arithInt(e.X)
		switch {
		case !ok || e.Post:
		case e.Op == syntax.Minus:
			return -n, true
		case e.Op == syntax.Plus:
			return n, true
		}
	case *syntax.BinaryArithm:
		a, ok := w.arithInt(e.X)
		if !ok {
			return 0, false
		}
		b, ok := w.arithInt(e.Y)
		if !ok {
			return 0, false
		}
		switch e.Op {
		case syntax.Add:
			return a + b, true
		case syntax.Sub:
			return a - b, true
		case syntax.Mul:
			return a * b, true
		case syntax.Quo:
			if b != 0 {
				return a / b, true
			}
		case syntax.Rem:
			if b != 0 {
				return a % b, true
			}
		}
	}
	return 0, false
}

// bashInt reads an integer constant as bash arithmetic does: 0x1f is
// hexadecimal and 010 octal (8, not 10). Other bases (2#101), and what Go
// reads but bash does not (1_000, 0b1), are not read.
func bashInt(s string) (int, bool) {
	d := strings.TrimPrefix(s, "-")
	if d == "" || strings.ContainsAny(d, "_#") || len(d) > 1 && d[0] == '0' && strings.ContainsAny(d[1:2], "bBoO") {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 0, 64)
	return int(n), err == nil
}

// sliceElems applies ${a[@]:offset:length} to elems, as bash does: a
// negative offset counts from the end, a negative length stops that far
// from it. num evaluates the offset and length.
func sliceElems(elems []field, sl *syntax.Slice, num func(syntax.ArithmExpr) (int, bool)) ([]field, bool) {
	off, ok := num(sl.Offset)
	if !ok {
		return nil, false
	}
	if off < 0 {
		off += len(elems)
	}
	if off < 0 || off > len(elems) {
		return nil, true // bash: nothing
	}
	elems = elems[off:]
	if sl.Length != nil {
		n, ok := num(sl.Length)
		if !ok {
			return nil, false
		}
		if n < 0 {
			n += len(elems)
			if n < 0 {
				return nil, false // bash: an error
			}
		}
		elems = elems[:min(n, len(elems))]
	}
	return elems, true
}

// joinSep is what $* and ${a[*]} join their elements with: the first
// character of IFS, or dynMark when IFS is not known.
func (w *walker) joinSep() string {
	ifs, known := w.ifs()
	if !known {
		return dynMark
	}
	return ifs[:min(1, len(ifs))]
}

// joinsElems reports whether p is $* or ${a[*]}, which quoted make one
// field of all the elements.
func joinsElems(p *syntax.ParamExp) bool {
	return p.Param != nil && (p.Param.Value == "*" || p.Index != nil && indexLit(p.Index) == "*")
}

// indexLit returns the literal a subscript is written as ("2", "@"), or
// "" when it is not one plain word.
func indexLit(x syntax.ArithmExpr) string {
	if wd, ok := x.(*syntax.Word); ok && wd != nil {
		return wd.Lit()
	}
	return ""
}

// param resolves a parameter expansion, when it can be known statically.
func (w *walker) param(p *syntax.ParamExp) (string, bool) {
	if p.Param != nil && p.Index != nil && p.Exp == nil && !p.Excl && !p.Length && p.Slice == nil && p.Repl == nil {
		// ${a[2]}
		if n, err := strconv.Atoi(indexLit(p.Index)); err == nil {
			if elems, ok := w.scope.getArray(p.Param.Value); ok && n >= 0 && n < len(elems) {
				return elems[n].s, elems[n].known()
			}
			if v, ok := w.scope.plainOnly(p.Param.Value); ok && n == 0 && !v.unset {
				return v.s, v.known() // x=/; ${x[0]} is $x
			}
		}
	}
	if p.Param != nil && p.Slice != nil && p.Index == nil && p.Exp == nil && !p.Excl && !p.Length {
		// ${HOME:0:1}
		if v, ok := w.lookup(p.Param.Value); ok {
			if s, ok := sliceOf(v, p.Slice, w.arithInt); ok {
				return s, true
			}
		}
	}
	if p.Param != nil && p.Excl && p.Index == nil && p.Exp == nil && !p.Length && p.Slice == nil && p.Repl == nil && p.Names == 0 &&
		!p.Width && !p.IsSet && p.NestedParam == nil && len(p.Modifiers) == 0 {
		// n=x; ${!n} is $x, n=1 $1, n='a[1]' ${a[1]}.
		if target, ok := w.lookup(p.Param.Value); ok {
			name, sub, isElem := strings.Cut(strings.TrimSuffix(target, "]"), "[")
			n, err := strconv.Atoi(sub)
			pos, perr := strconv.Atoi(target)
			switch {
			case syntax.ValidName(target), len(target) == 1 && '0' <= target[0] && target[0] <= '9':
				return w.lookup(target)
			case perr == nil && pos > 9:
				// n=10: ${10}, the tenth argument.
				if args, ok := w.scope.getArray("@"); ok && pos <= len(args) {
					return args[pos-1].s, args[pos-1].known()
				}
			case isElem && syntax.ValidName(name) && strings.HasSuffix(target, "]") && err == nil && n >= 0:
				if elems, ok := w.scope.getArray(name); ok && n < len(elems) {
					return elems[n].s, elems[n].known()
				}
				if v, ok := w.scope.plainOnly(name); ok && n == 0 && !v.unset {
					return v.s, v.known() // n='x[0]' of a plain x
				}
			}
		}
	}
	if p.Param == nil || p.Excl || p.Length || p.Width || p.IsSet || p.Index != nil ||
		p.Slice != nil || p.Repl != nil || p.Names != 0 || p.NestedParam != nil || len(p.Modifiers) > 0 {
		// Walk what p holds, not p again: nestedNode hands a ${x=d} it
		// meets to param, and ${a[0]=d} or ${!x:=d} would come back here
		// until the stack ran out (a fatal error, not a decision).
		saved := w.inParam
		w.inParam = p
		w.nested(p)
		w.inParam = saved
		if p.Exp != nil && (p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull) {
			switch {
			case p.Excl:
				// ${!x:=d} assigns d to the variable x names.
				w.fail("${!%s%s...} assigns to the variable that %s names, which the policy cannot follow; assign that variable by name", p.Param.Value, p.Exp.Op, p.Param.Value)
			case p.Param != nil:
				w.elementDefault(p)
			}
		}
		return "", false
	}
	v, ok := w.lookup(p.Param.Value)
	if p.Param.Value != "@" && p.Param.Value != "*" {
		if elems, isArr := w.scope.getArray(p.Param.Value); isArr && len(elems) > 0 {
			v, ok = elems[0].s, elems[0].known() // $a is ${a[0]}
		}
	}
	if p.Exp != nil {
		if p.Exp.Word != nil { // a nil *Word in a Node would not compare equal to nil
			w.nested(p.Exp.Word)
		}
		switch p.Exp.Op {
		case syntax.RemSmallSuffix, syntax.RemLargeSuffix, syntax.RemSmallPrefix, syntax.RemLargePrefix:
			pat := w.wordString(p.Exp.Word)
			if !ok || !pat.known() || len(v) > 4096 {
				return "", false // the trim is quadratic: only short values
			}
			return trimPattern(v, pat.s, p.Exp.Op), true
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
			return w.paramDefault(p, v, ok)
		case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
			// ${HOME:?} is $HOME when it is set.
			if ok && (v != "" || p.Exp.Op == syntax.ErrorUnset) {
				return v, true
			}
			return "", false
		case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
			// ${HOME:+/} is / when HOME is set and not empty, and
			// ${x:+y} is empty when x is known empty.
			switch {
			case ok && v != "":
				alt := w.wordString(p.Exp.Word)
				return alt.s, alt.known()
			case ok && p.Exp.Op == syntax.AlternateUnsetOrNull:
				return "", true
			}
			return "", false
		default:
			return "", false
		}
	}
	return v, ok
}

// elementDefault applies ${a[i]=d} or ${a[i]:=d} to what the walk knows
// of a. In a known array, a known element that is set (for :=, also not
// empty) stays, and one that is not gets d. Otherwise a is unknown: the
// subscript cannot be read, or a is a plain variable, whose a[0] is
// itself.
func (w *walker) elementDefault(p *syntax.ParamExp) {
	name, lit := p.Param.Value, indexLit(p.Index)
	elems, known := w.scope.getArray(name)
	if !known || lit == "" {
		w.scope.forgetArray(name)
		w.scope.set(name, field{s: dynMark, dyn: true})
		return
	}
	n, err := strconv.Atoi(lit)
	if err == nil && n >= 0 && n < len(elems) {
		if e := elems[n]; !e.known() || p.Exp.Op == syntax.AssignUnset || e.s != "" {
			return // set (or unknown, and then unknown stays)
		}
	}
	d := field{s: dynMark, dyn: true}
	if p.Exp.Word != nil {
		d = w.wordString(p.Exp.Word)
	}
	w.scope.setElement(name+"["+lit+"]", field{s: d.s, dyn: d.dyn})
}

// paramDefault resolves ${x-d}, ${x:-d}, ${x=d} and ${x:=d}: $x when it
// is set (and not empty, with the colon), else the default, which = and
// := also assign to x for the words and commands after. With x unknown,
// the default is judged, since an attacker controls it by leaving x unset,
// and x's own value is the other reading (field.guess, left in
// w.guessed), since one controls that by setting x.
func (w *walker) paramDefault(p *syntax.ParamExp, v string, ok bool) (string, bool) {
	name, op := p.Param.Value, p.Exp.Op
	colon := op == syntax.DefaultUnsetOrNull || op == syntax.AssignUnsetOrNull
	if ok && (v != "" || !colon && !w.isUnset(name)) {
		return v, true
	}
	if p.Exp.Word == nil {
		return "", false
	}
	d := w.wordString(p.Exp.Word)
	guess := d.guess
	switch {
	case !ok && (!colon || mayBeEmpty(d.guess)):
		// ${x-d}: x may be set and empty, which ${x:-d} would replace;
		// ${a:-${x-d}} is empty where both are.
		guess = emptyText()
	case !ok:
		guess = anyText()
	}
	if op == syntax.AssignUnset || op == syntax.AssignUnsetOrNull {
		w.scope.set(name, field{s: d.s, dyn: d.dyn, guess: guess})
		w.scope.forgetElement(name) // ${a:=d} sets a[0]
	}
	if !d.known() {
		return "", false
	}
	w.guessed = guess
	return d.s, true
}

// paramGuess returns the other reading (field.guess) of p, which param
// has just resolved to a known value: the one paramDefault left, or what
// the variable p names, whose value is f (tainted), holds instead. It
// takes any text for p where p changes that value (${x#-}, ${x:+y}),
// and nil where p has none.
func (w *walker) paramGuess(p *syntax.ParamExp, f field) *string {
	g := w.guessed
	w.guessed = nil
	if g != nil && p.Exp != nil && isDefaultOp(p.Exp.Op) {
		return g
	}
	if p.Param == nil {
		return nil
	}
	switch {
	case f.guess != nil && bareParam(p):
		return f.guess
	case f.guess != nil:
		return anyTextOf(f.guess)
	case f.dyn || p.Index != nil:
		// An array's own value is unknown: a=(${CC:-gcc}); ${a[0]}.
		if elems, ok := w.scope.getArray(p.Param.Value); ok && slices.ContainsFunc(elems, func(e field) bool { return e.guess != nil }) {
			if slices.ContainsFunc(elems, func(e field) bool { return mayBeEmpty(e.guess) }) {
				return emptyText()
			}
			return anyText()
		}
	}
	return nil
}

// bareParam reports whether p is $x or ${x}, the variable's value as it
// is.
func bareParam(p *syntax.ParamExp) bool {
	return p.Param != nil && p.Exp == nil && p.Index == nil && p.Slice == nil && p.Repl == nil && !p.Excl && !p.Length &&
		!p.Width && !p.IsSet && p.NestedParam == nil && len(p.Modifiers) == 0 && p.Names == 0
}

// isDefaultOp reports whether op is one of paramDefault's.
func isDefaultOp(op syntax.ParExpOperator) bool {
	switch op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return true
	}
	return false
}

// maybeEmpty stands in an other reading (field.guess) for a value that
// may be anything, empty too: that of x in ${x-d} or ${x=d}, which take
// the default only when x is unset. It is no pair of dynMarks, which two
// guessed parts side by side make (${a:-/x}${b:-/y}, never empty).
// otherReading turns it into a dynMark; so must whatever takes a guess
// for text to run (see guessText).
const maybeEmpty = dynMark + "\x01"

// anyText is the other reading (field.guess) of a value that may be
// anything.
func anyText() *string {
	unknown := dynMark
	return &unknown
}

// emptyText is the other reading of a value that may be anything or
// empty.
func emptyText() *string {
	unknown := maybeEmpty
	return &unknown
}

// mayBeEmpty reports whether the other reading g holds a value that may
// be empty.
func mayBeEmpty(g *string) bool { return g != nil && strings.Contains(*g, maybeEmpty) }

// anyTextOf is the other reading of a value taken from one whose other
// reading is g (${x%/}, ${a[0]}): anything, or empty too where g may be.
func anyTextOf(g *string) *string {
	if mayBeEmpty(g) {
		return emptyText()
	}
	return anyText()
}

// guessText is the other reading g as text a shell runs, or a command's
// stdin: unknown parts as dynMarks, each of which the walk of such text
// takes as possibly empty anyway.
func guessText(g string) string { return strings.ReplaceAll(g, maybeEmpty, dynMark) }

// isUnset reports whether a known variable was removed by unset.
func (w *walker) isUnset(name string) bool {
	f, ok := w.scope.get(name)
	return ok && f.unset
}

// sliceOf applies ${v:offset:length}; num evaluates the offset and
// length.
func sliceOf(v string, sl *syntax.Slice, num func(syntax.ArithmExpr) (int, bool)) (string, bool) {
	off, ok := num(sl.Offset)
	if !ok {
		return "", false
	}
	if off < 0 {
		off += len(v)
	}
	off = min(max(off, 0), len(v))
	end := len(v)
	if sl.Length != nil {
		n, ok := num(sl.Length)
		if !ok {
			return "", false
		}
		if n < 0 {
			end = len(v) + n
		} else {
			end = off + n
		}
	}
	end = min(max(end, off), len(v))
	return v[off:end], true
}

// trimPattern applies ${v%pat}, ${v%%pat}, ${v#pat} and ${v##pat}. In a
// shell pattern "*" also matches "/", so slashes are hidden from
// path.Match.
func trimPattern(v, pat string, op syntax.ParExpOperator) string {
	const hide = "\x01"
	hv, hp := strings.ReplaceAll(v, "/", hide), strings.ReplaceAll(pat, "/", hide)
	match := func(s string) bool {
		ok, err := path.Match(hp, s)
		return ok && err == nil
	}
	n := len(hv)
	switch op {
	case syntax.RemSmallSuffix:
		for i := n; i >= 0; i-- {
			if match(hv[i:]) {
				return v[:i]
			}
		}
	case syntax.RemLargeSuffix:
		for i := 0; i <= n; i++ {
			if match(hv[i:]) {
				return v[:i]
			}
		}
	case syntax.RemSmallPrefix:
		for i := 0; i <= n; i++ {
			if match(hv[:i]) {
				return v[i:]
			}
		}
	case syntax.RemLargePrefix:
		for i := n; i >= 0; i-- {
			if match(hv[:i]) {
				return v[i:]
			}
		}
	}
	return v
}

func (w *walker) lookup(name string) (string, bool) {
	if v, ok := w.scope.get(name); ok {
		return v.s, !v.dyn
	}
	switch name {
	case "HOME":
		return w.p.home, w.p.home != ""
	case "PWD":
		if st := w.scope.stay; len(st.dirs) > 0 || st.lost {
			// cd / && cd /tmp || true; rm -rf "$PWD": a variable with
			// the other directories as its other values.
			cwd := w.scope.cwd
			w.scope.set("PWD", field{s: cwd, dyn: cwd == "" || strings.Contains(cwd, dynMark)})
			w.otherDirs("PWD", st)
			v, _ := w.scope.get("PWD")
			return v.s, !v.dyn
		}
		return w.scope.cwd, w.scope.cwd != "" && !strings.Contains(w.scope.cwd, dynMark)
	case "OLDPWD":
		return w.scope.oldpwd, w.scope.oldpwd != "" && !strings.Contains(w.scope.oldpwd, dynMark)
	}
	return "", false
}

// otherDirs gives the variable name, set where the walk is, the
// directories of st as other values: one unknown when st lost count.
func (w *walker) otherDirs(name string, st stayDirs) {
	for _, d := range st.dirs {
		w.scope.addAlts(name, field{s: d})
	}
	if st.lost {
		w.scope.addAlts(name, field{s: dynMark, dyn: true})
	}
}

func (w *walker) ifs() (string, bool) {
	if v, ok := w.scope.get("IFS"); ok {
		return v.s, !v.dyn
	}
	return " \t\n", true
}

// appendIFS appends to out the pieces of s split on the characters of
// ifs, as bash splits unquoted expansions (whitespace runs collapse; other
// separators do not).
func appendIFS(out []string, s, ifs string) []string {
	if ifs == "" {
		if s == "" {
			return out
		}
		return append(out, s)
	}
	start, have := 0, false
	for i, r := range s {
		if !strings.ContainsRune(ifs, r) {
			if !have {
				start, have = i, true
			}
			continue
		}
		if have {
			out = append(out, s[start:i])
		} else if r != ' ' && r != '\t' && r != '\n' {
			out = append(out, "") // a non-blank separator delimits an empty field
		}
		have = false
	}
	if have {
		out = append(out, s[start:])
	}
	return out
}

// unescapeUnquoted removes the backslashes of an unquoted literal and
// reports whether it has unescaped glob characters.
func unescapeUnquoted(s string) (string, bool) {
	if !anyByte(s, `\*?[`) {
		return s, false
	}
	var sb strings.Builder
	glob := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != '\n' {
				sb.WriteByte(s[i])
			}
			continue
		case c == '*' || c == '?' || c == '[':
			glob = true
		}
		sb.WriteByte(c)
	}
	return sb.String(), glob
}

// unescapeDouble removes the backslashes bash removes inside double quotes.
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] != '\n' {
				sb.WriteByte(s[i])
			}
			continue
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// ansiC decodes the body of a $'...' string.
func ansiC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			sb.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'a':
			sb.WriteByte('\a')
		case 'b':
			sb.WriteByte('\b')
		case 'e', 'E':
			sb.WriteByte(0x1b)
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'v':
			sb.WriteByte('\v')
		case 'c':
			if i+1 < len(s) {
				i++
				sb.WriteByte(s[i] & 0x1f)
			}
		case 'x', 'u', 'U':
			maxDigits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			j := i + 1
			for j < len(s) && j-i-1 < maxDigits && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				sb.WriteByte('\\')
				sb.WriteByte(c)
				continue
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			if c == 'x' {
				sb.WriteByte(byte(n))
			} else if utf8.ValidRune(rune(n)) {
				sb.WriteRune(rune(n))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j-i < 3 && '0' <= s[j] && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			sb.WriteByte(byte(n))
			i = j - 1
		default: // \\ \' \" \? and unknown escapes
			if strings.IndexByte(`\'"?`, c) < 0 {
				sb.WriteByte('\\')
			}
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// anyByte reports whether s holds a byte of set, which must be ASCII: what
// strings.ContainsAny reports then, without the lookup per byte it makes
// in words of up to 8 bytes, which most words are.
func anyByte(s, set string) bool {
	var m [8]uint32
	for i := 0; i < len(set); i++ {
		m[set[i]>>5] |= 1 << (set[i] & 31)
	}
	for i := 0; i < len(s); i++ {
		if m[s[i]>>5]&(1<<(s[i]&31)) != 0 {
			return true
		}
	}
	return false
}

// needsExpanding is anyByte(s, "\\*?[~{") for the literal of every word:
// a switch costs less than building the set each time.
func needsExpanding(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\', '*', '?', '[', '~', '{':
			return true
		}
	}
	return false
}

// hasSlash is anyByte(s, `/\`).
func hasSlash(s string) bool { return lastSlash(s) >= 0 }

// lastSlash is strings.LastIndexAny(s, `/\`), without a lookup per byte. No
// byte of a multi-byte UTF-8 sequence is ASCII, so bytes will do.
func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' || s[i] == '\\' {
			return i
		}
	}
	return -1
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// expandBraces expands the BraceExp parts left by syntax.SplitBraces into
// plain words, giving up (false) beyond limit words.
func expandBraces(wd *syntax.Word, limit int, sample bool) ([]*syntax.Word, bool) {
	out := []*syntax.Word{{}}
	for _, part := range wd.Parts {
		be, ok := part.(*syntax.BraceExp)
		if !ok {
			for _, o := range out {
				o.Parts = append(o.Parts, part)
			}
			continue
		}
		var alts []*syntax.Word
		if be.Sequence {
			seq, ok := braceSequence(be, limit, sample)
			if !ok {
				return nil, false
			}
			alts = seq
		} else {
			for _, e := range be.Elems {
				sub, ok := expandBraces(e, limit, sample)
				if !ok {
					return nil, false
				}
				alts = append(alts, sub...)
			}
		}
		if len(out)*len(alts) > limit {
			return nil, false
		}
		next := make([]*syntax.Word, 0, len(out)*len(alts))
		for _, o := range out {
			for _, a := range alts {
				parts := append(append([]syntax.WordPart{}, o.Parts...), a.Parts...)
				next = append(next, &syntax.Word{Parts: parts})
			}
		}
		out = next
	}
	return out, true
}

func braceSequence(be *syntax.BraceExp, limit int, sample bool) ([]*syntax.Word, bool) {
	if len(be.Elems) < 2 {
		return nil, false
	}
	from, to := be.Elems[0].Lit(), be.Elems[1].Lit()
	step := 1
	if len(be.Elems) > 2 {
		n, err := strconv.Atoi(be.Elems[2].Lit())
		if err != nil || n == 0 {
			return nil, false
		}
		step = max(n, -n)
	}
	lit := func(s string) *syntax.Word { return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}} }
	a, errA := strconv.Atoi(from)
	b, errB := strconv.Atoi(to)
	if sample {
		return []*syntax.Word{lit(from), lit(to)}, true
	}
	if errA == nil && errB == nil {
		if (max(a, b)-min(a, b))/step+1 > limit {
			return nil, false
		}
		var out []*syntax.Word
		for i := a; ; {
			out = append(out, lit(strconv.Itoa(i)))
			if a <= b {
				i += step
				if i > b {
					break
				}
			} else {
				i -= step
				if i < b {
					break
				}
			}
		}
		return out, true
	}
	if len(from) == 1 && len(to) == 1 {
		var out []*syntax.Word
		x, y := int(from[0]), int(to[0])
		for i := x; ; {
			out = append(out, lit(string(rune(i))))
			if x <= y {
				i += step
				if i > y {
					break
				}
			} else {
				i -= step
				if i < y {
					break
				}
			}
		}
		return out, len(out) <= limit
	}
	return nil, false
}
