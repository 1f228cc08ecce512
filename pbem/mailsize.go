package pbem

import "github.com/pbemd/pbemd/pbem/mailmsg"

// runOrRefuse runs the mail's command, or, when the mail was too large to
// read (tooLarge is not nil), answers the sender that it was not read and
// what size would be read.
func (r *request) runOrRefuse(tooLarge *mailmsg.TooLargeError) error {
	if why, err := r.banned(); err != nil || why != "" {
		r.outcome.note(resultIgnored, why)
		return err
	}
	if err := r.noteLastMail(); err != nil {
		return err
	}
	if tooLarge == nil {
		return r.run()
	}
	if ok, err := r.allowSender(); err != nil || !ok {
		return err
	}
	if err := r.refuse("pbemd", nil, fail("Your mail was not read: %v. Send the command again in a shorter mail", tooLarge)); err != nil {
		return err
	}
	return r.compose()
}
