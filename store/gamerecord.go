package store

import (
	"encoding/json"
	"fmt"
)

// The binary form of a game record (record.go). Field numbers are for
// ever; a new field takes the next free number.

func encodeGame(g *Game) ([]byte, error) {
	w := newRecordWriter(256 + 48*len(g.Moves))
	w.string(1, g.Kind)
	w.int(2, g.Board)
	w.strings(3, g.Options, g.Options != nil)
	w.strings(4, g.Seats, g.Seats != nil)
	w.string(5, g.StartPos)
	w.records(6, len(g.Moves), g.Moves != nil, func(i int) {
		m := &g.Moves[i]
		w.int(1, m.Seat)
		w.string(2, m.Text)
		w.strings(3, m.Captured, false)
		w.time(4, m.At)
		w.bool(5, m.Auto)
	})
	w.string(7, g.Position)
	w.int(8, g.ToMove)
	w.bool(9, g.Over)
	w.int(10, g.Winner)
	w.string(11, g.EndReason)
	w.records(12, len(g.Comments), false, func(i int) {
		c := &g.Comments[i]
		w.string(1, c.User)
		w.string(2, c.Text)
		w.time(3, c.At)
		w.int(4, c.Move)
	})
	w.strings(13, g.Subscribers, false)
	w.time(14, g.Created)
	w.time(15, g.Updated)
	w.string(16, g.Thread)
	mapField(w, 17, g.Extra, w.str)
	w.records(18, len(g.Queue), false, func(i int) {
		q := &g.Queue[i]
		w.int(1, q.Seat)
		w.string(2, q.User)
		w.string(3, q.Text)
		w.int(4, q.Number)
		w.time(5, q.At)
	})
	if v := g.Vote; v != nil {
		w.record(19, func() {
			w.string(1, v.Kind)
			w.int(2, v.Seat)
			w.string(3, v.User)
			w.time(4, v.At)
			w.int(5, v.Back)
			w.time(6, v.Nagged)
		})
	}
	w.time(20, g.TurnSince)
	w.time(21, g.Nagged)
	w.strings(22, g.Notify, false)
	w.bool(23, g.Rated)
	w.records(24, len(g.Ratings), false, func(i int) {
		c := &g.Ratings[i]
		w.string(1, c.User)
		w.float(2, c.Old)
		w.float(3, c.New)
		w.bool(4, c.Provisional)
	})
	w.string(25, g.Withdrawn)
	w.string(26, g.Swapped)
	return w.b, w.err
}

func decodeGame(v []byte) (*Game, error) {
	g := new(Game)
	var err error
	if isJSON(v) {
		err = json.Unmarshal(v, g)
	} else {
		err = readRecord(v, func(r *recordReader) { gameFields(r, g) })
	}
	if err != nil {
		return nil, fmt.Errorf("store: game: %w: %w", ErrCorrupt, err)
	}
	return g, nil
}

func gameFields(r *recordReader, g *Game) {
	r.each(func(field, kind int) {
		switch field {
		case 1:
			g.Kind = r.string(kind)
		case 2:
			g.Board = r.int(kind)
		case 3:
			g.Options = r.strings(kind)
		case 4:
			g.Seats = r.strings(kind)
		case 5:
			g.StartPos = r.string(kind)
		case 6:
			g.Moves = readList(r, kind, element(moveFields))
		case 7:
			g.Position = r.string(kind)
		case 8:
			g.ToMove = r.int(kind)
		case 9:
			g.Over = r.bool(kind)
		case 10:
			g.Winner = r.int(kind)
		case 11:
			g.EndReason = r.string(kind)
		case 12:
			g.Comments = readList(r, kind, element(commentFields))
		case 13:
			g.Subscribers = r.strings(kind)
		case 14:
			g.Created = r.time(kind)
		case 15:
			g.Updated = r.time(kind)
		case 16:
			g.Thread = r.string(kind)
		case 17:
			g.Extra = readMap(r, kind, func(r *recordReader) string { return string(r.sized()) })
		case 18:
			g.Queue = readList(r, kind, element(queuedFields))
		case 19:
			g.Vote = new(Vote)
			r.record(kind, func(r *recordReader) { voteFields(r, g.Vote) })
		case 20:
			g.TurnSince = r.time(kind)
		case 21:
			g.Nagged = r.time(kind)
		case 22:
			g.Notify = r.strings(kind)
		case 23:
			g.Rated = r.bool(kind)
		case 24:
			g.Ratings = readList(r, kind, element(ratingChangeFields))
		case 25:
			g.Withdrawn = r.string(kind)
		case 26:
			g.Swapped = r.string(kind)
		default:
			r.skip(kind)
		}
	})
}

func moveFields(r *recordReader, m *Move) {
	r.each(func(field, kind int) {
		switch field {
		case 1:
			m.Seat = r.int(kind)
		case 2:
			m.Text = r.string(kind)
		case 3:
			m.Captured = r.strings(kind)
		case 4:
			m.At = r.time(kind)
		case 5:
			m.Auto = r.bool(kind)
		default:
			r.skip(kind)
		}
	})
}

func commentFields(r *recordReader, c *Comment) {
	r.each(func(field, kind int) {
		switch field {
		case 1:
			c.User = r.string(kind)
		case 2:
			c.Text = r.string(kind)
		case 3:
			c.At = r.time(kind)
		case 4:
			c.Move = r.int(kind)
		default:
			r.skip(kind)
		}
	})
}

func queuedFields(r *recordReader, q *Queued) {
	r.each(func(field, kind int) {
		switch field {
		case 1:
			q.Seat = r.int(kind)
		case 2:
			q.User = r.string(kind)
		case 3:
			q.Text = r.string(kind)
		case 4:
			q.Number = r.int(kind)
		case 5:
			q.At = r.time(kind)
		default:
			r.skip(kind)
		}
	})
}

func voteFields(r *recordReader, v *Vote) {
	r.each(func(field, kind int) {
		switch field {
		case 1:
			v.Kind = r.string(kind)
		case 2:
			v.Seat = r.int(kind)
		case 3:
			v.User = r.string(kind)
		case 4:
			v.At = r.time(kind)
		case 5:
			v.Back = r.int(kind)
		case 6:
			v.Nagged = r.time(kind)
		default:
			r.skip(kind)
		}
	})
}

func ratingChangeFields(r *recordReader, c *RatingChange) {
	r.each(func(field, kind int) {
		switch field {
		case 1:
			c.User = r.string(kind)
		case 2:
			c.Old = r.float(kind)
		case 3:
			c.New = r.float(kind)
		case 4:
			c.Provisional = r.bool(kind)
		default:
			r.skip(kind)
		}
	})
}

// decodeGameHead reads what GameHead returns of a stored record: the
// moves are counted, not read.
func decodeGameHead(v []byte) (*GameHead, error) {
	h := new(GameHead)
	var err error
	if isJSON(v) {
		var rec struct {
			GameHead
			Moves []struct{} // counted, not read; hides GameHead.Moves from JSON
		}
		err = json.Unmarshal(v, &rec)
		h, rec.GameHead.Moves = &rec.GameHead, len(rec.Moves)
	} else {
		err = readRecord(v, func(r *recordReader) {
			r.each(func(field, kind int) {
				switch field {
				case 1:
					h.Kind = r.string(kind)
				case 2:
					h.Board = r.int(kind)
				case 4:
					h.Seats = r.strings(kind)
				case 6:
					_, h.Moves = r.list(kind)
				case 8:
					h.ToMove = r.int(kind)
				case 9:
					h.Over = r.bool(kind)
				case 10:
					h.Winner = r.int(kind)
				case 11:
					h.EndReason = r.string(kind)
				case 15:
					h.Updated = r.time(kind)
				case 25:
					h.Withdrawn = r.string(kind)
				case 3:
					h.Options = r.strings(kind)
				case 14:
					h.Created = r.time(kind)
				case 17:
					h.Extra = readMap(r, kind, func(r *recordReader) string { return string(r.sized()) })
				default:
					r.skip(kind)
				}
			})
		})
	}
	if err != nil {
		return nil, fmt.Errorf("store: game: %w: %w", ErrCorrupt, err)
	}
	return h, nil
}
