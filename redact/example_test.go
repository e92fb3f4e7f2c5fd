package redact_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/aar-agent/aar-exec/redact"
)

func ExampleString() {
	fmt.Println(redact.String("GITHUB_TOKEN=ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5 git push"))
	fmt.Println(redact.String(`curl -u ci:hunter2 -H "Authorization: Bearer abc123def456" https://x`))
	fmt.Println(redact.String("psql postgres://app:S3cret@db/app # $PGPASSWORD stays"))
	// Output:
	// GITHUB_TOKEN=ghp_[REDACTED] git push
	// curl -u ci:[REDACTED] -H "Authorization: Bearer [REDACTED]" https://x
	// psql postgres://app:[REDACTED]@db/app # $PGPASSWORD stays
}

func ExampleArgv() {
	fmt.Println(redact.Argv([]string{"sshpass", "-p", "hunter2", "ssh", "deploy@host"}))
	// Output:
	// [sshpass -p [REDACTED] ssh deploy@host]
}

func ExampleFilter() {
	in := "ok\nexport DB_PASSWORD=hunter2\n"
	if err := redact.Filter(os.Stdout, strings.NewReader(in)); err != nil {
		fmt.Println(err)
	}
	// Output:
	// ok
	// export DB_PASSWORD=[REDACTED]
}
