package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/sower-engine/sower/search/dfpn/campaign"
)

// TestCampaignKilled runs a proof campaign of katro-4x6 after a1 (North
// wins; some seconds of search) with small steps and a save after each,
// kills it with SIGKILL once it has saved, runs the same command again,
// and checks that it goes on to a certificate that verifies.
func TestCampaignKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a proof of some seconds, twice")
	}
	bin := fixtures.Sower(t, false)
	dir := t.TempDir()
	proof := filepath.Join(dir, "a1.proof")
	args := []string{"solve", "--game", "katro-4x6", "--moves", "a1", "--first", "north", "--hash", "64", "--threads", "1", "--step", "300000", "--save-every", "1", "--proof", proof}
	state := proof + ".work/state.json"

	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if data, err := os.ReadFile(state); err == nil && bytes.Contains(data, []byte(`"split": true`)) {
			time.Sleep(500 * time.Millisecond)
			killed = cmd.Process.Kill() == nil // SIGKILL: no chance to save
			break
		}
	}
	cmd.Wait()
	if !killed {
		t.Fatalf("the campaign saved no state in time (or ended first)")
	}
	if _, err := os.Stat(proof); err == nil {
		t.Fatalf("a certificate before the campaign ended")
	}

	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "solved: a win for the side to move (North wins in at most") {
		t.Fatalf("the second run: %v\n%s", err, out)
	}
	out, err = exec.Command(bin, "verify", "--game", "katro-4x6", "--moves", "a1", "--proof", proof).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "proof holds: North wins katro-4x6") {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	if _, err := os.Stat(proof + ".work"); !os.IsNotExist(err) {
		t.Errorf("the work directory is left: %v", err)
	}
}

// TestCampaignMemoryLimit: a campaign's memory limit is its table and
// campaignHeadroom MiB, said in its first line, and none of its own when
// GOMEMLIMIT sets one.
func TestCampaignMemoryLimit(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	if got, say := campaignMemoryLimit(11 << 10); got != (11<<10+campaignHeadroom)<<20 || say != "memory limit 11.88 GiB" {
		t.Errorf("11 GiB table: limit %d, %q", got, say)
	}
	proof := filepath.Join(t.TempDir(), "k44.proof")
	stdout, stderr, st := runCLI("solve", "--game", "katro-4x4", "--hash", "16", "--proof", proof)
	if st != exitOK || !strings.Contains(stdout, " threads, memory limit 0.89 GiB, work in ") {
		t.Errorf("solve: status %d\nstdout %s\nstderr %s", st, stdout, stderr)
	}
	t.Setenv("GOMEMLIMIT", "20GiB")
	if got, say := campaignMemoryLimit(11 << 10); got != 0 || say != "memory limit from GOMEMLIMIT" {
		t.Errorf("with GOMEMLIMIT: limit %d, %q", got, say)
	}
}

// TestCampaignConfig: the campaign flags reach the campaign's
// configuration; --cut-plies 0 never cuts.
func TestCampaignConfig(t *testing.T) {
	for _, c := range []struct {
		args     []string
		step     uint64
		every    time.Duration
		cutPlies int
	}{
		{nil, campaign.DefaultStep, campaign.DefaultSaveEvery, campaign.DefaultCutPlies},
		{[]string{"--step", "5000", "--save-every", "2500", "--cut-plies", "24"}, 5000, 2500 * time.Millisecond, 24},
		{[]string{"--cut-plies", "0"}, campaign.DefaultStep, campaign.DefaultSaveEvery, -1},
		{[]string{"--cut-plies", "-3"}, campaign.DefaultStep, campaign.DefaultSaveEvery, -1},
	} {
		var o solveFlags
		fs := pflag.NewFlagSet("solve", pflag.ContinueOnError)
		o.add(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		cfg := o.campaignConfig()
		if cfg.Step != c.step || cfg.SaveEvery != c.every || cfg.CutPlies != c.cutPlies {
			t.Errorf("%q: step %d, save every %v, cut plies %d; want %d, %v, %d", c.args, cfg.Step, cfg.SaveEvery, cfg.CutPlies, c.step, c.every, c.cutPlies)
		}
	}
}
