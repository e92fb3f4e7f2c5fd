//go:build windows

package windows

import (
	"os"

	win "golang.org/x/sys/windows"
)

// Probe checks, by doing each thing once and reading it back, what Run can
// enforce here: a job with its limits, a Low-integrity token, and a Low
// label on a fresh temporary directory (removed afterwards).
func Probe() Report {
	r := Report{Available: true}
	if rid, err := callerRID(); err == nil {
		r.CallerIntegrity = integrityName(rid)
	} else {
		r.Problems = append(r.Problems, "caller integrity level: "+err.Error())
	}

	want := jobLimits{
		Flags:           limitKillOnJobClose | limitDieOnUnhandledException | limitActiveProcess | limitProcessMemory | limitJobMemory,
		ActiveProcesses: DefaultMaxProcesses,
		ProcessMemory:   512 << 20,
		JobMemory:       512 << 20,
	}
	if job, port, err := newJob(want); err != nil {
		r.Problems = append(r.Problems, "job object: "+err.Error())
	} else {
		r.JobObject = true
		if got, err := queryLimits(job); err != nil {
			r.Problems = append(r.Problems, "job limits: "+err.Error())
		} else if m := want.missing(got); len(m) > 0 {
			r.Problems = append(r.Problems, m...)
		} else {
			r.JobLimits = true
		}
		win.CloseHandle(port)
		win.CloseHandle(job)
	}

	if tok, err := lowToken(); err != nil {
		r.Problems = append(r.Problems, "low integrity token: "+err.Error())
	} else {
		rid, err := tokenRID(tok)
		switch {
		case err != nil:
			r.Problems = append(r.Problems, "low integrity token: "+err.Error())
		case checkIntegrity("token", rid) != nil:
			r.Problems = append(r.Problems, "low integrity token: "+checkIntegrity("token", rid).Error())
		default:
			r.LowIntegrity = true
		}
		tok.Close()
	}

	dir, err := os.MkdirTemp("", "aar-exec-probe-")
	if err != nil {
		r.Problems = append(r.Problems, "label: temporary directory: "+err.Error())
		return r
	}
	defer os.Remove(dir)
	lr := stampLow(dir)
	switch {
	case lr.err != nil:
		r.Problems = append(r.Problems, "low-writable label: "+lr.err.Error())
	case checkLowLabel(lr.sddl, true) != nil:
		r.Problems = append(r.Problems, "low-writable label: "+checkLowLabel(lr.sddl, true).Error())
	default:
		r.Labels = true
	}
	return r
}
