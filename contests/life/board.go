package life

import (
	"encoding/binary"
	"math/bits"
)

// Board is the Life Grid (Life R5) in the form the generation engine works on:
// 64 cells per word, one bit per cell for the State (R10), and an Owner per cell
// for the Controller, an index into the round's list of Controllers (0 is the
// contest). A Controller is meaningful only where the cell is Alive, so a death
// never has to touch it.
//
// Coordinates inside a Board run 0..W-1 and 0..H-1; X0 and Y0 add the
// regulations' Xmin and Ymin back for the tie draws (ruling L3).
type Board struct {
	W, H   int
	X0, Y0 int
	// Owners turns Controller tracking off when false (the Life-only run of the
	// benchmark): only the States are computed.
	Owners bool
	// Tie breaks a 3-way tie for the Parent of a Born cell (Life R18, ruling L3).
	Tie TieBreaker

	n     int      // words per row
	last  uint64   // mask of the last word of a row
	alive []uint64 // H rows of n words
	next  []uint64
	owner []Owner // W*H, row-major
	hb    [4][]uint64
	// Gen counts the generations run; the one being run is Gen+1 (ruling L3).
	Gen int
}

// Owner is a Controller's index on a Board (0: the contest). Every Controller
// Controls a living Cell, so there are fewer Controllers than Cells, and 32
// bits number the Cells of the largest Grid the parameters allow (Life R6:
// 8193 x 8193): no number of contestants is too many.
type Owner = uint32

// NewBoard makes an empty W x H torus.
func NewBoard(w, h int) *Board {
	n := (w + 63) / 64
	b := &Board{W: w, H: h, Owners: true, n: n, alive: make([]uint64, n*h), next: make([]uint64, n*h), owner: make([]Owner, w*h)}
	b.last = ^uint64(0)
	if r := w % 64; r != 0 {
		b.last = 1<<uint(r) - 1
	}
	for i := range b.hb {
		b.hb[i] = make([]uint64, 2*n)
	}
	return b
}

// Set makes (x, y) Alive and Controlled by owner (from 1), or Dead for 0.
func (b *Board) Set(x, y int, owner Owner) {
	i := y*b.n + x>>6
	if owner == 0 {
		b.alive[i] &^= 1 << uint(x&63)
		return
	}
	b.alive[i] |= 1 << uint(x&63)
	b.owner[y*b.W+x] = owner
}

// At is the Controller of (x, y): 0 (the contest) when Dead.
func (b *Board) At(x, y int) Owner {
	if b.alive[y*b.n+x>>6]>>uint(x&63)&1 == 0 {
		return 0
	}
	return b.owner[y*b.W+x]
}

// Population counts the living cells.
func (b *Board) Population() int {
	t := 0
	for _, w := range b.alive {
		t += bits.OnesCount64(w)
	}
	return t
}

// Each calls f for every living cell, row by row.
func (b *Board) Each(f func(x, y int, owner Owner)) {
	for y := 0; y < b.H; y++ {
		for k := 0; k < b.n; k++ {
			w := b.alive[y*b.n+k]
			for w != 0 {
				x := k<<6 + bits.TrailingZeros64(w)
				w &= w - 1
				f(x, y, b.owner[y*b.W+x])
			}
		}
	}
}

// hsum computes, for one row r, the bit-sliced sum of each cell's west, own and
// east States (0..3) into h[0:n] (bit 0) and h[n:2n] (bit 1). West and east wrap
// around the row (Life R12).
func (b *Board) hsum(r []uint64, h []uint64) {
	n, w := b.n, b.W
	lo, hi := h[:n], h[n:2*n]
	wbit := r[(w-1)>>6] >> uint((w-1)&63) & 1 // the cell at x = W-1
	for k := 0; k < n; k++ {
		c := r[k]
		var west, east uint64 // west: the cell at x-1 brought to x; east: x+1
		if k == 0 {
			west = c<<1 | wbit
		} else {
			west = c<<1 | r[k-1]>>63
		}
		if k == n-1 {
			east = c>>1 | (r[0]&1)<<uint((w-1)&63)
		} else {
			east = c>>1 | r[k+1]<<63
		}
		x := west ^ east
		lo[k] = x ^ c
		hi[k] = west&east | x&c
	}
}

// Step runs one Generation (Life R20, ruling L4): B3/S23 on the torus, all cells
// at once. Survivors keep their Controller (R8); Born cells get their Parent
// (R17, R18); Killed cells become the contest's (R19) by their bit alone.
//
// Neighbour counting (the eight neighbours of Life R11) is bit-sliced: each row's horizontal sums (0..3, two bit
// planes) are computed once and added for the rows above, at and below, giving
// the count of the 3x3 block including the cell itself (0..9, four bit planes).
// A cell lives next if that total is 3, or 4 and it is alive now.
func (b *Board) Step() {
	n, h := b.n, b.H
	// Rolling horizontal sums: rows y-1, y, y+1, and row 0 kept for the wrap.
	up, mid, down, first := b.hb[0], b.hb[1], b.hb[2], b.hb[3]
	b.hsum(b.alive[(h-1)*n:h*n], up)
	b.hsum(b.alive[0:n], first)
	copy(mid, first)
	for y := 0; y < h; y++ {
		if y+1 < h {
			b.hsum(b.alive[(y+1)*n:(y+2)*n], down)
		} else {
			copy(down, first)
		}
		row := b.alive[y*n : (y+1)*n]
		out := b.next[y*n : (y+1)*n]
		a0, a1 := up[:n], up[n:]
		b0, b1 := mid[:n], mid[n:]
		c0, c1 := down[:n], down[n:]
		for k := 0; k < n; k++ {
			// weight 1: three bits
			x := a0[k] ^ b0[k]
			s0 := x ^ c0[k]
			cy := a0[k]&b0[k] | x&c0[k] // carry into weight 2
			// weight 2: a1 + b1 + c1 + cy (0..4)
			y1 := a1[k] ^ b1[k]
			u0 := y1 ^ c1[k]
			u1 := a1[k]&b1[k] | y1&c1[k]
			t0 := u0 ^ cy
			kk := u0 & cy
			t1 := u1 ^ kk
			t2 := u1 & kk
			// total = s0 + 2 t0 + 4 t1 + 8 t2; 3 is 0011, 4 is 0100
			three := s0 & t0 &^ t1
			four := t1 &^ (s0 | t0)
			out[k] = (three | four&row[k]) &^ t2
		}
		out[n-1] &= b.last
		if b.Owners {
			b.births(y, row, out)
		}
		up, mid, down = mid, down, up
	}
	b.alive, b.next = b.next, b.alive
	b.Gen++
}

// births sets the Controller of every cell Born in row y: the Controller of
// most of its living neighbours (Life R18). A Born cell has exactly three living
// neighbours (R20), so the Parent is the Controller of two or three of them, or,
// when all three differ, one of the three drawn by the keyed function (L3).
func (b *Board) births(y int, row, out []uint64) {
	w, h, n := b.W, b.H, b.n
	ym, yp := y-1, y+1
	if ym < 0 {
		ym = h - 1
	}
	if yp == h {
		yp = 0
	}
	above, below := b.alive[ym*n:(ym+1)*n], b.alive[yp*n:(yp+1)*n]
	rows := [3]int{ym * w, y * w, yp * w}
	for k := range out {
		born := out[k] &^ row[k]
		for born != 0 {
			j := bits.TrailingZeros64(born)
			born &= born - 1
			x := k<<6 + j
			if j == 0 || j == 63 || x+1 >= w {
				b.owner[y*w+x] = b.bornAtEdge(x, y, ym, yp)
				continue
			}
			// The 3x3 block as three 3-bit windows, 4 bits apart; the cell
			// itself is Dead. Exactly three bits are set (R20).
			s := uint(j - 1)
			m := above[k]>>s&7 | (row[k]>>s&7)<<4 | (below[k]>>s&7)<<8
			i0 := bits.TrailingZeros64(m)
			m &= m - 1
			i1 := bits.TrailingZeros64(m)
			m &= m - 1
			i2 := bits.TrailingZeros64(m)
			o := b.owner
			p := o[rows[i0>>2]+x-1+i0&3]
			q := o[rows[i1>>2]+x-1+i1&3]
			r := o[rows[i2>>2]+x-1+i2&3]
			b.owner[y*w+x] = b.parent(p, q, r, x, y)
		}
	}
}

// bornAtEdge finds the Parent of a cell whose neighbours straddle a word or
// the torus seam (Life R12), position by position: the eight neighbours of
// Life R11, in its order.
func (b *Board) bornAtEdge(x, y, ym, yp int) Owner {
	w := b.W
	xm, xp := x-1, x+1
	if xm < 0 {
		xm = w - 1
	}
	if xp == w {
		xp = 0
	}
	var o [9]Owner
	m := 0
	for _, p := range [8][2]int{{xp, yp}, {xp, y}, {xp, ym}, {x, ym}, {xm, ym}, {xm, y}, {xm, yp}, {x, yp}} {
		o[m] = b.owner[p[1]*w+p[0]]
		m += int(b.alive[p[1]*b.n+p[0]>>6] >> uint(p[0]&63) & 1)
	}
	return b.parent(o[0], o[1], o[2], x, y)
}

// parent picks the majority of three Controllers, or draws among three distinct
// ones sorted by index (ruling L3).
func (b *Board) parent(p, q, r Owner, x, y int) Owner {
	switch {
	case p == q || p == r:
		return p
	case q == r:
		return q
	}
	if p > q {
		p, q = q, p
	}
	if q > r {
		q, r = r, q
	}
	if p > q {
		p, q = q, p
	}
	return [3]Owner{p, q, r}[b.Tie.Draw(b.Gen+1, b.X0+x, b.Y0+y, 3)]
}

// TieBreaker is the keyed function of ruling L3: one key per Round, derived
// from the week's committed seed, and SipHash-2-4 of (generation, x, y) under
// it, so a tie costs nanoseconds and any player can recompute it from the
// revealed seed.
type TieBreaker struct{ K0, K1 uint64 }

// NewTieBreaker reads the first 16 bytes of key (little-endian) as SipHash keys.
func NewTieBreaker(key []byte) TieBreaker {
	return TieBreaker{K0: binary.LittleEndian.Uint64(key[0:8]), K1: binary.LittleEndian.Uint64(key[8:16])}
}

// Draw returns SipHash-2-4(key, gen as 8 bytes LE || x as 4 bytes LE || y as 4
// bytes LE) mod n: the index, among the tied Controllers in the order of the
// round's list, of the Parent. gen counts from 1 within the Round.
func (t TieBreaker) Draw(gen, x, y, n int) int {
	m0 := uint64(gen)
	m1 := uint64(uint32(x)) | uint64(uint32(y))<<32
	return int(sip16(t.K0, t.K1, m0, m1) % uint64(n))
}

// sip16 is SipHash-2-4 of a 16-byte message given as two little-endian words.
func sip16(k0, k1, m0, m1 uint64) uint64 {
	v0 := k0 ^ 0x736f6d6570736575
	v1 := k1 ^ 0x646f72616e646f6d
	v2 := k0 ^ 0x6c7967656e657261
	v3 := k1 ^ 0x7465646279746573
	round := func() {
		v0 += v1
		v1 = bits.RotateLeft64(v1, 13)
		v1 ^= v0
		v0 = bits.RotateLeft64(v0, 32)
		v2 += v3
		v3 = bits.RotateLeft64(v3, 16)
		v3 ^= v2
		v0 += v3
		v3 = bits.RotateLeft64(v3, 21)
		v3 ^= v0
		v2 += v1
		v1 = bits.RotateLeft64(v1, 17)
		v1 ^= v2
		v2 = bits.RotateLeft64(v2, 32)
	}
	for _, m := range []uint64{m0, m1} {
		v3 ^= m
		round()
		round()
		v0 ^= m
	}
	b := uint64(16) << 56
	v3 ^= b
	round()
	round()
	v0 ^= b
	v2 ^= 0xff
	round()
	round()
	round()
	round()
	return v0 ^ v1 ^ v2 ^ v3
}
