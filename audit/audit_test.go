package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/aar-agent/aar-exec/internal/testdir"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aar-agent/aar-exec/plan"
	"github.com/aar-agent/aar-exec/redact"
)

const testToken = "ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"

func testKey(t testing.TB) []byte {
	t.Helper()
	path := filepath.Join(testdir.New(t), "keys", "audit.key")
	if err := NewKey(path); err != nil {
		t.Fatal(err)
	}
	key, err := ReadKey(path)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func sampleRecord(event string) *Record {
	r := &Record{
		Event:     event,
		ID:        NewID(),
		Session:   "sess-42",
		Command:   "curl -H 'Authorization: Bearer abc123def456' https://x && GITHUB_TOKEN=" + testToken + " make",
		Argv:      []string{"sh", "-c", "curl --token hunter2xyz https://x"},
		Cwd:       "/home/dev/proj",
		Workspace: "/home/dev/proj",
		Mode:      "sandbox",
		Decision:  "allow",
		Rule:      "default",
		Enforced: &plan.Enforcement{Mechanism: "landlock", ABI: 7, FSRights: []string{"read_file", "write_file"},
			Rlimits: map[string]uint64{"nproc": 512}},
		User: "dev",
	}
	if event == EventEnd {
		code := 0
		r.ExitCode = &code
		r.Duration = 1234 * time.Millisecond
	}
	return r
}

func TestWriteFormat(t *testing.T) {
	path := filepath.Join(testdir.New(t), "state", "aar-exec", "audit.jsonl")
	l, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := sampleRecord(EventStart)
	start.Error = "exec: curl --password=hunter2: not found"
	if err := l.Write(start); err != nil {
		t.Fatal(err)
	}
	end := sampleRecord(EventEnd)
	end.ID = start.ID
	end.Signal = "SIGTERM"
	end.TimedOut = true
	if err := l.Write(end); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Write(end); err == nil {
		t.Error("Write after Close succeeded")
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), testToken) || strings.Contains(string(data), "hunter2") ||
		strings.Contains(string(data), "abc123def456") {
		t.Errorf("secret on disk:\n%s", data)
	}
	if runtime.GOOS != "windows" {
		fi, _ := os.Stat(path)
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("log mode %v, want 0600", fi.Mode().Perm())
		}
		di, _ := os.Stat(filepath.Dir(path))
		if di.Mode().Perm() != 0o700 {
			t.Errorf("log dir mode %v, want 0700", di.Mode().Perm())
		}
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("got %d lines, want 2:\n%s", len(lines), data)
	}
	var got []map[string]any
	for _, line := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		got = append(got, m)
	}
	timeRE := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
	for _, m := range got {
		if !timeRE.MatchString(m["time"].(string)) {
			t.Errorf("time %q is not RFC 3339 UTC with milliseconds", m["time"])
		}
		if m["id"] != start.ID || m["session"] != "sess-42" || m["pid"] != float64(os.Getpid()) {
			t.Errorf("id/session/pid wrong: %v", m)
		}
		if _, ok := m["mac"]; ok {
			t.Error("unkeyed log has a mac")
		}
		if m["enforced"].(map[string]any)["abi"] != float64(7) {
			t.Errorf("enforced = %v", m["enforced"])
		}
	}
	if got[0]["event"] != "start" || got[0]["duration_ms"] != nil || got[0]["exit_code"] != nil {
		t.Errorf("start record wrong: %v", got[0])
	}
	if got[1]["event"] != "end" || got[1]["duration_ms"] != float64(1234) || got[1]["exit_code"] != float64(0) ||
		got[1]["signal"] != "SIGTERM" || got[1]["timed_out"] != true {
		t.Errorf("end record wrong: %v", got[1])
	}
	if argv := got[0]["argv"].([]any); argv[2] != "curl --token [REDACTED] https://x" {
		t.Errorf("argv not redacted: %v", argv)
	}
	if !strings.Contains(got[0]["error"].(string), "--password=[REDACTED]") {
		t.Errorf("error not redacted: %v", got[0]["error"])
	}
}

// TestRewrittenRecordRedactsItsCommand: the start and end lines share one
// redaction of the command, but a command changed between writes is
// redacted again, never written from the stale copy.
func TestRewrittenRecordRedactsItsCommand(t *testing.T) {
	first := sampleRecord(EventStart).Command
	commands := []string{first, first, "make TOKEN=" + testToken + " deploy"}
	data := writeCommands(t, nil, commands)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != len(commands) {
		t.Fatalf("got %d lines, want %d", len(lines), len(commands))
	}
	for i, line := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		got, _ := m["command"].(string)
		if want := redact.String(commands[i]); got != want || strings.Contains(got, testToken) {
			t.Errorf("line %d: command %q, want %q", i, got, want)
		}
	}
}

func TestWriteRejects(t *testing.T) {
	l, err := Open(filepath.Join(testdir.New(t), "a.jsonl"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, r := range []*Record{{Event: "begin", ID: "x"}, {Event: EventStart}} {
		if err := l.Write(r); err == nil {
			t.Errorf("Write(%+v) succeeded", r)
		}
	}
	huge := sampleRecord(EventStart)
	huge.Command = strings.Repeat("é", 200000)
	huge.Argv = make([]string, 100000)
	for i := range huge.Argv {
		huge.Argv[i] = "arg" + strconv.Itoa(i)
	}
	huge.Cwd = "bad \xff utf8 \x00 nul"
	if err := l.Write(huge); err != nil {
		t.Fatalf("oversized record: %v", err)
	}
}

func TestOpenRefuses(t *testing.T) {
	dir := testdir.New(t)
	if _, err := Open("", nil); err == nil {
		t.Error("Open(\"\") succeeded")
	}
	if _, err := Open(dir, nil); err == nil {
		t.Error("Open(directory) succeeded")
	}
	if _, err := Open(filepath.Join(dir, "a.jsonl"), []byte("short")); err == nil {
		t.Error("Open with a short key succeeded")
	}
	if runtime.GOOS == "windows" {
		return
	}
	p := filepath.Join(dir, "open.jsonl")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(p, nil); err == nil {
		t.Error("Open of a world-writable log succeeded")
	}
}

func TestKeyFiles(t *testing.T) {
	dir := testdir.New(t)
	p := filepath.Join(dir, "k", "audit.key")
	if err := NewKey(p); err != nil {
		t.Fatal(err)
	}
	if err := NewKey(p); err == nil {
		t.Error("NewKey overwrote an existing key")
	}
	k, err := ReadKey(p)
	if err != nil || len(k) != 32 {
		t.Fatalf("ReadKey = %d bytes, %v", len(k), err)
	}
	if runtime.GOOS != "windows" {
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
			t.Errorf("key mode %v", fi.Mode().Perm())
		}
		if err := os.Chmod(p, 0o640); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadKey(p); err == nil {
			t.Error("ReadKey accepted a group-readable key")
		}
	}
	for name, content := range map[string]string{"short": "abcd\n", "nothex": strings.Repeat("zz", 32), "long": strings.Repeat("a", 2000)} {
		q := filepath.Join(dir, name)
		if err := os.WriteFile(q, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadKey(q); err == nil {
			t.Errorf("ReadKey accepted %s key", name)
		}
	}
	if _, err := ReadKey(filepath.Join(dir, "missing")); err == nil {
		t.Error("ReadKey of a missing file succeeded")
	}
}

func TestNewID(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := NewID()
		if len(id) != 16 || seen[id] {
			t.Fatalf("bad or repeated id %q", id)
		}
		seen[id] = true
	}
}

// writeKeyed writes n records to a fresh keyed log and returns its lines.
func writeKeyed(t *testing.T, key []byte, n int) []string {
	t.Helper()
	commands := make([]string, n)
	for i := range commands {
		commands[i] = fmt.Sprintf("echo %d", i)
	}
	data := writeCommands(t, key, commands)
	if err := Verify(bytes.NewReader(data), key); err != nil {
		t.Fatalf("fresh log does not verify: %v", err)
	}
	return strings.SplitAfter(string(data), "\n")[:n]
}

// writeCommands writes one start record per command, all through the
// same Record, to a fresh log and returns the log.
func writeCommands(t *testing.T, key []byte, commands []string) []byte {
	t.Helper()
	path := filepath.Join(testdir.New(t), "audit.jsonl")
	l, err := Open(path, key)
	if err != nil {
		t.Fatal(err)
	}
	r := sampleRecord(EventStart)
	for _, c := range commands {
		r.Command = c
		if err := l.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// flipMAC changes the last hex digit of a sealed line's MAC.
func flipMAC(line string) string {
	i := len(line) - len("\"}\n") - 1
	c := byte('0')
	if line[i] == '0' {
		c = '1'
	}
	return line[:i] + string(c) + line[i+1:]
}

func TestVerifyTampering(t *testing.T) {
	key := testKey(t)
	lines := writeKeyed(t, key, 6)
	join := func(ls ...string) string { return strings.Join(ls, "") }
	forged := strings.Replace(lines[2], `"echo 2"`, `"echo X"`, 1)
	tests := []struct {
		name     string
		log      string
		wantLine int // 0: must verify
		reason   string
	}{
		{"intact", join(lines...), 0, ""},
		{"empty", "", 0, ""},
		{"tail removed (undetectable)", join(lines[:4]...), 0, ""},
		{"edited", join(lines[0], lines[1], forged, lines[3]), 3, "mac mismatch"},
		{"edited mac", join(lines[0], flipMAC(lines[1]), lines[2]), 2, "mac mismatch"},
		{"deleted", join(lines[0], lines[1], lines[3], lines[4]), 3, "mac mismatch"},
		{"first deleted", join(lines[1], lines[2]), 1, "mac mismatch"},
		{"reordered", join(lines[0], lines[2], lines[1], lines[3]), 2, "mac mismatch"},
		{"inserted forged", join(lines[0], lines[1], forged, lines[2]), 3, "mac mismatch"},
		{"inserted moved", join(lines[0], lines[4], lines[1]), 2, "mac mismatch"},
		{"moved back", join(lines[0], lines[1], lines[2], lines[5], lines[3]), 4, "mac mismatch"},
		{"duplicated", join(lines[0], lines[1], lines[1], lines[2]), 3, "duplicate of line 2"},
		{"inserted unkeyed", join(lines[0], `{"time":"x","event":"start","id":"1","pid":1}`+"\n", lines[1]), 2, "no mac"},
		{"inserted garbage", join(lines[0], "garbage\n", lines[1]), 2, "not a whole JSON object"},
		{"truncated", join(lines[0], lines[1], lines[2][:40]), 3, "truncated"},
		{"torn", join(lines[0], lines[1][:30]+lines[2], lines[3]), 2, ""},
		{"spliced chain", join(lines[0], lines[1]) + join(writeKeyed(t, key, 2)...), 3, "new chain starts here"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Verify(strings.NewReader(tt.log), key)
			if tt.wantLine == 0 {
				if err != nil {
					t.Fatalf("Verify = %v, want nil", err)
				}
				return
			}
			var ce *ChainError
			if !errors.As(err, &ce) {
				t.Fatalf("Verify = %v, want a *ChainError", err)
			}
			if ce.Line != tt.wantLine || !strings.Contains(ce.Reason, tt.reason) {
				t.Errorf("Verify = %v, want line %d with %q", ce, tt.wantLine, tt.reason)
			}
		})
	}
	if err := Verify(strings.NewReader(join(lines...)), testKey(t)); err == nil {
		t.Error("Verify with another key succeeded")
	}
	if err := Verify(strings.NewReader(join(lines...)), nil); err == nil {
		t.Error("Verify with no key succeeded")
	}
}

// TestTornTail checks that a record written after a torn last line (a
// crash mid-write by some other program) is still whole, and that Verify
// points at the torn line.
func TestTornTail(t *testing.T) {
	key := testKey(t)
	path := filepath.Join(testdir.New(t), "audit.jsonl")
	if err := os.WriteFile(path, []byte(`{"time":"2026`), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := Open(path, key)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Write(sampleRecord(EventStart)); err != nil {
		t.Fatal(err)
	}
	l.Close()
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 2 || !json.Valid([]byte(lines[1])) {
		t.Fatalf("record after a torn tail is not whole:\n%s", data)
	}
	var ce *ChainError
	if err := Verify(bytes.NewReader(data), key); !errors.As(err, &ce) || ce.Line != 1 {
		t.Errorf("Verify = %v, want line 1", err)
	}
}

// writerEnv makes the test binary a writer process for
// TestConcurrentProcesses: "path|keyhex|writer|records".
const writerEnv = "AAR_AUDIT_TEST_WRITER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(writerEnv); spec != "" {
		os.Exit(runWriter(spec))
	}
	os.Exit(m.Run())
}

func runWriter(spec string) int {
	parts := strings.Split(spec, "|")
	var key []byte
	if parts[1] != "" {
		var err error
		if key, err = ReadKey(parts[1]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	n, _ := strconv.Atoi(parts[3])
	// Wait for the start signal so that all writers really overlap.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		if _, err := os.Stat(parts[0] + ".go"); err == nil || time.Now().After(deadline) {
			break
		}
	}
	l, err := Open(parts[0], key)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer l.Close()
	for i := range n {
		r := sampleRecord(EventEnd)
		// Lines longer than PIPE_BUF (4096), of varied length, make tearing
		// likely if writes were split or unlocked.
		r.Command = fmt.Sprintf("writer %s seq %d %s", parts[2], i, strings.Repeat("x", 4000+i*1001))
		if err := l.Write(r); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// TestConcurrentProcesses runs 200 real processes appending to one log at
// once, with and without a key, and checks that every line is whole, none
// is lost or duplicated, and the keyed chain verifies.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 400 processes")
	}
	const writers, perWriter = 200, 5
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, keyed := range []bool{false, true} {
		t.Run(fmt.Sprintf("keyed=%v", keyed), func(t *testing.T) {
			dir := testdir.New(t)
			path := filepath.Join(dir, "audit.jsonl")
			keyPath := ""
			if keyed {
				keyPath = filepath.Join(dir, "audit.key")
				if err := NewKey(keyPath); err != nil {
					t.Fatal(err)
				}
			}
			cmds := make([]*exec.Cmd, writers)
			for i := range cmds {
				cmd := exec.Command(exe, "-test.run=^$")
				cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%s|%d|%d", writerEnv, path, keyPath, i, perWriter))
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				cmds[i] = cmd
				t.Cleanup(func() {
					if cmd.ProcessState == nil {
						_ = cmd.Process.Kill()
						_ = cmd.Wait()
					}
				})
			}
			if err := os.WriteFile(path+".go", nil, 0o600); err != nil {
				t.Fatal(err)
			}
			for i, cmd := range cmds {
				if err := cmd.Wait(); err != nil {
					t.Fatalf("writer %d: %v: %s", i, err, cmd.Stderr)
				}
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			seen := map[string]bool{}
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, MaxLine)
			for sc.Scan() {
				var m struct {
					Command string `json:"command"`
					MAC     string `json:"mac"`
				}
				if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
					t.Fatalf("torn line %.80q: %v", sc.Text(), err)
				}
				f := strings.Fields(m.Command)
				if len(f) < 5 {
					t.Fatalf("bad command %.80q", m.Command)
				}
				id := f[1] + "/" + f[3]
				seq, _ := strconv.Atoi(f[3])
				if seen[id] || len(f[4]) != 4000+seq*1001 {
					t.Fatalf("duplicate or damaged record %s", id)
				}
				seen[id] = true
				if keyed != (m.MAC != "") {
					t.Fatalf("record %s: mac %q with keyed=%v", id, m.MAC, keyed)
				}
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
			if len(seen) != writers*perWriter {
				t.Fatalf("got %d records, want %d", len(seen), writers*perWriter)
			}
			if keyed {
				key, err := ReadKey(keyPath)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := f.Seek(0, 0); err != nil {
					t.Fatal(err)
				}
				if err := Verify(f, key); err != nil {
					t.Fatalf("concurrently written log does not verify: %v", err)
				}
			}
		})
	}
}

// BenchmarkRecordWrite measures the audit cost added to each command: one
// record redacted, encoded, MACed and appended under the lock.
func BenchmarkRecordWrite(b *testing.B) {
	for _, keyed := range []bool{false, true} {
		b.Run(fmt.Sprintf("keyed=%v", keyed), func(b *testing.B) {
			var key []byte
			if keyed {
				key = testKey(b)
			}
			l, err := Open(filepath.Join(b.TempDir(), "audit.jsonl"), key)
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			r := sampleRecord(EventEnd)
			for b.Loop() {
				rr := *r // a new record each time, so its command is redacted
				if err := l.Write(&rr); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
