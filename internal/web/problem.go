package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"tappbook/internal/events"
	"tappbook/internal/i18n"
	"tappbook/internal/problem"
	"tappbook/templates"
)

// problem renders an error of a page's handler as a page; a server error
// goes on to the error handler, which logs it.
func (u ui) problem(c echo.Context, err error) error {
	status, _ := statusOf(err)
	if status >= 500 {
		return err
	}
	return u.errorPage(c, status, err)
}

// formStatus is the status of a form answered on its own page, its
// refusal shown beside what was typed: the refusal's, or for the server's
// failure (a database out of reach, a store that stopped writing) its 5xx
// with the Retry-After and the log line the error handler gives every
// other answer.
func (u ui) formStatus(c echo.Context, err error) int {
	status, _ := statusOf(err)
	if status >= 500 {
		setRetryAfter(c, err)
		logFailed(u.log, c, err)
	}
	return status
}

// errorPage says in the reader's language what went wrong, with a way back:
// to the evening's table where there is one, and to the start page.
func (u ui) errorPage(c echo.Context, status int, err error) error {
	p, loc := u.page(c, "problem.title")
	back, backLabel := p.Base, "problem.back" // the evening's table, or the group's tab
	if onGroup(c) {
		back, backLabel = p.Root+"/groups/"+c.Param("id")+"/tab", "problem.back-group"
	}
	pe, _ := problem.As(err)
	if pe != nil && (pe.Code == "notfound.game" || pe.Code == "group.unknown") {
		back = ""
	}
	if c.Request().Method != http.MethodGet && back != "" {
		// An answer to a post switches language and theme on the page it
		// came from: the post's own address takes no GET.
		p.Path = back
	}
	closed := pe != nil && pe.Code == "conflict.closed"
	if closed {
		p.EveningClosed = true // nothing more is recorded: the screen may rest
	}
	v := templates.ProblemView{Page: p, Message: problemMessage(loc, c.Request(), status, err)}
	if closed && back != "" && !onGroup(c) && !p.ReadOnly {
		// The refusal says the evening must be reopened first: the way on
		// is the form that does it.
		v.Next, v.NextLabel = reopenForm(p), loc.T("problem.reopen")
	}
	if back != "" && c.Request().URL.Path != back {
		v.Back, v.BackLabel = back, loc.T(backLabel)
	}
	return render(c, status, templates.Problem(v))
}

// problemMessage is the reader's sentence for an error: the domain's own
// message where it has one, else one by the status.
func problemMessage(loc i18n.Localizer, r *http.Request, status int, err error) string {
	path := r.URL.Path
	if _, ok := problem.As(err); ok {
		return loc.Error(err)
	}
	if errors.Is(err, events.ErrUnavailable) && r.Method == http.MethodGet {
		// A page that could not be read: nothing was being changed (a
		// deal waiting on the phone is the banner's to tell), and the way
		// on is to load it again.
		return loc.T("problem.unavailable-read")
	}
	if errors.Is(err, errBusy) {
		return loc.T("problem.busy")
	}
	if errors.Is(err, errTooManyConns) {
		return loc.T("problem.too-many-conns")
	}
	if msg, ok := storeMessage(loc, err); ok {
		return msg
	}
	var wh wrongHost
	switch {
	case errors.As(err, &wh):
		return loc.T("problem.wrong-host", strings.Join(wh.names, ", "))
	case status == http.StatusForbidden:
		return loc.T("problem.cross-site")
	case (status == http.StatusNotFound || status == http.StatusMethodNotAllowed) && strings.HasPrefix(path, "/r/"):
		return loc.T("problem.read-only")
	case status == http.StatusNotFound:
		return loc.T("problem.not-found")
	case status == http.StatusMethodNotAllowed:
		return loc.T("problem.method")
	case status == http.StatusRequestEntityTooLarge:
		return loc.T("problem.too-large")
	case status == http.StatusTooManyRequests:
		return loc.T("problem.too-many")
	case status == http.StatusBadRequest:
		return loc.T("problem.bad-request")
	case status == http.StatusServiceUnavailable:
		return loc.T("err.outcome-unknown")
	case status >= 500:
		return loc.T("err.internal")
	}
	return loc.T("problem.other")
}

// storeMessage says in the reader's language why the store did not save:
// its database does not answer or the server is stopping, or its disk is
// full.
func storeMessage(loc i18n.Localizer, err error) (string, bool) {
	switch {
	case errors.Is(err, events.ErrUnavailable), errors.Is(err, events.ErrClosed):
		return loc.T("problem.unavailable"), true
	case errors.Is(err, events.ErrDiskFull):
		return loc.T("problem.disk-full"), true
	case errors.Is(err, events.ErrFileGone):
		return loc.T("problem.file-gone"), true
	}
	return "", false
}
