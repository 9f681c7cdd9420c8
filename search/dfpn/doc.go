// Package dfpn proves Katro positions with depth-first proof-number search
// (df-pn, Nagai 2002): the attacker's win is proven or disproven by
// following, at every node, the child that is cheapest to prove (at the
// attacker's turns) or to disprove (at the defender's), within thresholds
// that the parent sets, with a transposition table of proof and disproof
// numbers. The 1+ε trick (Pawlewicz and Lew 2007) widens the second-best
// threshold so that the search does not thrash between siblings. A
// position never searched gets its first numbers from one ply played (the
// lookahead), and of children of equal numbers the search takes the one
// whose capture is best for the side to move (then the first in move
// order): the one configuration measured best (docs/dfpn.md, "The
// algorithm").
//
// A Katro game is won by the player who leaves the opponent without a legal
// move; it is drawn only by the engine's conventions (the no-capture limit
// and repetition, rule book 1.7). A proof here is a proof that the attacker
// wins; a draw counts as a failure for the attacker (a disproof). Solve asks
// first whether the side to move wins, then, if not, whether the opponent
// does.
//
// # Soundness: repetition and the no-capture clock
//
// The table is keyed by the position (board and side to move) without the
// clock or the path, so a stored result must hold whatever path reaches the
// position (the Graph History Interaction problem, Kishimoto and Müller
// 2004). This package keeps it so:
//
//   - A position that repeats one on the current line (or in the game's
//     history) is a draw for the search, so a proof never rests on a
//     repetition: a node is proven only from children already proven, so
//     the proven nodes and the moves that prove them form an acyclic graph
//     (each proof's length, stored with it, falls strictly along it), and a
//     game that follows a proof never repeats a position.
//   - A disproof that rests on a repetition of a position above the node
//     (on its path) is stored marked as path-dependent and is trusted only
//     by the search that made it, never when the node is reached again.
//   - The clock is monotone: a win that holds at clock c holds at every
//     smaller clock, and a disproof at clock c holds at every larger one.
//     A proven entry stores the largest clock at which its proof holds
//     (computed from the capture-free runs of the proof), a disproven one
//     the smallest; a lookup with a clock outside that range is not used.
//
// With these rules every proof the solver reports is a proof under the rule
// book, and sower verify checks it independently from a certificate.
//
// # Threads
//
// With Config.Threads above 1 every thread runs df-pn from the root on the
// one table (after Kaneko 2010): each bucket is guarded by one of a few
// thousand striped locks, held only to copy an entry out or write one; a
// thread marks the nodes on its line busy, and the others count a busy
// child's number as larger (a virtual proof number), so that they spread
// over the tree. Each thread stores only what its own search proved, so the
// rules above hold unchanged.
//
// # Saving the table
//
// Save writes the table (final entries and unfinished ones with work below
// them) in a versioned, checksummed format (docs/dfpn.md), and Load reads it
// back into a table of any size, refusing files of another board, rule
// options or format (ErrForeign) and damaged ones (ErrDamaged), so that a
// long proof can run in pieces. Package split keeps the top of a proof
// tree above the table instead, its leaves searched by ProveWithin within
// a node budget each, the tree saved after every step.
//
// # Cost
//
// Nodes are positions copied on a fixed stack of frames (one per ply, per
// thread), so a node allocates nothing; the table is one slice of 32-byte
// entries in buckets of four. Each thread also keeps a cache of the first
// estimates (12 MiB, estcache.go), since df-pn expands a node again each
// time it comes back to it; the cache changes no number, only the time.
package dfpn
