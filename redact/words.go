package redact

import "strings"

// A mark asks to mask bytes [a,b) of word w.
type mark struct{ w, a, b int }

// splitWords splits s into shell-like words: runs of non-blank bytes, where
// a quoted part may hold blanks. It appends each word to words and its
// offset in s to at.
func splitWords(s string, words []string, at []int) ([]string, []int) {
	for i := 0; i < len(s); {
		if isSpace(s[i]) {
			i++
			continue
		}
		start := i
	word:
		for i < len(s) {
			c := s[i]
			if !isWordSpecial(c) {
				i++
				continue
			}
			switch c {
			case '\\':
				i += 2
				continue
			case '"', '\'':
				i++
				for i < len(s) && s[i] != c {
					if s[i] == '\\' && c == '"' {
						i++
					}
					i++
				}
				i++
			default: // a blank ends the word
				break word
			}
		}
		if i > len(s) {
			i = len(s)
		}
		words = append(words, s[start:i])
		at = append(at, start)
	}
	return words, at
}

// unquote strips one layer of matching quotes, returning the inside and
// its offset in w.
func unquote(w string) (string, int) {
	if len(w) >= 2 && (w[0] == '"' || w[0] == '\'') && w[len(w)-1] == w[0] {
		return w[1 : len(w)-1], 1
	}
	return w, 0
}

func isSeparator(w string) bool {
	switch w {
	case "|", "||", "&&", ";", "&", "|&", "(", ")", "{", "}", "then", "do", "else", "!":
		return true
	}
	return false
}

// toolFamily maps a program name to the family whose password flags it
// shares, or "".
func toolFamily(w string) string {
	for len(w) > 0 && (w[0] == '$' || w[0] == '(' || w[0] == '`') {
		w = w[1:] // $(openssl passwd ...)
	}
	if len(w) < 2 || len(w) > 40 || w[0] == '-' || w[0] >= 'A' && w[0] <= 'Z' {
		return ""
	}
	for i := len(w) - 1; i >= 0; i-- {
		if w[i] == '/' || w[i] == '\\' {
			w = w[i+1:]
			break
		}
	}
	w = strings.TrimSuffix(w, ".exe")
	switch w {
	case "mysql", "mysqldump", "mysqladmin", "mariadb", "mariadb-dump", "mysqlimport", "mysqlcheck",
		"mysqlsh", "mysqlpump", "mysqlshow", "mysqlbinlog", "mariadb-admin":
		return "mysql"
	case "sshpass":
		return "sshpass"
	case "docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "oras", "crane", "regctl", "finch", "az", "cf":
		return "docker"
	case "redis-cli", "valkey-cli", "keydb-cli":
		return "redis"
	case "mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport", "mongostat",
		"mongotop", "mongofiles":
		return "mongo"
	case "ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapwhoami", "ldappasswd", "ldapcompare",
		"ldapmodrdn", "ldapexop":
		return "ldap"
	case "zip", "unzip", "zipcloak", "sqlcmd", "bcp", "osql", "ipmitool":
		return "capP"
	case "ssh-keygen":
		return "ssh-keygen"
	case "rabbitmqctl":
		return "rabbitmqctl"
	case "7z", "7za", "7zr", "7zz", "rar", "unrar":
		return "7z"
	case "curl", "wget", "http", "https", "xh", "xhs", "httpie", "ab", "hey", "lftp", "aria2c", "wget2":
		return "curl"
	case "gh":
		return "gh"
	case "htpasswd":
		return "htpasswd"
	case "openssl":
		return "openssl"
	case "echo", "printf":
		return "echo"
	case "mc", "mcli":
		return "mc"
	}
	return ""
}

// valueKind says how a flag's value holds its secret.
type valueKind int

const (
	noValue    valueKind = iota
	wholeValue           // the whole value
	weakValue            // the whole value, when it looks random
	userPass             // user:password, mask after the first ':'
	cookieList           // name=value; name2=value2, mask values
)

// flagKind classifies flag (with its dashes) used with a tool family.
func flagKind(tool string, login, secretCmd bool, flag string) valueKind {
	switch tool {
	case "curl":
		switch flag {
		case "-u", "--user", "-U", "--proxy-user", "-a", "--auth", "--http-user", "--ftp-user":
			return userPass
		case "-b", "--cookie":
			return cookieList
		}
	case "sshpass", "mongo":
		if flag == "-p" {
			return wholeValue
		}
	case "docker":
		if login && flag == "-p" {
			return wholeValue
		}
	case "redis":
		if flag == "-a" {
			return wholeValue
		}
	case "ldap":
		if flag == "-w" {
			return wholeValue
		}
	case "capP":
		if flag == "-P" {
			return wholeValue
		}
	case "openssl":
		if flag == "-k" || flag == "-K" {
			return wholeValue
		}
	case "ssh-keygen":
		if flag == "-N" || flag == "-P" {
			return wholeValue
		}
	case "gh":
		if secretCmd && (flag == "-b" || flag == "--body") {
			return wholeValue
		}
	}
	name := strings.TrimLeft(flag, "-")
	if len(name) < 2 || strings.HasPrefix(flag, "-") && !strings.HasPrefix(flag, "--") && len(name) < 2 {
		return noValue
	}
	switch nameStrength(name) {
	case strong:
		return wholeValue
	case weak:
		return weakValue
	}
	return noValue
}

// attachedPrefix reports how many bytes of w are a short flag whose value
// is glued to it (mysql -pSECRET, sshpass -pSECRET, 7z -pSECRET).
func attachedPrefix(tool, w string) int {
	switch tool {
	case "mysql", "sshpass", "7z", "mongo":
		if len(w) > 2 && strings.HasPrefix(w, "-p") {
			return 2
		}
	case "redis":
		if len(w) > 2 && strings.HasPrefix(w, "-a") {
			return 2
		}
	case "capP":
		if len(w) > 2 && strings.HasPrefix(w, "-P") {
			return 2
		}
	}
	return 0
}

// flagPass finds secrets that span words: flag/value pairs, `set NAME
// VALUE`, `echo SECRET | docker login --password-stdin` and htpasswd's
// positional password.
//
// stdin says whether the text holds a reader of secrets on standard input,
// which makes echo's arguments secret; it is only asked when echo pipes
// into something.
func flagPass(words []string, stdin *stdinProbe, marks []mark) []mark {
	tool := ""
	login, secretCmd := false, false
	segStart := 0
	htpasswdArgs, mcArgs, mcAlias := 0, 0, false
	htpasswdB, htpasswdN := false, false
	for i := 0; i < len(words); i++ {
		w, off := unquote(words[i])
		// "!" negates a pipeline only where a command starts; elsewhere it
		// is an argument (curl ... ! -a x). Read as a separator there, it
		// cut the command in two, and masking it (a header's value)
		// joined them again: a second pass masked more than the first.
		if isSeparator(w) && (w != "!" || i == segStart) {
			if w == "|" && tool == "echo" && stdin.yes() {
				marks = markEcho(words, segStart, i, marks)
			}
			tool, login, secretCmd = "", false, false
			segStart = i + 1
			continue
		}
		if t := toolFamily(w); t != "" && !strings.HasPrefix(w, "-") {
			tool = t
			htpasswdArgs, mcArgs = 0, 0
			continue
		}
		switch w {
		case "login":
			login = true
		case "secret":
			secretCmd = true
		case "set", "config:set", "put":
			if i+2 < len(words) {
				name, _ := unquote(words[i+1])
				if k := strings.LastIndexAny(name, ":/"); k >= 0 {
					name = name[k+1:]
				}
				if !strings.Contains(name, "=") && nameStrength(name) == strong {
					if v, voff := unquote(words[i+2]); valueOK(v) && !isRedirect(v) && !isSeparator(v) {
						marks = append(marks, mark{i + 2, voff, voff + len(v)})
						i += 2
						continue
					}
				}
			}
		}
		// rabbitmqctl add_user NAME PASS, change_password NAME PASS;
		// openssl passwd [-1|-6] PASS.
		if (tool == "rabbitmqctl" && (w == "add_user" || w == "change_password") ||
			tool == "openssl" && w == "passwd") && !strings.HasPrefix(w, "-") {
			k := i + 1
			if tool == "rabbitmqctl" {
				k++ // skip the user name
			}
			for k < len(words) && strings.HasPrefix(words[k], "-") && tool == "openssl" {
				k++
			}
			if k < len(words) {
				v, voff := unquote(strings.TrimRight(words[k], ")`;"))
				if valueOK(v) && !isSeparator(v) && !isRedirect(v) && !strings.HasPrefix(v, "-") {
					marks = append(marks, mark{k, voff, voff + len(v)})
				}
			}
			continue
		}
		if tool == "htpasswd" {
			if strings.HasPrefix(w, "-") {
				htpasswdB = htpasswdB || strings.Contains(w, "b")
				htpasswdN = htpasswdN || strings.Contains(w, "n")
			} else {
				htpasswdArgs++
				if htpasswdB && (htpasswdArgs == 3 || htpasswdN && htpasswdArgs == 2) && valueOK(w) {
					marks = append(marks, mark{i, off, off + len(w)})
				}
			}
			continue
		}
		if tool == "mc" && !strings.HasPrefix(w, "-") {
			// mc alias set NAME URL ACCESS_KEY SECRET_KEY
			mcArgs++
			if mcArgs == 1 {
				mcAlias = w == "alias" || w == "config"
			}
			if mcAlias && mcArgs == 6 && valueOK(w) {
				marks = append(marks, mark{i, off, off + len(w)})
			}
			continue
		}
		if n := attachedPrefix(tool, w); n > 0 {
			v, voff := unquote(w[n:])
			if valueOK(v) {
				marks = append(marks, mark{i, off + n + voff, off + n + voff + len(v)})
			}
			continue
		}
		if !isFlag(w) {
			// A secret-named identifier and its value as two words:
			// rclone config create r s3 secret_access_key VALUE.
			// A bare word such as "token" or "authtoken" needs a
			// random-looking value: ngrok config add-authtoken VALUE,
			// snyk auth VALUE, but not vault token lookup.
			// The value is tested first: it is cheaper, and rarely passes;
			// but most words hold no part of a secret name at all.
			if i+1 < len(words) && isIdentifier(w) {
				v, voff := unquote(words[i+1])
				ok := false
				if len(v) < 8 || !maySecretName(w) {
					// too short for either test below, or w is no secret name
				} else if strings.IndexByte(w, '_') > 0 {
					ok = looksSecretish(v)
				} else {
					ok = looksRandom(v)
				}
				ok = ok && valueOK(v) && !isFlag(v) && !isSeparator(v) && !isRedirect(v) &&
					w != "secret" && w != "secrets" && !looksRandom(w) && nameStrength(w) == strong
				if ok {
					marks = append(marks, mark{i + 1, voff, voff + len(v)})
					i++
				}
			}
			continue
		}
		if i+1 >= len(words) {
			continue
		}
		v, voff := unquote(words[i+1])
		if isSeparator(v) || strings.HasPrefix(v, "-") || isRedirect(v) {
			continue
		}
		kind := flagKind(tool, login, secretCmd, w)
		if kind == noValue || !valueOK(v) {
			continue
		}
		if isProseWord(v) {
			continue // "use the --token flag to ...": documentation, not a value
		}
		switch kind {
		case wholeValue:
			if strings.HasPrefix(w, "--secret") && (strings.Contains(v, "id=") || strings.Contains(v, "src=")) {
				continue
			}
			marks = append(marks, mark{i + 1, voff, voff + len(v)})
		case weakValue:
			if looksRandom(v) {
				marks = append(marks, mark{i + 1, voff, voff + len(v)})
			}
		case userPass:
			if k := strings.IndexAny(v, ":"); k >= 0 && valueOK(v[k+1:]) {
				marks = append(marks, mark{i + 1, voff + k + 1, voff + len(v)})
			}
		case cookieList:
			marks = markCookies(i+1, v, voff, marks)
		}
		i++
	}
	return marks
}

// isFlag reports whether w is spelled like a command-line flag: -x,
// --name, -name.
func isFlag(w string) bool {
	name := strings.TrimPrefix(strings.TrimPrefix(w, "-"), "-")
	if len(name) == len(w) || name == "" || len(w)-len(name) > 2 {
		return false
	}
	if c := name[0]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return false
	}
	for i := 1; i < len(name); i++ {
		if c := name[i]; !isNameByte(c) {
			return false
		}
	}
	return true
}

// isProseWord reports whether v is an English word that follows a flag
// in documentation rather than a value.
func isProseWord(v string) bool {
	switch v {
	case "flag", "option", "argument", "arg", "value", "parameter", "param", "is", "and", "or", "to", "for",
		"with", "the", "a", "an", "in", "of", "as", "instead", "when", "if", "must", "should", "can":
		return true
	}
	return false
}

// isIdentifier reports whether w is a short snake_case, kebab-case or
// camelCase name.
func isIdentifier(w string) bool {
	if len(w) > 64 || w == "" || w[0] == '-' {
		return false
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func isRedirect(v string) bool {
	return strings.HasPrefix(v, "<") || strings.HasPrefix(v, ">") || strings.HasPrefix(v, "2>") ||
		strings.HasPrefix(v, "&>") || strings.HasPrefix(v, "1>")
}

// valueOK reports whether v is a real value to mask rather than a
// reference, a placeholder or a file name.
func valueOK(v string) bool {
	return v != "" && !isPlaceholder(v) && !isPathLike(v)
}

// markEcho masks what echo or printf prints into a pipe that feeds a
// --password-stdin style reader.
func markEcho(words []string, from, to int, marks []mark) []mark {
	started := false
	for i := from; i < to; i++ {
		w, off := unquote(words[i])
		if !started {
			if toolFamily(w) == "echo" {
				started = true
			}
			continue
		}
		if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "%") || !valueOK(w) {
			continue
		}
		marks = append(marks, mark{i, off, off + len(w)})
	}
	return marks
}

// markCookies masks the values of a name=value; name=value cookie list;
// a value without '=' is a cookie file and stays.
func markCookies(wi int, v string, voff int, marks []mark) []mark {
	pos := 0
	for _, part := range strings.Split(v, ";") {
		if eq := strings.IndexByte(part, '='); eq >= 0 {
			a := pos + eq + 1
			b := pos + len(part)
			if val := v[a:b]; valueOK(strings.TrimSpace(val)) {
				marks = append(marks, mark{wi, voff + a, voff + b})
			}
		}
		pos += len(part) + 1
	}
	return marks
}

// words runs the flag pass over s, and over the inside of every quoted
// word that holds a command (sh -c '...', ssh host '...').
func (c *scrubber) words() {
	c.wordsIn(0, len(c.s), 0)
}

// readsSecretStdin reports whether s pipes a secret into a program that
// reads one on standard input: docker login --password-stdin, gh auth
// login --with-token, sudo -S, passwd --stdin, chpasswd, wrangler secret
// put, gh secret set.
func readsSecretStdin(s string) bool {
	return strings.Contains(s, "-stdin") || strings.Contains(s, "--with-token") ||
		strings.Contains(s, "chpasswd") || strings.Contains(s, " -S") ||
		strings.Contains(s, "secret put") || strings.Contains(s, "secret set") || strings.Contains(s, "secrets set") ||
		strings.Contains(s, "/dev/stdin")
}

// A stdinProbe answers [readsSecretStdin] for one text, at most once.
type stdinProbe struct {
	text  string
	state int8 // 0 unknown, 1 no, 2 yes
}

func (p *stdinProbe) yes() bool {
	if p.state == 0 {
		p.state = 1
		if readsSecretStdin(p.text) {
			p.state = 2
		}
	}
	return p.state == 2
}

func (c *scrubber) wordsIn(from, to, depth int) {
	// Few lines have more words than this; every call clears the buffers.
	var wbuf [32]string
	var abuf [32]int
	ws, at := splitWords(c.s[from:to], wbuf[:0], abuf[:0])
	if len(ws) == 0 {
		return
	}
	var mbuf [8]mark
	if c.stdin.text == "" {
		c.stdin.text = c.s
	}
	for _, m := range flagPass(ws, &c.stdin, mbuf[:0]) {
		c.maskValue(from+at[m.w]+m.a, from+at[m.w]+m.b)
	}
	if depth >= 3 {
		return
	}
	for k, w := range ws {
		// Only a quoted command can hold flags, pipes or set NAME VALUE.
		if inner, off := unquote(w); off == 1 && strings.ContainsAny(inner, " \t\n") &&
			(strings.Contains(inner, "-") || strings.IndexByte(inner, '|') >= 0 || strings.Contains(inner, "_") ||
				strings.Contains(inner, "set") || strings.Contains(inner, "put")) {
			c.wordsIn(from+at[k]+1, from+at[k]+len(w)-1, depth+1)
		}
	}
}
