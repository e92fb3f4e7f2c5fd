package windows

import (
	"fmt"
	"strings"
)

// A Report says what the Windows launcher can enforce on this machine, for
// `aar-exec doctor`. Every check is a real read-back, not a version guess.
type Report struct {
	Available       bool     `json:"available"`        // Run can work at all on this OS
	CallerIntegrity string   `json:"caller_integrity"` // the integrity level aar-exec runs at
	JobObject       bool     `json:"job_object"`       // a job could be created and a process assigned to it
	JobLimits       bool     `json:"job_limits"`       // memory and process limits read back as set
	LowIntegrity    bool     `json:"low_integrity"`    // a lowered token reads back Low
	Labels          bool     `json:"labels"`           // a directory can be labelled Low-writable and read back
	Problems        []string `json:"problems,omitempty"`
}

// Enforceable reports whether Run can put everything in force without best
// effort (read denial aside, which this launcher never provides).
func (r Report) Enforceable() bool {
	return r.Available && r.JobObject && r.JobLimits && r.LowIntegrity && r.Labels
}

// String says in plain words what holds and what does not.
func (r Report) String() string {
	var b strings.Builder
	if !r.Available {
		b.WriteString("windows launcher: not available")
		for _, p := range r.Problems {
			fmt.Fprintf(&b, "\n  %s", p)
		}
		return b.String()
	}
	yes := func(ok bool) string {
		if ok {
			return "yes"
		}
		return "NO"
	}
	fmt.Fprintf(&b, "windows launcher: %s\n", map[bool]string{true: "can enforce the full sandbox", false: "cannot enforce the full sandbox (runs only with --best-effort)"}[r.Enforceable()])
	if r.CallerIntegrity != "" {
		fmt.Fprintf(&b, "  aar-exec runs at integrity level %s\n", r.CallerIntegrity)
	}
	fmt.Fprintf(&b, "  job object, kill on close:      %s\n", yes(r.JobObject))
	fmt.Fprintf(&b, "  memory and process limits:      %s\n", yes(r.JobLimits))
	fmt.Fprintf(&b, "  low integrity token:            %s\n", yes(r.LowIntegrity))
	fmt.Fprintf(&b, "  low-writable workspace label:   %s\n", yes(r.Labels))
	b.WriteString("  read denial:                    NO (a Low integrity level does not stop reads)")
	for _, p := range r.Problems {
		fmt.Fprintf(&b, "\n  problem: %s", p)
	}
	return b.String()
}
