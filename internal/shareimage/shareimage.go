// Package shareimage draws a card to share in a chat: a portrait PNG with
// a title and sections of rows (a name on the left, an amount on the
// right), in the Go fonts, which carry the letters of every language
// tappbook speaks (ä, ö, ü, å, ß, é …). A name too long for its row is
// cut with an ellipsis, never run into the amount.
package shareimage

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"slices"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Width is the card's width in pixels: what chat apps show at full size
// without scaling a phone photo down. Height is at least MinHeight (4:5,
// portrait) and grows with the rows.
const (
	Width     = 1080
	MinHeight = 1350
)

// Card is what the image says.
type Card struct {
	Title    string
	Subtitle string
	Note     string // said in red under the title ("not settled yet"); "" for none
	Sections []Section
	Footer   string
}

// Section is a heading and its rows.
type Section struct {
	Heading string
	Rows    []Row
	Empty   string // said instead of rows where there are none
}

// Row is one line: the names on the left, joined by an arrow (a transfer
// is "Ben → Anna"), and the amount on the right.
type Row struct {
	Names    []string
	Amount   string
	Negative bool
}

// Sizes in pixels.
const (
	margin    = 72
	titleSize = 60
	textSize  = 36
	headSize  = 42
	rowHeight = 64
	noteSize  = 34
	footSize  = 28
	nameGap   = 32 // at least between the names and the amount
)

var (
	ink    = color.RGBA{0x11, 0x11, 0x11, 0xff}
	muted  = color.RGBA{0x55, 0x55, 0x55, 0xff}
	bad    = color.RGBA{0xb0, 0x00, 0x20, 0xff}
	band   = color.RGBA{0x0b, 0x5f, 0xff, 0xff}
	stripe = color.RGBA{0xf2, 0xf4, 0xf8, 0xff}
)

// fonts are the Go fonts, parsed once: a parsed font is only read.
var fonts = sync.OnceValues(func() ([2]*opentype.Font, error) {
	regular, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return [2]*opentype.Font{}, fmt.Errorf("the Go regular font: %w", err)
	}
	bold, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return [2]*opentype.Font{}, fmt.Errorf("the Go bold font: %w", err)
	}
	return [2]*opentype.Font{regular, bold}, nil
})

// faces are a card's typefaces, made for one drawing: a face keeps a
// cache and is not for two goroutines at once.
type faces struct{ title, text, bold, head, note, foot font.Face }

func newFaces() (faces, error) {
	f, err := fonts()
	if err != nil {
		return faces{}, err
	}
	face := func(i int, size float64) font.Face {
		// Parsed fonts and positive sizes: NewFace cannot fail here.
		fc, _ := opentype.NewFace(f[i], &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
		return fc
	}
	return faces{title: face(1, titleSize), text: face(0, textSize), bold: face(1, textSize), head: face(1, headSize),
		note: face(1, noteSize), foot: face(0, footSize)}, nil
}

// height is how tall the card is drawn, its title, subtitle and note in
// as many lines as they take.
func height(c Card, l lines) int {
	h := margin + 24 + (titleSize+12)*len(l.title) + 8 + 40 // the band, the title, the room below
	h += (textSize + 12) * len(l.sub)
	if c.Note != "" {
		h += 24 + (noteSize+10)*len(l.note)
	}
	for _, s := range c.Sections {
		h += 40 + headSize + 16 + rowHeight*max(len(s.Rows), 1)
	}
	h += 48 + footSize + margin
	return max(h, MinHeight)
}

// lines are the card's title, subtitle and note as wrapped to its width.
type lines struct{ title, sub, note []string }

// PNG draws the card.
func PNG(c Card) ([]byte, error) {
	fc, err := newFaces()
	if err != nil {
		return nil, err
	}
	room := Width - 2*margin
	l := lines{title: wrap(fc.title, c.Title, room), sub: wrap(fc.text, c.Subtitle, room), note: wrap(fc.note, c.Note, room)}
	img := image.NewRGBA(image.Rect(0, 0, Width, height(c, l)))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(0, 0, Width, 24), image.NewUniform(band), image.Point{}, draw.Src)
	y := margin + 24 - 12
	for _, line := range l.title {
		y += titleSize + 12
		text(img, fc.title, ink, margin, y, line)
	}
	y += 20
	for _, line := range l.sub {
		y += textSize + 12
		text(img, fc.text, muted, margin, y, line)
	}
	if c.Note != "" {
		y += 24
		for _, line := range l.note {
			y += noteSize + 10
			text(img, fc.note, bad, margin, y, line)
		}
	}
	for _, s := range c.Sections {
		y = section(img, fc, s, y)
	}
	if c.Footer != "" {
		text(img, fc.foot, muted, margin, img.Bounds().Dy()-margin, Fit(fc.foot, c.Footer, Width-2*margin))
	}
	var out bytes.Buffer
	if err := png.Encode(&out, img); err != nil {
		return nil, fmt.Errorf("encode the share image: %w", err)
	}
	return out.Bytes(), nil
}

// section draws a heading and its rows below y; it returns the new y.
func section(img *image.RGBA, fc faces, s Section, y int) int {
	y += 40 + headSize
	text(img, fc.head, ink, margin, y, Fit(fc.head, s.Heading, Width-2*margin))
	y += 16
	if len(s.Rows) == 0 {
		text(img, fc.text, muted, margin, y+rowHeight-20, Fit(fc.text, s.Empty, Width-2*margin))
		return y + rowHeight
	}
	for i, r := range s.Rows {
		if i%2 == 0 {
			draw.Draw(img, image.Rect(margin-16, y, Width-margin+16, y+rowHeight), image.NewUniform(stripe), image.Point{}, draw.Src)
		}
		base := y + rowHeight - 20
		amount := font.MeasureString(fc.bold, r.Amount).Ceil()
		col := ink
		if r.Negative {
			col = bad
		}
		text(img, fc.bold, col, Width-margin-amount, base, r.Amount)
		text(img, fc.text, ink, margin, base, names(fc.text, r.Names, Width-2*margin-amount-nameGap))
		y += rowHeight
	}
	return y
}

// names joins a row's names with arrows; where together they do not fit,
// the room is shared out, shortest name first: a name that fits its share
// stays whole and leaves the rest to the others, which are cut to fit.
func names(face font.Face, ns []string, room int) string {
	const arrow = " → "
	whole := strings.Join(ns, arrow)
	if font.MeasureString(face, whole).Ceil() <= room || len(ns) == 0 {
		return whole
	}
	left := room - font.MeasureString(face, arrow).Ceil()*(len(ns)-1)
	order := make([]int, len(ns))
	for i := range order {
		order[i] = i
	}
	width := func(i int) int { return font.MeasureString(face, ns[i]).Ceil() }
	slices.SortStableFunc(order, func(a, b int) int { return width(a) - width(b) })
	cut := make([]string, len(ns))
	for k, i := range order {
		share := left / (len(ns) - k)
		cut[i] = Fit(face, ns[i], share)
		left -= font.MeasureString(face, cut[i]).Ceil()
	}
	return strings.Join(cut, arrow)
}

// wrap breaks s into lines that fit room, between words; a word longer
// than a line is cut to fit.
func wrap(face font.Face, s string, room int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		next := strings.TrimSpace(line + " " + w)
		if line != "" && font.MeasureString(face, next).Ceil() > room {
			lines = append(lines, Fit(face, line, room))
			next = w
		}
		line = next
	}
	if line != "" {
		lines = append(lines, Fit(face, line, room))
	}
	return lines
}

// Fit is s as it fits in room pixels in the face: whole, or cut with an
// ellipsis.
func Fit(face font.Face, s string, room int) string {
	if font.MeasureString(face, s).Ceil() <= room {
		return s
	}
	r := []rune(s)
	for len(r) > 0 {
		r = r[:len(r)-1]
		t := strings.TrimRight(string(r), " ") + "…"
		if font.MeasureString(face, t).Ceil() <= room {
			return t
		}
	}
	return "…"
}

func text(img *image.RGBA, face font.Face, c color.Color, x, y int, s string) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: face, Dot: fixed.P(x, y)}
	d.DrawString(s)
}
