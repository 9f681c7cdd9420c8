// Package nnue is Sower's learned network evaluation (NNUE-style: an
// efficiently updatable neural network), an alternative to the linear
// evaluation of package eval, scored in the same unit (hundredths of a
// seed for the side to move).
//
// A network (Net) belongs to a game family: one network serves every
// Katro board, each board with input slots of its own and every later
// layer shared; Hoyito III has its own. Its layers:
//
//   - Inputs, one-hot, from a perspective (a side): for each hole, its
//     owner (the perspective's side or the other), its place in its
//     owner's sowing circuit and its seed count's bucket (1 to 8 seeds
//     one by one, then 9-11, 12-15, 16-23, 24+; an empty hole has no
//     input); for Hoyito III also each side's captures, in fours. A
//     Katro board's holes have their own slots (Layout).
//   - The feature transformer: each input has a row of Hidden int16
//     weights; a perspective's accumulator is the bias plus the rows of
//     its active inputs. Both perspectives are kept (Accumulator), and
//     only the rows of the holes whose bucket changed are subtracted and
//     added after a move (Model.Update), unless a refresh costs less.
//   - The side to move's accumulator then the opponent's, clipped to
//     [0, QA] (clipped ReLU): 2·Hidden inputs of a dense layer of L1
//     neurons (int16 weights, int32 sums), clipped again, and one output
//     neuron. The output, scaled by 100/(QA·QB), is the score.
//
// Model binds a network to a board. It allocates nothing per evaluation.
// The loops are plain Go; a build with GOEXPERIMENT=simd on amd64 runs
// them on AVX2 vectors (simd/archsimd) when the processor has AVX2, with
// the same numbers.
// Networks are read and written in a versioned, checksummed format (Read,
// Net.WriteTo) documented in docs/nnue.md; since format version 2 a file
// also carries the win/draw/loss model fitted to the network's own search
// scores (Net.WDL). Builtin returns the network built into the program
// for a family, if there is one. Model.Explain gives each hole's effect
// on the score, for display. Package eval/nnue/train fits networks to
// self-play data.
package nnue
