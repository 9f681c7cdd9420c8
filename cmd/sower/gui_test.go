package main

import (
	"bytes"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestGUIFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--engine", "noequals"}, "want NAME=COMMAND"},
		{[]string{"--engine", "=sower"}, "want NAME=COMMAND"},
		{[]string{"--engine", "x="}, "no command"},
		{[]string{"--engine", "x='open"}, "unterminated"},
		{[]string{"--engine", "x=/no/such/engine"}, "no such file"},
		{[]string{"--engine", "human=sh"}, `"human" cannot name an engine`},
		{[]string{"extra"}, "unexpected argument"},
	}
	for _, tc := range tests {
		var out, errOut bytes.Buffer
		c := &cli{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
		err := c.gui(tc.args)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("gui %q: %v, want a usage error saying %q", tc.args, err, tc.want)
		}
		if out.Len() > 0 {
			t.Errorf("gui %q printed %q", tc.args, out.String())
		}
	}
}

// TestOpenPageFails checks that gui --open says on stderr, with the
// page's address, when the browser cannot be opened: an opener that is not
// installed, and one that runs and fails (as xdg-open does on a machine
// without a browser). No browser is started: the openers are stand-ins.
func TestOpenPageFails(t *testing.T) {
	const url = "http://127.0.0.1:8080/"
	for _, c := range []struct {
		name string
		cmd  func(string) *exec.Cmd
		want string
	}{
		{"missing", func(u string) *exec.Cmd { return exec.Command(filepath.Join(t.TempDir(), "no-such-opener"), u) },
			"sower gui: cannot open a browser (no-such-opener: "},
		{"failing", func(u string) *exec.Cmd { return exec.Command("sh", "-c", "exit 3", "xdg-open", u) },
			"sower gui: cannot open a browser (sh: exit status 3); open " + url + "\n"},
		{"working", func(u string) *exec.Cmd { return exec.Command("true", u) }, ""},
	} {
		var errb bytes.Buffer
		c2 := &cli{stdout: io.Discard, stderr: &errb, browser: c.cmd}
		<-c2.openPage(url)
		got := errb.String()
		if (c.want == "") != (got == "") || !strings.HasPrefix(got, c.want) || (c.want != "" && !strings.HasSuffix(got, "; open "+url+"\n")) {
			t.Errorf("%s opener: stderr %q, want %q", c.name, got, c.want)
		}
	}
}
