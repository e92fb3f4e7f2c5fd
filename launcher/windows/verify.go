package windows

import (
	"fmt"
	"strings"

	"github.com/aar-agent/aar-exec/plan"
)

// Mechanism names for Enforcement.Mechanism.
const (
	mechanismJobLowIL = "windows-job+low-integrity"
	mechanismJob      = "windows-job"
)

// setup is what the launcher means to put in force for one plan.
type setup struct {
	limits     jobLimits
	lowIL      bool     // Options.UseLowIntegrity
	readOnly   bool     // plan.ReadOnly
	workspace  string   // checked for a leftover Low label when readOnly
	writable   []string // paths to stamp Low-writable (none when readOnly)
	denyRead   int      // len(plan.DenyRead)
	bestEffort bool
}

// labelReadBack is one path's label as read back after stamping.
type labelReadBack struct {
	path    string
	isDir   bool
	wantLow bool // stamped Low-writable; false for a read-only workspace
	sddl    string
	err     error // stamping or reading failed
}

// readBack is what the system reported after the job, the token and the
// labels were set up, before any process exists.
type readBack struct {
	job      jobLimits
	jobErr   error
	tokenRID uint32
	tokenErr error
	labels   []labelReadBack
}

// verdict is the fail-closed decision on a readBack.
type verdict struct {
	enf      plan.Enforcement
	useToken bool     // start the child with the Low-integrity token
	refuse   []string // when non-empty, the command must not run
}

// newSetup validates the plan's paths and derives what to enforce.
// protected are directories that must never be labelled Low-writable,
// nor any of their ancestors (see checkStampable).
func newSetup(p *plan.Plan, opt Options, protected []string) (setup, error) {
	l, err := limitsFor(p)
	if err != nil {
		return setup{}, err
	}
	s := setup{limits: l, lowIL: opt.UseLowIntegrity, readOnly: p.ReadOnly, denyRead: len(p.DenyRead), bestEffort: p.BestEffort}
	if p.Workspace != "" {
		if err := checkAbsPath("workspace", p.Workspace); err != nil {
			return setup{}, err
		}
		s.workspace = p.Workspace
	}
	for _, w := range p.Writable {
		if err := checkAbsPath("writable path", w); err != nil {
			return setup{}, err
		}
	}
	for _, d := range p.DenyRead {
		if err := checkString(d); err != nil {
			return setup{}, fmt.Errorf("windows launcher: deny-read path %q %w", d, err)
		}
	}
	if !p.ReadOnly && opt.UseLowIntegrity {
		seen := map[string]bool{}
		for _, w := range append([]string{p.Workspace}, p.Writable...) {
			k := strings.ToLower(strings.TrimRight(strings.ReplaceAll(w, "/", `\`), `\`))
			if w == "" || seen[k] {
				continue
			}
			seen[k] = true
			if err := checkStampable(w, protected); err != nil {
				return setup{}, err
			}
			s.writable = append(s.writable, w)
		}
	}
	return s, nil
}

// verify decides, from what was read back, whether the command may run and
// with what. Everything the plan asked for and the system does not report
// in force is refused, unless best effort is on, in which case it is
// recorded in Enforcement.Missing and, if the Low-integrity part failed,
// the run falls back to the job object alone (the design's documented
// fallback). Only an explicit opt-out (UseLowIntegrity false) is recorded
// without refusing.
func verify(s setup, rb readBack) verdict {
	var missing, optedOut []string

	if rb.jobErr != nil {
		missing = append(missing, fmt.Sprintf("job limits (%v)", rb.jobErr))
	} else {
		missing = append(missing, s.limits.missing(rb.job)...)
	}

	lowOK := s.lowIL
	if s.lowIL {
		switch {
		case rb.tokenErr != nil:
			missing = append(missing, fmt.Sprintf("low integrity token (%v)", rb.tokenErr))
			lowOK = false
		default:
			if err := checkIntegrity("token", rb.tokenRID); err != nil {
				missing = append(missing, "low integrity ("+err.Error()+")")
				lowOK = false
			}
		}
		for _, l := range rb.labels {
			if !l.wantLow {
				// A Low label left by an earlier run would let the
				// command write the workspace it must only read.
				if l.err != nil {
					missing = append(missing, fmt.Sprintf("read-only workspace (label of %s unreadable: %v)", quotePath(l.path), l.err))
					lowOK = false
				} else if checkLowLabel(l.sddl, l.isDir) == nil {
					missing = append(missing, fmt.Sprintf("read-only workspace (%s is labelled Low-writable, left by an earlier run)", quotePath(l.path)))
					lowOK = false
				}
				continue
			}
			if l.err != nil {
				missing = append(missing, fmt.Sprintf("low-writable label on %s (%v)", quotePath(l.path), l.err))
				lowOK = false
			} else if err := checkLowLabel(l.sddl, l.isDir); err != nil {
				missing = append(missing, fmt.Sprintf("low-writable label on %s (%v)", quotePath(l.path), err))
				lowOK = false
			}
		}
	} else if s.readOnly {
		missing = append(missing, "read-only (needs windows.use_low_integrity)")
	} else {
		optedOut = append(optedOut, "write confinement (windows.use_low_integrity is false)")
	}
	if s.denyRead > 0 {
		missing = append(missing, fmt.Sprintf("read denial of %d path(s) (a Low integrity level cannot deny reads)", s.denyRead))
	}

	v := verdict{useToken: lowOK}
	if len(missing) > 0 && !s.bestEffort {
		v.refuse = missing
	}
	if s.lowIL && !lowOK {
		missing = append(missing, "low integrity write confinement (fell back to the job object alone)")
	}
	v.enf = enforcement(s, rb, lowOK, append(missing, optedOut...))
	return v
}

// enforcement describes what is in force, from the read-back values.
func enforcement(s setup, rb readBack, lowOK bool, missing []string) plan.Enforcement {
	e := plan.Enforcement{Mechanism: mechanismJob, Missing: missing}
	if lowOK {
		e.Mechanism = mechanismJobLowIL
		e.FSRights = []string{"read:all", "write:low-labelled-only"}
	} else {
		e.FSRights = []string{"read:all", "write:user-rights"}
	}
	if rb.jobErr == nil {
		got := inForce(s.limits, rb.job)
		e.Scopes = got.scopes()
		if r := got.rlimits(); len(r) > 0 {
			e.Rlimits = r
		}
	}
	return e
}

// inForce keeps the wanted limits that the read-back confirms, with the
// values read back.
func inForce(want, got jobLimits) jobLimits {
	var l jobLimits
	for _, f := range []uint32{limitKillOnJobClose, limitDieOnUnhandledException} {
		if want.Flags&got.Flags&f != 0 {
			l.Flags |= f
		}
	}
	if want.Flags&got.Flags&limitActiveProcess != 0 && got.ActiveProcesses != 0 && got.ActiveProcesses <= want.ActiveProcesses {
		l.Flags |= limitActiveProcess
		l.ActiveProcesses = got.ActiveProcesses
	}
	if want.Flags&got.Flags&limitProcessMemory != 0 && got.ProcessMemory != 0 && got.ProcessMemory <= want.ProcessMemory {
		l.Flags |= limitProcessMemory
		l.ProcessMemory = got.ProcessMemory
	}
	if want.Flags&got.Flags&limitJobMemory != 0 && got.JobMemory != 0 && got.JobMemory <= want.JobMemory {
		l.Flags |= limitJobMemory
		l.JobMemory = got.JobMemory
	}
	return l
}

// childReadBack is what the created, still suspended child reports.
type childReadBack struct {
	inJob    bool
	inJobErr error
	rid      uint32
	ridErr   error
}

// verifyChild checks the suspended child before it runs a single
// instruction. Being outside the job is always fatal: without it nothing
// else holds. A wrong integrity level is missing like any other
// protection.
func verifyChild(useToken bool, c childReadBack) (missing []string, fatal error) {
	if c.inJobErr != nil {
		return nil, fmt.Errorf("windows launcher: child is not verifiably in the job (%v): %w", c.inJobErr, plan.ErrSetup)
	}
	if !c.inJob {
		return nil, fmt.Errorf("windows launcher: child is not in the job: %w", plan.ErrSetup)
	}
	if !useToken {
		return nil, nil
	}
	if c.ridErr != nil {
		return []string{fmt.Sprintf("child integrity level (%v)", c.ridErr)}, nil
	}
	if err := checkIntegrity("child", c.rid); err != nil {
		return []string{"low integrity (" + err.Error() + ")"}, nil
	}
	return nil, nil
}

// refusal is the error for protections that are not in force.
func refusal(missing []string) error {
	return fmt.Errorf("windows launcher: not in force: %s: %w", strings.Join(missing, "; "), plan.ErrSetup)
}
