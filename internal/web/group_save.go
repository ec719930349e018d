package web

import (
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"tappbook/internal/group"
	"tappbook/internal/payout"
	"tappbook/internal/problem"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// newGroup answers POST /groups/new: the group starts and its page opens;
// refused, the form again with every problem next to its field.
func (u ui) newGroup(c echo.Context) error {
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	players, unit := playersAndUnit(form)
	err = thousands("unit", form.Get("unit"))
	if err == nil {
		var st *group.State
		st, err = u.svc.Groups().CreateGroup(c.Request().Context(), group.Start{Name: form.Get("name"), Players: players, Unit: unit,
			Currency: form.Get("currency")}, form.Get("idempotency_key"))
		if err == nil {
			return c.Redirect(http.StatusSeeOther, "/groups/"+st.ID)
		}
	}
	if !problem.IsKind(err, problem.Input) {
		return u.problem(c, err)
	}
	p, loc := u.page(c, "group.new")
	v := templates.NewGroupView{Page: p, Name: templates.Field{Value: form.Get("name")}, Unit: templates.Field{Value: form.Get("unit")},
		Currency: templates.Field{Value: form.Get("currency")}, IdemKey: newKey()}
	for i := range max(groupSeats, len(form["player"])) {
		f := templates.Field{}
		if i < len(form["player"]) {
			f.Value = form["player"][i]
		}
		v.Seats = append(v.Seats, f)
	}
	// Every field on its own too, so that the form shows every problem at
	// once, each next to its field, as the evening's does; the group's own
	// refusal where it belongs.
	seats := make([]string, len(v.Seats))
	for i := range seats {
		seats[i] = strings.TrimSpace(v.Seats[i].Value)
	}
	for i, err := range payout.SeatProblems(seats) {
		if err != nil && seats[i] != "" { // a seat left empty is no member
			v.Seats[i].Error = loc.Error(err)
		}
	}
	if err := checkUnit(strings.TrimSpace(form.Get("unit"))); err != nil {
		v.Unit.Error = loc.Error(err)
	}
	if _, err := tapp.CheckCurrency(form.Get("currency")); err != nil {
		v.Currency.Error = loc.Error(err)
	}
	pe, _ := problem.As(err)
	switch msg := loc.Error(err); pe.Field {
	case "name":
		v.Name.Error = msg
	case "unit":
		v.Unit.Error = msg
	case "currency":
		v.Currency.Error = msg
	default:
		if !slices.ContainsFunc(v.Seats, func(f templates.Field) bool { return f.Error != "" }) {
			v.Error = msg // a refusal of no one field, said once at the top
		}
	}
	return render(c, http.StatusUnprocessableEntity, templates.NewGroup(v))
}
