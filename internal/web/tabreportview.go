package web

import (
	"strconv"
	"strings"
	"time"

	"tappbook/internal/game"
	"tappbook/internal/i18n"
	"tappbook/internal/payqr"
	"tappbook/templates"
)

// tabReportView fills a group's tab to take home: what each member is
// owed and who pays whom, with the payees' QR codes unless read through
// the read-only link. Only closed evenings count in a tab, so it is
// settled as it stands.
func tabReportView(p templates.Page, loc i18n.Localizer, base string, gv game.View) templates.ReportView {
	st := gv.Group
	tab := st.Tab(gv.Games)
	v := templates.ReportView{Page: p, Settled: true, Heading: st.Name, Heads: []string{loc.T("tab.owed")},
		Back: base + "/tab", BackText: loc.T("report.back-tab"), Image: base + "/report.png",
		ImageName: "tappbook-" + fileSafe(st.Name) + ".png"}
	facts := []string{loc.T("report.evenings", tab.Evenings)}
	if st.Currency != "" {
		facts = append(facts, loc.T("report.unit", loc.Money(st.Unit, st.Currency, st.Places())))
	}
	v.Facts = strings.Join(facts, " · ")
	for i, name := range tab.Names {
		v.Standings = append(v.Standings, templates.ReportRow{Name: name, Cells: []string{loc.Money(tab.Owed[i], st.Currency, st.Places())},
			Negative: tab.Owed[i].IsNegative()})
	}
	v.Square = len(tab.Transfers) == 0
	payees := game.GroupPayees(st)
	for i, t := range tab.Transfers {
		amount := loc.Money(t.Amount, st.Currency, st.Places())
		rt := templates.ReportTransfer{Text: loc.T("close.pays", t.From, t.To, amount), From: t.From, To: t.To, Amount: amount}
		if ways := payqr.Ways(payment(payees, t.To, t.Amount, st.Currency, time.Now())); len(ways) > 0 && !p.ReadOnly {
			rt.QR, rt.Ways = p.Root+"/api/groups/"+st.ID+"/pay/"+strconv.Itoa(i)+".png", waysText(loc, ways)
		}
		v.Transfers = append(v.Transfers, rt)
	}
	return v
}

// fileSafe keeps a name's letters and digits for a file name, the rest
// as dashes.
func fileSafe(name string) string {
	out := strings.Map(func(r rune) rune {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return r
		}
		return '-'
	}, name)
	return strings.Trim(out, "-")
}
