package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"tappbook/templates"
)

// groupSeats is how many players the start-a-group form offers.
const groupSeats = 6

// newGroupForm answers GET /groups/new: the form that starts a group.
func (u ui) newGroupForm(c echo.Context) error {
	p, _ := u.page(c, "group.new")
	v := templates.NewGroupView{Page: p, Unit: templates.Field{Value: "1"}, Seats: make([]templates.Field, groupSeats), IdemKey: newKey()}
	return render(c, http.StatusOK, templates.NewGroup(v))
}
