package audit_test

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/aar-agent/aar-exec/audit"
	"github.com/aar-agent/aar-exec/plan"
)

// Example shows one invocation's records, written to a keyed log and
// verified.
func Example() {
	dir, err := os.MkdirTemp("", "audit-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	keyPath := filepath.Join(dir, "audit.key")
	logPath := filepath.Join(dir, "state", "audit.jsonl")

	if err := audit.NewKey(keyPath); err != nil { // aar-exec audit init
		panic(err)
	}
	key, err := audit.ReadKey(keyPath)
	if err != nil {
		panic(err)
	}
	log, err := audit.Open(logPath, key)
	if err != nil {
		panic(err) // the CLI exits 125: no record, no run
	}
	id := audit.NewID()
	start := &audit.Record{Event: audit.EventStart, ID: id, Command: "make deploy TOKEN=hunter2",
		Decision: "allow", Enforced: &plan.Enforcement{Mechanism: "landlock", ABI: 7}}
	if err := log.Write(start); err != nil {
		panic(err)
	}
	code := 0
	end := &audit.Record{Event: audit.EventEnd, ID: id, ExitCode: &code, Duration: 1500 * time.Millisecond}
	if err := log.Write(end); err != nil {
		panic(err)
	}
	log.Close()

	f, err := os.Open(logPath) // aar-exec audit verify FILE
	if err != nil {
		panic(err)
	}
	defer f.Close()
	fmt.Println(audit.Verify(f, key))
	// Output:
	// <nil>
}
