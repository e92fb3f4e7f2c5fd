//go:build windows

package windows

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"unsafe"

	win "golang.org/x/sys/windows"
)

// Job messages posted to the completion port (winnt.h).
const (
	jobMsgActiveProcessZero = 4
)

// jobAssociateCompletionPort is JOBOBJECT_ASSOCIATE_COMPLETION_PORT, which
// x/sys lacks.
type jobAssociateCompletionPort struct {
	CompletionKey  uintptr
	CompletionPort win.Handle
}

// jobBasicAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, which x/sys
// lacks.
type jobBasicAccounting struct {
	TotalUserTime             int64
	TotalKernelTime           int64
	ThisPeriodTotalUserTime   int64
	ThisPeriodTotalKernelTime int64
	TotalPageFaultCount       uint32
	TotalProcesses            uint32
	ActiveProcesses           uint32
	TotalTerminatedProcesses  uint32
}

// isProcessInJob is kernel32!IsProcessInJob, which x/sys lacks.
func isProcessInJob(proc, job win.Handle) (bool, error) {
	p := win.NewLazySystemDLL("kernel32.dll").NewProc("IsProcessInJob")
	if err := p.Find(); err != nil {
		return false, err
	}
	var in int32
	r, _, err := p.Call(uintptr(proc), uintptr(job), uintptr(unsafe.Pointer(&in)))
	if r == 0 {
		return false, fmt.Errorf("IsProcessInJob: %w", err)
	}
	return in != 0, nil
}

// newJob creates an unnamed, non-inheritable job whose messages go to a new
// completion port, and sets the limits. The port is associated before any
// process joins, so no message is lost.
func newJob(l jobLimits) (job, port win.Handle, err error) {
	job, err = win.CreateJobObject(nil, nil)
	if err != nil {
		return 0, 0, fmt.Errorf("CreateJobObject: %w", err)
	}
	fail := func(e error) (win.Handle, win.Handle, error) {
		if port != 0 {
			win.CloseHandle(port)
		}
		win.CloseHandle(job)
		return 0, 0, e
	}
	port, err = win.CreateIoCompletionPort(win.InvalidHandle, 0, 0, 1)
	if err != nil {
		return fail(fmt.Errorf("CreateIoCompletionPort: %w", err))
	}
	assoc := jobAssociateCompletionPort{CompletionKey: uintptr(job), CompletionPort: port}
	if _, err := win.SetInformationJobObject(job, win.JobObjectAssociateCompletionPortInformation, uintptr(unsafe.Pointer(&assoc)), uint32(unsafe.Sizeof(assoc))); err != nil {
		return fail(fmt.Errorf("associate completion port: %w", err))
	}
	if l.ProcessMemory > math.MaxUint || l.JobMemory > math.MaxUint {
		return fail(errors.New("memory limit does not fit this architecture"))
	}
	var li win.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	li.BasicLimitInformation.LimitFlags = l.Flags
	li.BasicLimitInformation.ActiveProcessLimit = l.ActiveProcesses
	li.ProcessMemoryLimit = uintptr(l.ProcessMemory)
	li.JobMemoryLimit = uintptr(l.JobMemory)
	if _, err := win.SetInformationJobObject(job, win.JobObjectExtendedLimitInformation, uintptr(unsafe.Pointer(&li)), uint32(unsafe.Sizeof(li))); err != nil {
		return fail(fmt.Errorf("SetInformationJobObject(%v): %w", l, err))
	}
	return job, port, nil
}

// queryLimits reads the job's limits back.
func queryLimits(job win.Handle) (jobLimits, error) {
	var li win.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	if err := win.QueryInformationJobObject(job, win.JobObjectExtendedLimitInformation, uintptr(unsafe.Pointer(&li)), uint32(unsafe.Sizeof(li)), nil); err != nil {
		return jobLimits{}, fmt.Errorf("QueryInformationJobObject: %w", err)
	}
	return jobLimits{
		Flags:           li.BasicLimitInformation.LimitFlags,
		ActiveProcesses: li.BasicLimitInformation.ActiveProcessLimit,
		ProcessMemory:   uint64(li.ProcessMemoryLimit),
		JobMemory:       uint64(li.JobMemoryLimit),
	}, nil
}

// activeProcesses reads how many processes are alive in the job.
func activeProcesses(job win.Handle) (uint32, error) {
	var a jobBasicAccounting
	if err := win.QueryInformationJobObject(job, win.JobObjectBasicAccountingInformation, uintptr(unsafe.Pointer(&a)), uint32(unsafe.Sizeof(a)), nil); err != nil {
		return 0, err
	}
	return a.ActiveProcesses, nil
}

// lowToken duplicates the caller's token as a non-inheritable primary token
// and lowers its integrity level to Low.
func lowToken() (win.Token, error) {
	const access = win.TOKEN_DUPLICATE | win.TOKEN_QUERY | win.TOKEN_ADJUST_DEFAULT | win.TOKEN_ASSIGN_PRIMARY
	var self, dup win.Token
	if err := win.OpenProcessToken(win.CurrentProcess(), access, &self); err != nil {
		return 0, fmt.Errorf("OpenProcessToken: %w", err)
	}
	defer self.Close()
	if err := win.DuplicateTokenEx(self, access, nil, win.SecurityImpersonation, win.TokenPrimary, &dup); err != nil {
		return 0, fmt.Errorf("DuplicateTokenEx: %w", err)
	}
	sid, err := win.CreateWellKnownSid(win.WinLowLabelSid)
	if err != nil {
		dup.Close()
		return 0, fmt.Errorf("CreateWellKnownSid(Low): %w", err)
	}
	tml := win.Tokenmandatorylabel{Label: win.SIDAndAttributes{Sid: sid, Attributes: win.SE_GROUP_INTEGRITY}}
	if err := win.SetTokenInformation(dup, win.TokenIntegrityLevel, (*byte)(unsafe.Pointer(&tml)), tml.Size()); err != nil {
		dup.Close()
		return 0, fmt.Errorf("SetTokenInformation(integrity Low): %w", err)
	}
	return dup, nil
}

// tokenRID reads a token's integrity level back as its RID.
func tokenRID(t win.Token) (uint32, error) {
	n := uint32(64)
	for {
		buf := make([]byte, n)
		err := win.GetTokenInformation(t, win.TokenIntegrityLevel, &buf[0], n, &n)
		if errors.Is(err, win.ERROR_INSUFFICIENT_BUFFER) && n > uint32(len(buf)) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("GetTokenInformation(integrity): %w", err)
		}
		sid := (*win.Tokenmandatorylabel)(unsafe.Pointer(&buf[0])).Label.Sid
		if sid == nil || !sid.IsValid() || sid.SubAuthorityCount() == 0 || !strings.HasPrefix(sid.String(), "S-1-16-") {
			return 0, errors.New("GetTokenInformation(integrity): not a mandatory label SID")
		}
		return sid.SubAuthority(uint32(sid.SubAuthorityCount()) - 1), nil
	}
}

// processRID reads the integrity level of a (suspended) process.
func processRID(proc win.Handle) (uint32, error) {
	var t win.Token
	if err := win.OpenProcessToken(proc, win.TOKEN_QUERY, &t); err != nil {
		return 0, fmt.Errorf("OpenProcessToken(child): %w", err)
	}
	defer t.Close()
	return tokenRID(t)
}

// readLabel returns the mandatory label of a path in SDDL.
func readLabel(path string) (string, error) {
	sd, err := win.GetNamedSecurityInfo(path, win.SE_FILE_OBJECT, win.LABEL_SECURITY_INFORMATION)
	if err != nil {
		return "", fmt.Errorf("GetNamedSecurityInfo(label): %w", err)
	}
	return sd.String(), nil
}

// stampLow makes path writable from Low integrity, like icacls
// /setintegritylevel (OI)(CI)Low, and returns the label read back. It
// writes only when the label is not already right, because setting a
// label on a directory propagates it through the whole tree, which is slow
// on big workspaces.
func stampLow(path string) labelReadBack {
	lr := labelReadBack{path: path, wantLow: true}
	fi, err := os.Stat(path)
	if err != nil {
		lr.err = err
		return lr
	}
	lr.isDir = fi.IsDir()
	if s, err := readLabel(path); err == nil && checkLowLabel(s, lr.isDir) == nil {
		lr.sddl = s
		return lr
	}
	sd, err := win.SecurityDescriptorFromString(lowLabelSDDL(lr.isDir))
	if err != nil {
		lr.err = fmt.Errorf("SecurityDescriptorFromString: %w", err)
		return lr
	}
	sacl, _, err := sd.SACL()
	if err != nil {
		lr.err = fmt.Errorf("label SACL: %w", err)
		return lr
	}
	if err := win.SetNamedSecurityInfo(path, win.SE_FILE_OBJECT, win.LABEL_SECURITY_INFORMATION, nil, nil, nil, sacl); err != nil {
		lr.err = fmt.Errorf("SetNamedSecurityInfo(label): %w", err)
		return lr
	}
	lr.sddl, lr.err = readLabel(path)
	return lr
}

// currentLabel reads a path's label without changing it.
func currentLabel(path string) labelReadBack {
	lr := labelReadBack{path: path}
	fi, err := os.Stat(path)
	if err != nil {
		lr.err = err
		return lr
	}
	lr.isDir = fi.IsDir()
	lr.sddl, lr.err = readLabel(path)
	return lr
}

// callerRID is the integrity level aar-exec itself runs at.
func callerRID() (uint32, error) {
	var t win.Token
	if err := win.OpenProcessToken(win.CurrentProcess(), win.TOKEN_QUERY, &t); err != nil {
		return 0, err
	}
	defer t.Close()
	return tokenRID(t)
}
