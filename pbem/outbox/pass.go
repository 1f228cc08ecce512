package outbox

import (
	"context"
	"errors"
	"hash/fnv"
	"strings"
	"sync"
	"time"

	"github.com/pbemd/pbemd/pbem/mailmsg"
	"github.com/pbemd/pbemd/store"
)

// A pass is one Drain or Send: the connections that still work and what
// they have accepted, shared by their goroutines.
//
// Each batch read from the outbox is sent over the connections at once,
// each recipient's mail (each copy of a mail in copies its recipient's)
// through one of them, chosen by his address, in the order of the outbox;
// the next batch starts when the whole batch is done. So a player's mails
// do not overtake each other (but for one that waits for its retry). A connection that fails is not used again
// in the pass: the mail it had not tried goes over the others, and the
// pass stops, pausing the Sender, only when none is left. A server that
// takes fewer connections than configured still gets all the mail.
type pass struct {
	s    *Sender
	ctx  context.Context
	live []Transport // the connections not failed in this pass

	mu      sync.Mutex
	alive   int    // connections not failed, counted down as they fail
	reached bool   // a connection of the pass reached the server
	paused  bool   // the Sender was paused by this pass
	conns   int    // the connections the pass began with
	worked  []bool // by live: the connection took a mail (or refused one) in this pass
	refused int    // connections the server refused before they took any mail
	acc     accepted
	copies  map[uint64]*copiesOf // the outcomes of the batch's mails in copies
	stop    error                // the store cannot be written: every connection stops
}

// item is one whole mail to send, or one copy of a mail in copies.
type item struct {
	m  *store.Outgoing
	to string // the copy's recipient; "" for a whole mail
}

// copiesOf are the outcomes of a mail in copies in a batch, other than
// the copies accepted (in accepted) or given up (by then out of it).
type copiesOf struct {
	later    []string // refused for now
	laterErr error
	untried  bool      // the pass stopped before some copies were tried
	lost     error     // a connection lost in the middle of one of them
	lostTo   string    // that copy's recipient
	earliest time.Time // its retry not before, after such a loss
}

// accepted is what the transport has accepted and the outbox still holds:
// whole mails, and copies of mails in copies. It is written to the outbox
// (record) once it counts batchSize copies, and at the end of a batch; a
// whole mail leaves the store with its next commit (store.SentSoon), at
// most some 50 ms later. A crash resends what was accepted and not yet
// removed: at most batchSize copies, and the mails of those 50 ms.
type accepted struct {
	mails []uint64            // mails all of whose copies were accepted
	parts map[uint64][]string // mails in copies: the recipients of the copies accepted
	n     int                 // copies accepted and not yet recorded
	sent  int                 // copies accepted and recorded
}

func (s *Sender) newPass(ctx context.Context) *pass {
	live := s.ts
	s.mu.Lock()
	if s.fewer > 0 && s.opts.Now().Before(s.fewerTill) {
		live = s.ts[:s.fewer]
	}
	s.mu.Unlock()
	return &pass{s: s, ctx: ctx, live: live, conns: len(live), alive: len(live), worked: make([]bool, len(live)), acc: accepted{parts: map[uint64][]string{}}}
}

// end notes, once the pass is over, that the server answered some of the
// connections with a refusal before they took any mail, while it took
// mail over another: the next passes use no more than it did not refuse,
// for fewerFor. (A connection closed by the server after some mails, as
// one capping the mails of a session does, was not refused.)
func (p *pass) end() {
	took := p.conns - p.refused
	if p.refused == 0 || took <= 0 || !p.reached {
		return
	}
	s := p.s
	s.mu.Lock()
	s.fewer, s.fewerTill = took, s.opts.Now().Add(fewerFor)
	s.mu.Unlock()
	s.log.Warn("the SMTP server took fewer connections than smtp.connections; sending over those it took",
		"took", took, "configured", len(s.ts), "for", fewerFor)
}

// attempt tries the mails of a batch once, records each outcome, and takes
// what was accepted out of the outbox. It stops at the failure of the
// last connection, a store failure or the end of ctx, and returns that
// error, with how many mails (copies) were accepted.
func (p *pass) attempt(batch []store.Outgoing) (int, error) {
	p.copies = map[uint64]*copiesOf{}
	var items []item
	for i := range batch {
		m := &batch[i]
		if m.ToAt == 0 {
			items = append(items, item{m: m})
			continue
		}
		p.copies[m.ID] = &copiesOf{}
		for _, to := range m.To {
			items = append(items, item{m: m, to: to})
		}
	}
	var stop error
	for len(items) > 0 && stop == nil {
		items, stop = p.round(items)
	}
	for _, it := range items {
		if it.to != "" {
			p.copies[it.m.ID].untried = true
		}
	}
	if err := p.finishCopies(batch); err != nil && stop == nil {
		stop = err
	}
	if err := p.s.record(&p.acc); err != nil {
		stop = err
	}
	sent := p.acc.sent
	p.acc.sent = 0
	return sent, stop
}

// round sends the items over the live connections, each recipient's
// through one in order, and returns the items left untried by the
// connections that failed, to go over the others, or the error that
// stops the pass: the last connection failed, ctx ended or the store
// cannot be written.
func (p *pass) round(items []item) ([]item, error) {
	queues := make([][]item, len(p.live))
	for _, it := range items {
		k := conn(it.recipient(), len(p.live))
		queues[k] = append(queues[k], it)
	}
	errs := make([]error, len(p.live))
	worked := make([]bool, len(p.live))
	var wg sync.WaitGroup
	for k, q := range queues {
		if len(q) > 0 {
			wg.Go(func() { queues[k], worked[k], errs[k] = p.sendAll(p.live[k], q) })
		}
	}
	wg.Wait()
	var left []item
	var live []Transport
	var liveWorked []bool
	var stop, lastConn error
	for k, err := range errs {
		p.worked[k] = p.worked[k] || worked[k]
		var ce *ConnectionError
		switch {
		case errors.As(err, &ce):
			lastConn = err
			if ce.Answered && !p.worked[k] {
				p.refused++
			}
		case err != nil:
			stop = err
			fallthrough
		default:
			live = append(live, p.live[k])
			liveWorked = append(liveWorked, p.worked[k])
		}
		left = append(left, queues[k]...)
	}
	p.live, p.worked = live, liveWorked
	switch {
	case stop != nil || lastConn == nil:
	case len(live) == 0:
		stop = lastConn // the last one failed and paused the Sender
	case !p.hasReached():
		// Those tried failed and none reached the server: it is down,
		// and trying the others one after another would wait for each.
		stop = lastConn
		if wait, first := p.pause(); first {
			p.s.log.Warn("outbox paused: the SMTP server cannot be reached", "retry_in", wait, "err", lastConn)
		}
	}
	return left, stop
}

func (p *pass) hasReached() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.reached
}

// failure tells what an error of Send is, as Sender.failure does (nil:
// the mail was accepted), and notes that the pass reached the server
// when it answered, accepting the mail or refusing it.
func (p *pass) failure(err error) (refused bool, ce *ConnectionError) {
	if err != nil {
		refused, ce = p.s.failure(err)
	} else {
		p.s.connected()
	}
	if ce == nil || ce.Answered {
		p.mu.Lock()
		p.reached = true
		p.mu.Unlock()
	}
	return refused, ce
}

// recipient is the address whose connection an item goes through: that
// of its copy, or the first of a whole mail (the service's have one).
func (it item) recipient() string {
	if it.to != "" || len(it.m.To) == 0 {
		return it.to
	}
	return it.m.To[0]
}

// conn is the connection, of n, that the mail to addr goes through.
func conn(addr string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(addr)))
	return int(h.Sum32() % uint32(n))
}

// sendAll sends the items through t in order and returns those left
// untried, whether t took (or refused) any, and why it stopped: a
// *ConnectionError (t failed, the others go on), the end of ctx or a
// store failure (the pass stops).
func (p *pass) sendAll(t Transport, items []item) (left []item, worked bool, err error) {
	for i, it := range items {
		if err := p.ctx.Err(); err != nil {
			return items[i:], worked, err
		}
		if err := p.stopped(); err != nil {
			return items[i:], worked, err
		}
		var err error
		if it.to == "" {
			err = p.send(t, it.m)
		} else {
			err = p.sendCopy(t, it.m, it.to)
		}
		var ce *ConnectionError
		switch {
		case errors.As(err, &ce) && ce.InMail:
			return items[i+1:], worked, err // the attempt counted for the mail
		case err != nil:
			return items[i:], worked, err
		}
		worked = true
	}
	return nil, worked, nil
}

// send tries one whole mail and records the outcome. It returns an error
// when t failed (a *ConnectionError), ctx ended or the store cannot be
// written.
func (p *pass) send(t Transport, m *store.Outgoing) error {
	s := p.s
	from, data, err := s.stamp(m, m.To, m.Data)
	if err == nil {
		err = t.Send(p.ctx, from, m.To, data)
	}
	if err == nil {
		p.failure(nil)
		s.log.Debug("reply sent", "id", m.ID, "to", m.To)
		return p.accept(m.ID, "")
	}
	if p.ctx.Err() != nil {
		return p.ctx.Err() // stopped mid-send: the mail is still due, nothing to record
	}
	now := s.opts.Now()
	switch refused, ce := p.failure(err); {
	case refused:
		return p.stopOn(s.giveUp(m, now, "refused permanently", err))
	case ce != nil:
		wait := p.connectionFailed(m.ID, err)
		if ce.InMail {
			// A mail on which a server drops every connection must not
			// hold up the rest: it waits for the pause and a pass of the
			// others.
			if serr := s.retry(m, now, err, now.Add(wait+s.opts.RetryMin)); serr != nil {
				return p.stopOn(serr)
			}
		}
		return err
	default:
		call(s.opts.OnFailure)
		return p.stopOn(s.retry(m, now, err, now))
	}
}

// sendCopy tries the copy of a mail in copies for one recipient, and
// records the outcome, which is his alone: a copy refused for good is
// given up by itself, the one refused for now waits in the mail for its
// retry (finishCopies). It returns an error as send does.
func (p *pass) sendCopy(t Transport, m *store.Outgoing, to string) error {
	s := p.s
	data, err := mailmsg.Copy(m.Data, m.ToAt, to)
	if err != nil {
		err = &RejectedError{Err: err} // no copy for him can be written, now or later
	} else {
		var from string
		if from, data, err = s.stamp(m, []string{to}, data); err == nil {
			err = t.Send(p.ctx, from, []string{to}, data)
		}
	}
	if err == nil {
		p.failure(nil)
		s.log.Debug("reply sent", "id", m.ID, "to", to)
		return p.accept(m.ID, to)
	}
	if p.ctx.Err() != nil {
		return p.ctx.Err() // stopped mid-send: he is still due
	}
	now := s.opts.Now()
	switch refused, ce := p.failure(err); {
	case refused:
		return p.stopOn(s.giveUpTo(m, to, now, err))
	case ce != nil:
		wait := p.connectionFailed(m.ID, err)
		if ce.InMail {
			p.mu.Lock()
			c := p.copies[m.ID]
			c.lost, c.lostTo, c.earliest = err, to, now.Add(wait+s.opts.RetryMin)
			p.mu.Unlock()
		}
		return err
	default:
		call(s.opts.OnFailure)
		p.mu.Lock()
		c := p.copies[m.ID]
		c.later = append(c.later, to)
		if c.laterErr == nil {
			c.laterErr = err
		}
		p.mu.Unlock()
		return nil
	}
}

// finishCopies records the outcome of each mail in copies of the batch
// once all its copies were tried: the mail leaves the outbox when every
// copy was accepted or given up; it waits for its retry when some were
// refused for now or a connection was lost in the middle of one. The
// copies accepted leave the mail first, so that no retry sends them
// again. A mail some of whose copies were not tried (the pass stopped)
// keeps those recipients, due.
func (p *pass) finishCopies(batch []store.Outgoing) error {
	s := p.s
	for i := range batch {
		m := &batch[i]
		c := p.copies[m.ID]
		switch {
		case c == nil || (c.lost == nil && c.untried):
		case c.lost == nil && len(c.later) == 0:
			p.acc.mails = append(p.acc.mails, m.ID)
			delete(p.acc.parts, m.ID) // its copies go with the mail
		default:
			if err := s.record(&p.acc); err != nil {
				return err
			}
			now := s.opts.Now()
			m.To = c.later // for the log: those it waits for
			cause, earliest := c.laterErr, now
			if c.lost != nil {
				cause, earliest = c.lost, c.earliest
				m.To = append(m.To, c.lostTo)
			}
			if err := s.retry(m, now, cause, earliest); err != nil {
				return err
			}
		}
	}
	return nil
}

// accept adds an accepted mail, or the copy to "to" of a mail in copies,
// to what the outbox still holds, and records it all once it counts
// batchSize copies. A non-nil error means the store cannot be written.
func (p *pass) accept(id uint64, to string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if to == "" {
		p.acc.mails = append(p.acc.mails, id)
	} else {
		p.acc.parts[id] = append(p.acc.parts[id], to)
	}
	if p.acc.n++; p.acc.n < batchSize {
		return nil
	}
	err := p.s.record(&p.acc)
	if err != nil && p.stop == nil {
		p.stop = err
	}
	return err
}

// connectionFailed counts and logs a failed connection, and pauses the
// Sender when it was the last one working; it returns the pause.
func (p *pass) connectionFailed(id uint64, err error) time.Duration {
	call(p.s.opts.OnFailure)
	p.mu.Lock()
	p.alive--
	last := p.alive == 0
	p.mu.Unlock()
	if !last {
		p.s.log.Warn("an SMTP connection failed; the others take its mail", "id", id, "err", err)
		return 0
	}
	wait, first := p.pause()
	if first {
		p.s.log.Warn("outbox paused: the connection failed", "id", id, "retry_in", wait, "err", err)
	}
	return wait
}

// pause pauses the Sender once a pass, and returns the pause and whether
// this call made it.
func (p *pass) pause() (time.Duration, bool) {
	p.mu.Lock()
	first := !p.paused
	p.paused = true
	p.mu.Unlock()
	if !first {
		return p.s.hold(), false
	}
	return p.s.paused(), true
}

// stopOn stops every connection of the pass when err (of the store) is
// not nil, and returns it.
func (p *pass) stopOn(err error) error {
	if err != nil {
		p.mu.Lock()
		if p.stop == nil {
			p.stop = err
		}
		p.mu.Unlock()
	}
	return err
}

func (p *pass) stopped() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stop
}

// record takes what acc holds out of the outbox, and counts it sent: the
// whole mails with the next commit of the store (SentSoon: no disk sync
// of their own), the copies of each mail in copies in a transaction each.
// A non-nil error means the store cannot be written.
func (s *Sender) record(acc *accepted) error {
	if len(acc.mails) > 0 {
		s.q.SentSoon(acc.mails...)
	}
	var err error
	for id, to := range acc.parts {
		if err == nil {
			err = s.q.SentTo(id, to...)
		}
	}
	if err != nil {
		// Accepted but still queued: they will go out a second time,
		// which beats losing them.
		s.log.Error("replies sent but not removed from the outbox", "count", acc.n, "err", err)
		s.paused()
		return err
	}
	for range acc.n {
		call(s.opts.OnSent)
	}
	acc.sent += acc.n
	acc.mails, acc.n = nil, 0
	clear(acc.parts)
	return nil
}

// failure tells what an error of Send is (see Transport): a permanent
// refusal, a failed connection (ce), or else a temporary refusal of the
// mail alone. Any but a failed connection shows the connection works.
func (s *Sender) failure(err error) (refused bool, ce *ConnectionError) {
	if errors.As(err, &ce) {
		return false, ce
	}
	s.connected()
	var rej *RejectedError
	return errors.As(err, &rej), nil
}

// stamp returns the envelope sender and the data of the copy of m to the
// recipients: Options.Stamp's, for a copy to one recipient.
func (s *Sender) stamp(m *store.Outgoing, to []string, data []byte) (string, []byte, error) {
	if s.opts.Stamp == nil || len(to) != 1 {
		return m.From, data, nil
	}
	from, fields, err := s.opts.Stamp(m, to[0])
	if err != nil {
		return "", nil, err
	}
	return from, mailmsg.WithFields(data, fields...), nil
}
