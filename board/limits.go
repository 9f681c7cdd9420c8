package board

// MaxNoCaptureLimit is the largest no-capture limit, in plies, that the
// commands, the protocol and the GUI accept: one bound for all three, far
// above any game anyone plays and far below MaxClock.
const MaxNoCaptureLimit = 1_000_000
