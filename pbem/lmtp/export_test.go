package lmtp

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pbemd/pbemd/pbem/intake"
)

// WriteSegment writes a segment of the mails into dir, as a server that
// acknowledged them and stopped leaves it.
func WriteSegment(t *testing.T, dir string, raws ...string) {
	t.Helper()
	var mails []intake.Mail
	for _, raw := range raws {
		mails = append(mails, intake.Mail{Raw: []byte(raw)})
	}
	writeSegment(t, dir, "0000000000000000"+segmentExt, mails...)
}

// writeSegment writes a segment file of the mails' records into dir.
func writeSegment(t *testing.T, dir, name string, mails ...intake.Mail) []byte {
	t.Helper()
	var data []byte
	for _, m := range mails {
		data = appendRecord(data, m)
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
		t.Fatal(err)
	}
	return data
}

// held is the bytes of the memory bound held.
func (s *Server) held() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opts.Memory - s.memory
}
