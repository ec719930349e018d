package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"tappbook/internal/problem"
	"tappbook/templates"
)

// tabPayDetails answers the tab's form for how a member is paid (in every
// evening of the group), kept as the API's PUT …/members/{name}/pay keeps
// it; a refusal is shown beside the form in the page's language, and
// nothing is kept.
func (u ui) tabPayDetails(c echo.Context) error {
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	_, err = u.svc.Groups().SetMemberPay(c.Request().Context(), groupID(c), form.Get("player"), formDetails(form), "")
	if err == nil {
		return c.Redirect(http.StatusSeeOther, detailsSaved("/groups/"+groupID(c)+"/tab", form.Get("player")))
	}
	if !problem.IsKind(err, problem.Input) {
		return u.problem(c, err)
	}
	gv, verr := u.svc.Groups().View(c.Request().Context(), groupID(c))
	if verr != nil {
		return u.problem(c, verr)
	}
	v := u.tabView(c, gv, nil, nil)
	v.PayDetails = typedDetails(form, u.localizer(c).Error(err))
	return render(c, http.StatusUnprocessableEntity, templates.Tab(v))
}
