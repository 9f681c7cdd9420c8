package main

import "math"

// fitSettings are the settings `sower train` and `sower tune` share: the
// blend of score and result (λ), the batch size, Adam's learning rate,
// the epochs without improvement before stopping, and the share of the
// games held out for validation.
type fitSettings struct {
	lambda, rate, valid float64
	batch, patience     int
}

// check refuses settings no fit can use, naming the flag; extra lists
// each command's own numbers that must be finite too (name, value).
func (s fitSettings) check(extra map[string]float64) error {
	finite := map[string]float64{"lambda": s.lambda, "rate": s.rate, "valid": s.valid}
	for name, v := range extra {
		finite[name] = v
	}
	for _, name := range []string{"lambda", "k", "scale", "rate", "valid"} {
		if v, ok := finite[name]; ok && (math.IsNaN(v) || math.IsInf(v, 0)) {
			return usagef("--%s %g: want a finite number", name, v)
		}
	}
	switch {
	case s.lambda < 0 || s.lambda > 1:
		return usagef("--lambda %g: want 0 to 1", s.lambda)
	case s.batch < 1:
		return usagef("--batch %d: want more than 0", s.batch)
	case s.rate <= 0:
		return usagef("--rate %g: want more than 0", s.rate)
	case s.patience < 0:
		return usagef("--patience %d: want 0 or more", s.patience)
	case s.valid < 0 || s.valid >= 1:
		return usagef("--valid %g: want 0 or more, below 1", s.valid)
	}
	return nil
}
