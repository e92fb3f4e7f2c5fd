package windows

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/aar-agent/aar-exec/plan"
)

// Job Object limit flags (winnt.h); x/sys has them only on Windows builds.
const (
	limitActiveProcess           = 0x00000008
	limitProcessMemory           = 0x00000100
	limitJobMemory               = 0x00000200
	limitDieOnUnhandledException = 0x00000400
	limitBreakawayOK             = 0x00000800
	limitSilentBreakawayOK       = 0x00001000
	limitKillOnJobClose          = 0x00002000
)

// jobLimits mirrors the fields of JOBOBJECT_EXTENDED_LIMIT_INFORMATION the
// launcher sets and reads back; the Windows file copies it into x/sys's
// type.
type jobLimits struct {
	Flags           uint32
	ActiveProcesses uint32
	ProcessMemory   uint64 // bytes of committed memory, per process
	JobMemory       uint64 // bytes of committed memory, whole tree
}

// maxMemoryMB keeps MB<<20 inside a 64-bit uintptr with room to spare.
const maxMemoryMB = math.MaxInt64 >> 20

// limitsFor turns the plan's caps into the job limits: always kill the tree
// when the job closes and never show a crash dialog (which would hang a
// headless run); cap active processes (the root counts) at MaxProcesses or
// DefaultMaxProcesses; cap committed memory per process and for the whole
// tree at MaxMemoryMB when set. Breakaway is never allowed.
func limitsFor(p *plan.Plan) (jobLimits, error) {
	if p.MaxProcesses < 0 || uint64(p.MaxProcesses) > math.MaxUint32 {
		return jobLimits{}, fmt.Errorf("windows launcher: max processes %d is out of range", p.MaxProcesses)
	}
	if p.MaxMemoryMB < 0 || int64(p.MaxMemoryMB) > maxMemoryMB {
		return jobLimits{}, fmt.Errorf("windows launcher: max memory %d MB is out of range", p.MaxMemoryMB)
	}
	l := jobLimits{
		Flags:           limitKillOnJobClose | limitDieOnUnhandledException | limitActiveProcess,
		ActiveProcesses: DefaultMaxProcesses,
	}
	if p.MaxProcesses > 0 {
		l.ActiveProcesses = uint32(p.MaxProcesses)
	}
	if p.MaxMemoryMB > 0 {
		l.Flags |= limitProcessMemory | limitJobMemory
		l.ProcessMemory = uint64(p.MaxMemoryMB) << 20
		l.JobMemory = l.ProcessMemory
	}
	return l, nil
}

// missing compares the limits read back from the job with the wanted ones
// and names every one that is not in force. A breakaway flag read back is a
// failure even though nobody asked for it.
func (want jobLimits) missing(got jobLimits) []string {
	var out []string
	for _, f := range []struct {
		flag uint32
		name string
	}{
		{limitKillOnJobClose, "kill-on-job-close"},
		{limitDieOnUnhandledException, "die-on-unhandled-exception"},
	} {
		if want.Flags&f.flag != 0 && got.Flags&f.flag == 0 {
			out = append(out, "job "+f.name+" (flag not set on read-back)")
		}
	}
	if got.Flags&(limitBreakawayOK|limitSilentBreakawayOK) != 0 {
		out = append(out, fmt.Sprintf("job without breakaway (read back flags 0x%x allow it)", got.Flags))
	}
	if want.Flags&limitActiveProcess != 0 {
		if got.Flags&limitActiveProcess == 0 || got.ActiveProcesses == 0 || got.ActiveProcesses > want.ActiveProcesses {
			out = append(out, fmt.Sprintf("job active-process limit (read back %d, want %d)", readBackValue(got.Flags&limitActiveProcess, uint64(got.ActiveProcesses)), want.ActiveProcesses))
		}
	}
	if want.Flags&limitProcessMemory != 0 {
		if got.Flags&limitProcessMemory == 0 || got.ProcessMemory == 0 || got.ProcessMemory > want.ProcessMemory {
			out = append(out, fmt.Sprintf("job process-memory limit (read back %d bytes, want %d)", readBackValue(got.Flags&limitProcessMemory, got.ProcessMemory), want.ProcessMemory))
		}
	}
	if want.Flags&limitJobMemory != 0 {
		if got.Flags&limitJobMemory == 0 || got.JobMemory == 0 || got.JobMemory > want.JobMemory {
			out = append(out, fmt.Sprintf("job memory limit (read back %d bytes, want %d)", readBackValue(got.Flags&limitJobMemory, got.JobMemory), want.JobMemory))
		}
	}
	return out
}

// readBackValue reports a limit whose flag is off as 0, which is what it
// means to Windows.
func readBackValue(flag uint32, v uint64) uint64 {
	if flag == 0 {
		return 0
	}
	return v
}

// scopes names the job protections for Enforcement.Scopes.
func (l jobLimits) scopes() []string {
	var s []string
	if l.Flags&limitKillOnJobClose != 0 {
		s = append(s, "job:kill-on-close")
	}
	if l.Flags&limitDieOnUnhandledException != 0 {
		s = append(s, "job:die-on-unhandled-exception")
	}
	if l.Flags&limitActiveProcess != 0 {
		s = append(s, "job:active-processes<="+strconv.FormatUint(uint64(l.ActiveProcesses), 10))
	}
	if l.Flags&limitJobMemory != 0 {
		s = append(s, "job:memory<="+strconv.FormatUint(l.JobMemory>>20, 10)+"MiB")
	}
	if l.Flags&limitProcessMemory != 0 {
		s = append(s, "job:process-memory<="+strconv.FormatUint(l.ProcessMemory>>20, 10)+"MiB")
	}
	return s
}

// rlimits gives the limits as numbers for Enforcement.Rlimits.
func (l jobLimits) rlimits() map[string]uint64 {
	m := map[string]uint64{}
	if l.Flags&limitActiveProcess != 0 {
		m["active_processes"] = uint64(l.ActiveProcesses)
	}
	if l.Flags&limitJobMemory != 0 {
		m["job_memory_bytes"] = l.JobMemory
	}
	if l.Flags&limitProcessMemory != 0 {
		m["process_memory_bytes"] = l.ProcessMemory
	}
	return m
}

// String prints the flag set readably, for errors and doctor.
func (l jobLimits) String() string {
	return "{" + strings.Join(l.scopes(), ",") + "}"
}
