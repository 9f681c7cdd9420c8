//go:build handeval

package eval

// playLearned says whether New returns the learned evaluation: false, as
// the program is built with the tag "handeval".
const playLearned = false
