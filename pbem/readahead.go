package pbem

import "github.com/pbemd/pbemd/pbem/mailmsg"

// mailKeys returns the processed-mail keys of a batch of mails, for the
// store to read ahead in one request (on etcd, one round trip instead of
// two a mail).
func mailKeys(mails []*mailmsg.Incoming) []string {
	keys := make([]string, len(mails))
	for i, m := range mails {
		keys[i] = m.Key
	}
	return keys
}
