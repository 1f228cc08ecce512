package pbem

import (
	"fmt"
	"strings"

	"github.com/pbemd/pbemd/store"
)

// This file is what the read-only views beside the mail service (the web
// pages) need of the core beyond the board model (pbem/board).

// Provisional reports whether a rating is still provisional (fewer than 20
// rated games), which standings mark with a P.
func Provisional(r store.Rating) bool { return provisional(r) }

// boardLink is the address of the board's web page, or "" when the web view
// has no public address.
func (s *Service) boardLink(rec *store.Game) string {
	if s.cfg.PublicURL == "" {
		return ""
	}
	return fmt.Sprintf("%s/%s/%d", strings.TrimRight(s.cfg.PublicURL, "/"), rec.Kind, rec.Board)
}
