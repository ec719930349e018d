package payqr

import (
	"bytes"
	"image/png"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/makiuchi-d/gozxing"
	gozxingqr "github.com/makiuchi-d/gozxing/qrcode"
	"github.com/shopspring/decimal"

	"tappbook/internal/payee"
)

// The EPC069-12 guidelines' own example (section "Example"): the Belgian
// Red Cross, BPOTBEB1, BE72000000001616, EUR1, "Urgency fund".
var redCross = payee.Details{Name: "Red Cross of Belgium", IBAN: "BE72000000001616", BIC: "BPOTBEB1"}

// epcFields reads an EPC payload element by element, as EPC069-12's table
// numbers them.
type epcFields struct {
	Service, Version, Charset, Identification, BIC, Name, IBAN, Amount, Purpose, Reference, Text string
}

func readEPC(t *testing.T, payload string) epcFields {
	t.Helper()
	l := strings.Split(payload, "\n")
	if len(l) < 7 || len(l) > 12 {
		t.Fatalf("an EPC payload has 7 to 12 elements, this one %d: %q", len(l), payload)
	}
	for len(l) < 12 {
		l = append(l, "")
	}
	if len(payload) > 331 {
		t.Errorf("payload of %d bytes; EPC069-12 allows 331", len(payload))
	}
	return epcFields{l[0], l[1], l[2], l[3], l[4], l[5], l[6], l[7], l[8], l[9], l[10]}
}

func TestEPCAsTheGuidelinesExample(t *testing.T) {
	text, ok := EPC(Payment{To: redCross, Amount: decimal.RequireFromString("1"), Currency: "EUR", Message: "Urgency fund"})
	if !ok {
		t.Fatal("no EPC payload for a payee with name and IBAN, in EUR")
	}
	got := readEPC(t, text)
	want := epcFields{Service: "BCD", Version: "002", Charset: "1", Identification: "SCT", BIC: "BPOTBEB1",
		Name: "Red Cross of Belgium", IBAN: "BE72000000001616", Amount: "EUR1.00", Text: "Urgency fund"}
	if got != want {
		t.Errorf("EPC fields\n got %+v\nwant %+v", got, want)
	}
	// The example writes EUR1: the same amount.
	if a := decimal.RequireFromString(strings.TrimPrefix(got.Amount, "EUR")); !a.Equal(decimal.NewFromInt(1)) {
		t.Errorf("amount %s, want 1", a)
	}
}

func TestEPCOnlyInEuroWithIBANAndName(t *testing.T) {
	one := decimal.RequireFromString("3.50")
	for name, p := range map[string]Payment{
		"CHF":        {To: redCross, Amount: one, Currency: "CHF"},
		"no IBAN":    {To: payee.Details{Name: "Anna", Swish: "+46701234567"}, Amount: one, Currency: "EUR"},
		"zero":       {To: redCross, Amount: decimal.Zero, Currency: "EUR"},
		"too small":  {To: redCross, Amount: decimal.RequireFromString("0.001"), Currency: "EUR"},
		"over a bn.": {To: redCross, Amount: decimal.RequireFromString("1000000000"), Currency: "EUR"},
	} {
		if text, ok := EPC(p); ok {
			t.Errorf("%s: an EPC payload %q", name, text)
		}
	}
}

// The Swiss Implementation Guidelines QR-bill's creditor (Robert Schneider
// AG, Rue du Lac 1268, 2501 Biel, CH, account CH58 0079 1123 0008 8901 2).
var schneider = payee.Details{Name: "Robert Schneider AG", IBAN: "CH5800791123000889012",
	Address: &payee.Address{Street: "Rue du Lac 1268", Postcode: "2501", Town: "Biel", Country: "CH"}}

func TestQRBillFieldByField(t *testing.T) {
	text, ok := QRBill(Payment{To: schneider, Amount: decimal.RequireFromString("1949.75"), Currency: "CHF", Message: "tappbook Thursday 2026-11-27"})
	if !ok {
		t.Fatal("no QR-bill for a Swiss IBAN with name and address, in CHF")
	}
	l := strings.Split(text, "\n")
	if len(l) != 31 {
		t.Fatalf("%d elements, want 31 (header to trailer, no bill information): %q", len(l), text)
	}
	// The guidelines' data elements, by their line.
	for _, f := range []struct {
		line       int
		name, want string
	}{
		{1, "QRType", "SPC"}, {2, "Version", "0200"}, {3, "Coding", "1"}, {4, "IBAN", "CH5800791123000889012"},
		{5, "Cdtr.AdrTp", "S"}, {6, "Cdtr.Name", "Robert Schneider AG"}, {7, "Cdtr.StrtNmOrAdrLine1", "Rue du Lac 1268"},
		{8, "Cdtr.BldgNbOrAdrLine2", ""}, {9, "Cdtr.PstCd", "2501"}, {10, "Cdtr.TwnNm", "Biel"}, {11, "Cdtr.Ctry", "CH"},
		{12, "UltmtCdtr.AdrTp", ""}, {18, "UltmtCdtr.Ctry", ""},
		{19, "CcyAmt.Amt", "1949.75"}, {20, "CcyAmt.Ccy", "CHF"},
		{21, "UltmtDbtr.AdrTp", ""}, {27, "UltmtDbtr.Ctry", ""},
		{28, "RmtInf.Tp", "NON"}, {29, "RmtInf.Ref", ""}, {30, "AddInf.Ustrd", "tappbook Thursday 2026-11-27"}, {31, "AddInf.Trailer", "EPD"},
	} {
		if got := l[f.line-1]; got != f.want {
			t.Errorf("line %d (%s) = %q, want %q", f.line, f.name, got, f.want)
		}
	}
	if strings.HasSuffix(text, "\n") {
		t.Error("the last element must not end with a line break")
	}
}

func TestQRBillRefusesWhatSwissAppsRefuse(t *testing.T) {
	amount := decimal.RequireFromString("10")
	qrIBAN := schneider
	qrIBAN.IBAN = "CH4431999123000889012" // a QR-IBAN needs a QR reference
	noAddress := schneider
	noAddress.Address = nil
	for name, p := range map[string]Payment{
		"SEK":        {To: schneider, Amount: amount, Currency: "SEK"},
		"QR-IBAN":    {To: qrIBAN, Amount: amount, Currency: "CHF"},
		"no address": {To: noAddress, Amount: amount, Currency: "CHF"},
		"German IBAN": {To: payee.Details{Name: "Anna", IBAN: "DE89370400440532013000", Address: schneider.Address},
			Amount: amount, Currency: "EUR"},
	} {
		if text, ok := QRBill(p); ok {
			t.Errorf("%s: a QR-bill %q", name, text)
		}
	}
	text, ok := QRBill(Payment{To: payee.Details{Name: "Zoë 🂡", IBAN: schneider.IBAN, Address: schneider.Address},
		Amount: amount, Currency: "EUR", Message: "tappbook Jass 🂡"})
	if !ok || strings.Split(text, "\n")[5] != "Zoë ." || strings.Split(text, "\n")[29] != "tappbook Jass ." {
		t.Errorf("characters outside the QR-bill's set are not replaced: %q", text)
	}
}

func TestSwishAsTheSpecificationsExample(t *testing.T) {
	// Swish QR code specification 6.1: company 1237856901, 100 SEK, OCR
	// 12229445, nothing editable.
	text, ok := Swish(Payment{To: payee.Details{Swish: "1237856901"}, Amount: decimal.NewFromInt(100), Currency: "SEK", Message: "12229445"})
	if !ok || text != "C1237856901;100,00;12229445;0" {
		t.Errorf("Swish = %q, %v; want the specification's C1237856901;100,00;12229445;0", text, ok)
	}
	text, _ = Swish(Payment{To: payee.Details{Swish: "+46701234567"}, Amount: decimal.RequireFromString("3.5"), Currency: "SEK",
		Message: "tappbook Torsdag & vänner 2026-11-27"})
	f := strings.Split(strings.TrimPrefix(text, "C"), ";")
	if len(f) != 4 {
		t.Fatalf("%q: want payee;amount;message;mask", text)
	}
	msg, err := url.QueryUnescape(f[2])
	if f[0] != "0701234567" || f[1] != "3,50" || err != nil || msg != "tappbook Torsdag & vänner 2026-11-27" || f[3] != "0" {
		t.Errorf("fields %q (message %q, %v)", f, msg, err)
	}
	if _, ok := Swish(Payment{To: payee.Details{Swish: "+46701234567"}, Amount: decimal.NewFromInt(1), Currency: "EUR"}); ok {
		t.Error("a Swish code for euros")
	}
}

func TestPayPalLink(t *testing.T) {
	text, ok := PayPal(Payment{To: payee.Details{PayPal: "annamuster"}, Amount: decimal.RequireFromString("3.5"), Currency: "EUR"})
	if !ok || text != "https://paypal.me/annamuster/3.50EUR" {
		t.Errorf("PayPal = %q, %v", text, ok)
	}
}

func TestWaysInOrderAndTheFirstAsAQRCode(t *testing.T) {
	both := schneider
	both.PayPal = "robertschneider"
	ways := Ways(Payment{To: both, Amount: decimal.RequireFromString("12.30"), Currency: "EUR", Message: Message("Thursday table", time.Date(2026, 11, 27, 23, 0, 0, 0, time.UTC))})
	var kinds []string
	for _, w := range ways {
		kinds = append(kinds, w.Kind)
	}
	if strings.Join(kinds, ",") != "epc,qrbill,paypal" {
		t.Fatalf("ways %v, want epc,qrbill,paypal (a Swiss IBAN with an address takes both in euro)", kinds)
	}
	b, err := PNG(ways[0].Text)
	if err != nil {
		t.Fatal(err)
	}
	if got := DecodeQR(t, b); got != ways[0].Text {
		t.Errorf("the PNG reads %q, want %q", got, ways[0].Text)
	}
	if f := readEPC(t, ways[0].Text); f.Text != "tappbook Thursday table 2026-11-27" || f.Amount != "EUR12.30" {
		t.Errorf("decoded fields %+v", f)
	}
}

// DecodeQR reads a QR code's text from a PNG, with a decoder that knows
// nothing of how it was made.
func DecodeQR(t *testing.T, b []byte) string {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	res, err := gozxingqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_CHARACTER_SET: "UTF-8"})
	if err != nil {
		t.Fatalf("no QR code read: %v", err)
	}
	return res.GetText()
}
