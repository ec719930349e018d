package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"tappbook/internal/problem"
	"tappbook/templates"
)

// addMember answers POST /groups/{id}/members: a member joins the group;
// refused, the group's page again with the message by the field.
func (u ui) addMember(c echo.Context) error {
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	name := strings.TrimSpace(form.Get("player"))
	var msg string
	if name == "" {
		// One field: "player 1 has no name", as a list of players would
		// say, is not what a person left blank here.
		msg = u.localizer(c).T("group.member-missing")
	} else if gv, verr := u.svc.Groups().View(c.Request().Context(), groupID(c)); verr == nil && gv.Group.IsMember(name) {
		// The API takes a member named again as nothing to do; a person
		// who typed the name is told it is there already.
		msg = u.localizer(c).T("group.member-already", name)
	} else {
		_, err = u.svc.Groups().AddMembers(c.Request().Context(), groupID(c), []string{name}, form.Get("idempotency_key"))
		if err == nil {
			return c.Redirect(http.StatusSeeOther, "/groups/"+groupID(c))
		}
		if !problem.IsKind(err, problem.Input) {
			return u.problem(c, err)
		}
		msg = u.localizer(c).Error(err)
	}
	v, verr := u.svc.Groups().View(c.Request().Context(), groupID(c))
	if verr != nil {
		return u.problem(c, verr)
	}
	return render(c, http.StatusUnprocessableEntity, u.groupView(c, v, templates.Field{Value: name, Error: msg}))
}
