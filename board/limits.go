package board

// MaxNoCaptureLimit is the largest no-capture limit, in plies, that the
// engine's interfaces accept: the command line's --no-capture-limit, the
// protocol's NoCaptureLimit option and the page of sower gui. The rule
// book's limit is DefaultNoCaptureLimit (200); a larger one only lets a
// quiet stretch run longer, and a million plies is far beyond any game
// played while still small enough for every count that holds a clock or a
// distance to it. The rules themselves (NewWithRules) take any limit of 0
// or more.
const MaxNoCaptureLimit = 1_000_000
