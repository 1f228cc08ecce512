package storetest

import (
	"os"
	"testing"
)

// The bare loop commits what it says and leaves nothing behind in the
// directory it measured.
func TestBareBolt(t *testing.T) {
	dir := t.TempDir()
	r, err := BareBolt(dir, 5)
	if err != nil {
		t.Fatal(err)
	}
	if r.Commits <= 0 || r.Values <= 0 {
		t.Errorf("BareBolt = %+v; want rates above zero", r)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("BareBolt left %d files in its directory; want none", len(left))
	}
	if _, err := BareBolt(dir+"/missing", 5); err == nil {
		t.Error("BareBolt in a missing directory: no error")
	}
}
