// Package windows runs one [plan.Plan] on Windows inside a Job Object, with a
// Low-integrity primary token, after stamping the workspace Low-writable.
//
// [Run] creates the child suspended, assigns it to the job, reads back every
// protection (the job limits, the token's and the child's integrity level,
// the label of each writable path) and resumes the child only when all of
// them are in force, or when the plan asks for best effort, in which case
// what is missing is recorded in [plan.Enforcement.Missing]. It then waits
// for the whole process tree through the job's completion port. The
// command gets a private Low-writable TEMP and TMP, removed afterwards.
//
// Every decision (limit structures, flag sets, label SDDL and its check,
// command-line quoting, environment block, program lookup, exit codes and
// the fail-closed verification) is a pure function in the files without a
// build tag, so it is tested on every OS. Only the files ending in
// _windows.go make system calls; on other systems [Run] returns an error
// wrapping [plan.ErrSetup].
//
// # Limitations
//
// A Low integrity level only stops writes up ("no write up"): the command
// can still read everything the user can read, so [plan.Plan.DenyRead]
// cannot be enforced and makes Run refuse unless best effort is asked for.
// It can also write to every object that is labelled Low, such as
// %USERPROFILE%\AppData\LocalLow, and to storage without labels (FAT,
// exFAT, some network shares). The network is not restricted. Labels set on
// the workspace stay after the run, which lets other Low-integrity processes
// of the same user write there too.
package windows
