package lmtp

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/pbemd/pbemd/pbem/intake"
)

// The spool keeps each mail the server has acknowledged until the intake
// has decided on it, so that a 250 can come before the mail's commit: the
// MTA hands over its next mail at once, and the worker commits the mails
// waiting together, however few connections brought them. A crash loses
// none of them: at the next start the mails left are handed to the intake
// again, and its processed-mail keys make a mail handled before the crash
// a no-op.
//
// The mails are appended to segment files, many mails in one write and one
// fdatasync (the writer's group). A segment takes no more mails once it
// holds segmentSize bytes, and it is deleted once every mail in it is
// decided (done or set aside; a mail told to retry keeps it).
//
// A record is the mail's length (4 bytes), the size of the whole mail of
// which it is the beginning, or 0 (8 bytes), a CRC-32C of those and the
// mail (4 bytes), then the mail. A record cut short by a crash, never
// acknowledged, ends the segment's reading. A damaged record with more
// after it (the disk's fault) ends it too; the segment is then kept, its
// name ending in .damaged, for the operator, once its mails before the
// damage are decided on.

// segmentSize is the size past which a segment takes no more mails.
const segmentSize = 1 << 20

// recordHeader is the size of a record's header.
const recordHeader = 16

// segmentExt ends the name of a segment file; damagedExt is added to a
// segment's name when it is set aside.
const (
	segmentExt = ".mails"
	damagedExt = ".damaged"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

type spool struct {
	dir string

	mu   sync.Mutex
	cur  *segment // the segment mails are appended to; nil for a new one
	next uint64   // the number of the next segment made
}

// A segment is one file of the spool.
type segment struct {
	path string
	f    *os.File // nil once it takes no more mails
	size int64    // bytes written and synced
	live int      // mails in it not yet decided
	held int64    // bytes of the server's memory bound it holds
	// damaged is set for a segment whose reading a damaged record ended:
	// it is set aside, not deleted.
	damaged bool
}

// openSpool opens the spool in dir, making it when missing, and returns
// the mails left in it by a previous run with their segments.
func openSpool(dir string, log *slog.Logger) (*spool, []spooled, error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		// Made, and its parent synced, so that a crash keeps it with
		// the first segments.
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, nil, fmt.Errorf("spool: %w", err)
		}
		if err := syncDir(filepath.Dir(dir)); err != nil {
			return nil, nil, fmt.Errorf("spool: %w", err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("spool: %w", err)
	}
	sp := &spool{dir: dir}
	var left []spooled
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), segmentExt)
		n, err := strconv.ParseUint(name, 16, 64)
		if !ok || err != nil || !e.Type().IsRegular() {
			continue
		}
		sp.next = max(sp.next, n+1)
		seg := &segment{path: filepath.Join(dir, e.Name())}
		data, err := os.ReadFile(seg.path)
		if err != nil {
			return nil, nil, fmt.Errorf("spool: %w", err)
		}
		ms, damaged := records(data)
		for _, m := range ms {
			left = append(left, spooled{mail: m, seg: seg})
			seg.live++
			seg.held += recordHeader + int64(len(m.Raw))
		}
		if damaged {
			seg.damaged = true
			log.Error("lmtp: a spool segment is damaged; the mails after the damage are not handled, and it is kept aside",
				"segment", seg.path+damagedExt, "mails", len(ms))
		}
		if seg.live == 0 {
			seg.remove()
		}
	}
	return sp, left, nil
}

// records decodes the whole records of a segment's data, up to the first
// that is cut short or damaged; damaged reports a bad record with more
// data after it, which no crash leaves.
func records(data []byte) (ms []intake.Mail, damaged bool) {
	for len(data) > 0 {
		if len(data) < recordHeader {
			return ms, false // cut short
		}
		n := int64(binary.BigEndian.Uint32(data))
		size := int64(binary.BigEndian.Uint64(data[4:]))
		if int64(len(data)-recordHeader) < n {
			return ms, false // cut short, or a length damaged: either way the last
		}
		raw := data[recordHeader : recordHeader+n]
		sum := crc32.Update(crc32.Checksum(data[:12], castagnoli), castagnoli, raw)
		if sum != binary.BigEndian.Uint32(data[12:]) {
			return ms, len(data) > recordHeader+int(n)
		}
		ms = append(ms, intake.Mail{Raw: raw, Size: size})
		data = data[recordHeader+n:]
	}
	return ms, false
}

// appendRecord appends m's record to b.
func appendRecord(b []byte, m intake.Mail) []byte {
	start := len(b)
	b = binary.BigEndian.AppendUint32(b, uint32(len(m.Raw)))
	b = binary.BigEndian.AppendUint64(b, uint64(m.Size))
	sum := crc32.Update(crc32.Checksum(b[start:], castagnoli), castagnoli, m.Raw)
	b = binary.BigEndian.AppendUint32(b, sum)
	return append(b, m.Raw...)
}

// add writes the mails to the spool, synced, and returns their segment,
// which now holds held bytes of the memory bound for them. Only one
// goroutine adds (the writer). On failure nothing of the mails is kept,
// and the segment written to takes no more mails.
func (sp *spool) add(mails []intake.Mail, held int64) (*segment, error) {
	sp.mu.Lock()
	seg := sp.cur
	if seg == nil {
		var err error
		if seg, err = sp.create(); err != nil {
			sp.mu.Unlock()
			return nil, err
		}
		sp.cur = seg
	}
	seg.live += len(mails) // not deleted while being written
	sp.mu.Unlock()

	var buf []byte
	for _, m := range mails {
		buf = appendRecord(buf, m)
	}
	_, err := seg.f.WriteAt(buf, seg.size)
	if err == nil {
		err = fdatasync(seg.f)
	}

	sp.mu.Lock()
	defer sp.mu.Unlock()
	if err != nil {
		// Whatever was written is cut off, so that the segment's reading
		// ends before it; where that fails, it ends at a broken record
		// (the CRC), and nothing is written after it.
		seg.f.Truncate(seg.size)
		seg.live -= len(mails)
		sp.retire(seg)
		return nil, fmt.Errorf("spool: %w", err)
	}
	seg.size += int64(len(buf))
	seg.held += held
	if seg.size >= segmentSize {
		sp.retire(seg)
	}
	return seg, nil
}

// create makes the next segment file, and syncs the directory so that a
// crash keeps the file. sp.mu is held.
func (sp *spool) create() (*segment, error) {
	path := filepath.Join(sp.dir, fmt.Sprintf("%016x%s", sp.next, segmentExt))
	sp.next++
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	if err := syncDir(sp.dir); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("spool: %w", err)
	}
	return &segment{path: path, f: f}, nil
}

// retire makes seg take no more mails, and deletes it when none of its
// mails is left. sp.mu is held.
func (sp *spool) retire(seg *segment) {
	if sp.cur == seg {
		sp.cur = nil
	}
	if seg.f != nil {
		seg.f.Close()
		seg.f = nil
	}
	if seg.live == 0 {
		seg.remove()
	}
}

// remove deletes the segment's file, or sets it aside when damaged.
func (seg *segment) remove() {
	if seg.damaged {
		os.Rename(seg.path, seg.path+damagedExt)
		return
	}
	os.Remove(seg.path)
}

// decided notes that the intake decided on one mail of seg, and returns
// the bytes of the memory bound freed: the segment's, when that was its
// last mail. Such a segment is deleted, or, when mails are still appended
// to it, emptied: a mail at a time, as comes while the server is idle,
// makes no file. (Where a crash loses the emptying, the mails are handed
// over again, and handled once: see spool.)
func (sp *spool) decided(seg *segment) int64 {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	seg.live--
	if seg.live > 0 {
		return 0
	}
	held := seg.held
	seg.held = 0
	if seg == sp.cur && seg.f.Truncate(0) == nil {
		seg.size = 0
		return held
	}
	sp.retire(seg)
	return held
}

// close closes the segment being written (of a spool, if any); the mails
// left stay for the next start.
func (sp *spool) close() {
	if sp == nil {
		return
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.cur != nil {
		sp.retire(sp.cur)
	}
}

// syncDir syncs the directory's entries.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, fs.ErrInvalid) {
		return err
	}
	return nil
}
