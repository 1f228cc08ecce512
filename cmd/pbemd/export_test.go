package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbemd/pbemd/pbem/pbemtest"
	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/rules/rulestool"
	"github.com/pbemd/pbemd/store"
)

// readExport reads an export: file name to text.
func readExport(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if !zr.ModTime.IsZero() || zr.Name != "" {
		t.Errorf("the gzip header holds a time %v or name %q", zr.ModTime, zr.Name)
	}
	files := map[string]string{}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Mode != 0o644 {
			t.Errorf("%s: owner %d/%d %q, mode %o", h.Name, h.Uid, h.Gid, h.Uname, h.Mode)
		}
		b, _ := io.ReadAll(tr)
		files[h.Name] = string(b)
	}
}

func sum(t *testing.T, path string) [32]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(data)
}

// Every finished game of a populated store of 10,000 boards round-trips:
// exported, its record replays with the rules to the final position and
// result the store holds, and the export is the same bytes each time.
// (pbemd populate makes the store in some 5 s here; export and replay take
// about as long.)
func TestExportRoundTrip(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if code := run([]string{"populate", "-data", data, "-games", "10000"}); code != 0 {
		t.Fatalf("populate: exit %d", code)
	}
	out1, out2 := filepath.Join(dir, "1.tar.gz"), filepath.Join(dir, "2.tar.gz")
	for _, out := range []string{out1, out2} {
		if code := run([]string{"export", "-data", data, out}); code != 0 {
			t.Fatalf("export: exit %d", code)
		}
	}
	if sum(t, out1) != sum(t, out2) {
		t.Error("two exports of one store differ")
	}
	files := readExport(t, out1)
	db, err := store.Open(store.PathIn(data), &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	finished, tanbo := 0, 0
	err = db.View(func(tx *store.Tx) error {
		return pbemtest.EachBoard(tx, func(g rules.Game, rec *store.Game) error {
			kind := g.Name()
			name := fmt.Sprintf("%s/%d.pgn", kind, rec.Board)
			text, ok := files[name]
			if !rec.Over {
				if ok {
					t.Errorf("%s is exported, but its game is not over", name)
				}
				return nil
			}
			finished++
			if !ok {
				t.Errorf("%s is missing from the export", name)
				return nil
			}
			if kind == "tanbo" {
				tanbo++
				if !strings.HasPrefix(files[strings.TrimSuffix(name, "pgn")+"sgf"], "(;FF[4]GM[99]") {
					t.Errorf("%s has no SGF beside it", name)
				}
			}
			_, pos, res, err := rulestool.Replay(text)
			switch {
			case err != nil:
				t.Errorf("%s: %v in\n%s", name, err, text)
			case pos.String() != rec.Position:
				t.Errorf("%s replays to %s; the store has %s", name, pos, rec.Position)
			case !res.Over || res.Winner != rec.Winner || res.Reason != rec.EndReason:
				t.Errorf("%s replays to the result %+v; the store has winner %d, %q", name, res, rec.Winner, rec.EndReason)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if finished < 1000 || tanbo == 0 || len(files) != finished+tanbo {
		t.Errorf("%d finished games (%d of Tanbo), %d files exported", finished, tanbo, len(files))
	}
	t.Logf("%d finished games round-trip", finished)

	// -game and -since choose; a wrong one is a usage error.
	out := filepath.Join(dir, "tanbo.tar.gz")
	if code := run([]string{"export", "-data", data, "-game", "tanbo", "-since", "2000-01-01", out}); code != 0 {
		t.Fatalf("export -game tanbo: exit %d", code)
	}
	if got := readExport(t, out); len(got) != 2*tanbo {
		t.Errorf("export -game tanbo: %d files, want %d", len(got), 2*tanbo)
	}
	if code := run([]string{"export", "-data", data, "-since", "2999-01-01", out}); code != 0 || len(readExport(t, out)) != 0 {
		t.Errorf("export -since 2999-01-01: exit %d, %d files; want none", code, len(readExport(t, out)))
	}
	for _, args := range [][]string{{"-game", "chess"}, {"-since", "yesterday"}, {}} {
		if code := run(append([]string{"export", "-data", data}, args...)); code != 2 {
			t.Errorf("export %q without OUT or wrong: exit %d, want 2", args, code)
		}
	}
}

// While the database is held (a daemon that answers no control socket),
// export says so and writes nothing.
func TestExportHeldStore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	openWithAlice(t, data)
	out := filepath.Join(dir, "out.tar.gz")
	if code := run([]string{"export", "-data", data, out}); code != 1 {
		t.Errorf("export of a held store: exit %d, want 1", code)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused export left %s", out)
	}
}
