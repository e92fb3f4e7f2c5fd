package supervise

import (
	"context"
	"os"
	"slices"
	"syscall"
	"testing"
	"time"
)

// fakeTree records what Wait asked of it and ends when killed or
// terminated, as a command that honours SIGTERM (or not) would.
type fakeTree struct {
	calls       []string
	done        chan int
	ignoresTerm bool
}

func (f *fakeTree) Signal(sig os.Signal) { f.calls = append(f.calls, "signal "+sig.String()) }
func (f *fakeTree) Terminate() {
	f.calls = append(f.calls, "terminate")
	if !f.ignoresTerm {
		f.done <- 143
	}
}
func (f *fakeTree) Kill() { f.calls = append(f.calls, "kill"); f.done <- 137 }

func TestWait(t *testing.T) {
	tests := []struct {
		name        string
		ignoresTerm bool
		timeout     time.Duration
		finish      bool // the command ends by itself at once
		want        []string
		wantTimeout bool
	}{
		{"ends by itself", false, time.Hour, true, nil, false},
		{"timeout, honours TERM", false, 10 * time.Millisecond, false, []string{"terminate"}, true},
		{"timeout, ignores TERM", true, 10 * time.Millisecond, false, []string{"terminate", "kill"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeTree{done: make(chan int, 2), ignoresTerm: tt.ignoresTerm}
			if tt.finish {
				f.done <- 0
			}
			_, timedOut := Wait(context.Background(), f.done, nil, f, tt.timeout, 10*time.Millisecond)
			if timedOut != tt.wantTimeout || !slices.Equal(f.calls, tt.want) {
				t.Errorf("calls %q timedOut %v, want %q %v", f.calls, timedOut, tt.want, tt.wantTimeout)
			}
		})
	}
}

func TestWaitForwardsSignalsAndHonoursCancel(t *testing.T) {
	f := &fakeTree{done: make(chan int, 2)}
	sigs := make(chan os.Signal, 1)
	sigs <- syscall.SIGINT
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	_, timedOut := Wait(ctx, f.done, sigs, f, 0, time.Second)
	if timedOut || !slices.Equal(f.calls, []string{"signal interrupt", "terminate"}) {
		t.Errorf("calls %q timedOut %v", f.calls, timedOut)
	}
}
