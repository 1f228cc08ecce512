package pbem

import (
	"fmt"
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/pbemd/pbemd/store"
	"github.com/pbemd/pbemd/templates"
)

// languageKey is a user's Extra: the language of the mails he gets, as
// "set language" stores it; absent, English (docs/languages.md).
const languageKey = "language"

// userLanguage is the language of u's mails: English unless he chose one
// that is still offered.
func userLanguage(u *store.User) string {
	if u == nil {
		return templates.English
	}
	if l, ok := templates.Language(u.Extra[languageKey]); ok {
		return l
	}
	return templates.English
}

// language is the language of the answers to the sender: that of the
// user whose address he writes from (the mail goes to that mailbox,
// whoever wrote the From line), English for a stranger. One read of the
// store a mail.
func (r *request) language() string {
	if r.lang != "" {
		return r.lang
	}
	r.lang = templates.English
	if r.mail != nil {
		if u, err := r.tx.UserByAddress(r.sender()); err == nil {
			r.lang = userLanguage(u)
		}
	}
	return r.lang
}

// say is a sentence of a board mail's notices, in English, such as
// saveAndAnnounce takes them; the request remembers its format, so that
// the mail to a player of another language says it in his. A notice made
// otherwise stays English.
func (r *request) say(format string, args ...any) string {
	s := fmt.Sprintf(format, args...)
	if r.said == nil {
		r.said = map[string]templates.Text{}
	}
	r.said[s] = templates.Text{Format: format, Args: args}
	return s
}

// tr is s, a sentence of the request's making, in lang: by what say
// remembers of it, or as a key of the catalog.
func (r *request) tr(lang, s string) string {
	if t, ok := r.said[s]; ok {
		return templates.Sprintf(lang, t.Format, t.Args...)
	}
	return templates.T(lang, s)
}

// trLines is tr of each line.
func (r *request) trLines(lang string, lines []string) []string {
	if lang == templates.English {
		return lines
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = r.tr(lang, l)
	}
	return out
}

// renderIn fills a template in a language; see render.
func renderIn(lang, name string, data any) (string, error) {
	s, err := templates.RenderIn(lang, name, data)
	if err != nil {
		return "", fmt.Errorf("template %s: %w", name, err)
	}
	return s, nil
}

// setLanguage sets the language of the account's mails, or tells it.
// Commands stay English whatever it is.
func (c *cmd) setLanguage(s userSetting) error {
	u, err := c.r.tx.User(s.id)
	if err != nil {
		return err
	}
	offered := strings.Join(templates.Languages(), ", ")
	if len(s.values) == 0 {
		lang := userLanguage(u)
		c.r.replyText(c.r.sender(), "pbemd: language of "+u.ID, templates.Sprintf(lang,
			"The mails of %s are in %s.\nTo change it, send: set language %s PASSWORD LANGUAGE (one of %s)\n",
			u.ID, languageName(lang), u.ID, offered))
		return nil
	}
	lang, ok := templates.Language(s.values[0])
	if len(s.values) > 1 || !ok {
		f := fail("%q is not a language offered here; write one of %s, such as \"set language %s PASSWORD de\"",
			strings.Join(s.values, " "), offered, u.ID)
		for _, form := range commandOf([]string{"set"}).forms { // its own form, not the first of set's
			if strings.HasPrefix(form.words, "set language ") {
				f.forms = []string{form.words}
			}
		}
		return f
	}
	if u.Extra == nil {
		u.Extra = map[string]string{}
	}
	u.Extra[languageKey] = lang
	if err := c.r.tx.PutUser(u); err != nil {
		return err
	}
	if contains(u.Addresses, c.r.sender()) {
		c.r.lang = lang // the answers to this mail are his from now on
	}
	c.r.replyText(c.r.sender(), "pbemd: language of "+u.ID, templates.Sprintf(lang,
		"From now on the mails of %s are in %s. Commands stay English, as \"help\" shows them.\n",
		u.ID, languageName(lang)))
	return nil
}

// languageName is the name of lang in lang itself: "Deutsch".
func languageName(lang string) string {
	t := language.Make(lang)
	return display.Self.Name(t)
}
