package main

import (
	"bytes"
	"errors"
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
