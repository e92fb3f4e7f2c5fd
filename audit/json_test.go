package audit

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/aar-agent/aar-exec/plan"
)

func TestAppendJSONMatchesMarshal(t *testing.T) {
	code, ms := 3, int64(42)
	for _, w := range []wire{
		{Time: "2026-01-02T03:04:05.000Z", Event: "start", ID: "0123456789abcdef"},
		{Time: "t", Event: "end", ID: "x", ExitCode: &code, DurationMS: &ms, TimedOut: true, Signal: "SIGKILL"},
		{Time: "t", Event: "deny", ID: "x", Command: `echo "a\b" <x> & y` + "\x00\x01\x1f\x7f\b\f\n\r\t",
			Argv: []string{"sh", "-c", "caf\u00e9 \u2028\u2029 \U0001F600", "bad\xff\xfeutf8", "\xe2\x82"},
			Cwd:  "/w", Workspace: "/w", Mode: "linux", Decision: "deny", Rule: "r", Reason: "why",
			PID: -7, User: "root", Error: "boom", Session: "s"},
		{Time: "t", Event: "start", ID: "x", Argv: []string{}, Enforced: &plan.Enforcement{}},
		{Time: "t", Event: "start", ID: "x", Enforced: filled(t)},
	} {
		want, err := json.Marshal(&w)
		if err != nil {
			t.Fatal(err)
		}
		if got := w.appendJSON(nil); string(got) != string(want) {
			t.Errorf("appendJSON:\n got %s\nwant %s", got, want)
		}
	}
}

// filled returns an Enforcement with every field set, so a field added to
// plan.Enforcement and not to appendEnforcement fails the test above.
func filled(t *testing.T) *plan.Enforcement {
	e := &plan.Enforcement{}
	v := reflect.ValueOf(e).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("landlock <&>")
		case reflect.Int:
			f.SetInt(7)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Slice:
			f.Set(reflect.ValueOf([]string{"read_file", "write\"file"}))
		case reflect.Map:
			f.Set(reflect.ValueOf(map[string]uint64{"nproc": 1, "core": 0, "data": 1 << 40}))
		default:
			t.Fatalf("plan.Enforcement.%s: kind %s not filled; teach appendEnforcement and this test", v.Type().Field(i).Name, f.Kind())
		}
	}
	return e
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "<&>\"\\", "\x00\x1f\x7f", "\u2028\u2029", "\xff\xe2\x82", "é😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendString(nil, s); string(got) != string(want) {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}
