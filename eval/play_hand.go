//go:build !learned

package eval

// playLearned says whether New returns the learned evaluation: false
// unless the program is built with the tag "learned".
const playLearned = false
