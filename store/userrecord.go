package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
)

// The binary form of a user record (record.go). Field numbers are for
// ever; a new field takes the next free number.

func encodeUser(u *User) ([]byte, error) {
	w := newRecordWriter(256)
	w.string(1, u.ID)
	w.string(2, u.Name)
	w.string(3, u.PasswordHash)
	w.strings(4, u.Addresses, u.Addresses != nil)
	w.time(5, u.Created)
	mapField(w, 6, u.Extra, w.str)
	ratings := u.Ratings
	for _, r := range u.Ratings {
		if r == nil {
			// A nil rating (JSON's null) is the start rating, as a
			// missing one: left out, it reads back as missing, not as a
			// rating of 0.
			ratings = maps.Clone(u.Ratings)
			maps.DeleteFunc(ratings, func(_ string, r *Rating) bool { return r == nil })
			break
		}
	}
	mapField(w, 7, ratings, func(r *Rating) {
		w.sized(func() {
			w.float(1, r.Rating)
			w.int(2, r.Games)
			w.int(3, r.Won)
			w.int(4, r.Lost)
			w.int(5, r.Drawn)
			w.float(6, r.ProvisionalSum)
		})
	})
	w.strings(8, u.Refuses, false)
	mapField(w, 9, u.Limits, func(n int) { w.b = binary.AppendUvarint(w.b, zigzag(n)) })
	w.strings(10, u.NotifyKinds, false)
	w.strings(11, u.SubscribeKinds, false)
	w.records(12, len(u.Vacations), false, func(i int) {
		v := &u.Vacations[i]
		w.time(1, v.From)
		w.time(2, v.Until)
	})
	w.records(13, len(u.Unconfirmed), false, func(i int) {
		c := &u.Unconfirmed[i]
		w.string(1, c.Address)
		w.string(2, c.CodeHash)
		w.time(3, c.Sent)
	})
	w.string(14, u.Verifier)
	return w.b, w.err
}

// decodeUser reads a stored user record; id names it in errors.
func decodeUser(id string, v []byte) (*User, error) {
	u := new(User)
	var err error
	if isJSON(v) {
		err = json.Unmarshal(v, u)
	} else {
		err = readRecord(v, func(r *recordReader) { userFields(r, u) })
	}
	if err != nil {
		return nil, fmt.Errorf("store: user %q: %w: %w", id, ErrCorrupt, err)
	}
	return u, nil
}

func userFields(r *recordReader, u *User) {
	r.each(func(field, kind int) {
		switch field {
		case 1:
			u.ID = r.string(kind)
		case 2:
			u.Name = r.string(kind)
		case 3:
			u.PasswordHash = r.string(kind)
		case 4:
			u.Addresses = r.strings(kind)
		case 5:
			u.Created = r.time(kind)
		case 6:
			u.Extra = readMap(r, kind, func(r *recordReader) string { return string(r.sized()) })
		case 7:
			u.Ratings = readMap(r, kind, func(r *recordReader) *Rating {
				rt := new(Rating)
				r.record(kindBytes, func(r *recordReader) { ratingFields(r, rt) })
				return rt
			})
		case 8:
			u.Refuses = r.strings(kind)
		case 9:
			u.Limits = readMap(r, kind, func(r *recordReader) int { return unzigzag(r.uvarint()) })
		case 10:
			u.NotifyKinds = r.strings(kind)
		case 11:
			u.SubscribeKinds = r.strings(kind)
		case 12:
			u.Vacations = readList(r, kind, element(func(r *recordReader, v *Vacation) {
				r.each(func(field, kind int) {
					switch field {
					case 1:
						v.From = r.time(kind)
					case 2:
						v.Until = r.time(kind)
					default:
						r.skip(kind)
					}
				})
			}))
		case 13:
			u.Unconfirmed = readList(r, kind, element(func(r *recordReader, c *Unconfirmed) {
				r.each(func(field, kind int) {
					switch field {
					case 1:
						c.Address = r.string(kind)
					case 2:
						c.CodeHash = r.string(kind)
					case 3:
						c.Sent = r.time(kind)
					default:
						r.skip(kind)
					}
				})
			}))
		case 14:
			u.Verifier = r.string(kind)
		default:
			r.skip(kind)
		}
	})
}

func ratingFields(r *recordReader, rt *Rating) {
	r.each(func(field, kind int) {
		switch field {
		case 1:
			rt.Rating = r.float(kind)
		case 2:
			rt.Games = r.int(kind)
		case 3:
			rt.Won = r.int(kind)
		case 4:
			rt.Lost = r.int(kind)
		case 5:
			rt.Drawn = r.int(kind)
		case 6:
			rt.ProvisionalSum = r.float(kind)
		default:
			r.skip(kind)
		}
	})
}
