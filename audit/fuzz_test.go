package audit

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzVerify checks that Verify never panics on arbitrary input, and that
// any change to a valid log is either caught or leaves the lines that
// verify a prefix of the original (the one tampering a chain cannot see).
func FuzzVerify(f *testing.F) {
	key := bytes.Repeat([]byte{7}, 32)
	var valid bytes.Buffer
	l := &Log{path: "fuzz", stream: true, key: key}
	for i := range 4 {
		r := sampleRecord(EventStart)
		r.ID = "id"
		r.PID = 1
		r.Time = r.Time.AddDate(2026, 0, i)
		body, err := encode(r)
		if err != nil {
			f.Fatal(err)
		}
		valid.Write(l.seal(body, l.prev, false))
	}
	f.Add(valid.Bytes(), uint16(0), byte(0))
	f.Add([]byte("{}\n"), uint16(1), byte('x'))
	f.Add([]byte("\n\n"), uint16(0), byte(0))
	f.Fuzz(func(t *testing.T, data []byte, pos uint16, b byte) {
		_ = Verify(bytes.NewReader(data), key)

		// Mutate the valid log at one byte.
		log := bytes.Clone(valid.Bytes())
		i := int(pos) % len(log)
		if log[i] == b {
			return
		}
		log[i] = b
		err := Verify(bytes.NewReader(log), key)
		if err == nil {
			t.Fatalf("mutation at %d to %q verified", i, b)
		}
		var ce *ChainError
		if !errors.As(err, &ce) {
			t.Fatalf("error %v is not a *ChainError", err)
		}
	})
}
