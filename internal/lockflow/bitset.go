package lockflow

import "math/bits"

// bitset is a set of small non-negative integers (read-site indices).
type bitset []uint64

func (s bitset) has(i int) bool {
	w := i / 64
	return w < len(s) && s[w]&(1<<(uint(i)%64)) != 0
}

func (s *bitset) add(i int) {
	w := i / 64
	for len(*s) <= w {
		*s = append(*s, 0)
	}
	(*s)[w] |= 1 << (uint(i) % 64)
}

// unionWith adds t to s and reports whether s grew.
func (s *bitset) unionWith(t bitset) bool {
	grew := false
	for len(*s) < len(t) {
		*s = append(*s, 0)
	}
	for i, w := range t {
		if n := (*s)[i] | w; n != (*s)[i] {
			(*s)[i] = n
			grew = true
		}
	}
	return grew
}

func (s bitset) empty() bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

// each calls f for each element in increasing order.
func (s bitset) each(f func(int)) {
	for i, w := range s {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			f(i*64 + b)
			w &^= 1 << uint(b)
		}
	}
}
