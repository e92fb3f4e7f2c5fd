// Package supervise waits for a command the way every launcher must:
// forwarding the caller's signals, and ending it on timeout or
// cancellation with SIGTERM (or its platform's equivalent), a grace
// period, then a kill.
package supervise

import (
	"context"
	"os"
	"os/signal"
	"time"
)

// Grace is how long a command gets between the request to stop (on
// timeout or cancellation) and the kill.
const Grace = 2 * time.Second

// A Tree is the command and everything it started, as one launcher sees it.
type Tree interface {
	Signal(sig os.Signal) // pass on a signal the caller sent aar-exec
	Terminate()           // ask the whole tree to stop
	Kill()                // stop it now
}

// A Relay passes the caller's signals to a launcher: aar-exec does not die
// from them itself, the command's reaction decides the outcome.
type Relay struct {
	C     chan os.Signal // the signals to pass on, for Wait
	ready chan struct{}
}

// StartRelay starts relaying sigs on another goroutine: the first
// signal.Notify of a process starts the runtime's signal thread and waits
// for it once per signal (0.3-0.7 ms measured), which the launcher spends
// setting up the sandbox meanwhile. Call Ready before the command can run.
//
// SIGINT and SIGHUP are not relayed when aar-exec was started with them
// ignored (nohup, a background job): a shell keeps that "ignore" for the
// commands it runs, and so does aar-exec. (The runtime remembers an
// inherited "ignore" for these two only.) Deciding it here, not by timing,
// matters: Notify replaces an ignored signal's disposition with the
// runtime's handler, which a child resets to the default, so a fork racing
// the Notify would hand the command either one.
func StartRelay(sigs ...os.Signal) *Relay {
	r := &Relay{C: make(chan os.Signal, 4), ready: make(chan struct{})}
	go func() {
		defer close(r.ready)
		var relay []os.Signal
		for _, s := range sigs {
			if !signal.Ignored(s) {
				relay = append(relay, s)
			}
		}
		if len(relay) > 0 {
			signal.Notify(r.C, relay...)
		}
	}()
	return r
}

// Ready returns once the signals are relayed. One that arrives before
// then ends aar-exec with the runtime's default action.
func (r *Relay) Ready() { <-r.ready }

// Stop ends the relay. signal.Stop waits for deliveries in flight
// (0.1 ms), which nothing after a launch needs, so it finishes on its own.
func (r *Relay) Stop() {
	go func() {
		r.Ready()
		signal.Stop(r.C)
	}()
}

// Wait returns the first value sent on done, and whether the timeout
// fired first. A zero timeout means none. Signals from sigs are passed to
// the tree; aar-exec does not die from them itself, so the command's own
// reaction decides the outcome.
func Wait[T any](ctx context.Context, done <-chan T, sigs <-chan os.Signal, t Tree, timeout, grace time.Duration) (T, bool) {
	var timer, graceTimer <-chan time.Time
	if timeout > 0 {
		tm := time.NewTimer(timeout)
		defer tm.Stop()
		timer = tm.C
	}
	timedOut := false
	cancel := ctx.Done()
	for {
		select {
		case sig := <-sigs:
			t.Signal(sig)
		case <-timer:
			timedOut, timer = true, nil
			t.Terminate()
			graceTimer = time.After(grace)
		case <-cancel:
			cancel = nil
			t.Terminate()
			graceTimer = time.After(grace)
		case <-graceTimer:
			graceTimer = nil
			t.Kill()
		case v := <-done:
			return v, timedOut
		}
	}
}
