package policy

import (
	"errors"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Where mvdan/sh v3.14.1 reads a script differently from bash, the policy
// would judge commands other than the ones bash runs. Each shape below was
// found by running scripts in real bash (inside a sandbox, with stub
// programs) against the policy: bash ran a command that the policy, going
// by the parser's tree, never saw. Input of these shapes is refused rather
// than judged; the reason says what to write instead.

var errCommentJoinsLines = errors.New("a comment ends in a backslash before a newline: bash ends the comment there, " +
	"but the parser would join the next line to the commented command; remove the backslash")

// commentJoinsLines reports whether a comment in src ends at a backslash
// and a newline. bash ends a comment at the newline whatever comes before
// it; mvdan/sh v3.14.1 reads the pair as a line continuation, so the next
// line would join the words of the commented command and never be judged
// as a command of its own (echo hi # \ then rm -rf / on the next line).
func commentJoinsLines(src string) bool {
	if !strings.Contains(src, "\\\n") || !strings.Contains(src, "#") {
		return false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true)).Parse(strings.NewReader(src), "")
	if err != nil {
		return false // the parse that judges fails too, and is denied
	}
	return holds(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.Comment)
		if !ok {
			return false
		}
		// The comment's text takes in the pair; look past its end too, in
		// case a later version stops before it.
		end := c.End().Offset()
		return strings.HasSuffix(c.Text, "\\\n") || end < uint(len(src)) && strings.HasPrefix(src[end:], "\\\n")
	})
}

// textDivergence finds, in raw text, shapes that are refused before it is
// parsed.
func textDivergence(src string) string {
	switch {
	case strings.IndexByte(src, '\r') >= 0:
		// \r\n after a backslash is a line continuation to the parser, not
		// to bash; a lone \r is a blank to the parser, a word character to
		// bash (true \r# ; rm -rf /); here-document delimiters differ too.
		return "a carriage return: bash and the parser read it differently; use Unix line endings, or $'\\r'"
	case strings.Contains(src, "$\\\n"):
		// bash removes the backslash-newline first: $\<newline>( is $(.
		return "a $ before a backslash-newline: bash joins them, the parser does not; join the line"
	case strings.Contains(src, "<\\\n"):
		// <<\<newline>-EOF is <<-EOF to bash, << and -EOF to the parser.
		return "a < before a backslash-newline: bash joins them, the parser does not; join the line"
	}
	return ""
}

// clauseNames are builtins the parser reads as clauses, never as a call:
// a function or alias of that name would run unjudged.
var clauseNames = [...]string{"declare", "local", "export", "readonly", "typeset", "nameref", "let", "time", "coproc"}

func isClauseName(s string) bool { return slices.Contains(clauseNames[:], s) }

// reservedWords are read by the parser as syntax; bash expands an alias
// of that name first (alias !='rm -rf'; ! / runs rm -rf /).
var reservedWords = [...]string{"!", "[[", "]]", "{", "}", "case", "coproc", "do", "done", "elif", "else",
	"esac", "fi", "for", "function", "if", "in", "select", "then", "time", "until", "while"}

// hiddenAlias reports whether an alias called name would run where the
// parser's tree shows something else.
func hiddenAlias(name string) bool {
	return isClauseName(name) || slices.Contains(reservedWords[:], name)
}

// mayDiverge reports whether text may hold one of the shapes
// divergenceCheck looks for: each needs one of these substrings, so most
// commands are not walked again. It runs on every statement, so it is one
// pass over the text.
func mayDiverge(text string) bool {
	sawQuote := false
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '(', '`':
			return true
		case '$':
			if strings.HasPrefix(text[i+1:], "'") {
				return true // $'...' (see the *syntax.SglQuoted case)
			}
		case '<':
			if strings.HasPrefix(text[i+1:], "<") {
				return true
			}
		case '&':
			if strings.HasPrefix(text[i+1:], ">") {
				return true
			}
		case '\\':
			// A backslash-newline splits a name in the text
			// (ti\<newline>me) that the parser's literal, and bash, join.
			if strings.HasPrefix(text[i+1:], "\n") {
				return true
			}
		case '\'':
			// Single quotes inside "${x:-...}". Looked up at the first
			// quote only: at each, the filter would be quadratic.
			if !sawQuote && strings.Contains(text, "${") {
				return true
			}
			sawQuote = true
		case 'a':
			if strings.HasPrefix(text[i:], "alias") {
				return true
			}
		// The clause names, by first letter; TestMayDivergeSeesEveryTrigger
		// holds this list to clauseNames.
		case 'c':
			if strings.HasPrefix(text[i:], "coproc") {
				return true
			}
		case 'd':
			if strings.HasPrefix(text[i:], "declare") {
				return true
			}
		case 'e':
			if strings.HasPrefix(text[i:], "export") {
				return true
			}
		case 'l':
			if strings.HasPrefix(text[i:], "local") || strings.HasPrefix(text[i:], "let") {
				return true
			}
		case 'n':
			if strings.HasPrefix(text[i:], "nameref") {
				return true
			}
		case 'r':
			if strings.HasPrefix(text[i:], "readonly") {
				return true
			}
		case 't':
			if strings.HasPrefix(text[i:], "typeset") || strings.HasPrefix(text[i:], "time") {
				return true
			}
		}
	}
	return false
}

const (
	quotedArithm     = "single quotes around $ or ` in arithmetic: bash expands inside them, the parser does not"
	quotedIndex      = "single quotes around $ or ` in an array index: bash expands inside them, the parser does not"
	runtimeSubscript = "quoted text holding an array subscript with $( ) or a backquote, which bash evaluates at run time; compute the index first"
	quotedParam      = "single quotes around $ or ` inside ${ } in double quotes: bash expands inside them, the parser does not; drop the single quotes"
)

// A divergenceCheck walks trees for the shapes below; one serves a whole
// request, so a statement's check allocates nothing.
type divergenceCheck struct {
	src    string
	reason string
	visit  func(syntax.Node) bool
	// hdoc: the text of the tree being checked has a <<, so it may have a
	// here-document, whose body lies outside the text of the nodes it
	// belongs to. Without one, the text of every node holds all its
	// literals, and a byte missing from that text rules a shape out
	// without walking the node's subtree again (see textHas).
	hdoc bool
}

// diverges checks a complete top-level statement whose text lies in src.
func (d *divergenceCheck) diverges(s *syntax.Stmt, src string) string {
	if from, to := s.Pos().Offset(), s.End().Offset(); from <= to && to <= uint(len(src)) && !mayDiverge(src[from:to]) {
		return ""
	}
	return d.check(s, src)
}

// check finds, in a parsed statement or file whose text is src, shapes
// that are refused, and returns the reason or "".
func (d *divergenceCheck) check(node syntax.Node, src string) string {
	if d.visit == nil {
		d.visit = d.node
	}
	d.src, d.reason = src, ""
	d.hdoc = true
	if from, to := node.Pos().Offset(), node.End().Offset(); from <= to && to <= uint(len(src)) {
		d.hdoc = strings.Contains(src[from:to], "<<")
	}
	syntax.Walk(node, d.visit)
	return d.reason
}

// textHas reports whether a literal or quoted string in the tree at n may
// hold the byte c. The parser's literals only ever drop bytes of the text
// (backslash-newlines), never add any, so when n's text lacks c, so do they.
func (d *divergenceCheck) textHas(n syntax.Node, c byte) bool {
	from, to := n.Pos().Offset(), n.End().Offset()
	return d.hdoc || from > to || to > uint(len(d.src)) || strings.IndexByte(d.src[from:to], c) >= 0
}

func (d *divergenceCheck) refuse(r string) bool {
	if d.reason == "" {
		d.reason = r
	}
	return false
}

func (d *divergenceCheck) node(n syntax.Node) bool {
	if d.reason != "" {
		return false
	}
	switch x := n.(type) {
	case *syntax.Redirect:
		if r := heredocDivergence(x, d.src); r != "" {
			return d.refuse(r)
		}
	case *syntax.CmdSubst:
		if x.Backquotes && d.hdoc && hasHeredocIn(x) {
			return d.refuse("a here-document inside backquotes: bash gives it an empty body, the parser reads the next lines; use $( )")
		}
		if from, to := x.Pos().Offset(), x.End().Offset(); x.Backquotes && from <= to && to <= uint(len(d.src)) &&
			strings.Contains(d.src[from:to], "\\`") {
			return d.refuse("backquotes nested with \\`: bash, dash and the parser split them differently; use $( )")
		}
		if d.hdoc && bodyAfter(x) {
			return d.refuse("a here-document whose body comes after the ) of its $( ): dash reads the body as commands; close the $( ) after the body")
		}
		if !x.Backquotes && d.hdoc && d.semicolonAfterHeredoc(x) {
			return d.refuse(semicolonAfterHeredoc)
		}
	case *syntax.ProcSubst:
		if d.hdoc && d.semicolonAfterHeredoc(x) {
			return d.refuse(semicolonAfterHeredoc)
		}
	case *syntax.LetClause:
		for _, e := range x.Exprs {
			if hasLogicOp(e) {
				return d.refuse("let with & or |: bash ends the command there, the parser reads arithmetic; use (( ))")
			}
		}
		if holdsSubscriptCode(x) {
			return d.refuse(runtimeSubscript) // let 'a[$(cmd)]=1'
		}
	case *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.CStyleLoop:
		if hasSingleQuote(x) {
			return d.refuse(quotedArithm)
		}
	case *syntax.BinaryTest:
		// [[ 'a[$(cmd)]' -eq 1 ]]: arithmetic operands are evaluated,
		// subscripts and all; == and != compare text.
		if x.Op >= syntax.TsEql && x.Op <= syntax.TsGtr && (holdsSubscriptCode(x.X) || holdsSubscriptCode(x.Y)) {
			return d.refuse(runtimeSubscript)
		}
	case *syntax.UnaryTest:
		if (x.Op == syntax.TsVarSet || x.Op == syntax.TsRefVar) && holdsSubscriptCode(x.X) {
			return d.refuse(runtimeSubscript) // [[ -v 'a[$(cmd)]' ]]
		}
	case *syntax.Assign:
		// x='a[$(cmd)]'; $(( x )): arithmetic evaluates the value again.
		if x.Value != nil && d.textHas(x.Value, '[') && holdsSubscriptCode(x.Value) {
			return d.refuse(runtimeSubscript)
		}
		if x.Index != nil && hasSingleQuote(x.Index) {
			return d.refuse(quotedIndex)
		}
		if x.Array != nil {
			// x=(a)# rm -fr ~: bash takes no comment there and runs rm
			// (bashdiff, seed 130); the parser takes one.
			if end := x.Array.Rparen.Offset() + 1; x.Array.Rparen.IsValid() && end < uint(len(d.src)) && d.src[end] == '#' {
				return d.refuse("a # right after the ) of an array: bash does not start a comment there, the parser does; put a space before it")
			}
		}
	case *syntax.ParamExp:
		if x.Exp != nil && x.Exp.Word != nil && d.textHas(x.Exp.Word, '\'') && holds(x.Exp.Word, func(n syntax.Node) bool {
			q, ok := n.(*syntax.SglQuoted)
			return ok && strings.ContainsAny(q.Value, "$`}\"")
		}) {
			// "${x:-'$(cmd)'}": in double quotes bash keeps the quotes as
			// text and expands between them, and dash does not even pair
			// them ("${x='}"; rm -rf /; echo "'}"); in some other words
			// (a redirection's) bash expands between them too.
			return d.refuse(quotedParam)
		}
		if x.Index != nil && hasSingleQuote(x.Index) {
			return d.refuse(quotedIndex)
		}
		if x.Slice != nil && (x.Slice.Offset != nil && hasSingleQuote(x.Slice.Offset) || x.Slice.Length != nil && hasSingleQuote(x.Slice.Length)) {
			return d.refuse(quotedArithm)
		}
	case *syntax.SglQuoted:
		// $'a\' ; rm -rf / ; echo '\': one word to bash; dash reads $,
		// '\', then commands. Only an escaped ' moves the end.
		if x.Dollar && strings.Contains(x.Value, "'") {
			return d.refuse("an escaped ' inside $'...': sh (dash) ends the string there and runs what follows; write \\047 or \"'\"")
		}
	case *syntax.ArrayElem:
		if x.Index != nil && hasSingleQuote(x.Index) {
			return d.refuse(quotedIndex)
		}
	case *syntax.Stmt:
		// echo x &>f rm -rf /: one command with a redirection to bash;
		// to sh (dash), & ends a command and rm -rf / is the next.
		if call, ok := x.Cmd.(*syntax.CallExpr); ok && len(call.Args) > 0 {
			last := call.Args[len(call.Args)-1].Pos().Offset()
			for _, r := range x.Redirs {
				if (r.Op == syntax.RdrAll || r.Op == syntax.AppAll) && r.OpPos.Offset() < last {
					return d.refuse("&> before more words of the command: sh (dash) reads & and > there; put the redirection last")
				}
			}
		}
	case *syntax.CoprocClause:
		if x.Name != nil && !isCompound(x.Stmt) {
			// bash takes a name only before a compound command.
			return d.refuse("coproc with a name before a simple command: bash runs the name as the command, the parser does not; use coproc { ...; }")
		}
		if call := firstCall(x.Stmt); call != nil && len(call.Args) > 0 && strings.Contains(call.Args[0].Lit(), "=") {
			// coproc x=1 rm: an assignment to bash, the command to the parser.
			return d.refuse("coproc before an assignment: bash runs the word after it as the command, the parser does not")
		}
	case *syntax.TimeClause:
		if call := firstCall(x.Stmt); call != nil && len(call.Args) > 0 && call.Args[0].Lit() == "--" {
			return d.refuse("time --: bash skips the --, the parser takes it as the command; drop the --")
		}
	case *syntax.FuncDecl:
		for _, name := range append([]*syntax.Lit{x.Name}, x.Names...) {
			if name != nil && isClauseName(name.Value) {
				return d.refuse("a function named " + name.Value + ": the parser reads calls to it as the builtin")
			}
		}
	case *syntax.CallExpr:
		if len(x.Args) > 0 && hasExceptGlob(x.Args[0]) {
			// extglob is off in bash scripts: a command word !(cmd) is ! and
			// a subshell. As an argument it is a syntax error to bash, and
			// with extglob on a pattern, as the parser reads it.
			return d.refuse("!( is an extended glob to the parser and a negated subshell to bash; write ! ( with a space")
		}
		if len(x.Args) > 1 && x.Args[0].Lit() == "alias" {
			for _, a := range x.Args[1:] {
				if len(a.Parts) == 0 {
					continue
				}
				lit, _ := a.Parts[0].(*syntax.Lit)
				if lit == nil {
					continue
				}
				name, _, ok := strings.Cut(lit.Value, "=")
				if ok && hiddenAlias(name) {
					return d.refuse("an alias named " + name + ": the parser reads its uses as the builtin or keyword")
				}
			}
		}
	}
	return true
}

// heredocDivergence checks a here-document's body for lines that bash
// takes as its end and the parser does not: a delimiter that only
// appears once backslash-newlines are joined (bash joins them in an
// unquoted body first), and, in $( ), the delimiter followed by ).
func heredocDivergence(r *syntax.Redirect, src string) string {
	if r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc || r.Word == nil || r.Hdoc == nil {
		return ""
	}
	from, to := r.Hdoc.Pos().Offset(), r.Hdoc.End().Offset()
	wfrom, wto := r.Word.Pos().Offset(), r.Word.End().Offset()
	if from > to || to > uint(len(src)) || wfrom > wto || wto > uint(len(src)) {
		return "a here-document the policy cannot locate"
	}
	// The body's position skips backslash-newlines at its start, and its
	// end takes in the closing line.
	for from >= 2 && src[from-2:from] == "\\\n" {
		from -= 2
	}
	if strings.Contains(src[wfrom:wto], "\n") {
		return "a here-document delimiter split by a backslash-newline: bash joins it, the parser does not"
	}
	delim := strings.NewReplacer(`'`, "", `"`, "", `\`, "").Replace(src[wfrom:wto])
	body := src[from:to]
	if i := strings.LastIndexByte(body, '\n'); i >= 0 && strings.TrimLeft(body[i+1:], "\t") == delim {
		body = body[:i]
	} else if strings.TrimLeft(body, "\t") == delim {
		body = ""
	}
	for _, text := range []string{body, joinContinuations(body)} {
		for line := range strings.SplitSeq(text, "\n") {
			if r.Op == syntax.DashHdoc {
				line = strings.TrimLeft(line, "\t")
			}
			if line == delim && text != body {
				return "a here-document line ends in a backslash where joining it makes the delimiter: bash ends the body there, the parser does not"
			}
			// EOF), EOF`), EOF$$): bash may end the body at such a line.
			if rest, ok := strings.CutPrefix(line, delim); ok && strings.Contains(rest, ")") {
				return "a here-document delimiter followed by ): bash ends the body there, the parser does not; put the ) on a line of its own"
			}
		}
	}
	if hasSingleQuote(r.Hdoc) {
		return "single quotes around $ or ` inside ${ } in a here-document: bash keeps the quotes as text and expands, the parser reads a quoted string"
	}
	return ""
}

const semicolonAfterHeredoc = "a ; after a here-document in a $( ) or <( ): bash 5.2 drops it and runs the words after it as arguments; use a newline"

// semicolonAfterHeredoc reports whether sub, a $( ) or <( ), has a ";"
// that bash 5.2 may lose. bash prints such a substitution back to text to
// run it, and drops a ";" after a here-document: $(cat <<E ... E<newline>
// rm -rf ; /) runs rm -rf /. Tried by hand (and by helper-35 and -36):
// lost are the ";" between statements after the first here-document, in
// the list, { }, ( ), if, case and loops alike, and that of a pipeline or
// && list holding it; kept are the ";" before it, that of a simple
// command holding it (x=$(cat <<E; echo b ...)), and those that end a
// list (if [ -n "$y" ]; then, echo $i; done, echo tail; }). Refused: the
// others after the first <<. Nested substitutions are checked on their
// own.
func (d *divergenceCheck) semicolonAfterHeredoc(sub syntax.Node) bool {
	first := uint(0)
	last := map[*syntax.Stmt]bool{} // the last statement of each list
	inside(sub, func(n syntax.Node) {
		if r, ok := n.(*syntax.Redirect); ok && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) && (first == 0 || r.OpPos.Offset() < first) {
			first = r.OpPos.Offset()
		}
		for _, list := range stmtLists(n) {
			if len(list) > 0 {
				last[list[len(list)-1]] = true
			}
		}
	})
	if first == 0 {
		return false
	}
	lost := false
	inside(sub, func(n syntax.Node) {
		s, ok := n.(*syntax.Stmt)
		if !ok || last[s] || !d.endsInSemicolon(s) || s.Semicolon.Offset() < first {
			return
		}
		if _, simple := s.Cmd.(*syntax.CallExpr); simple && slices.ContainsFunc(s.Redirs, func(r *syntax.Redirect) bool {
			return r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc
		}) {
			return
		}
		lost = true
	})
	return lost
}

// stmtLists returns the statement lists n holds directly.
func stmtLists(n syntax.Node) [][]*syntax.Stmt {
	switch x := n.(type) {
	case *syntax.CmdSubst:
		return [][]*syntax.Stmt{x.Stmts}
	case *syntax.ProcSubst:
		return [][]*syntax.Stmt{x.Stmts}
	case *syntax.Block:
		return [][]*syntax.Stmt{x.Stmts}
	case *syntax.Subshell:
		return [][]*syntax.Stmt{x.Stmts}
	case *syntax.IfClause:
		return [][]*syntax.Stmt{x.Cond, x.Then}
	case *syntax.WhileClause:
		return [][]*syntax.Stmt{x.Cond, x.Do}
	case *syntax.ForClause:
		return [][]*syntax.Stmt{x.Do}
	case *syntax.CaseItem:
		return [][]*syntax.Stmt{x.Stmts}
	}
	return nil
}

// inside calls visit for each node of sub, a $( ) or <( ), but not for
// those of the substitutions nested in it.
func inside(sub syntax.Node, visit func(syntax.Node)) {
	syntax.Walk(sub, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			if n != sub {
				return false
			}
		}
		if n != nil {
			visit(n)
		}
		return true
	})
}

func (d *divergenceCheck) endsInSemicolon(s *syntax.Stmt) bool {
	at := s.Semicolon.Offset()
	return s.Semicolon.IsValid() && (at >= uint(len(d.src)) || d.src[at] == ';')
}

// joinContinuations removes the backslash-newlines of an unquoted
// here-document body, as bash does: a newline after an even run of
// backslashes is not one (hello\\ ends a line).
func joinContinuations(body string) string {
	if !strings.Contains(body, "\\\n") {
		return body
	}
	out := make([]byte, 0, len(body))
	run := 0 // backslashes just before
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '\n' && run%2 == 1:
			out, run = out[:len(out)-1], 0
		case c == '\\':
			out, run = append(out, c), run+1
		default:
			out, run = append(out, c), 0
		}
	}
	return string(out)
}

// holds reports whether the tree at n has a node that match accepts.
func holds(n syntax.Node, match func(syntax.Node) bool) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		found = found || n != nil && match(n)
		return !found
	})
	return found
}

// bodyAfter reports whether a here-document opened in cs has its body
// after the ) that closes cs: x=$(cat <<E) then the body on the next lines.
func bodyAfter(cs *syntax.CmdSubst) bool {
	return holds(cs, func(n syntax.Node) bool {
		r, ok := n.(*syntax.Redirect)
		return ok && r.Hdoc != nil && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) && r.Hdoc.Pos().Offset() > cs.Right.Offset()
	})
}

func hasHeredocIn(n syntax.Node) bool {
	return holds(n, func(n syntax.Node) bool {
		r, ok := n.(*syntax.Redirect)
		return ok && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc)
	})
}

// hasSingleQuote reports whether n holds single-quoted text with a $ or a
// backquote in it: where bash does not honour the quotes, that text is
// expanded, and what it runs was never judged. Quotes around plain text
// (${m['key']}) change nothing and are let through.
func hasSingleQuote(n syntax.Node) bool {
	return holds(n, func(n syntax.Node) bool {
		q, ok := n.(*syntax.SglQuoted)
		return ok && strings.ContainsAny(q.Value, "$`")
	})
}

// holdsSubscriptCode reports whether n holds quoted or escaped text that
// is an array subscript with a command in it.
func holdsSubscriptCode(n syntax.Node) bool {
	return holds(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.SglQuoted:
			return subscriptRuns(n.Value)
		case *syntax.Lit:
			return subscriptRuns(n.Value)
		}
		return false
	})
}

func hasLogicOp(e syntax.ArithmExpr) bool {
	return holds(e, func(n syntax.Node) bool {
		b, ok := n.(*syntax.BinaryArithm)
		return ok && (b.Op == syntax.And || b.Op == syntax.Or || b.Op == syntax.AndArit || b.Op == syntax.OrArit)
	})
}

// firstCall returns the simple command that s starts with, looking into
// the left of pipelines and lists, or nil.
func firstCall(s *syntax.Stmt) *syntax.CallExpr {
	for s != nil {
		switch c := s.Cmd.(type) {
		case *syntax.CallExpr:
			return c
		case *syntax.BinaryCmd:
			s = c.X
		default:
			return nil
		}
	}
	return nil
}

// hasExceptGlob reports whether w holds a !( extended glob.
func hasExceptGlob(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if g, ok := p.(*syntax.ExtGlob); ok && g.Op == syntax.GlobExcept {
			return true
		}
	}
	return false
}

func isCompound(s *syntax.Stmt) bool {
	if s == nil {
		return false
	}
	switch s.Cmd.(type) {
	case *syntax.Block, *syntax.Subshell, *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause,
		*syntax.CaseClause, *syntax.ArithmCmd, *syntax.TestClause:
		return true
	}
	return false
}

// hasArith reports whether the shell named name reads (( and [[ as bash
// does. sh is not among them: it is dash on Debian and Ubuntu.
func hasArith(name string) bool {
	switch name {
	case "bash", "rbash", "zsh", "ksh", "ksh93", "mksh":
		return true
	}
	return false
}

// dashReading judges what sh (dash), which has neither, runs for a
// (( )) or [[ ]] clause: (( is two subshells and [[ a command not found,
// so (( rm -rf , u )) runs rm -rf , u and [[ x || cat -nt key ]] runs
// cat -nt key ]]. Bash runs these scripts too when they are given to sh
// on a system whose sh is dash. The commands run in a subshell of the
// walk: what they change is not followed.
func (w *walker) dashReading(n syntax.Node) {
	from, to := n.Pos().Offset(), n.End().Offset()
	if from > to || to > uint(len(w.src)) {
		w.fail("cannot find the text of a (( or [[ clause, to judge how sh (dash) reads it")
		return
	}
	text := w.src[from:to]
	if !strings.HasPrefix(text, "((") && !strings.HasPrefix(text, "[[") {
		w.fail("cannot find the text of a (( or [[ clause, to judge how sh (dash) reads it")
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(text), "")
	if err != nil {
		return // dash stops at the syntax error
	}
	defer w.leave(w.subshell())
	for _, st := range f.Stmts {
		w.dashStmt(st)
	}
}

// dashStmt walks a statement of dash's reading of a clause, but not the
// [[ command, which dash does not have (bash's reading judged its words).
func (w *walker) dashStmt(st *syntax.Stmt) {
	switch x := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		if x.Op == syntax.AndStmt || x.Op == syntax.OrStmt {
			w.dashStmt(x.X)
			w.dashStmt(x.Y)
			return
		}
	case *syntax.CallExpr:
		if len(x.Args) > 0 && x.Args[0].Lit() == "[[" {
			return
		}
	}
	w.stmt(st, ctx{})
}
