package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestBrokerUsage checks the flags of the commands that use a broker:
// each mistake is one usage error, found before any connection.
func TestBrokerUsage(t *testing.T) {
	builtins := []string{"--engine1", "builtin:greedy", "--engine2", "builtin:random"}
	url := "nats://127.0.0.1:1"
	for _, c := range []struct {
		cmd  string
		args []string
		want string
	}{
		{"match", append(builtins, "--match-id", "m1"), "--match-id needs --broker"},
		{"match", append(builtins, "--broker-creds", "x.creds"), "--broker-creds needs --broker"},
		{"match", append(builtins, "--broker", url, "--log", "log.txt"), "each worker writes its engines' log"},
		{"match", []string{"--engine1", "builtin:greedy", "--engine2", "builtin:random", "--game", "hoyito3", "--traditional-match", "--broker", url}, "cannot be spread over workers"},
		{"match", append(builtins, "--broker", url, "--match-id", "a.b"), "--match-id: match id \"a.b\""},
		{"match", append(builtins, "--broker", url, "--ack-wait", "0"), "--ack-wait 0"},
		{"match", append(builtins, "--broker", url, "--broker-cert", "c.pem"), "needs both its certificate and its key"},
		{"worker", nil, "--broker is required"},
		{"worker", []string{"--broker", url, "--concurrency", "0"}, "--concurrency 0"},
		{"worker", []string{"--broker", url, "--name", "a b"}, "--name: name \"a b\""},
		{"broker", nil, "--dir is required"},
		{"broker", []string{"--dir", t.TempDir(), "--listen", "0.0.0.0:0"}, "not a loopback address"},
		{"datagen", []string{"--out", "x.bin", "--run-id", "r"}, "--run-id needs --broker"},
		{"datagen", []string{"--out", "x.bin", "--broker", url, "--batch", "0"}, "--batch 0"},
	} {
		var out, errOut bytes.Buffer
		c2 := &cli{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
		code := c2.run(append([]string{c.cmd}, c.args...))
		if code != exitUsage || !strings.Contains(errOut.String(), c.want) || strings.Count(strings.TrimSpace(errOut.String()), "\n") > 0 {
			t.Errorf("%s %q: exit %d, stderr %q; want exit 2 and %q", c.cmd, c.args, code, errOut.String(), c.want)
		}
	}
}
