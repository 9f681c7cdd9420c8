// Package sowertest holds what several packages' tests share: it builds
// the sower command for tests that drive it as a separate program over
// pipes, as a GUI or a match runner does, and keeps test fixtures that are
// slow to make (endgame tables) once per test binary (Fixtures).
package sowertest
