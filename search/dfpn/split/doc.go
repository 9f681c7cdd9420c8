// Package split proves a Katro position too large for one df-pn table by
// keeping the top of its proof tree apart from the table (PN², Allis
// 1994, with df-pn as the second level): the tree's leaves are searched
// by a dfpn.Solver within a node budget each, and the tree keeps every
// position it has expanded, with the numbers its leaves' searches left,
// however full the solver's table gets and whatever it replaces.
//
// Each Tree.Step goes down to the most-proving leaf (the least proof
// number where the attacker moves, the least disproof number where the
// defender does), searches it if its searches have not yet used the leaf
// budget, and otherwise expands it: each of its moves' positions is
// searched within an eighth of the budget and becomes a leaf. The numbers then go back up to the root. One solver's table
// serves every step, so a leaf's search reuses what the searches before
// it proved.
//
// The tree is saved as text (Tree.Save, Load). Tree.Run steps it until
// the root is settled and writes it to a file after every step
// (Tree.SaveFile, whole or not at all), and Open reads that file back, or
// starts a new tree where there is none, so a proof can run for days in
// pieces: an interruption loses at most one step. The leaves are
// independent searches, the unit a search spread over several machines
// would hand out.
//
// A proof of the root is checked, not trusted: its certificate
// (board/cert) takes the attacker's moves from the tree's proven nodes
// (Tree.WinningMove) and, below them, from the solver, which proves a
// leaf again when its table has lost it; sower verify then checks it by
// the rules alone. A damaged tree file can therefore make a proof fail to
// be written, never a false one accepted.
package split
