package web

import (
	"fmt"
	"net/url"

	"github.com/pbemd/pbemd/pbem"
	"github.com/pbemd/pbemd/rules"
)

// recordFile is a board's record (ext "pgn"), or its SGF (ext "sgf") for
// a game that has that form: the same text "GAME record BOARD" mails, as
// plain text named for saving. A board not over gives the record so far.
func (s *Server) recordFile(g rules.Game, text string, q url.Values, ext string) (page, error) {
	if err := onlyParams(q); err != nil {
		return page{}, err
	}
	b, err := s.loadBoard(g, text, q)
	if err != nil {
		return page{}, err
	}
	files, err := pbem.RecordFiles(b.rec, s.opts.Mail)
	if err != nil {
		return page{}, err
	}
	for _, f := range files {
		if f.Ext == ext {
			return page{body: []byte(f.Text), ctype: pbem.RecordType + "; charset=utf-8",
				filename: fmt.Sprintf("%s-%d.%s", g.Name(), b.rec.Board, ext)}, nil
		}
	}
	return page{}, notFound("%s records have no %s form; /%s/%d.pgn is the record.", g.Title(), ext, g.Name(), b.rec.Board)
}
