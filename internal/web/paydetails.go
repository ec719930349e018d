package web

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"tappbook/internal/payee"
	"tappbook/templates"
)

// payDetails answers the form of /g/{id}/pay: how a player is paid, checked
// and kept as the API's PUT …/players/{name}/pay keeps it; a refusal is
// shown above the page in the page's language, and nothing is kept.
func (u ui) payDetails(c echo.Context) error {
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	if _, err := u.svc.SetPay(c.Request().Context(), gameID(c), form.Get("player"), formDetails(form), ""); err != nil {
		status := u.formStatus(c, err)
		return u.renderPayWith(c, status, func(v *templates.PayView) { v.Details = typedDetails(form, u.localizer(c).Error(err)) })
	}
	return c.Redirect(http.StatusSeeOther, detailsSaved("/g/"+gameID(c)+"/pay", form.Get("player")))
}

// typedDetails is the form as typed, to be shown again with its refusal.
func typedDetails(form url.Values, refusal string) templates.PayDetailsTyped {
	return templates.PayDetailsTyped{Refusal: refusal, Player: form.Get("player"), Name: form.Get("name"), IBAN: form.Get("iban"),
		Swish: form.Get("swish"), PayPal: form.Get("paypal"), Street: form.Get("street"), Postcode: form.Get("postcode"),
		Town: form.Get("town"), Country: form.Get("country")}
}

// formDetails reads how one is paid from the pay details form
// (templates.PayDetailsForm), as typed: the decide step checks it.
func formDetails(form url.Values) payee.Details {
	d := payee.Details{Name: form.Get("name"), IBAN: form.Get("iban"), Swish: form.Get("swish"), PayPal: form.Get("paypal")}
	if a := (payee.Address{Street: form.Get("street"), Postcode: form.Get("postcode"), Town: form.Get("town"), Country: form.Get("country")}); a != (payee.Address{}) {
		d.Address = &a
	}
	return d
}
