package policy

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A large script is parsed on one goroutine and walked on another, so the
// two halves of the cost overlap; below pipelineMin bytes the hand-off
// costs more than it saves.
const (
	pipelineMin   = 64 << 10
	pipelineBatch = 256 // statements handed over at a time
)

// A lineGroup collects the top-level statements of one line until they are
// complete. The parser yields a statement ended by ; or & before the rest
// of its line is read, and a here-document's body is attached only at the
// line's end (sh <<EOF; true): from a statement with a here-document on,
// the statements of a line are held until one ends it.
type lineGroup struct {
	stmts []*syntax.Stmt
	hdoc  bool // one of the held statements may have a here-document
}

// add holds s and reports whether every held statement is complete.
func (g *lineGroup) add(script string, s *syntax.Stmt) bool {
	g.stmts = append(g.stmts, s)
	switch {
	case !s.Semicolon.IsValid():
		g.hdoc = false
		return true
	case !g.hdoc && !hasHeredoc(script, s):
		return true
	}
	g.hdoc = true
	return false
}

// hasHeredoc reports whether the text of s, a statement ended by ; or &,
// may hold a here-document. It over-approximates: a << in a string or a
// <<< here-string counts too, and only holds statements back a little longer.
func hasHeredoc(script string, s *syntax.Stmt) bool {
	from, to := s.Pos().Offset(), s.Semicolon.Offset()
	return to > uint(len(script)) || from > to || strings.Contains(script[from:to], "<<")
}

// walkStream walks each statement of script as soon as it is complete: the
// tree of a large script is never held whole, which keeps the garbage
// collector idle. The loop never breaks: mvdan/sh v3.14.1's iterator
// yields its final error again after a stop, which panics.
func (w *walker) walkStream(parser *syntax.Parser, script string) error {
	w.src = script
	g := &w.line
	g.stmts = w.held[:0]
	var err error
	for s, serr := range parser.StmtsSeq(strings.NewReader(script)) {
		if serr != nil {
			if err == nil {
				err = serr
			}
			continue
		}
		if err == nil && g.add(script, s) {
			g.stmts = w.walkLine(g.stmts, script)
		}
	}
	if err == nil {
		w.walkLine(g.stmts, script)
	}
	return err
}

// walkLine checks and walks complete top-level statements, and returns the
// list emptied.
func (w *walker) walkLine(stmts []*syntax.Stmt, src string) []*syntax.Stmt {
	for _, s := range stmts {
		if reason := w.div.diverges(s, src); reason != "" {
			w.fail("%s", reason)
		}
		w.walkTop(s)
	}
	clear(stmts)
	return stmts[:0]
}

// walkTop judges one top-level statement and lets its commands go (see
// flush).
func (w *walker) walkTop(s *syntax.Stmt) {
	if w.a.fatal != "" {
		return
	}
	w.altReads = w.altReads[:0]
	w.stmt(s, ctx{})
	if name := w.exitGuard(s); name != "" {
		w.holdNotEmpty(name) // [ -n "$x" ] || exit 1
	}
	if !w.p.retainCmds {
		w.release(w.a.cmds)
		w.p.flush(w.a)
	}
}

// A batch is what the parser's goroutine hands to the walk: complete
// statements, and the reason the statement after them is refused.
type batch struct {
	stmts  []*syntax.Stmt
	reason string
}

// walkPipelined is walkStream with the parse, and the divergence check
// that needs only the tree, on their own goroutine, which hands over
// complete statements in batches of about n. The walk never touches that
// goroutine's parser (nested strings have their own), and a statement is
// handed over only once the parser will not change it again.
func (w *walker) walkPipelined(parser *syntax.Parser, script string, n int) error {
	w.src = script
	batches := make(chan batch, 4)
	var err error // set by the parser's goroutine before it closes batches
	go func() {
		defer close(batches)
		defer func() {
			// A crash in the parser denies, as one in the walk does.
			if v := recover(); v != nil {
				err = fmt.Errorf("internal error in the parser (%v); please report it", v)
			}
		}()
		var div divergenceCheck
		g := lineGroup{stmts: make([]*syntax.Stmt, 0, n)}
		refused := false
		for s, serr := range parser.StmtsSeq(strings.NewReader(script)) {
			if serr != nil {
				if err == nil {
					err = serr
				}
				continue
			}
			if err != nil || refused || !g.add(script, s) || len(g.stmts) < n {
				continue
			}
			b := div.batch(g.stmts, script)
			refused = b.reason != ""
			batches <- b
			g.stmts = make([]*syntax.Stmt, 0, n)
		}
		if err == nil && !refused {
			batches <- div.batch(g.stmts, script)
		}
	}()
	// Drain on every way out, a panic in the walk included, so the
	// goroutine ends and the parser is free before it goes back to the pool.
	defer func() {
		for range batches {
		}
	}()
	for b := range batches {
		for _, s := range b.stmts {
			w.walkTop(s)
		}
		if b.reason != "" {
			w.fail("%s", b.reason)
		}
	}
	return err
}

// batch cuts stmts before the first that is refused.
func (d *divergenceCheck) batch(stmts []*syntax.Stmt, src string) batch {
	for i, s := range stmts {
		if reason := d.diverges(s, src); reason != "" {
			return batch{stmts[:i], reason}
		}
	}
	return batch{stmts: stmts}
}
