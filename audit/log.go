// Package audit writes the audit log: one JSON object per line for every
// command aar-exec starts, ends or refuses, with secrets redacted by
// package redact and, when a key is configured, an HMAC chain that makes
// edited, deleted, inserted and reordered lines detectable by [Verify].
//
// Many aar-exec processes may append to one file at once. Each line is
// written with a single write(2) on a file opened with O_APPEND, under an
// exclusive lock (flock on Unix, LockFileEx on Windows) held while the
// previous line's MAC is read, so no line is torn, interleaved or chained
// to the wrong predecessor.
//
// # Limitations
//
// A chain proves the order and content of the lines it has, not that none
// were cut from the end: removing the last lines leaves a valid chain.
// Compare the last MAC with one kept elsewhere (ship the log off the host)
// to detect that. Whoever holds the key can rewrite the whole chain.
package audit

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Stderr is the path that makes [Open] write to standard error.
const Stderr = "-"

// lockTimeout bounds how long Write waits for another process's lock
// before it fails, so a stuck writer cannot hang every build forever.
const lockTimeout = 10 * time.Second

// A Log appends records to one audit file. It is safe for concurrent use
// by goroutines and by other processes writing to the same file.
type Log struct {
	mu     sync.Mutex
	path   string
	f      *os.File
	stream bool   // standard error: no lock, no tail to read
	key    []byte // nil: no MACs
	prev   string // last MAC written to a stream
}

// Open opens the audit log at path for appending, creating missing parent
// directories with mode 0700 and the file with mode 0600. The path "-"
// means standard error. With a non-empty key (see [ReadKey]) every line
// carries a MAC chained to the line before it.
//
// Open refuses a file that group or others may write (on Unix), since
// such a log proves nothing.
func Open(path string, key []byte) (*Log, error) {
	if path == "" {
		return nil, errors.New("audit: open: empty path")
	}
	if len(key) > 0 && len(key) < minKeyBytes {
		return nil, fmt.Errorf("audit: open %s: key of %d bytes is too short, want %d", path, len(key), minKeyBytes)
	}
	l := &Log{path: path}
	if len(key) > 0 {
		l.key = append([]byte(nil), key...)
	}
	if path == Stderr {
		l.f, l.stream = os.Stderr, true
		return l, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("audit: open %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit: open %s: %w", path, err)
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = errors.New("not a regular file")
	}
	if err == nil {
		err = checkLogMode(fi)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("audit: open %s: %w", path, err)
	}
	l.f = f
	return l, nil
}

// Write redacts r's command, argv, reason and error, encodes it and
// appends it to the log as exactly one line. It fails, and writes
// nothing, if the record is invalid or the line cannot be written whole.
// A record may be written again (start, then end), but not from two
// goroutines at once.
func (l *Log) Write(r *Record) error {
	body, err := encode(r)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return fmt.Errorf("audit: write %s: log is closed", l.path)
	}
	if l.stream {
		line := l.seal(body, l.prev, false)
		if _, err := l.f.Write(line); err != nil {
			return fmt.Errorf("audit: write %s: %w", l.path, err)
		}
		return nil
	}
	if err := lockFile(l.f, lockTimeout); err != nil {
		return fmt.Errorf("audit: lock %s: %w", l.path, err)
	}
	defer unlockFile(l.f)
	prev, torn, err := readTail(l.f)
	if err != nil {
		return fmt.Errorf("audit: read %s: %w", l.path, err)
	}
	line := l.seal(body, prev, torn)
	n, err := l.f.Write(line)
	if err == nil && n != len(line) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return fmt.Errorf("audit: write %s: %w", l.path, err)
	}
	return nil
}

// seal appends the MAC (when keyed) and the newline to body. After a torn
// last line it starts with a newline, so the new record stays whole and
// Verify reports the torn one.
func (l *Log) seal(body []byte, prev string, torn bool) []byte {
	line := make([]byte, 0, len(body)+100)
	if torn {
		line = append(line, '\n')
	}
	if l.key == nil {
		line = append(line, body...)
		return append(line, '\n')
	}
	mac := computeMAC(l.key, prev, body)
	line = append(line, body[:len(body)-1]...)
	line = append(line, `,"mac":"`...)
	line = append(line, mac...)
	line = append(line, `"}`...)
	if l.stream {
		l.prev = mac
	}
	return append(line, '\n')
}

// macSuffixLen is len(`,"mac":"` + 64 hex + `"}`).
const macSuffixLen = 8 + 64 + 2

// readTail returns the MAC of the file's last line ("" when it has none)
// and whether the file ends without a newline.
func readTail(f *os.File) (prev string, torn bool, err error) {
	fi, err := f.Stat()
	if err != nil {
		return "", false, err
	}
	size := fi.Size()
	if size == 0 {
		return "", false, nil
	}
	n := int64(macSuffixLen + 1)
	if size < n {
		n = size
	}
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, size-n); err != nil && !errors.Is(err, io.EOF) {
		return "", false, err
	}
	if buf[len(buf)-1] != '\n' {
		return "", true, nil
	}
	mac, ok := tailMAC(buf[:len(buf)-1])
	if !ok {
		return "", false, nil
	}
	return mac, false, nil
}

// tailMAC extracts the MAC from the end of a line without its newline.
func tailMAC(line []byte) (string, bool) {
	if len(line) < macSuffixLen {
		return "", false
	}
	tail := line[len(line)-macSuffixLen:]
	if string(tail[:8]) != `,"mac":"` || string(tail[len(tail)-2:]) != `"}` {
		return "", false
	}
	mac := tail[8 : 8+64]
	for _, c := range mac {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return "", false
		}
	}
	return string(mac), true
}

// computeMAC is hex(HMAC-SHA256(key, prev || "\n" || body)), where body
// is the line as written without its "mac" field and newline, and prev is
// the previous line's MAC in hex ("" for the first line).
func computeMAC(key []byte, prev string, body []byte) string {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(prev))
	h.Write([]byte{'\n'})
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// Close closes the log file. Closing a log on standard error does not
// close standard error.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.f
	l.f = nil
	if f == nil || l.stream {
		return nil
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("audit: close %s: %w", l.path, err)
	}
	return nil
}
