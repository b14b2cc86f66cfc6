package table_test

import (
	"os"
	"strings"
	"testing"
)

// The README's declaration block is the counted part of Example_task, byte
// for byte (one tab level less): the code a newcomer reads compiles and
// runs in every go test.
func TestReadmeDeclarationIsExampleTask(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("example_task_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "## One declaration")
	if !ok {
		t.Fatal(`README.md has no "## One declaration" section`)
	}
	_, block, _ = strings.Cut(block, "```go\n")
	block, _, ok = strings.Cut(block, "```")
	if !ok {
		t.Fatal("README.md's declaration has no Go block")
	}
	_, region, _ := strings.Cut(string(example), "// --- counted from here ---\n")
	region, _, ok = strings.Cut(region, "// --- to here ---")
	if !ok {
		t.Fatal("example_task_test.go has no counted region")
	}
	var want []string
	for _, line := range strings.Split(strings.TrimRight(region, "\t\n"), "\n") {
		want = append(want, strings.TrimPrefix(line, "\t\t"))
	}
	if got := strings.TrimRight(block, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("README.md's declaration block differs from Example_task's counted region:\nREADME:\n%s\nExample_task:\n%s", got, strings.Join(want, "\n"))
	}
}
