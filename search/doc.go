// Package search finds Sower's moves: an iterative-deepening alpha-beta
// search over copy-made positions that reports through typed callbacks and
// never prints.
//
// Features:
//   - Iterative deepening with aspiration windows around the previous
//     iteration's score, widened on failure.
//   - Negamax alpha-beta with principal-variation search: the first move
//     with a full window, the others with a null window and a re-search
//     when they beat alpha. Extra turns (Hoyito III) are searched as the
//     same side moving again, without a sign flip; every ply, extra turns
//     included, spends one ply of depth.
//   - Late-move reductions for quiet moves searched late in the list.
//   - A transposition table (Table): 64-byte buckets of four 16-byte
//     entries, each holding the whole key, best move, depth, bound,
//     generation, score and static evaluation (the bit layout is documented
//     at type entry). Decisive scores are stored relative to the node.
//     Replacement prefers deep entries of the current search. The table is
//     not probed at the frontier (depth 1), where a probe costs a cache miss
//     and saves little.
//   - Move ordering: every move is made before any is searched (making a move
//     is how its legality and its gain are known); then the table's move,
//     what a move gains — seeds won by a Katro capture, seeds captured in
//     Hoyito III — two killer moves per ply, and history counters.
//   - A quiescence search past the horizon: only moves that gain seeds, with
//     the side to move standing pat on the static evaluation, at most eight
//     plies.
//   - Game ends in the tree exactly as the rule book has them: a Katro player
//     without a legal move loses, a Hoyito III game ends with an empty board,
//     and the no-capture limit and threefold repetition end games, with the
//     game's history before the root counted (a small counting filter makes
//     most repetition checks free); with the Hoyito III rule option
//     Repetition off a repeated position ends nothing, and the solver's
//     table keys leave out the path (see solver.key). Katro wins score by
//     distance; proven Hoyito III results score by their exact margin (see
//     Score).
//   - A network evaluation (Engine.SetNet, package eval/nnue) in place of
//     the linear one, per family: an accumulator per ply in the searcher,
//     brought to each evaluated position from the parent's or a sibling's
//     (net.go).
//   - Hoyito III endgame tables (Engine.SetTables, package tables): a node
//     with few enough seeds takes the tables' exact value when the
//     no-capture clock leaves time for its distance, or has its window cut
//     or narrowed by the tables' bounds; an exact root is answered at once
//     with a move that keeps the value. Info.TBHits counts the probes.
//   - Solve proves bounds on a position's value: iterative deepening with
//     MTD(f) null-window searches, unresolved leaves scored worst and best
//     for the root's side, the tables as bounded leaves.
//   - Limits: depth, nodes, move time, clock with increment and moves to go,
//     infinite, and root move restriction; a stop request (cancelling the
//     context) is seen within about a thousand nodes. Node and time limits
//     let the first iteration finish, so the move returned has a score; a
//     stop request does not wait, and the search still returns a legal move
//     when the game is not over.
//   - Analysis never stops early: under a depth, node, move-time or
//     infinite limit the search goes on to its limit even with one legal
//     move or a proven result. Only a clock-managed search answers a
//     forced move after depth 1 and ends on a proof, and a search without
//     any limit ends on a proof.
//   - Threads (Engine.SetThreads): Lazy SMP, helpers searching the same
//     root at staggered depths on the shared table (smp.go); the table's
//     entries are read and written without locks and verified by a key
//     check (type entry), and a table move is only played when it is one
//     of the legal moves generated. The main search decides.
//   - MultiPV (Limits.MultiPV): the best N root moves, each with an exact
//     score and line, searched one line after another within an iteration
//     (multipv.go); with one line the search is the single-line one.
//   - Strength levels (Limits.Skill, skill.go): a node budget per level
//     and a seeded random error in the choice among the best four lines,
//     never a proven loss while another line is not one.
//   - Reports (Callbacks): progress (Info), the root move being searched
//     after the first second (CurrMove), and proven root results (Proof).
//     A transposition-table entry records whether its subtree was proven
//     by the rules alone, so that proofs survive table cutoffs and a
//     Hoyito III margin can be shown exact.
//   - Pondering (Limits.Ponder, ponder.go): a search that runs without
//     limits until its Ponder handle is hit, then goes on, keeping its
//     work, under its limits with the clock starting at the hit.
//   - Time management (Limits.budget): a planned share of the clock that may
//     not exceed a third of the time left plus the increment; a new
//     iteration is not started after half the planned time.
//
// Nodes are the positions the search makes: the root and every legal move
// it plays, in the main search and the quiescence search, whether the
// position is then searched, evaluated or cut off; that is the unit perft
// counts, so the two rates compare. Node limits count the same way.
//
// A search allocates nothing per node: positions live in per-ply frames of
// the searcher, which is reused between searches. With one Engine and one
// thread, the same position, history and limits (other than time) give the
// same nodes, move and score; with helper threads, nodes count every
// thread's and results vary from run to run.
package search
