package payqr

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"

	"rsc.io/qr"
)

// The Swiss cross a QR-bill's code carries in its middle (Swiss
// Implementation Guidelines QR-bill, "Swiss QR Code"): 7 mm of the code's
// 46, a black square with a white cross on a white border. Banking apps
// read the code without it, but it is how a person tells a QR-bill from
// any other code, and level M's error correction restores the modules it
// covers (about 2%). The proportions, of the logo's side, are those of the
// published 7 mm logo.
const (
	crossOfCode  = 7.0 / 46 // the logo's side, of the code's (no quiet zone)
	crossBorder  = 0.07     // the white border around the black square
	crossArm     = 0.20     // the cross's arms' width
	crossReach   = 0.64     // the cross from end to end
	quietModules = 4        // rsc.io/qr's quiet zone, in modules, on each side
)

// withSwissCross is the PNG of code with the Swiss cross drawn over its
// middle.
func withSwissCross(code *qr.Code) ([]byte, error) {
	plain, err := png.Decode(bytes.NewReader(code.PNG()))
	if err != nil {
		return nil, fmt.Errorf("payment QR code: %w", err)
	}
	img := image.NewGray(plain.Bounds())
	draw.Draw(img, img.Bounds(), plain, image.Point{}, draw.Src)
	side := float64(code.Size*code.Scale) * crossOfCode
	mid := float64((code.Size+2*quietModules)*code.Scale) / 2
	square := func(w, h float64, c color.Gray) {
		r := image.Rect(int(mid-w/2+0.5), int(mid-h/2+0.5), int(mid+w/2+0.5), int(mid+h/2+0.5))
		draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src)
	}
	white, black := color.Gray{Y: 0xff}, color.Gray{}
	square(side, side, white)
	square(side*(1-2*crossBorder), side*(1-2*crossBorder), black)
	square(side*crossReach, side*crossArm, white)
	square(side*crossArm, side*crossReach, white)
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, fmt.Errorf("payment QR code: %w", err)
	}
	return b.Bytes(), nil
}
