package pbem

import (
	"math"

	"github.com/pbemd/pbemd/rules"
	"github.com/pbemd/pbemd/store"
)

// Ratings are kept per game kind, in the ICS style pbmserv used:
//
//   - Everybody starts at 1600. A player is provisional for his first 20
//     rated games, established after.
//   - A provisional player's rating is the average of one value per game:
//     against a provisional opponent, the average of both ratings before
//     the game plus 200 times the outcome (1 win, 0 draw, -1 loss);
//     against an established opponent, the opponent's rating plus 400
//     times the outcome.
//   - An established player's rating moves by K*(score - expected), score
//     1, 1/2 or 0, expected = 1/(1+10^((opponent-own)/400)), K = 32
//     against an established opponent and 32*n/20 against a provisional one
//     who has played n games (so a first-timer cannot move it).
//
// Both new ratings are computed from the ratings before the game. Ratings
// are kept unrounded and printed rounded. pbmserv also added a drift towards
// an average of 1720 to provisional ratings; that is left out here, so
// every figure can be checked by hand.
const (
	startRating      = store.StartRating // where the standings list who has no rated game
	provisionalGames = 20
	kFactor          = 32
)

// ratingOf is a user's rating in kind, a new player's when he has none.
func ratingOf(u *store.User, kind string) store.Rating {
	if r, ok := u.Ratings[kind]; ok && r != nil {
		return *r
	}
	return store.Rating{Rating: startRating}
}

// provisional reports whether a rating is still provisional.
func provisional(r store.Rating) bool { return r.Games < provisionalGames }

// Provisional reports whether a rating is still provisional (fewer than 20
// rated games), which standings mark with a P.
func Provisional(r store.Rating) bool { return provisional(r) }

// rated returns me's rating after a game against opp with score 1 (won),
// 0.5 (drawn) or 0 (lost).
func rated(me, opp store.Rating, score float64) store.Rating {
	n := me
	n.Games++
	switch score {
	case 1:
		n.Won++
	case 0:
		n.Lost++
	default:
		n.Drawn++
	}
	outcome := 2*score - 1
	if provisional(me) {
		value := opp.Rating + 400*outcome
		if provisional(opp) {
			value = (me.Rating+opp.Rating)/2 + 200*outcome
		}
		n.ProvisionalSum += value
		n.Rating = n.ProvisionalSum / float64(n.Games)
		return n
	}
	k := float64(kFactor)
	if provisional(opp) {
		k = kFactor * float64(opp.Games) / provisionalGames
	}
	expected := 1 / (1 + math.Pow(10, (opp.Rating-me.Rating)/400))
	n.Rating = me.Rating + k*(score-expected)
	return n
}

// rate counts a finished game in both players' ratings, once. A board
// withdrawn (before anyone joined, or by a player before his first move) is
// not rated, nor is one of a tournament made unrated.
func (r *request) rate(b *board) error {
	b.rec.Rated = true
	if b.open() || len(b.rec.Seats) != 2 || b.rec.Withdrawn != "" || b.rec.Extra[unratedKey] != "" {
		return nil
	}
	var users [2]*store.User
	for i, id := range b.rec.Seats {
		u, err := r.tx.User(id)
		if errNotFound(err) {
			return nil // a player who has gone: the game counts for nobody
		}
		if err != nil {
			return err
		}
		users[i] = u
	}
	kind := b.rec.Kind
	old := [2]store.Rating{ratingOf(users[0], kind), ratingOf(users[1], kind)}
	score := [2]float64{0.5, 0.5}
	if b.rec.Winner != rules.Draw {
		score[b.rec.Winner], score[1-b.rec.Winner] = 1, 0
	}
	b.rec.Ratings = nil
	for i, u := range users {
		n := rated(old[i], old[1-i], score[i])
		if u.Ratings == nil {
			u.Ratings = map[string]*store.Rating{}
		}
		u.Ratings[kind] = &n
		if err := r.tx.PutUser(u); err != nil {
			return err
		}
		b.rec.Ratings = append(b.rec.Ratings, store.RatingChange{User: u.ID, Old: old[i].Rating, New: n.Rating, Provisional: provisional(n)})
	}
	return nil
}
