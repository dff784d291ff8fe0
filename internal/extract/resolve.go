package extract

import (
	"math"

	"productsearch/internal/catalog"
	"productsearch/internal/lexer"
)

// capRole is what a GB figure turns out to be.
type capRole uint8

const (
	roleUndecided capRole = iota
	roleMem
	roleSto
	roleSkip
)

// resolve turns the figures found into values, applying the category's rules.
func (a *analysis) resolve() Values {
	r := a.rules
	var mem, sto, scr, res, resWeak, ref, pow, wifi, wifiClass collector
	a.capacities(&mem, &sto)
	for _, m := range a.ments[:a.nments] {
		switch m.kind {
		case mkScreen:
			if m.val >= r.scrMin && m.val <= r.scrMax {
				scr.add(m.val)
			}
		case mkRes:
			res.add(m.val)
		case mkResWeak:
			resWeak.add(m.val)
		case mkRefresh:
			if m.val >= 24 && m.val <= 1000 {
				ref.add(m.val)
			}
		case mkPower:
			if m.val >= 0.5 && m.val <= 5000 {
				pow.add(m.val)
			}
		case mkWifi:
			wifi.add(m.val)
		case mkWifiClass:
			wifiClass.add(m.val)
		}
	}
	if res.n == 0 {
		res = resWeak
	}
	if wifi.n == 0 {
		wifi = wifiClass // "Wi-Fi 5" outranks the class "AX5700"
	}
	var out Values
	put := func(name string, bit attrSet, c collector) {
		if c.n != 1 || r.allow&bit == 0 || a.drop&bit != 0 || c.v <= 0 || math.IsInf(c.v, 0) {
			return
		}
		if out == nil {
			out = make(Values, 4)
		}
		out[name] = c.v
	}
	put(catalog.MemoryGB, aMem, mem)
	put(catalog.StorageGB, aSto, sto)
	put(catalog.ScreenIn, aScr, scr)
	put(catalog.ResolutionP, aRes, res)
	put(catalog.RefreshHz, aRef, ref)
	if r.powerSupply && !a.psuTitle {
		r.allow &^= aPow
	}
	put(catalog.PowerW, aPow, pow)
	put(catalog.WifiGen, aWifi, wifi)
	return out
}

// collector gathers the values stated for one attribute: n is 0 (none), 1
// (one value) or 2 (different values).
type collector struct {
	v float64
	n uint8
}

func (c *collector) add(v float64) {
	switch {
	case c.n == 0:
		c.v, c.n = v, 1
	case c.n == 1 && c.v != v:
		c.n = 2
	}
}

// capLink says how two neighbouring GB figures are joined.
type capLink uint8

const (
	linkNone  capLink = iota
	linkPair          // "8GB/256GB", "(8GB + 256GB)", "8GB 256GB", "16GB, 512GB"
	linkRange         // "8GB-16GB", "8GB to 16GB", "8 or 16GB"
)

// link classifies the tokens between two figures.
func (a *analysis) link(from, to int) capLink {
	if to-from > 3 {
		return linkNone
	}
	l := linkPair
	for k := from; k < to; k++ {
		t := a.toks[k]
		switch t.Kind {
		case lexer.Symbol:
			switch t.Sym {
			case '/', '+', ',', '&', '|', '(', ')', ';':
			case '-':
				if !t.Gap && a.tight(k+1) {
					l = linkRange
				}
			case '~':
				l = linkRange
			default:
				return linkNone
			}
		case lexer.Word:
			switch a.word(k) {
			case "and", "plus":
			case "to", "or":
				l = linkRange
			default:
				return linkNone
			}
		default:
			return linkNone
		}
	}
	return l
}

// capacities decides which GB figures are RAM and which storage.
func (a *analysis) capacities(mem, sto *collector) {
	r := a.rules
	caps := a.caps[:a.ncaps]
	// "32GB (2x16GB)": the kit restates the figure before it.
	for k := 1; k < len(caps); k++ {
		p, q := &caps[k-1], &caps[k]
		if q.kit && !p.kit && p.val == q.val && p.label != lbVRAM && a.link(p.tok1, q.tok0) == linkPair {
			if p.label == lbNone {
				p.label, p.kit = q.label, true
			}
			p.tok1 = q.tok1
			q.label = lbIgnored
		}
	}
	var role [maxCaps]capRole
	var involved [maxCaps]bool
	for k, c := range caps {
		switch {
		case c.label == lbMem:
			role[k] = roleMem
		case c.label == lbSto:
			role[k] = roleSto
			if c.kit {
				role[k] = roleSkip // a multi-pack of cards or drives
			}
		case c.label == lbVRAM || c.label == lbIgnored:
			role[k] = roleSkip
		case c.kit:
			// Sticks of RAM come in kits; drives and cards in multi-packs
			// whose total is not one device's storage.
			role[k] = roleSkip
			if a.ramTitle {
				role[k] = roleMem
			} else {
				a.drop |= aSto
			}
		case c.tb:
			role[k] = roleSto
		}
	}
	for k := 1; k < len(caps); k++ {
		// The figure this one pairs with: the previous one, looking through
		// ignored figures ("8GB RAM + 8GB virtual RAM + 128GB").
		p := k - 1
		l := a.link(caps[p].tok1, caps[k].tok0)
		for l == linkPair && role[p] == roleSkip && p > 0 {
			p--
			l = a.link(caps[p].tok1, caps[p+1].tok0)
		}
		if role[p] == roleSkip || role[k] == roleSkip {
			continue
		}
		switch l {
		case linkRange:
			// "8GB-16GB RAM": two values of whatever the labelled one is.
			switch {
			case role[p] == roleMem || role[k] == roleMem:
				a.drop |= aMem
			case role[p] == roleSto || role[k] == roleSto:
				a.drop |= aSto
			default:
				a.drop |= aMem | aSto
			}
			role[p], role[k] = roleSkip, roleSkip
			continue
		case linkNone:
			continue
		}
		involved[p], involved[k] = true, true
		pv, kv := caps[p].val, caps[k].val
		switch {
		case role[p] == roleMem && role[k] == roleUndecided:
			if kv > pv && (r.ramMax > 0 || r.allow&aSto != 0 && !a.ctx.Accessory) {
				role[k] = roleSto
			}
		case role[p] == roleUndecided && role[k] == roleSto:
			if r.ramMax > 0 && !caps[p].tb && pv <= r.ramMax && kv >= 2*pv {
				role[p] = roleMem
			}
		case role[p] == roleUndecided && role[k] == roleUndecided:
			switch {
			case r.ramMax > 0 && !caps[p].tb && pv <= r.ramMax && kv >= 4*pv:
				role[p], role[k] = roleMem, roleSto
			case r.eitherOrder && !caps[k].tb && kv <= r.ramMax && pv >= 4*kv:
				role[p], role[k] = roleSto, roleMem // "64GB 4GB" on a phone
			}
		case role[p] == roleUndecided && role[k] == roleMem:
			if r.ramMax > 0 && pv >= 4*kv {
				role[p] = roleSto
			}
		}
	}
	for k, c := range caps {
		if role[k] != roleUndecided || involved[k] {
			continue
		}
		switch {
		case a.ramTitle && r.ramModule && r.allow&aMem != 0:
			role[k] = roleMem
		case r.loneSto > 0 && c.val >= r.loneSto:
			role[k] = roleSto
		}
	}
	for k, c := range caps {
		switch role[k] {
		case roleMem:
			if c.val >= 0.5 && c.val <= 2048 {
				mem.add(c.val)
			}
		case roleSto:
			sto.add(c.val)
		}
	}
}
