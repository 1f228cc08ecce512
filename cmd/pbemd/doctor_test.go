package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pbemd doctor prints one line per check and exits 1 when one failed.
func TestDoctorCommand(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	openWithAlice(t, data).Close()
	code, stdout, stderr := pbemd(t, "", "doctor", "-data", data)
	if code != 0 || !strings.Contains(stdout, "ok   store: "+data) || strings.Contains(stdout, "FAIL") {
		t.Errorf("a sound data directory: exit %d, stdout\n%s\nstderr %s", code, stdout, stderr)
	}
	if err := os.Chmod(data, 0o777); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ = pbemd(t, "", "doctor", "-data", data)
	if code != 1 || !strings.Contains(stdout, "\nFAIL data: "+data+" has mode 0777") {
		t.Errorf("a data directory anyone may write: exit %d, stdout\n%s", code, stdout)
	}
	cfg := filepath.Join(t.TempDir(), "pbemd.yaml")
	os.WriteFile(cfg, []byte("address: pbem@example.org\nimap: {host: imap.example.org}\n"), 0o600)
	code, stdout, _ = pbemd(t, "", "doctor", "-config", cfg)
	if code != 1 || !strings.HasPrefix(stdout, "FAIL config: "+cfg+": ") {
		t.Errorf("a configuration that does not check: exit %d, stdout\n%s", code, stdout)
	}
}
