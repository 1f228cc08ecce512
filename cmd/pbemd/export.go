package main

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/pbem/config"
	"github.com/pbemd/pbemd/pbem/daemon"
	"github.com/pbemd/pbemd/rules/catalog"
	"github.com/pbemd/pbemd/store"
)

const exportHelp = "Writes the record of every finished game (docs/records.md) to OUT, a tar.gz of\n" +
	"GAME/BOARD.pgn, and GAME/BOARD.sgf for a game that has that form (Tanbo).\n" +
	"The same store gives the same bytes: the files in order of game and board,\n" +
	"each dated when its game ended, owned by nobody, the gzip header without\n" +
	"time or name. Reads the database while the daemon runs or not (a running\n" +
	"daemon sends a copy of it, as for backup). -game takes one game; -since\n" +
	"the games that ended on or after a day (YYYY-MM-DD, UTC)."

// runExport is "pbemd export [-config FILE] [-data DIR] [-game G] [-since
// DATE] OUT.tar.gz".
func runExport(c *invocation) error {
	where := c.dataFlags("the embedded default's data directory")
	game := c.flags.String("game", "", "only the boards of this `game`")
	since := c.flags.String("since", "", "only the games that ended on or after this `day`, YYYY-MM-DD")
	args, err := c.parse(1, "exactly one OUT.tar.gz to write the records to")
	if err != nil {
		return err
	}
	var f exportFilter
	if *game != "" {
		g, ok := catalog.Lookup(*game)
		if !ok {
			return usageError(fmt.Sprintf("-game %q is no game of this server; the games are %v", *game, catalog.Names()))
		}
		f.game = g.Name()
	}
	if *since != "" {
		if f.since, err = time.Parse(time.DateOnly, *since); err != nil {
			return usageError(fmt.Sprintf("-since %q is not a day; write it as 2026-11-27", *since))
		}
	}
	cfg, err := where.loadConfig(config.UsesNone)
	if err != nil {
		return err
	}
	db, cleanup, err := openToRead(cfg.Data)
	if err != nil {
		return err
	}
	defer cleanup()
	out := args[0]
	tmp, err := os.CreateTemp(filepath.Dir(out), ".export-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())              // gone once renamed
	if err := tmp.Chmod(0o644); err != nil { // records are public, as the web view shows them
		return err
	}
	n, skipped, err := exportRecords(db, tmp, cfg.Address, f)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), out)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "pbemd export: %d finished games to %s\n", n, out)
	for _, s := range skipped {
		fmt.Fprintf(c.stderr, "pbemd export: left out %v\n", s)
	}
	if len(skipped) > 0 {
		return fmt.Errorf("%d boards are left out: their records could not be made", len(skipped))
	}
	return nil
}

// openToRead opens the store of the data directory to read it: itself
// when no daemon holds it, else a copy the daemon sends (see backup);
// cleanup closes it and removes a copy.
func openToRead(data string) (db *store.DB, cleanup func(), err error) {
	opts := &store.Options{ReadOnly: true, LockTimeout: 200 * time.Millisecond}
	db, err = store.Open(store.PathIn(data), opts)
	switch {
	case err == nil:
		return db, func() { db.Close() }, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, fmt.Errorf("%s holds no database (%w); name the data directory with -data or -config", data, err)
	case !errors.Is(err, store.ErrLocked):
		return nil, nil, err
	}
	dir, terr := os.MkdirTemp("", "pbemd-export-")
	if terr != nil {
		return nil, nil, terr
	}
	if ferr := daemon.FetchBackup(data, store.PathIn(dir)); ferr != nil {
		os.RemoveAll(dir)
		return nil, nil, fmt.Errorf("%v, and %v", err, ferr)
	}
	if db, err = store.Open(store.PathIn(dir), &store.Options{ReadOnly: true}); err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	return db, func() { db.Close(); os.RemoveAll(dir) }, nil
}

// An exportFilter chooses the games to export: of one game ("": every
// game), ended on or after since (zero: any time).
type exportFilter struct {
	game  string
	since time.Time
}

// exportRecords writes the records of the finished games of db that f
// chooses to w as a tar.gz whose bytes depend on the store alone. A board
// whose record cannot be made is left out and named in skipped.
func exportRecords(db *store.DB, w io.Writer, site string, f exportFilter) (n int, skipped []error, err error) {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression) // no Name, ModTime zero: none written
	if err != nil {
		return 0, nil, err
	}
	tw := tar.NewWriter(zw)
	games := catalog.Names()
	slices.Sort(games)
	err = db.View(func(tx *store.Tx) error {
		for _, game := range games {
			if f.game != "" && game != f.game {
				continue
			}
			err := tx.Games(game, func(rec *store.Game) error {
				if !rec.Over || rec.Updated.Before(f.since) {
					return nil
				}
				files, err := pbem.RecordFiles(rec, site)
				if err != nil {
					skipped = append(skipped, err)
					return nil
				}
				for _, file := range files {
					hdr := &tar.Header{
						Typeflag: tar.TypeReg,
						Name:     fmt.Sprintf("%s/%d.%s", game, rec.Board, file.Ext),
						Mode:     0o644,
						Size:     int64(len(file.Text)),
						ModTime:  fileTime(rec.Updated),
						Format:   tar.FormatUSTAR,
					}
					if err := tw.WriteHeader(hdr); err != nil {
						return err
					}
					if _, err := io.WriteString(tw, file.Text); err != nil {
						return err
					}
				}
				n++
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	if err := tw.Close(); err != nil {
		return 0, nil, err
	}
	return n, skipped, zw.Close()
}

// fileTime is the time a record's file is dated: its game's end, in whole
// seconds, never before 1970 (which a tar header cannot hold).
func fileTime(t time.Time) time.Time {
	if t.Before(time.Unix(0, 0)) {
		return time.Unix(0, 0).UTC()
	}
	return t.UTC().Truncate(time.Second)
}
