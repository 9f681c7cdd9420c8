//go:build learned

package eval

// playLearned says whether New returns the learned evaluation: true, as
// the program is built with the tag "learned".
const playLearned = true
