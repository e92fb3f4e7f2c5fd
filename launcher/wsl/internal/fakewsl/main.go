// Command fakewsl stands in for wsl.exe in the tests of package wsl, so the
// launcher and the distro lifecycle run end to end on any OS.
//
// It appends its arguments, as one JSON line, to the file named by
// FAKEWSL_ARGV; keeps the registered distros in the JSON file named by
// FAKEWSL_STATE; and runs "-d D --exec PROG ARGS..." with the local PROG
// after mapping /mnt/<drive>/... arguments below FAKEWSL_ROOT/<drive>/.
// Like wsl.exe, its own messages are UTF-16LE unless WSL_UTF8=1, some go to
// stdout, and its own failures exit with -1 (255 where only eight bits
// survive). FAKEWSL_FAIL=1 makes every call fail as if the WSL service had
// crashed, FAKEWSL_CRASH_AFTER=1 makes it crash after the command ran,
// FAKEWSL_IGNORE_UTF8=1 plays a wsl.exe too old for WSL_UTF8, and
// FAKEWSL_SLEEP_MS delays every answer.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf16"
)

type distro struct {
	Dir     string `json:"dir"`
	Version string `json:"version"`
}

type state struct {
	Default string             `json:"default,omitempty"`
	Distros map[string]*distro `json:"distros"`
}

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	if err := record(args); err != nil {
		fmt.Fprintln(os.Stderr, "fakewsl:", err)
		return 2
	}
	if ms, err := strconv.Atoi(os.Getenv("FAKEWSL_SLEEP_MS")); err == nil {
		time.Sleep(time.Duration(ms) * time.Millisecond)
	}
	if os.Getenv("FAKEWSL_FAIL") == "1" {
		return fail(os.Stdout, "The Windows Subsystem for Linux instance has terminated.", "Wsl/Service/E_UNEXPECTED")
	}
	st, err := load()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakewsl:", err)
		return 2
	}
	if len(args) == 0 {
		return usage("")
	}
	switch args[0] {
	case "-l", "--list":
		return list(st, args[1:])
	case "--status":
		say(os.Stdout, "Default Distribution: "+st.Default+"\nDefault Version: 2")
		return 0
	case "--import":
		return importDistro(st, args[1:])
	case "--unregister":
		if len(args) != 2 {
			return usage(strings.Join(args, " "))
		}
		if _, ok := st.Distros[args[1]]; !ok {
			return notFound()
		}
		delete(st.Distros, args[1])
		if err := save(st); err != nil {
			fmt.Fprintln(os.Stderr, "fakewsl:", err)
			return 2
		}
		say(os.Stdout, "Unregistering.\nThe operation completed successfully.")
		return 0
	case "-d", "--distribution":
		if len(args) < 4 || args[2] != "--exec" {
			return usage(strings.Join(args, " "))
		}
		if _, ok := st.Distros[args[1]]; !ok {
			return notFound()
		}
		return execute(args[3:])
	default:
		return usage(args[0])
	}
}

// record appends args to $FAKEWSL_ARGV.
func record(args []string) error {
	path := os.Getenv("FAKEWSL_ARGV")
	if path == "" {
		return nil
	}
	line, err := json.Marshal(args)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func load() (*state, error) {
	st := &state{Distros: map[string]*distro{}}
	path := os.Getenv("FAKEWSL_STATE")
	if path == "" {
		return st, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, st); err != nil {
		return nil, err
	}
	if st.Distros == nil {
		st.Distros = map[string]*distro{}
	}
	return st, nil
}

func save(st *state) error {
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return os.WriteFile(os.Getenv("FAKEWSL_STATE"), data, 0o600)
}

// say writes msg the way wsl.exe writes its own text.
func say(f *os.File, msg string) {
	msg = strings.ReplaceAll(msg, "\n", "\r\n") + "\r\n"
	if os.Getenv("WSL_UTF8") == "1" && os.Getenv("FAKEWSL_IGNORE_UTF8") != "1" {
		f.WriteString(msg)
		return
	}
	u := utf16.Encode([]rune(msg))
	b := make([]byte, 0, 2*len(u))
	for _, c := range u {
		b = append(b, byte(c), byte(c>>8))
	}
	f.Write(b)
}

func fail(f *os.File, msg, code string) int {
	say(f, msg+"\nError code: "+code)
	return -1
}

func notFound() int {
	return fail(os.Stdout, "There is no distribution with the supplied name.", "Wsl/Service/WSL_E_DISTRO_NOT_FOUND")
}

func usage(arg string) int {
	return fail(os.Stdout, "Invalid command line argument: "+arg+"\nPlease use 'wsl.exe --help' to get a list of supported arguments.",
		"Wsl/E_INVALIDARG")
}

func list(st *state, args []string) int {
	names := make([]string, 0, len(st.Distros))
	for n := range st.Distros {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return fail(os.Stdout, "Windows Subsystem for Linux has no installed distributions.", "Wsl/WSL_E_DEFAULT_DISTRO_NOT_FOUND")
	}
	var b strings.Builder
	switch strings.Join(args, " ") {
	case "-q", "--quiet":
		for _, n := range names {
			b.WriteString(n + "\n")
		}
	case "-v", "--verbose":
		fmt.Fprintf(&b, "  %-20s %-15s %s\n", "NAME", "STATE", "VERSION")
		for _, n := range names {
			mark := " "
			if n == st.Default {
				mark = "*"
			}
			fmt.Fprintf(&b, "%s %-20s %-15s %s\n", mark, n, "Stopped", st.Distros[n].Version)
		}
	default:
		return usage(strings.Join(args, " "))
	}
	say(os.Stdout, strings.TrimSuffix(b.String(), "\n"))
	return 0
}

func importDistro(st *state, args []string) int {
	if len(args) != 5 || args[3] != "--version" {
		return usage(strings.Join(args, " "))
	}
	name, dir, tarball := args[0], args[1], args[2]
	if _, ok := st.Distros[name]; ok {
		return fail(os.Stdout, "A distribution with the supplied name already exists.", "Wsl/Service/RegisterDistro/ERROR_ALREADY_EXISTS")
	}
	if _, err := os.Stat(tarball); err != nil {
		return fail(os.Stdout, "The system cannot find the file specified.", "Wsl/Service/RegisterDistro/ERROR_FILE_NOT_FOUND")
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fail(os.Stdout, "The system cannot find the path specified.", "Wsl/Service/RegisterDistro/ERROR_PATH_NOT_FOUND")
	}
	if err := os.WriteFile(filepath.Join(dir, "ext4.vhdx"), []byte("fake"), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, "fakewsl:", err)
		return 2
	}
	st.Distros[name] = &distro{Dir: dir, Version: args[4]}
	if err := save(st); err != nil {
		fmt.Fprintln(os.Stderr, "fakewsl:", err)
		return 2
	}
	say(os.Stdout, "Import in progress, this may take a few minutes.\nThe operation completed successfully.")
	return 0
}

// execute runs argv locally, like wsl.exe --exec, with /mnt paths mapped
// below $FAKEWSL_ROOT, and exits with its status (128+signal if killed).
func execute(argv []string) int {
	root := os.Getenv("FAKEWSL_ROOT")
	mapped := make([]string, len(argv))
	for i, a := range argv {
		mapped[i] = mapMnt(root, a)
	}
	cmd := exec.Command(mapped[0], mapped[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// The tests kill the whole process group; the fake only relays.
	signal.Ignore(syscall.SIGPIPE)
	err := cmd.Run()
	if os.Getenv("FAKEWSL_CRASH_AFTER") == "1" {
		return fail(os.Stderr, "The Windows Subsystem for Linux instance has terminated.", "Wsl/Service/E_UNEXPECTED")
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	default:
		say(os.Stderr, "execvpe("+argv[0]+") failed: No such file or directory")
		return 1
	}
}

// mapMnt maps /mnt/<drive> and /mnt/<drive>/... below root/<drive>.
func mapMnt(root, a string) string {
	if root == "" || !strings.HasPrefix(a, "/mnt/") || len(a) < 6 {
		return a
	}
	d := a[5]
	if d < 'a' || d > 'z' || (len(a) > 6 && a[6] != '/') {
		return a
	}
	return filepath.Join(root, string(d)) + a[6:]
}
