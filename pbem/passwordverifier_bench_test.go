package pbem

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/pbemd/pbemd/store"
)

// BenchmarkFirstMailAfterRestart measures a player's password command
// ("vacation", with the password, from his address) handled end to end at
// the production bcrypt cost, each mail from another of 50 players:
// "warm" by a service that has checked each password before; "restart" by
// one just started, with the verifiers the accounts keep (Config.
// PasswordKey); "restart-nokey" by one just started without them, where
// each first mail costs a bcrypt.
func BenchmarkFirstMailAfterRestart(b *testing.B) {
	const players = 50
	path := filepath.Join(b.TempDir(), "pbem.db")
	s, db := benchService(b, path)
	key := bytes.Repeat([]byte{7}, 32)
	err := db.Update(func(tx *store.Tx) error {
		for p := range players {
			id := fmt.Sprintf("p%d", p)
			hash, err := bcrypt.GenerateFromPassword([]byte("pw-"+id), bcrypt.DefaultCost)
			if err != nil {
				return err
			}
			if err := tx.PutUser(&store.User{ID: id, PasswordHash: string(hash), Addresses: []string{id + "@example.org"}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	mail := func(s *Service, p int) {
		n++
		id := fmt.Sprintf("p%d", p)
		if err := s.Deliver(benchMail(n, id+"@example.org", fmt.Sprintf("vacation %s pw-%s %d", id, id, n%20+1))); err != nil {
			b.Fatal(err)
		}
	}
	// Each player's password checked once with the key: the verifiers
	// are kept.
	s.cfg.PasswordKey = key
	s = New(db, s.cfg)
	for p := range players {
		mail(s, p)
	}
	for _, c := range []struct {
		name    string
		key     []byte
		restart bool
	}{{"warm", key, false}, {"restart", key, true}, {"restart-nokey", nil, true}} {
		b.Run(c.name, func(b *testing.B) {
			cfg := s.cfg
			cfg.PasswordKey = c.key
			svc := New(db, cfg)
			for p := range players {
				mail(svc, p) // warmed, for "warm"
			}
			b.ResetTimer()
			for i := range b.N {
				if i%players == 0 && c.restart {
					b.StopTimer()
					svc = New(db, cfg)
					b.StartTimer()
				}
				mail(svc, i%players)
			}
		})
	}
}
