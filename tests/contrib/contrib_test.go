// Package contrib tests the files of contrib/: what they install is what
// the unit names.
package contrib

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Every file the unit's Documentation= names is one install-docs.sh
// installs, and the README's links into docs/ resolve beside it.
func TestInstallDocsCoversTheUnit(t *testing.T) {
	stage := t.TempDir()
	cmd := exec.Command("sh", "../../contrib/install-docs.sh")
	cmd.Env = append(os.Environ(), "DESTDIR="+stage)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("install-docs.sh: %v\n%s", err, out)
	}
	f, err := os.Open("../../contrib/pbemd.service")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		uris, ok := strings.CutPrefix(sc.Text(), "Documentation=")
		if !ok {
			continue
		}
		for uri := range strings.FieldsSeq(uris) {
			path, ok := strings.CutPrefix(uri, "file://")
			if !ok {
				continue
			}
			n++
			if _, err := os.Stat(filepath.Join(stage, path)); err != nil {
				t.Errorf("the unit names %s, which install-docs.sh does not install: %v", uri, err)
			}
		}
	}
	if n == 0 {
		t.Fatal("the unit names no file:// documentation")
	}
	if _, err := os.Stat(filepath.Join(stage, "usr/local/share/doc/pbemd/docs/architecture.md")); err != nil {
		t.Errorf("README.md links docs/architecture.md, not installed beside it: %v", err)
	}
}
