package templates

import (
	"context"
	"io"
	"net/url"

	"github.com/a-h/templ"
	"slices"
	"strconv"
	"strings"

	"tappbook/static"
)

// asset is the address of the embedded file name (static.URL) under the
// app's root.
func asset(p Page, name string) string { return p.Root + static.URL(name) }

// langURL is the current page with another language chosen.
func langURL(p Page, lang string) string {
	u, err := url.Parse(p.Path)
	if err != nil || !strings.HasPrefix(u.Path, "/") {
		return p.Root + "/?lang=" + lang
	}
	q := u.Query()
	q.Set("lang", lang)
	u.RawQuery = q.Encode()
	return u.RequestURI()
}

// themeURL is the current page with another theme chosen.
func themeURL(p Page, theme string) string {
	u, err := url.Parse(p.Path)
	if err != nil || !strings.HasPrefix(u.Path, "/") {
		return p.Root + "/?theme=" + theme
	}
	q := u.Query()
	q.Set("theme", theme)
	u.RawQuery = q.Encode()
	return u.RequestURI()
}

// Themes: the phone's own dark mode (auto), then dark, then light, then
// back; the switch shows the one in use and leads to the next.
func nextTheme(theme string) string {
	switch theme {
	case "dark":
		return "light"
	case "light":
		return "auto"
	}
	return "dark"
}

func themeName(theme string) string {
	if theme == "" {
		return "auto"
	}
	return theme
}

func themeIcon(theme string) string {
	switch theme {
	case "dark":
		return "☾"
	case "light":
		return "☀"
	}
	return "◐"
}

// colorScheme tells the browser which colours its own controls take.
func colorScheme(theme string) string {
	if theme == "" {
		return "light dark"
	}
	return theme
}

func i64toa(n int64) string { return strconv.FormatInt(n, 10) }

// liveURL is where a game's page follows it live, or "" off a game.
func liveURL(p Page) string {
	if p.Base == "" {
		return ""
	}
	return p.Base + "/live"
}

func describedBy(id string, f Field) string {
	if f.Error != "" {
		return id + "-error"
	}
	return ""
}

// formPath is the path a form without an action posts to: the page's own.
func formPath(p Page) string {
	if u, err := url.Parse(p.Path); err == nil {
		return u.Path
	}
	return p.Path
}

// formToken is the token for a form that posts to path; empty where the
// page has no signer (a view rendered outside the server).
func formToken(p Page, path string) string {
	if p.Forms == nil {
		return ""
	}
	return p.Forms.For(path)
}

// againToken is the form token for a "next evening" address, none without one.
func againToken(p Page, again string) string {
	if again == "" {
		return ""
	}
	return formToken(p, again)
}

// hasFolded reports whether some house rules are shown under a fold.
func hasFolded(rs []RuleView) bool {
	for _, r := range rs {
		if r.Folded {
			return true
		}
	}
	return false
}

// foldedError reports whether a folded rule has an error: the fold opens.
func foldedError(rs []RuleView) bool {
	for _, r := range rs {
		if r.Folded && r.Field.Error != "" {
			return true
		}
	}
	return false
}

// CutField names the radio group of the close form's leftover unit i
// (from 0): each unit its own group, so that two units can go to two
// players; the web layer reads them back with the same names.
func CutField(i int) string { return "remainder_to." + strconv.Itoa(i+1) }

// groupMoneyFixed: a group's evening plays for the group's money, shown as
// text; only a refused unit or currency (a tampered form) shows the fields.
func groupMoneyFixed(v NewGameView) bool {
	return v.GroupMoney != "" && v.Unit.Error == "" && v.Currency.Error == ""
}

// cutRefused is the id of the close's refusal when it is about this cut, one
// left unchosen; else "".
func cutRefused(v CloseView, opts []Option) string {
	if v.Error == "" || slices.ContainsFunc(opts, func(o Option) bool { return o.Selected }) {
		return ""
	}
	return "close-error"
}

// otherName is a seat's name when it is no member's: typed, it goes in the
// seat's "someone else" field.
func otherName(members []string, name string) string {
	if slices.Contains(members, name) {
		return ""
	}
	return name
}

// text is a string written as { s } writes it, escaped, for the rows a page
// repeats (@text(h.Explanation)): templ prints each { s } through
// fmt.Sprint, two allocations and a copy a string, which for the deals of a
// table page was a third of all the page allocated. A text next to another
// keeps no space between them: join them first (@text(a + " " + b)).
type text string

func (t text) Render(_ context.Context, w io.Writer) error {
	_, err := io.WriteString(w, templ.EscapeString(string(t)))
	return err
}

// classAttr is a class attribute spread onto an element a page repeats
// (<span { classAttr("seat" + itoa(i))... }>): templ's class={…} gathers
// each element's classes into a set of its own first, which for the deals
// of a table page was an eighth of all the page allocated.
type classAttr string

func (c classAttr) Items() []templ.KeyValue[string, any] {
	return []templ.KeyValue[string, any]{{Key: "class", Value: string(c)}}
}

// seatClasses are the class attributes prefix+"0", prefix+"1"… of n seats,
// made once a page for the elements it repeats for every deal: a classAttr
// made for each element costs four allocations.
func seatClasses(prefix string, n int) []templ.Attributer {
	out := make([]templ.Attributer, n)
	for seat := range out {
		out[seat] = &templ.OrderedAttributes{{Key: "class", Value: prefix + itoa(seat)}}
	}
	return out
}

// lineAttrs are a chart line's path and class, spread: as d={…}, templ
// would copy the path, the longest text on a table page, through
// fmt.Sprint.
func lineAttrs(path string, seat int) templ.OrderedAttributes {
	return templ.OrderedAttributes{{Key: "d", Value: path}, {Key: "class", Value: "line seat" + itoa(seat)}}
}

// dealClass is the class of a deal in a table's list: "voided", "fresh",
// both or none (an empty class, as class={…} wrote it).
func dealClass(voided, fresh bool) classAttr {
	switch {
	case voided && fresh:
		return "voided fresh"
	case voided:
		return "voided"
	case fresh:
		return "fresh"
	}
	return ""
}

// standingClass is a standings row's class: its seat's colour, and "neg"
// below zero.
func standingClass(seat int, negative bool) classAttr {
	if negative {
		return classAttr("seat" + itoa(seat) + " neg")
	}
	return classAttr("seat" + itoa(seat))
}
