package pbem

import (
	"crypto/hmac"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/pbemd/pbemd/store"
)

// Feeds: a player's Atom feed of the boards at his move is read on the web
// view at /users/NAME/todo.atom?key=KEY. A feed reader sends no password,
// so the key stands for it, for that one feed and nothing else. It is not
// stored: as the mail tokens are (tokens.go), it is an HMAC under the
// tokens' secret, of the account's id and a random stamp kept in its
// record, made when its first key is asked for. "feed revoke" removes the
// stamp: every key made before stops working at once, and the next key
// asked for has a new one. An id signed off and taken again starts with
// no stamp, so none of the old keys works for it.
//
// The key is mailed only to the account's own addresses, never to the
// sender as such: a forger who names the account gets nothing, and one
// who has its password learns only what its mail says.

// feedExtra is the key of the feed keys' stamp in store.User.Extra.
const feedExtra = "feed"

// FeedKeyChars is the length of a feed key: the web view refuses any
// other before it reads the store.
const FeedKeyChars = macChars

// feedKey is the feed key of u under the tokens' key, "" while u has no
// stamp.
func feedKey(key []byte, u *store.User) string {
	if u.Extra[feedExtra] == "" {
		return ""
	}
	return mac(key, "feed", u.ID, u.Extra[feedExtra])
}

// FeedKeyValid reports whether key is the feed key of user id as his
// record stands in tx, comparing in constant time. It only reads, so the
// web view checks a key in its own read transaction: before the tokens'
// secret is made no key was ever given, and none is valid.
func FeedKeyValid(tx *store.Tx, id, key string) (bool, error) {
	if len(key) != FeedKeyChars {
		return false, nil
	}
	u, err := tx.User(id)
	if errNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	secret, err := tx.Secret(tokenSecret)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	want := feedKey(secret, u)
	return want != "" && hmac.Equal([]byte(key), []byte(want)), nil
}

// FeedPath is the address of user id's todo feed with the key, under the
// web view's root.
func FeedPath(id, key string) string {
	return "/users/" + url.PathEscape(id) + "/todo.atom?key=" + url.QueryEscape(key)
}

// feed key|revoke userid [password]
func (c *cmd) feed(args []string) error {
	if len(args) != 2 && len(args) != 3 {
		return c.usage()
	}
	if len(args) == 3 {
		c.r.secret(args[2])
	}
	what := strings.ToLower(args[0])
	if what != "key" && what != "revoke" {
		return fail("%q is not a feed command; write \"feed key USERID PASSWORD\" for the key of your feed, or \"feed revoke USERID PASSWORD\" to make every key given so far fail", args[0])
	}
	u, err := c.r.feedAccount(what, args[1], args[2:])
	if err != nil {
		return err
	}
	if what == "revoke" {
		return c.r.revokeFeed(u)
	}
	return c.r.mailFeedKey(u)
}

// feedAccount is the account a feed command acts on: proved by its
// password, or without one by a mail from an address of the account that
// its domain vouches for (docs/trust.md).
func (r *request) feedAccount(what, id string, password []string) (*store.User, error) {
	if len(password) == 1 {
		return r.auth(id, password[0])
	}
	if err := checkUserID(id); err != nil {
		return nil, err
	}
	u, err := r.tx.User(id)
	if errNotFound(err) {
		return nil, fail("There is no user %q; check the spelling of the user id", id)
	}
	if err != nil {
		return nil, err
	}
	if !r.authenticated() || !contains(u.Addresses, r.sender()) {
		return nil, fail("Without the password, feed %s works only from an address of %s whose domain signs its mail; send \"feed %s %s PASSWORD\"", what, u.ID, what, u.ID)
	}
	return u, nil
}

// mailFeedKey mails u's feed key to his addresses, and tells a sender
// who is none of them where it went.
func (r *request) mailFeedKey(u *store.User) error {
	key, err := r.s.tokens.secret(r.tx)
	if err != nil {
		return err
	}
	if u.Extra[feedExtra] == "" {
		if u.Extra == nil {
			u.Extra = map[string]string{}
		}
		u.Extra[feedExtra] = newCode()
		if err := r.tx.PutUser(u); err != nil {
			return err
		}
	}
	path := FeedPath(u.ID, feedKey(key, u))
	body, err := render("feedkey", map[string]any{"User": u.ID, "URL": strings.TrimRight(r.s.cfg.PublicURL, "/") + path,
		"Web": r.s.cfg.PublicURL != "", "From": r.sender()})
	if err != nil {
		return err
	}
	for _, a := range u.Addresses {
		r.replyText(a, "pbemd: feed key of "+u.ID, body)
	}
	if !contains(u.Addresses, r.sender()) {
		r.replyText(r.sender(), "pbemd: feed key of "+u.ID, fmt.Sprintf(
			"The key of %s's feed was mailed to the addresses of the account,\nnot to the address a request comes from.\n", u.ID))
	}
	return nil
}

// revokeFeed makes every feed key of u given so far fail, and tells him.
func (r *request) revokeFeed(u *store.User) error {
	if u.Extra[feedExtra] != "" {
		delete(u.Extra, feedExtra)
		if err := r.tx.PutUser(u); err != nil {
			return err
		}
	}
	return r.tellUser(u, "pbemd: feed keys of "+u.ID+" revoked", "feedrevoked", map[string]any{"User": u.ID})
}
