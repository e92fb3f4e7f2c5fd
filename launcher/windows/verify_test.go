package windows

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/aar-agent/aar-exec/plan"
)

func TestLimitsFor(t *testing.T) {
	base := uint32(limitKillOnJobClose | limitDieOnUnhandledException | limitActiveProcess)
	tests := []struct {
		name string
		p    plan.Plan
		want jobLimits
		err  bool
	}{
		{"defaults", plan.Plan{}, jobLimits{Flags: base, ActiveProcesses: DefaultMaxProcesses}, false},
		{"caps", plan.Plan{MaxMemoryMB: 512, MaxProcesses: 3}, jobLimits{Flags: base | limitProcessMemory | limitJobMemory, ActiveProcesses: 3, ProcessMemory: 512 << 20, JobMemory: 512 << 20}, false},
		{"negative memory", plan.Plan{MaxMemoryMB: -1}, jobLimits{}, true},
		{"negative processes", plan.Plan{MaxProcesses: -1}, jobLimits{}, true},
		{"huge memory", plan.Plan{MaxMemoryMB: math.MaxInt}, jobLimits{}, math.MaxInt > maxMemoryMB},
	}
	for _, tt := range tests {
		got, err := limitsFor(&tt.p)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("%s: limitsFor = %+v, %v; want %+v, err=%v", tt.name, got, err, tt.want, tt.err)
		}
		if got.Flags&(limitBreakawayOK|limitSilentBreakawayOK) != 0 {
			t.Errorf("%s: limitsFor allows breakaway: %+v", tt.name, got)
		}
	}
}

func TestJobLimitsMissing(t *testing.T) {
	want, _ := limitsFor(&plan.Plan{MaxMemoryMB: 512, MaxProcesses: 10})
	lower := want
	lower.JobMemory, lower.ActiveProcesses = 256<<20, 5
	tests := []struct {
		name string
		got  jobLimits
		want []string // substrings, one per missing item, in order
	}{
		{"all in force", want, nil},
		{"stricter is fine", lower, nil},
		{"wine reads all zeros", jobLimits{}, []string{"kill-on-job-close", "die-on-unhandled", "active-process limit (read back 0, want 10)", "process-memory limit (read back 0", "job memory limit (read back 0"}},
		{"memory read back as 0", func() jobLimits { g := want; g.JobMemory = 0; return g }(), []string{"job memory limit (read back 0 bytes"}},
		{"memory looser", func() jobLimits { g := want; g.ProcessMemory = 1 << 40; return g }(), []string{"process-memory limit (read back 1099511627776"}},
		{"flag off, value kept", func() jobLimits { g := want; g.Flags &^= limitActiveProcess; return g }(), []string{"active-process limit (read back 0, want 10)"}},
		{"breakaway", func() jobLimits { g := want; g.Flags |= limitBreakawayOK; return g }(), []string{"breakaway"}},
		{"silent breakaway", func() jobLimits { g := want; g.Flags |= limitSilentBreakawayOK; return g }(), []string{"breakaway"}},
	}
	for _, tt := range tests {
		got := want.missing(tt.got)
		if len(got) != len(tt.want) {
			t.Errorf("%s: missing = %q, want %d items like %q", tt.name, got, len(tt.want), tt.want)
			continue
		}
		for i := range got {
			if !strings.Contains(got[i], tt.want[i]) {
				t.Errorf("%s: missing[%d] = %q, want it to contain %q", tt.name, i, got[i], tt.want[i])
			}
		}
	}
}

func TestCheckLowLabel(t *testing.T) {
	tests := []struct {
		sddl  string
		isDir bool
		ok    bool
	}{
		{"S:(ML;OICI;NW;;;LW)", true, true},
		{"S:(ML;CIOI;NW;;;LW)", true, true},
		{"S:AI(ML;OICIID;NW;;;LW)", true, true},
		{"S:(ML;OICI;NWNR;;;LW)", true, true},
		{"S:(ML;OICI;0x1;;;S-1-16-4096)", true, true},
		{"O:BAG:SYD:(A;;FA;;;BA)S:(ML;OICI;NW;;;LW)", true, true},
		{"S:(ML;OICI;NW;;;LW)D:(A;;FA;;;SY)", true, true},
		{"O:S-1-5-21-1-2-3-1000G:S-1-5-21-1-2-3-513D:P(A;OICI;FA;;;SY)S:(ML;OICI;NW;;;LW)", true, true},
		{"O:S-1-5-21-1-2-3-1000G:S-1-5-21-1-2-3-513D:(A;;FA;;;SY)", true, false},
		{"S:(ML;;NW;;;LW)", false, true},
		{"S:(ML;;NW;;;LW)", true, false}, // a directory label that files would not inherit
		{"", true, false},                // unlabelled is Medium
		{"D:(A;;FA;;;SY)", true, false},
		{"S:(ML;OICI;NW;;;ME)", true, false},
		{"S:(ML;OICI;NW;;;HI)", true, false},
		{"S:(ML;OICI;NR;;;LW)", true, false},
		{"S:(ML;OICI;0x0;;;LW)", true, false},
		{"S:(ML;OICIIO;NW;;;LW)", true, false},
		{"S:(ML;OICI;NW;;;LW)(ML;OICI;NW;;;ME)", true, false},
		{"S:(AU;SA;FA;;;WD)", true, false},
		{"S:(ML;OICI;NW;;;LW", true, false},
		{"S:(ML;OICI;XX;;;LW)", true, false},
		{"D:(ML;OICI;NW;;;LW)", true, false}, // a label in the DACL is not a label
		{"S:(ML;OICI;NW;;;LW)\x00", true, false},
	}
	for _, tt := range tests {
		err := checkLowLabel(tt.sddl, tt.isDir)
		if (err == nil) != tt.ok {
			t.Errorf("checkLowLabel(%q, dir=%v) = %v, want ok=%v", tt.sddl, tt.isDir, err, tt.ok)
		}
	}
	// The label the launcher writes must pass its own check.
	for _, dir := range []bool{true, false} {
		if err := checkLowLabel(lowLabelSDDL(dir), dir); err != nil {
			t.Errorf("checkLowLabel(lowLabelSDDL(%v)): %v", dir, err)
		}
	}
}

func FuzzCheckLowLabel(f *testing.F) {
	for _, s := range []string{"S:(ML;OICI;NW;;;LW)", "", "S:(", "S:(ML;;;;;)", "D:(A;;FA;;;SY)S:AI(ML;OICIID;0x1;;;LW)"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, sddl string, isDir bool) {
		if checkLowLabel(sddl, isDir) == nil && !strings.Contains(strings.ToUpper(sddl), "(ML;") {
			t.Fatalf("checkLowLabel accepted %q, which has no label", sddl)
		}
	})
}

func TestCheckIntegrity(t *testing.T) {
	for rid, ok := range map[uint32]bool{ridLow: true, ridUntrusted: false, ridMedium: false, ridHigh: false, ridSystem: false, 0x1100: false} {
		if err := checkIntegrity("child", rid); (err == nil) != ok {
			t.Errorf("checkIntegrity(0x%x) = %v, want ok=%v", rid, err, ok)
		}
	}
	if err := checkIntegrity("child", ridHigh); !strings.Contains(err.Error(), "High (0x3000)") {
		t.Errorf("checkIntegrity(High) = %q, want it to name High (0x3000)", err)
	}
}

// goodReadBack is what a real Windows reports for the plan below.
func goodReadBack(s setup) readBack {
	rb := readBack{job: s.limits, tokenRID: ridLow}
	for _, w := range s.writable {
		rb.labels = append(rb.labels, labelReadBack{path: w, isDir: true, wantLow: true, sddl: "S:(ML;OICI;NW;;;LW)"})
	}
	return rb
}

func TestVerify(t *testing.T) {
	p := plan.Plan{Argv: []string{"cmd"}, Workspace: `C:\ws`, Writable: []string{`C:\cache`, `c:/WS/`}, MaxMemoryMB: 512}
	on := Options{UseLowIntegrity: true}
	type tc struct {
		name      string
		p         plan.Plan
		opt       Options
		rb        func(setup) readBack
		refuse    []string // substrings of the refusal; nil means it runs
		missing   []string // substrings of Enforcement.Missing
		mechanism string
		useToken  bool
	}
	wine := func(s setup) readBack {
		rb := readBack{tokenRID: ridHigh}
		for _, w := range s.writable {
			rb.labels = append(rb.labels, labelReadBack{path: w, isDir: true, wantLow: true, err: errors.New("Access is denied.")})
		}
		return rb
	}
	withBest := func(p plan.Plan) plan.Plan { p.BestEffort = true; return p }
	withRO := func(p plan.Plan) plan.Plan { p.ReadOnly = true; return p }
	withDeny := func(p plan.Plan) plan.Plan { p.DenyRead = []string{`C:\Users\me\.ssh`}; return p }
	tests := []tc{
		{name: "all in force", p: p, opt: on, rb: goodReadBack, mechanism: mechanismJobLowIL, useToken: true},
		{name: "integrity reads High", p: p, opt: on, rb: func(s setup) readBack { rb := goodReadBack(s); rb.tokenRID = ridHigh; return rb },
			refuse: []string{"token integrity level is High (0x3000)"}},
		{name: "token failed", p: p, opt: on, rb: func(s setup) readBack { rb := goodReadBack(s); rb.tokenErr = errors.New("boom"); return rb },
			refuse: []string{"low integrity token (boom)"}},
		{name: "memory read back 0", p: p, opt: on, rb: func(s setup) readBack { rb := goodReadBack(s); rb.job.JobMemory = 0; return rb },
			refuse: []string{"job memory limit (read back 0"}},
		{name: "query failed", p: p, opt: on, rb: func(s setup) readBack { rb := goodReadBack(s); rb.jobErr = errors.New("denied"); return rb },
			refuse: []string{"job limits (denied)"}},
		{name: "label missing", p: p, opt: on, rb: func(s setup) readBack { rb := goodReadBack(s); rb.labels[1].sddl = ""; return rb },
			refuse: []string{`label on "C:\cache" (no integrity label`}},
		{name: "label unreadable", p: p, opt: on, rb: func(s setup) readBack {
			rb := goodReadBack(s)
			rb.labels[0].err = errors.New("Access is denied.")
			return rb
		}, refuse: []string{`label on "C:\ws" (Access is denied.)`}},
		{name: "wine refuses everything", p: p, opt: on, rb: wine,
			refuse: []string{"kill-on-job-close", "die-on-unhandled", "active-process", "process-memory", "job memory", "High", `"C:\ws"`, `"C:\cache"`}},
		{name: "wine best effort falls back to the job", p: withBest(p), opt: on, rb: wine, mechanism: mechanismJob,
			missing: []string{"job memory", "High", `"C:\ws"`, "fell back to the job object alone"}},
		{name: "opted out runs and says so", p: p, opt: Options{}, rb: func(s setup) readBack { return readBack{job: s.limits} },
			mechanism: mechanismJob, missing: []string{"use_low_integrity is false"}},
		{name: "read-only needs low integrity", p: withRO(p), opt: Options{}, rb: func(s setup) readBack { return readBack{job: s.limits} },
			refuse: []string{"read-only (needs windows.use_low_integrity)"}},
		{name: "read-only clean workspace", p: withRO(p), opt: on, rb: func(s setup) readBack {
			return readBack{job: s.limits, tokenRID: ridLow, labels: []labelReadBack{{path: `C:\ws`, isDir: true, sddl: "S:"}}}
		}, mechanism: mechanismJobLowIL, useToken: true},
		{name: "read-only with a Low temp dir", p: withRO(p), opt: on, rb: func(s setup) readBack {
			return readBack{job: s.limits, tokenRID: ridLow, labels: []labelReadBack{
				{path: `C:\ws`, isDir: true, sddl: "S:"},
				{path: `C:\Temp\aar-exec-1`, isDir: true, wantLow: true, sddl: "S:(ML;OICI;NW;;;LW)"},
			}}
		}, mechanism: mechanismJobLowIL, useToken: true},
		{name: "read-only leftover label", p: withRO(p), opt: on, rb: func(s setup) readBack {
			return readBack{job: s.limits, tokenRID: ridLow, labels: []labelReadBack{{path: `C:\ws`, isDir: true, sddl: "S:(ML;OICI;NW;;;LW)"}}}
		}, refuse: []string{"left by an earlier run"}},
		{name: "deny-read refused", p: withDeny(p), opt: on, rb: goodReadBack, refuse: []string{"read denial of 1 path(s)"}},
		{name: "deny-read best effort", p: withBest(withDeny(p)), opt: on, rb: goodReadBack, mechanism: mechanismJobLowIL, useToken: true,
			missing: []string{"read denial"}},
	}
	for _, tt := range tests {
		s, err := newSetup(&tt.p, tt.opt, nil)
		if err != nil {
			t.Fatalf("%s: newSetup: %v", tt.name, err)
		}
		v := verify(s, tt.rb(s))
		if tt.refuse == nil && len(v.refuse) > 0 {
			t.Errorf("%s: refused: %q", tt.name, v.refuse)
			continue
		}
		all := strings.Join(v.refuse, "; ")
		for _, want := range tt.refuse {
			if !strings.Contains(all, want) {
				t.Errorf("%s: refusal %q lacks %q", tt.name, all, want)
			}
		}
		if tt.refuse != nil {
			if err := refusal(v.refuse); !errors.Is(err, plan.ErrSetup) {
				t.Errorf("%s: refusal does not wrap ErrSetup: %v", tt.name, err)
			}
			continue
		}
		missing := strings.Join(v.enf.Missing, "; ")
		for _, want := range tt.missing {
			if !strings.Contains(missing, want) {
				t.Errorf("%s: Missing %q lacks %q", tt.name, missing, want)
			}
		}
		if tt.missing == nil && len(v.enf.Missing) > 0 {
			t.Errorf("%s: Missing = %q, want none", tt.name, v.enf.Missing)
		}
		if v.enf.Mechanism != tt.mechanism || v.useToken != tt.useToken {
			t.Errorf("%s: mechanism %q token %v, want %q %v", tt.name, v.enf.Mechanism, v.useToken, tt.mechanism, tt.useToken)
		}
	}
}

func TestNewSetupStampsEachPathOnce(t *testing.T) {
	p := plan.Plan{Workspace: `C:\ws`, Writable: []string{`c:/WS/`, `C:\cache`, `C:\Cache\`}}
	s, err := newSetup(&p, Options{UseLowIntegrity: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{`C:\ws`, `C:\cache`}; !slices.Equal(s.writable, want) {
		t.Errorf("writable = %q, want %q", s.writable, want)
	}
	for _, bad := range []plan.Plan{{Workspace: `ws`}, {Writable: []string{`\\.\C:\x`}}, {DenyRead: []string{"a\x00"}}, {MaxMemoryMB: -5}} {
		if _, err := newSetup(&bad, Options{UseLowIntegrity: true}, nil); err == nil {
			t.Errorf("newSetup(%+v) accepted a bad plan", bad)
		}
	}
}

func TestEnforcementReportsReadBackValues(t *testing.T) {
	p := plan.Plan{Workspace: `C:\ws`, MaxMemoryMB: 512, MaxProcesses: 20}
	s, _ := newSetup(&p, Options{UseLowIntegrity: true}, nil)
	rb := goodReadBack(s)
	rb.job.ActiveProcesses = 8 // stricter than asked, e.g. a parent job
	v := verify(s, rb)
	if got := v.enf.Rlimits["active_processes"]; got != 8 {
		t.Errorf("Rlimits[active_processes] = %d, want the read-back 8", got)
	}
	if got := v.enf.Rlimits["job_memory_bytes"]; got != 512<<20 {
		t.Errorf("Rlimits[job_memory_bytes] = %d", got)
	}
	want := []string{"job:kill-on-close", "job:die-on-unhandled-exception", "job:active-processes<=8", "job:memory<=512MiB", "job:process-memory<=512MiB"}
	if !slices.Equal(v.enf.Scopes, want) {
		t.Errorf("Scopes = %q, want %q", v.enf.Scopes, want)
	}
	if v.enf.ReadDenial {
		t.Error("ReadDenial = true; this launcher never denies reads")
	}
}

func TestVerifyChild(t *testing.T) {
	tests := []struct {
		name     string
		useToken bool
		c        childReadBack
		fatal    bool
		missing  string
	}{
		{"low child", true, childReadBack{inJob: true, rid: ridLow}, false, ""},
		{"not in job", true, childReadBack{inJob: false, rid: ridLow}, true, ""},
		{"in-job unknown", true, childReadBack{inJobErr: errors.New("x"), rid: ridLow}, true, ""},
		{"child reads High", true, childReadBack{inJob: true, rid: ridHigh}, false, "child integrity level is High"},
		{"child token unreadable", true, childReadBack{inJob: true, ridErr: errors.New("denied")}, false, "child integrity level (denied)"},
		{"no token asked", false, childReadBack{inJob: true, rid: ridHigh}, false, ""},
	}
	for _, tt := range tests {
		missing, fatal := verifyChild(tt.useToken, tt.c)
		if (fatal != nil) != tt.fatal || (fatal != nil && !errors.Is(fatal, plan.ErrSetup)) {
			t.Errorf("%s: fatal = %v, want fatal=%v wrapping ErrSetup", tt.name, fatal, tt.fatal)
		}
		if got := strings.Join(missing, "; "); (tt.missing == "") != (got == "") || !strings.Contains(got, tt.missing) {
			t.Errorf("%s: missing = %q, want %q", tt.name, got, tt.missing)
		}
	}
}

func BenchmarkVerify(b *testing.B) {
	p := plan.Plan{Workspace: `C:\ws`, Writable: []string{`C:\cache`}, MaxMemoryMB: 512}
	s, _ := newSetup(&p, Options{UseLowIntegrity: true}, nil)
	rb := goodReadBack(s)
	for b.Loop() {
		if v := verify(s, rb); len(v.refuse) > 0 {
			b.Fatal(v.refuse)
		}
	}
}
