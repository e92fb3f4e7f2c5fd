package audit

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// A ChainError reports the first line of a log whose MAC chain is broken.
type ChainError struct {
	Line   int    // 1-based line number
	Reason string // what is wrong with it, in words
}

func (e *ChainError) Error() string {
	return fmt.Sprintf("audit: line %d: %s", e.Line, e.Reason)
}

// recentMACs is how many earlier MACs Verify remembers to explain a break
// (a duplicated or moved line); older ones only get the generic reason.
const recentMACs = 4096

// Verify reads a log written with key and checks that every line is whole
// JSON carrying a MAC chained to the line before it. It returns nil when
// the chain holds, a *[ChainError] for the first line where it breaks
// (edited, deleted, inserted, reordered, torn or truncated lines), or
// another error when r cannot be read. An empty log verifies.
//
// Verify cannot tell that lines were removed from the end of the log; see
// the package documentation.
func Verify(r io.Reader, key []byte) error {
	if len(key) == 0 {
		return errors.New("audit: verify: no key")
	}
	br := bufio.NewReaderSize(r, 64<<10)
	prev := ""
	var recent []recentMAC
	for n := 1; ; n++ {
		line, err := readLine(br)
		if len(line) == 0 && errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			if errors.Is(err, errLineTooLong) {
				return &ChainError{Line: n, Reason: fmt.Sprintf("longer than %d bytes", MaxLine)}
			}
			return fmt.Errorf("audit: verify: read line %d: %w", n, err)
		}
		if line[len(line)-1] != '\n' {
			return &ChainError{Line: n, Reason: "truncated: the last line has no newline"}
		}
		body := line[:len(line)-1]
		mac, ok := tailMAC(body)
		if !ok {
			if !utf8.Valid(body) || !json.Valid(body) {
				return &ChainError{Line: n, Reason: "not a whole JSON object: torn, truncated or edited"}
			}
			return &ChainError{Line: n, Reason: "no mac: written without the key, or inserted"}
		}
		unsealed := make([]byte, 0, len(body)-macSuffixLen+1)
		unsealed = append(unsealed, body[:len(body)-macSuffixLen]...)
		unsealed = append(unsealed, '}')
		want := computeMAC(key, prev, unsealed)
		if !hmac.Equal([]byte(want), []byte(mac)) {
			return &ChainError{Line: n, Reason: explain(key, n, prev, mac, unsealed, recent)}
		}
		if !json.Valid(body) {
			// The MAC matched, so the writer itself produced this.
			return &ChainError{Line: n, Reason: "mac matches but the line is not valid JSON"}
		}
		if len(recent) == recentMACs {
			recent = recent[1:]
		}
		recent = append(recent, recentMAC{line: n, mac: mac})
		prev = mac
	}
}

type recentMAC struct {
	line int
	mac  string
}

// explain says, as precisely as the chain allows, why line n's MAC does
// not follow the previous line's.
func explain(key []byte, n int, prev, mac string, unsealed []byte, recent []recentMAC) string {
	for _, r := range recent {
		if r.mac == mac {
			return fmt.Sprintf("duplicate of line %d: a line was copied or replayed", r.line)
		}
	}
	if n > 1 && hmac.Equal([]byte(computeMAC(key, "", unsealed)), []byte(mac)) {
		return "a new chain starts here: the lines before it were deleted, or another log was spliced in"
	}
	for i := len(recent) - 1; i >= 0; i-- {
		r := recent[i]
		if r.line < n-1 && hmac.Equal([]byte(computeMAC(key, r.mac, unsealed)), []byte(mac)) {
			return fmt.Sprintf("this line follows line %d in the chain: lines %d to %d were inserted or moved",
				r.line, r.line+1, n-1)
		}
	}
	return "mac mismatch: the line was edited or forged, or a line before it was deleted, inserted or reordered"
}

var errLineTooLong = errors.New("line too long")

// readLine reads one line including its newline, refusing lines longer
// than MaxLine.
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf bytes.Buffer
	for {
		frag, err := br.ReadSlice('\n')
		buf.Write(frag)
		if buf.Len() > MaxLine {
			return buf.Bytes(), errLineTooLong
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return buf.Bytes(), err
	}
}
